/* SPDX-License-Identifier: MIT */
/*
 * test_render.c - the colours of the client's boards, as a person at a
 * 16-colour terminal sees them: in every game each of its colours (Sorcerer
 * & Stones' five stone colours, Sorcerers' two factions, Element's eight
 * kinds of stone, Res Arcana's five essences) is drawn with its own colour of the 16, and with
 * colour off (NO_COLOR, a pipe) nothing but text is written and the letters and names still tell
 * them apart.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"
#include "game.h"
#include "render.h"

/* The board of a game just started, drawn for seat 0. Malloc'ed. */
static char *drawn(const char *game, int nseats, bool colour)
{
    const struct game_ops *g = game_find(game);
    const struct render_ops *ro = render_find(game);
    struct game_setup setup = {.nseats = nseats};
    struct game_error err;
    struct render_style st = {colour};
    void *state = calloc(1, g->state_size);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    ck_assert_ptr_nonnull(ro);
    for (int i = 0; i < nseats; i++) {
        snprintf(setup.names[i], GAME_NAME_MAX, "Player %d", i + 1);
    }
    ck_assert_int_eq(game_start(g, state, NULL, &setup, &err), GAME_OK);
    json_t *view = game_view(g, state, 0);
    ck_assert_ptr_nonnull(view);
    ro->draw(out, view, 0, &st);
    fclose(out);
    json_decref(view);
    free(state);
    return text;
}

/* The colour number (30..37, 90..97) an SGR sequence "1;33" sets, with
 * "1;3x" read as the bright 9x that bold gives on a 16-colour terminal;
 * -1 when it sets none. */
static int colour_of(const char *seq, size_t n)
{
    int bold = 0, colour = -1;

    for (size_t i = 0; i < n;) {
        int v = atoi(seq + i);
        bold |= v == 1;
        if ((v >= 30 && v <= 37) || (v >= 90 && v <= 97)) {
            colour = v;
        }
        while (i < n && seq[i] != ';') {
            i++;
        }
        i++;
    }
    return colour >= 30 && colour <= 37 && bold ? colour + 60 : colour;
}

/* For each letter of `marks`, the colour it is drawn in right after an SGR
 * sequence (-2: never seen so). */
static void colours_of(const char *text, const char *marks, int *out)
{
    for (size_t m = 0; marks[m]; m++) {
        out[m] = -2;
    }
    for (const char *p = strstr(text, "\033["); p; p = strstr(p + 1, "\033[")) {
        size_t n = strcspn(p + 2, "m");
        const char *after = p + 2 + n + 1;
        const char *m = *after ? strchr(marks, *after) : NULL;
        if (m) {
            out[m - marks] = colour_of(p + 2, n);
        }
    }
}

START_TEST(stones_colours_are_five_distinct_colours_of_sixteen)
{
    static const char marks[] = "YGBRN";
    char *text = drawn("stones", 4, true);
    int col[5];

    colours_of(text, marks, col);
    for (int i = 0; i < 5; i++) {
        ck_assert_msg(col[i] >= 30, "stone %c is not drawn in a colour of its own", marks[i]);
        ck_assert_msg((col[i] <= 37) || (col[i] >= 90 && col[i] <= 97),
                      "stone %c uses colour %d, not one of the 16", marks[i], col[i]);
        for (int j = 0; j < i; j++) {
            ck_assert_msg(col[i] != col[j], "stones %c and %c share colour %d", marks[i], marks[j],
                          col[i]);
        }
    }
    free(text);
}
END_TEST

START_TEST(sorcerers_factions_have_distinct_colours_and_names)
{
    char *text = drawn("sorcerers", 2, true);
    const char *mer = strstr(text, "(Merlinians)");
    const char *mor = strstr(text, "(Morganians)");
    int cmer = -1, cmor = -1;

    ck_assert_ptr_nonnull(mer);
    ck_assert_ptr_nonnull(mor);
    /* The colour set last before each faction's line. */
    for (const char *p = strstr(text, "\033["); p; p = strstr(p + 1, "\033[")) {
        size_t n = strcspn(p + 2, "m");
        int c = colour_of(p + 2, n);
        if (c < 0) {
            continue;
        }
        if (p < mer && (!strchr(p, '\n') || strchr(p, '\n') > mer)) {
            cmer = c;
        }
        if (p < mor && (!strchr(p, '\n') || strchr(p, '\n') > mor)) {
            cmor = c;
        }
    }
    ck_assert_int_ge(cmer, 30);
    ck_assert_int_ge(cmor, 30);
    ck_assert_int_ne(cmer, cmor);
    free(text);
}
END_TEST

