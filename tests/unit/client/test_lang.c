/* SPDX-License-Identifier: MIT */
/*
 * test_lang.c - the client's languages (client-cli/lang.c), as a reader
 * meets them: the language chosen from --lang, $CONCLAVE_LANG and the
 * locale in that order; the Chinese table behind each English string;
 * text measured by the columns a terminal gives it; and a view's log
 * written in Chinese from its message keys through a game's catalogue.
 * The catalogue here is the test one, tests/unit/client/lang/stones.json,
 * embedded by the same generator as the real ones, so that what is checked
 * does not move with the games' own catalogues.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"
#include "game.h"
#include "lang.h"
#include "render.h"

/* ---- Fixture ---- */

static void unset_locale(void)
{
    unsetenv("LC_ALL");
    unsetenv("LC_MESSAGES");
    unsetenv("LANG");
    unsetenv("CONCLAVE_LANG");
}

static void setup(void)
{
    unset_locale();
    cli_lang_set(CLI_LANG_EN);
}

static void teardown(void)
{
    unset_locale();
    cli_lang_set(CLI_LANG_EN);
}

/* A view whose log holds `line` and whose log_keys hold `keys` (a JSON
 * text, or NULL for none). New reference. */
static json_t *view_with(const char *line, const char *keys)
{
    json_t *v = json_pack("{s:[s]}", "log", line);

    if (keys) {
        json_object_set_new(v, "log_keys", json_loads(keys, 0, NULL));
    }
    return v;
}

/* Line 0 of the log of such a view, as the client writes it. Malloc'ed. */
static char *line_of(const char *line, const char *keys)
{
    json_t *v = view_with(line, keys);
    char buf[512];
    char *out = strdup(cli_log_line("stones", v, 0, buf, sizeof(buf)));

    json_decref(v);
    return out;
}

/* What a renderer's draw or card function writes. Malloc'ed. */
static char *stones_board(const json_t *log, const json_t *log_keys)
{
    const struct game_ops *g = game_find("stones");
    struct game_setup setup_ = {.nseats = 2};
    struct game_error err;
    struct render_style st = {false};
    void *state = calloc(1, g->state_size);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    snprintf(setup_.names[0], GAME_NAME_MAX, "安娜");
    snprintf(setup_.names[1], GAME_NAME_MAX, "Bo");
    ck_assert_int_eq(game_start(g, state, NULL, &setup_, &err), GAME_OK);
    json_t *view = game_view(g, state, 0);
    ck_assert_ptr_nonnull(view);
    if (log) {
        json_object_set(view, "log", (json_t *)log);
        json_object_set(view, "log_keys", (json_t *)log_keys);
    }
    render_find("stones")->draw(out, view, 0, &st);
    fclose(out);
    json_decref(view);
    free(state);
    return text;
}

static char *card_text(const char *game, const char *name, int *ret)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    *ret = render_find(game)->card(out, name);
    fclose(out);
    return text;
}

/* ---- Choosing the language ---- */

START_TEST(language_names)
{
    static const char *const zh[] = {"zh-CN", "zh_CN", "ZH-cn", "zh", "zh-Hans", "zh-SG"};
    static const char *const en[] = {"en", "EN", "en_US", "en-GB"};
    static const char *const none[] = {"fr", "zh-TW", "zh_HK", "", "chinese-simplified-please"};
    enum cli_lang lang;

    for (size_t i = 0; i < sizeof(zh) / sizeof(zh[0]); i++) {
        ck_assert_msg(cli_lang_parse(zh[i], &lang) == 0 && lang == CLI_LANG_ZH_CN, "%s", zh[i]);
    }
    for (size_t i = 0; i < sizeof(en) / sizeof(en[0]); i++) {
        ck_assert_msg(cli_lang_parse(en[i], &lang) == 0 && lang == CLI_LANG_EN, "%s", en[i]);
    }
    for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
        ck_assert_msg(cli_lang_parse(none[i], &lang) == -1, "%s taken", none[i]);
    }
    ck_assert_str_eq(cli_lang_name(CLI_LANG_ZH_CN), "zh-CN");
    ck_assert_str_eq(cli_lang_name(CLI_LANG_EN), "en");
}
END_TEST

