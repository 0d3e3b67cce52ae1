/* SPDX-License-Identifier: MIT */
/*
 * test_choices.c - how the client words what a player may do and what it
 * lets reach the terminal: a long `legal` list of many kinds is summarised
 * by kind, with the command that lists a kind; numbers count over the
 * whole list, so `#N` is the same action whether its kind was shown or
 * summarised; and every string of a message loses its control characters
 * (escape sequences, C1 controls, DEL) before it is printed. A game's
 * entries read as its renderer words them (Res Arcana).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ck_run.h"
#include "client.h"

/* What cli_choices_print writes to stdout, as a string. Malloc'ed. */
static char *printed(const json_t *legal, const char *only)
{
    FILE *tmp = tmpfile();
    int saved = dup(STDOUT_FILENO);
    char *text;
    long len;

    ck_assert_ptr_nonnull(tmp);
    fflush(stdout);
    dup2(fileno(tmp), STDOUT_FILENO);
    cli_choices_print(legal, "none", only);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    len = ftell(tmp);
    text = calloc(1, (size_t)len + 1);
    rewind(tmp);
    ck_assert_int_eq(fread(text, 1, (size_t)len, tmp), len);
    fclose(tmp);
    return text;
}

/* 16 moves (entries 1..16), then 2 takes (17, 18), then a pass (19). */
static json_t *long_list(void)
{
    json_t *l = json_array();

    for (int i = 0; i < 16; i++) {
        json_array_append_new(l, json_pack("{s:s, s:i}", "type", "move", "to", i));
    }
    json_array_append_new(l, json_pack("{s:s, s:s}", "type", "take", "card", "red_dragon"));
    json_array_append_new(l, json_pack("{s:s, s:s}", "type", "take", "card", "blue_owl"));
    json_array_append_new(l, json_pack("{s:s}", "type", "pass"));
    return l;
}

START_TEST(a_long_list_is_summarised_by_kind_with_whole_list_numbers)
{
    json_t *l = long_list();
    char *text = printed(l, NULL);

    ck_assert_msg(strstr(text, "move: 16 choices (`legal move` lists them)"), "%s", text);
    ck_assert_msg(!strstr(text, "#1 "), "a summarised kind was listed:\n%s", text);
    /* The short kinds are shown, numbered over the whole list. */
    ck_assert_msg(strstr(text, "#17 ") && strstr(text, "#18 ") && strstr(text, "#19 "), "%s", text);
    ck_assert_msg(strstr(text, "Red Dragon"), "ids are not shown as titles:\n%s", text);
    free(text);
    json_decref(l);
}
END_TEST

START_TEST(one_kind_is_listed_whole_with_the_same_numbers)
{
    json_t *l = long_list();
    char *text = printed(l, "move");

    for (int i = 1; i <= 16; i++) {
        char want[16];
        snprintf(want, sizeof(want), "#%d ", i);
        ck_assert_msg(strstr(text, want), "%s missing:\n%s", want, text);
    }
    ck_assert_msg(!strstr(text, "#17 "), "another kind was listed:\n%s", text);
    free(text);
    text = printed(l, "fly");
    ck_assert_msg(strstr(text, "no \"fly\" choices now"), "%s", text);
    free(text);
    json_decref(l);
}
END_TEST

START_TEST(a_short_list_is_shown_whole)
{
    json_t *l = json_array();
    char *text;

    for (int i = 0; i < 6; i++) {
        json_array_append_new(l, json_pack("{s:s, s:i}", "type", "move", "to", i));
    }
    json_array_append_new(l, json_pack("{s:s}", "type", "pass"));
    text = printed(l, NULL);
    ck_assert_msg(strstr(text, "#1 ") && strstr(text, "#7 ") && !strstr(text, "choices ("), "%s",
                  text);
    free(text);
    json_decref(l);
    l = json_array();
    text = printed(l, NULL);
    ck_assert_str_eq(text, "nothing to do now\n");
    free(text);
    json_decref(l);
}
END_TEST

START_TEST(control_characters_never_reach_the_terminal)
{
    json_t *msg = json_pack("{s:s, s:{s:s, s:[s, s]}}", "ev", "chat", "inner", "name",
                            "Ann\033[2J\033]0;owned\007", "lines", "plain text",
                            "csi \xc2\x9b"
                            "31m del\x7f tab\there");
    const char *name = json_string_value(json_object_get(json_object_get(msg, "inner"), "name"));
    json_t *lines = json_object_get(json_object_get(msg, "inner"), "lines");

    cli_clean(msg);
    name = json_string_value(json_object_get(json_object_get(msg, "inner"), "name"));
    ck_assert_ptr_null(strchr(name, '\033'));
    ck_assert_ptr_null(strchr(name, '\007'));
    ck_assert_msg(strncmp(name, "Ann", 3) == 0, "%s", name);
    ck_assert_str_eq(json_string_value(json_array_get(lines, 0)), "plain text");
    const char *s = json_string_value(json_array_get(lines, 1));
    ck_assert_ptr_null(strstr(s, "\xc2\x9b"));
    ck_assert_ptr_null(strchr(s, '\x7f'));
    ck_assert_ptr_null(strchr(s, '\t'));
    ck_assert_msg(strstr(s, "31m del"), "the text around the controls is kept: %s", s);
    json_decref(msg);
}
END_TEST

/* Res Arcana's `legal` entries read as its renderer words them. */
START_TEST(arcana_choices_are_worded_by_its_renderer)
{
    static const struct {
        const char *action, *words;
    } cases[] = {
        {"{\"type\":\"power\",\"card\":\"fire_dragon\",\"power\":0}", "use Fire Dragon, power 0"},
        {"{\"type\":\"respond\",\"with\":\"react\",\"card\":\"tree_of_life\",\"power\":1}",
         "react with Tree of Life, power 1"},
        {"{\"type\":\"gain\",\"essence\":\"calm\"}", "gain 1 Calm"},
        {"{\"type\":\"monument\",\"card\":\"deck\"}",
         "claim the top monument of the deck (4 Gold)"},
    };
    char buf[256];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *a = json_loads(cases[i].action, 0, NULL);
        cli_action_phrase(a, "arcana", buf, sizeof(buf));
        ck_assert_str_eq(buf, cases[i].words);
        json_decref(a);
    }
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"summarised", a_long_list_is_summarised_by_kind_with_whole_list_numbers},
        {"one_kind", one_kind_is_listed_whole_with_the_same_numbers},
        {"short", a_short_list_is_shown_whole},
        {"clean", control_characters_never_reach_the_terminal},
        {"arcana_words", arcana_choices_are_worded_by_its_renderer},
    };

    return CK_RUN("choices", cases, NULL, NULL);
}