/* Element: a board holding one stone of each kind. */
START_TEST(element_kinds_are_eight_distinct_colours_of_sixteen)
{
    static const char *const kinds[] = {"fire",      "water", "earth", "wind",
                                        "lightning", "wood",  "blaze", "metal"};
    static const char marks[] = "FWEALTBM";
    const struct render_ops *ro = render_find("element");
    struct render_style st = {true};
    json_t *board = json_object();
    char *text = NULL;
    size_t len = 0;
    FILE *out;
    int col[8];

    ck_assert_ptr_nonnull(ro);
    for (int i = 0; i < 8; i++) {
        char sq[4];
        snprintf(sq, sizeof(sq), "%c1", 'a' + i);
        json_object_set_new(board, sq, json_pack("{s:i, s:s}", "height", 1, "stone", kinds[i]));
    }
    json_t *view =
        json_pack("{s:o, s:[{s:s, s:s, s:i, s:i}, {s:s, s:s, s:i, s:i}], s:{s:i}}", "board", board,
                  "seats", "name", "Ann", "sage", "f5", "seat", 0, "target", 1, "name", "Bob",
                  "sage", "f7", "seat", 1, "target", 0, "turn", "seat", 0);
    out = open_memstream(&text, &len);
    ro->draw(out, view, 0, &st);
    fclose(out);
    colours_of(text, marks, col);
    for (int i = 0; i < 8; i++) {
        ck_assert_msg(col[i] >= 30, "%s is not drawn in a colour of its own", kinds[i]);
        ck_assert_msg((col[i] <= 37) || (col[i] >= 90 && col[i] <= 97),
                      "%s uses colour %d, not one of the 16", kinds[i], col[i]);
        for (int j = 0; j < i; j++) {
            ck_assert_msg(col[i] != col[j], "%s and %s share colour %d", kinds[i], kinds[j],
                          col[i]);
        }
    }
    free(text);
    json_decref(view);
}
END_TEST

/* Res Arcana: each essence's letter with its count ("E1") in a colour of
 * its own; found where an SGR sequence is followed by the letter and a
 * digit, so that a coloured heading ("Decision") is not taken for one. */
START_TEST(arcana_essences_are_five_distinct_colours_of_sixteen)
{
    static const char marks[] = "ELCDG";
    char *text = drawn("arcana", 2, true);
    int col[5];

    for (int m = 0; m < 5; m++) {
        col[m] = -2;
        for (const char *p = strstr(text, "\033["); p; p = strstr(p + 1, "\033[")) {
            size_t n = strcspn(p + 2, "m");
            const char *after = p + 2 + n + 1;
            if (after[0] == marks[m] && after[1] >= '0' && after[1] <= '9') {
                col[m] = colour_of(p + 2, n);
            }
        }
    }
    for (int i = 0; i < 5; i++) {
        ck_assert_msg(col[i] >= 30, "essence %c is not drawn in a colour of its own", marks[i]);
        ck_assert_msg((col[i] <= 37) || (col[i] >= 90 && col[i] <= 97),
                      "essence %c uses colour %d, not one of the 16", marks[i], col[i]);
        for (int j = 0; j < i; j++) {
            ck_assert_msg(col[i] != col[j], "essences %c and %c share colour %d", marks[i],
                          marks[j], col[i]);
        }
    }
    free(text);
}
END_TEST

START_TEST(without_colour_only_text_and_the_marks_still_differ)
{
    char *stones = drawn("stones", 4, false);
    char *sorc = drawn("sorcerers", 2, false);

    /* The letters are the marks (the colour test finds each stone's colour
     * right before its letter), so without colour they alone remain. */
    ck_assert_ptr_null(strchr(stones, '\033'));
    ck_assert_ptr_null(strchr(sorc, '\033'));
    ck_assert_ptr_nonnull(strstr(sorc, "(Merlinians)"));
    ck_assert_ptr_nonnull(strstr(sorc, "(Morganians)"));
    /* Res Arcana's pools keep each essence's letter with its count. */
    char *arcana = drawn("arcana", 2, false);
    ck_assert_ptr_null(strchr(arcana, '\033'));
    for (const char *m = "ELCDG"; *m; m++) {
        char mark[3] = {*m, '1', '\0'};
        ck_assert_msg(strstr(arcana, mark) != NULL, "no %s in the pools without colour", mark);
    }
    free(arcana);
    free(stones);
    free(sorc);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"stones_colours", stones_colours_are_five_distinct_colours_of_sixteen},
        {"sorcerers_colours", sorcerers_factions_have_distinct_colours_and_names},
        {"element_colours", element_kinds_are_eight_distinct_colours_of_sixteen},
        {"arcana_colours", arcana_essences_are_five_distinct_colours_of_sixteen},
        {"no_colour", without_colour_only_text_and_the_marks_still_differ},
    };

    return CK_RUN("render", cases, NULL, NULL);
}