START_TEST(the_locale_speaks_first_lc_all_then_lc_messages_then_lang)
{
    static const struct {
        const char *lc_all, *lc_messages, *lang;
        enum cli_lang want;
    } cases[] = {
        {NULL, NULL, NULL, CLI_LANG_EN},
        {NULL, NULL, "C", CLI_LANG_EN},
        {NULL, NULL, "zh_CN.UTF-8", CLI_LANG_ZH_CN},
        {NULL, NULL, "zh_SG.UTF-8", CLI_LANG_ZH_CN},
        {NULL, NULL, "zh_Hans_CN.UTF-8", CLI_LANG_ZH_CN},
        {NULL, NULL, "zh", CLI_LANG_ZH_CN},
        {NULL, NULL, "zh.UTF-8", CLI_LANG_ZH_CN},
        {NULL, NULL, "zh_TW.UTF-8", CLI_LANG_EN},
        {NULL, NULL, "zh_HK.UTF-8", CLI_LANG_EN},
        {NULL, NULL, "zhx", CLI_LANG_EN},
        {"C", NULL, "zh_CN.UTF-8", CLI_LANG_EN},
        {"zh_CN.UTF-8", "en_US.UTF-8", "en_US.UTF-8", CLI_LANG_ZH_CN},
        {"", "zh_CN.UTF-8", "en_US.UTF-8", CLI_LANG_ZH_CN},
        {NULL, "en_US.UTF-8", "zh_CN.UTF-8", CLI_LANG_EN},
        {NULL, "", "zh_CN.UTF-8", CLI_LANG_ZH_CN},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        unset_locale();
        if (cases[i].lc_all) {
            setenv("LC_ALL", cases[i].lc_all, 1);
        }
        if (cases[i].lc_messages) {
            setenv("LC_MESSAGES", cases[i].lc_messages, 1);
        }
        if (cases[i].lang) {
            setenv("LANG", cases[i].lang, 1);
        }
        ck_assert_msg(cli_lang_from_locale() == cases[i].want, "case %zu", i);
    }
}
END_TEST

START_TEST(the_flag_beats_conclave_lang_which_beats_the_locale)
{
    setenv("LANG", "zh_CN.UTF-8", 1);
    ck_assert_int_eq(cli_lang_init(NULL), 0);
    ck_assert_int_eq(cli_lang_get(), CLI_LANG_ZH_CN);

    setenv("CONCLAVE_LANG", "en", 1);
    ck_assert_int_eq(cli_lang_init(NULL), 0);
    ck_assert_int_eq(cli_lang_get(), CLI_LANG_EN);

    ck_assert_int_eq(cli_lang_init("zh-CN"), 0);
    ck_assert_int_eq(cli_lang_get(), CLI_LANG_ZH_CN);

    /* A flag that names no language changes nothing. */
    ck_assert_int_eq(cli_lang_init("fr"), -1);
    ck_assert_int_eq(cli_lang_get(), CLI_LANG_ZH_CN);

    /* A $CONCLAVE_LANG that names none leaves the locale's. */
    setenv("CONCLAVE_LANG", "klingon", 1);
    ck_assert_int_eq(cli_lang_init(NULL), 0);
    ck_assert_int_eq(cli_lang_get(), CLI_LANG_ZH_CN);
}
END_TEST

/* ---- The table ---- */

START_TEST(english_is_the_string_itself_and_chinese_its_entry)
{
    const char *winner = "Winner:";

    ck_assert_ptr_eq(cli_tr(winner), winner);
    cli_lang_set(CLI_LANG_ZH_CN);
    ck_assert_str_eq(cli_tr(winner), "获胜者：");
    ck_assert_str_eq(_("Nobody wins.\n"), "无人获胜。\n");
    /* A string the table does not hold stays English. */
    ck_assert_str_eq(cli_tr("no such string in the table"), "no such string in the table");
    cli_lang_set(CLI_LANG_EN);
    ck_assert_ptr_eq(cli_tr(winner), winner);
}
END_TEST

START_TEST(a_list_of_ids_translates_its_own_only)
{
    static const char *const words[] = {N_("lobby"), N_("playing")};

    ck_assert_str_eq(CLI_TR_AMONG("lobby", words), "lobby");
    ck_assert_ptr_null(CLI_TR_AMONG("ended", words));
    ck_assert_ptr_null(CLI_TR_AMONG(NULL, words));
    cli_lang_set(CLI_LANG_ZH_CN);
    ck_assert_str_eq(CLI_TR_AMONG("playing", words), "进行中");
}
END_TEST

/* ---- Width ---- */

START_TEST(chinese_takes_two_columns_colour_none)
{
    ck_assert_int_eq(cli_width("abc"), 3);
    ck_assert_int_eq(cli_width("安娜"), 4);
    ck_assert_int_eq(cli_width("Bot 1号"), 7);
    ck_assert_int_eq(cli_width("\033[1;31mR\033[0m"), 1);
    ck_assert_int_eq(cli_width("e\xcc\x81"), 1);    /* e and a combining acute */
    ck_assert_int_eq(cli_width("\xef\xbc\xa6"), 2); /* a fullwidth F */
    ck_assert_int_eq(cli_width("（）"), 4);
    ck_assert_int_eq(cli_width(""), 0);
    ck_assert_int_eq(cli_width(NULL), 0);
    ck_assert_int_eq(cli_width_n("安娜", 3), 2);
    /* A stray byte is one column, not the end. */
    ck_assert_int_eq(cli_width("a\xffz"), 3);
}
END_TEST

START_TEST(padding_counts_columns_not_bytes)
{
    char buf[64];
    char want[64];

    ck_assert_str_eq(cli_pad(buf, sizeof(buf), "安娜", 8), "安娜    ");
    snprintf(want, sizeof(want), "%-8s", "Ann");
    ck_assert_str_eq(cli_pad(buf, sizeof(buf), "Ann", 8), want);
    ck_assert_str_eq(cli_pad(buf, sizeof(buf), "a longer name", 4), "a longer name");
    ck_assert_str_eq(cli_pad(buf, 4, "abcdef", 8), "abc");
}
END_TEST

/* ---- The log ---- */

START_TEST(a_message_is_written_from_its_chinese_template)
{
    cli_lang_set(CLI_LANG_ZH_CN);
    char *s = line_of("Ann placed the Taoist on Tc.", "[[\"placed_taoist\", \"Ann\", \"Tc\"]]");
    ck_assert_str_eq(s, "Ann将道士放在中砖上。");
    free(s);
    s = line_of("Ann cast SPIN on Tn clockwise.",
                "[[\"cast_spin\", \"Ann\", \"Tn\", \"clockwise\"]]");
    ck_assert_str_eq(s, "Ann对北砖施放了旋转（顺时针）。");
    free(s);
    /* A card argument by its English name. */
    s = line_of("Ann crafted Nu Wa Rock.", "[[\"crafted\", \"Ann\", \"Nu Wa Rock\"]]");
    ck_assert_str_eq(s, "Ann炼成了女娲石。");
    free(s);
    s = line_of("Ann asked ??", "[[\"asked\", \"Ann\"]]");
    ck_assert_str_eq(s, "Ann问道：??");
    free(s);
}
END_TEST

START_TEST(an_unknown_term_is_left_as_it_is)
{
    cli_lang_set(CLI_LANG_ZH_CN);
    char *s = line_of("Ann placed the Taoist on Tx.", "[[\"placed_taoist\", \"Ann\", \"Tx\"]]");
    ck_assert_str_eq(s, "Ann将道士放在Tx上。");
    free(s);
    s = line_of("Ann crafted Unknown Thing.", "[[\"crafted\", \"Ann\", \"Unknown Thing\"]]");
    ck_assert_str_eq(s, "Ann炼成了Unknown Thing。");
    free(s);
}
END_TEST

START_TEST(without_a_usable_message_the_line_is_shown_as_it_is)
{
    static const char *const keys[] = {
        NULL,                                     /* no log_keys */
        "[]",                                     /* shorter than the log */
        "[[]]",                                   /* a line without a message */
        "[[\"no_such_key\", \"Ann\"]]",           /* a key the catalogue lacks */
        "[[\"english_only\", \"Ann\"]]",          /* a message without zh-CN */
        "[[\"placed_taoist\", \"Ann\"]]",         /* an argument missing */
        "[[\"placed_taoist\", \"Ann\", 3]]",      /* an argument not a string */
        "[\"placed_taoist\"]",                    /* not an array */
        "{\"placed_taoist\": [\"Ann\", \"Tc\"]}", /* not a list at all */
    };
    const char *line = "Ann placed the Taoist on Tc.";

    cli_lang_set(CLI_LANG_ZH_CN);
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        char *s = line_of(line, keys[i]);
        ck_assert_msg(strcmp(s, line) == 0, "case %zu: %s", i, s);
        free(s);
    }
}
END_TEST

START_TEST(in_english_the_line_is_shown_as_it_is)
{
    const char *line = "Ann placed the Taoist on Tc.";
    char *s = line_of(line, "[[\"placed_taoist\", \"Ann\", \"Tc\"]]");

    ck_assert_str_eq(s, line);
    free(s);
}
END_TEST

START_TEST(a_line_that_does_not_fit_is_shown_as_it_is)
{
    json_t *v = view_with("Ann placed the Taoist on Tc.", "[[\"placed_taoist\", \"Ann\", \"Tc\"]]");
    char small[8];

    cli_lang_set(CLI_LANG_ZH_CN);
    ck_assert_str_eq(cli_log_line("stones", v, 0, small, sizeof(small)),
                     "Ann placed the Taoist on Tc.");
    ck_assert_str_eq(cli_log_line("stones", v, 5, small, sizeof(small)), "");
    /* A game without a catalogue. */
    ck_assert_str_eq(cli_log_line("nogame", v, 0, small, sizeof(small)),
                     "Ann placed the Taoist on Tc.");
    json_decref(v);
}
END_TEST

/* ---- On the board ---- */

START_TEST(the_board_writes_the_log_in_the_readers_language)
{
    json_t *log = json_pack("[s, s]", "Ann placed the Taoist on Tc.", "Something new happened.");
    json_t *keys = json_loads("[[\"placed_taoist\", \"Ann\", \"Tc\"], [\"brand_new\"]]", 0, NULL);

    char *en = stones_board(log, keys);
    ck_assert_msg(strstr(en, "  | Ann placed the Taoist on Tc.\n"), "%s", en);
    ck_assert_msg(strstr(en, "Alchemy Zone"), "%s", en);
    cli_lang_set(CLI_LANG_ZH_CN);
    char *zh = stones_board(log, keys);
    ck_assert_msg(strstr(zh, "  | Ann将道士放在中砖上。\n"), "%s", zh);
    ck_assert_msg(strstr(zh, "  | Something new happened.\n"), "%s", zh);
    ck_assert_msg(strstr(zh, "炼丹区"), "%s", zh);
    ck_assert_msg(!strstr(zh, "Alchemy Zone"), "%s", zh);
    free(en);
    free(zh);
    json_decref(log);
    json_decref(keys);
}
END_TEST

/* The display column at which the cost of the artifact line `line` starts:
 * after "  Annn " and the padded name, the first stone letter. */
static int cost_column(const char *line)
{
    const char *p = line + 6; /* past "  A01 " */

    while (*p && !strchr("YGBRN", *p)) {
        p++;
    }
    return *p ? cli_width_n(line, (size_t)(p - line)) : -1;
}

START_TEST(chinese_card_names_are_padded_by_their_width)
{
    cli_lang_set(CLI_LANG_ZH_CN);
    char *zh = stones_board(NULL, NULL);
    int rows = 0;
    int column = -1;

    for (char *line = strtok(zh, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "  A", 3) != 0 || line[3] < '0' || line[3] > '9') {
            continue;
        }
        ck_assert_msg(cli_is_ascii(line + 6) == false, "no Chinese name: %s", line);
        int c = cost_column(line);
        ck_assert_msg(column < 0 || c == column, "cost at column %d, not %d: %s", c, column, line);
        column = c;
        rows++;
    }
    ck_assert_int_ge(rows, 4);
    /* "  A01 ", twenty columns of name, a space. */
    ck_assert_int_eq(column, 27);
    free(zh);
}
END_TEST

/* ---- Card texts ---- */

START_TEST(card_texts_are_in_chinese_and_take_chinese_names)
{
    int rc;
    char *s;

    cli_lang_set(CLI_LANG_ZH_CN);
    s = card_text("stones", "女娲石", &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(s, "A01 女娲石：花费 N Y Y，2 分，土。\n");
    free(s);
    s = card_text("stones", "a01", &rc);
    ck_assert_str_eq(s, "A01 女娲石：花费 N Y Y，2 分，土。\n");
    free(s);
    /* A family of magic cards by its first card's name, suffix aside. */
    s = card_text("stones", "旋转", &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_msg(strncmp(s, "SPIN-1 / SPIN-2 旋转：", strlen("SPIN-1 / SPIN-2 旋转：")) == 0, "%s",
                  s);
    free(s);
    s = card_text("stones", "没有这张牌", &rc);
    ck_assert_int_eq(rc, -1);
    free(s);
    s = card_text("sorcerers", "balthazar blake", &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_msg(strstr(s, "梅林派巫师，力量 10。率先出战；原动者"), "%s", s);
    free(s);
    cli_lang_set(CLI_LANG_EN);
    s = card_text("stones", "女娲石", &rc);
    ck_assert_int_eq(rc, -1);
    free(s);
    s = card_text("stones", "A01", &rc);
    ck_assert_str_eq(s, "A01 Nu Wa Rock: cost N Y Y, 2 points, Earth.\n");
    free(s);
}
END_TEST

START_TEST(res_arcana_texts_are_chinese_wrapped_by_width_with_names_filled_in)
{
    int rc;

    cli_lang_set(CLI_LANG_ZH_CN);
    char *s = card_text("arcana", "sorcerers_bestiary", &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_msg(strstr(s, "力量之地") && strstr(s, "力量 1：") && strstr(s, "注："), "%s", s);
    /* The cards a note names are named, the placeholders gone. */
    ck_assert_msg(!strstr(s, "@{"), "%s", s);
    ck_assert_msg(strstr(s, "Sea Serpent") || strstr(s, "海"), "%s", s);
    int lines = 0;
    for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
        ck_assert_msg(cli_width(line) <= 79, "%d columns: %s", cli_width(line), line);
        lines++;
    }
    ck_assert_int_ge(lines, 5);
    free(s);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"names", language_names},
        {"locale", the_locale_speaks_first_lc_all_then_lc_messages_then_lang},
        {"order", the_flag_beats_conclave_lang_which_beats_the_locale},
        {"table", english_is_the_string_itself_and_chinese_its_entry},
        {"among", a_list_of_ids_translates_its_own_only},
        {"width", chinese_takes_two_columns_colour_none},
        {"pad", padding_counts_columns_not_bytes},
        {"log_filled", a_message_is_written_from_its_chinese_template},
        {"log_unknown_term", an_unknown_term_is_left_as_it_is},
        {"log_fallback", without_a_usable_message_the_line_is_shown_as_it_is},
        {"log_english", in_english_the_line_is_shown_as_it_is},
        {"log_too_long", a_line_that_does_not_fit_is_shown_as_it_is},
        {"board_log", the_board_writes_the_log_in_the_readers_language},
        {"board_width", chinese_card_names_are_padded_by_their_width},
        {"cards", card_texts_are_in_chinese_and_take_chinese_names},
        {"arcana_texts", res_arcana_texts_are_chinese_wrapped_by_width_with_names_filled_in},
    };

    return CK_RUN("lang", cases, setup, teardown);
}
