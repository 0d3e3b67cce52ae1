/* SPDX-License-Identifier: MIT */
/*
 * stones_view.c - the view of a Sorcerer & Stones game: the sections of the
 * public view, the change mask that says which of them an action may have
 * changed, and "you", each written as canonical JSON text through struct
 * game_text (game.h); the "result" section is the result of a finished
 * game. Every object's members are written in increasing byte order of
 * their keys, as the writer requires. Everything public by R-stones-3.3 is
 * shown identically to every seat and to spectators; the hidden parts
 * (magic deck order, artifact deck below its top, unused objectives,
 * removed runes, the generator) appear nowhere. The game has no secret
 * per-seat data, so "you" only names the seat and the colours it controls.
 * The sections of the standard game alone ("element", "objectives",
 * "qi_supply") are null in the other variants. This file builds no jansson
 * value and never changes the state.
 */
#include "stones.h"

#include "json_util.h"

#include <stdio.h>
#include <string.h>

static const char *const variant_name[] = {"standard", "novice", "cooperative"};
static const char *const title_name[] = {"Apprentice Xian", "Novice Xian", "Expert Xian",
                                         "Master Xian"};

/* The colours in the byte order of their letters (B G N R Y), and in the
 * byte order of their element names (Earth Fire Metal Water Wood): the
 * order of the members of objects keyed by them. */
static const int8_t letter_order[STONES_NCOL] = {STONES_B, STONES_G, STONES_N, STONES_R, STONES_Y};
static const int8_t element_order[STONES_NCOL] = {STONES_N, STONES_R, STONES_Y, STONES_B, STONES_G};

/* A colour's letter, or null for an empty place (-1). */
static void write_colour(struct game_text *out, int c)
{
    game_text_str_or_null(out, c < 0 ? NULL : stones_colour_letter[c]);
}

static void write_artifact(struct game_text *out, int art)
{
    const struct stones_artifact *A = &stones_artifacts[art];
    game_text_obj(out);
    game_text_karr(out, "cost");
    for (int i = 0; i < A->ncost; i++) {
        write_colour(out, A->cost[i]);
    }
    game_text_end_arr(out);
    game_text_kstr(out, "id", A->id);
    game_text_kstr(out, "name", A->name);
    game_text_kint(out, "points", A->points);
    game_text_karr(out, "symbols");
    for (int i = 0; i < A->nsym; i++) {
        game_text_str(out, stones_element_name[A->symbols[i]]);
    }
    game_text_end_arr(out);
    game_text_end_obj(out);
}

/* Stone counts as an object keyed by colour letter. */
static void write_counts(struct game_text *out, const int8_t counts[STONES_NCOL])
{
    game_text_obj(out);
    for (int i = 0; i < STONES_NCOL; i++) {
        int c = letter_order[i];
        game_text_kint(out, stones_colour_letter[c], counts[c]);
    }
    game_text_end_obj(out);
}

/* The names of n magic cards, in order. */
static void write_cards(struct game_text *out, const int8_t *v, int n)
{
    game_text_arr(out);
    for (int i = 0; i < n; i++) {
        game_text_str(out, stones_card_name[v[i]]);
    }
    game_text_end_arr(out);
}

/* The ids of n artifacts, in order. */
static void write_artifact_ids(struct game_text *out, const int8_t *v, int n)
{
    game_text_arr(out);
    for (int i = 0; i < n; i++) {
        game_text_str(out, stones_artifacts[v[i]].id);
    }
    game_text_end_arr(out);
}

static void write_player(struct game_text *out, const void *state, int p)
{
    const struct stones_state *st = state;
    const struct stones_player *pl = &st->pl[p];
    bool standard = st->variant == STONES_STANDARD;
    bool coop = st->variant == STONES_COOP;

    game_text_obj(out);
    game_text_kstr(out, "colour", stones_colour_name[pl->colour]);
    if (!coop) {
        game_text_key(out, "crafted");
        write_artifact_ids(out, pl->crafted, pl->ncrafted);
    }
    game_text_kint(out, "deck", pl->deck_n);
    if (!coop) {
        game_text_key(out, "discard");
        write_cards(out, pl->discard, pl->discard_n);
    }
    if (standard) {
        game_text_kint(out, "excess", pl->excess);
    }
    game_text_kstr(out, "name", st->names[pl->seat]);
    if (standard) {
        game_text_kint(out, "qi", pl->qi);
    }
    if (coop) {
        game_text_kint(out, "removed", pl->removed_n);
    } else {
        game_text_key(out, "reservoir");
        write_counts(out, pl->held);
    }
    game_text_key(out, "row");
    write_cards(out, pl->row, pl->row_n);
    if (standard) {
        game_text_karr(out, "runes");
        for (int t = 0; t < STONES_NCOL; t++) {
            if (pl->rune_owned[t]) {
                game_text_obj(out);
                game_text_kstr(out, "element", stones_element_name[t]);
                game_text_kbool(out, "starting", t == pl->colour);
                game_text_kint(out, "value", pl->rune_val[t]);
                game_text_end_obj(out);
            }
        }
        game_text_end_arr(out);
        int parts[6];
        game_text_kint(out, "score", stones__score(st, p, parts));
    }
    game_text_kint(out, "seat", pl->seat);
    if (standard) {
        game_text_karr(out, "spirit");
        game_text_int(out, pl->spirit_r);
        game_text_int(out, pl->spirit_c);
        game_text_end_arr(out);
    }
    game_text_key(out, "taoist");
    game_text_str_or_null(out, pl->taoist >= 0 ? stones_tile_name[pl->taoist] : NULL);
    game_text_end_obj(out);
}

static void write_board(struct game_text *out, const struct stones_state *st)
{
    game_text_obj(out);
    /* A text picture of the global grid: letters, '.' empty, ' ' off-board. */
    int8_t grid[10][10];
    stones__grid(st, grid);
    int rows = 0;
    int cols = 0;
    for (int t = 0; t < STONES_NTILES; t++) {
        rows = 2 * st->tile_r[t] + 2 > rows ? 2 * st->tile_r[t] + 2 : rows;
        cols = 2 * st->tile_c[t] + 2 > cols ? 2 * st->tile_c[t] + 2 : cols;
    }
    game_text_karr(out, "grid");
    for (int r = 0; r < rows && r < 10; r++) {
        char line[11];
        for (int c = 0; c < cols && c < 10; c++) {
            int g = grid[r][c];
            int col = g < 0 ? -2 : st->slot[g / 4][g % 4];
            line[c] = col == -2 ? ' ' : col < 0 ? '.' : stones_colour_letter[col][0];
        }
        line[cols < 10 ? cols : 10] = 0;
        game_text_str(out, line);
    }
    game_text_end_arr(out);
    game_text_karr(out, "tiles");
    for (int t = 0; t < STONES_NTILES; t++) {
        game_text_obj(out);
        game_text_kstr(out, "id", stones_tile_name[t]);
        game_text_karr(out, "pos");
        game_text_int(out, st->tile_r[t]);
        game_text_int(out, st->tile_c[t]);
        game_text_end_arr(out);
        game_text_karr(out, "stones");
        for (int s = 0; s < STONES_NSLOTS; s++) {
            write_colour(out, st->slot[t][s]);
        }
        game_text_end_arr(out);
        game_text_karr(out, "taoists");
        for (int p = 0; p < st->np; p++) {
            if (st->pl[p].taoist == t) {
                game_text_str(out, stones_colour_name[st->pl[p].colour]);
            }
        }
        game_text_end_arr(out);
        game_text_end_obj(out);
    }
    game_text_end_arr(out);
    game_text_end_obj(out);
}

static void write_element(struct game_text *out, const struct stones_state *st)
{
    game_text_obj(out);
    game_text_karr(out, "map");
    for (int r = 0; r < STONES_EMAP; r++) {
        char line[STONES_EMAP + 1];
        for (int c = 0; c < STONES_EMAP; c++) {
            int v = stones_emap[r][c];
            /* Sites are lower-case letters of their element's colour. */
            line[c] = STONES_SITE(v) ? (char)(stones_colour_letter[v - 10][0] + 32)
                                     : stones_colour_letter[v][0];
        }
        line[STONES_EMAP] = 0;
        game_text_str(out, line);
    }
    game_text_end_arr(out);
    game_text_kobj(out, "stacks");
    for (int i = 0; i < STONES_NCOL; i++) {
        int t = element_order[i];
        game_text_karr(out, stones_element_name[t]);
        for (int k = 0; k < st->stack_n[t]; k++) {
            game_text_int(out, st->stack[t][k]);
        }
        game_text_end_arr(out);
    }
    game_text_end_obj(out);
    game_text_end_obj(out);
}

static void write_pending(struct game_text *out, const struct stones_state *st)
{
    const struct stones_player *pl = &st->pl[st->cur];
    char b[8];

    game_text_obj(out);
    switch (st->phase) {
    case STONES_PH_CHOOSE:
        game_text_karr(out, "choices");
        for (int s = 0; s < 4; s++) {
            if (st->group_mask[st->group_cur] & (1 << s)) {
                snprintf(b, sizeof(b), "%s.%s", stones_tile_name[pl->taoist], stones_slot_name[s]);
                game_text_str(out, b);
            }
        }
        game_text_end_arr(out);
        break;
    case STONES_PH_OFFER: {
        int art = stones__leftmost_artifact(st);
        game_text_key(out, "leftmost");
        game_text_str_or_null(out, art >= 0 ? stones_artifacts[art].id : NULL);
        game_text_key(out, "stones");
        write_counts(out, st->pending);
        break;
    }
    case STONES_PH_MOVE: {
        static const char *const bn[] = {"step3", "step4", "o5"};
        game_text_kstr(out, "batch", bn[st->batch]);
        game_text_kint(out, "free_steps", st->free_steps);
        game_text_key(out, "grants");
        write_counts(out, st->grant);
        game_text_kbool(out, "o6_used", st->o6_used);
        if (st->step_pair >= 0) {
            /* "step_pair": the stones of an O7 paid step chosen step by step. */
            game_text_karr(out, "step_pair");
            game_text_str(out, stones_colour_letter[st->step_pair / STONES_NCOL]);
            game_text_str(out, stones_colour_letter[st->step_pair % STONES_NCOL]);
            game_text_end_arr(out);
        }
        game_text_kint(out, "steps", st->batch_steps);
        break;
    }
    case STONES_PH_PAY:
        game_text_kstr(out, "artifact", stones_artifacts[st->pay_art].id);
        game_text_key(out, "owed");
        write_counts(out, st->owed);
        /* "pair_for": the colour of an O7 pair being paid step by step. */
        game_text_key(out, "pair_for");
        game_text_str_or_null(out, st->pay_for >= 0 ? stones_colour_letter[st->pay_for] : NULL);
        break;
    case STONES_PH_CAST:
        /* R-stones-4.2: the cast being chosen, in the fields of its action. */
        if (st->sel_card < 0) {
            break;
        }
        if (st->sel_first >= 0 && st->sel_card > STONES_QUAKE2) {
            snprintf(b, sizeof(b), "%s.%s", stones_tile_name[st->sel_first / 4],
                     stones_slot_name[st->sel_first % 4]);
            game_text_kstr(out, "a", b);
        }
        game_text_kstr(out, "card", stones_card_name[st->sel_card]);
        if (st->sel_first >= 0 && st->sel_card <= STONES_QUAKE2) {
            game_text_kstr(out, "move", stones_tile_name[st->sel_first]);
        }
        break;
    default:
        break;
    }
    game_text_end_obj(out);
}

/* "forfeit": the seat that forfeited (R-stones-6.3), only after a forfeit. */
static void write_forfeit(struct game_text *out, const struct stones_state *st)
{
    if (st->forfeit >= 0) {
        game_text_kint(out, "forfeit", st->forfeit);
    }
}

/* "winners": the seats of stones__winners(), in seat order. */
static void write_winners(struct game_text *out, const struct stones_state *st)
{
    unsigned mask = stones__winners(st);
    game_text_karr(out, "winners");
    for (int s = 0; s < st->nseats; s++) {
        if (mask & (1u << s)) {
            game_text_int(out, s);
        }
    }
    game_text_end_arr(out);
}

/*
 * The result of a finished game (R-stones-6.2, 6.3, 7.1, 7.2): per-seat scores,
 * winners, the end reason and a breakdown. Written only once the game is
 * over.
 */
static void write_result(struct game_text *out, const struct stones_state *st)
{
    static const char *const scoring[] = {"points", "artifacts crafted",
                                          "artifacts completed by the team"};

    game_text_obj(out);
    if (st->variant == STONES_COOP) {
        int n = st->coop_done_n;
        /* R-stones-6.3: a forfeit loses the team its title. */
        int title = st->forfeit >= 0 ? -1 : n >= 9 ? 3 : n - 6;
        game_text_kint(out, "completed", n);
        write_forfeit(out, st);
        game_text_kstr(out, "reason", stones_end_name[st->end_reason]);
        game_text_karr(out, "scores");
        for (int s = 0; s < st->nseats; s++) {
            game_text_int(out, n);
        }
        game_text_end_arr(out);
        game_text_kstr(out, "scoring", scoring[st->variant]);
        game_text_key(out, "title");
        game_text_str_or_null(out, title >= 0 ? title_name[title] : NULL);
        write_winners(out, st);
    } else {
        int parts[STONES_MAX_PLAYERS][6];
        int total[STONES_MAX_PLAYERS];
        for (int p = 0; p < st->np; p++) {
            total[p] = stones__score(st, p, parts[p]);
        }
        game_text_karr(out, "breakdown");
        for (int p = 0; p < st->np; p++) {
            game_text_obj(out);
            game_text_kint(out, "artifacts", parts[p][1]);
            game_text_kstr(out, "colour", stones_colour_name[st->pl[p].colour]);
            game_text_kint(out, "crafted", parts[p][5]);
            game_text_kint(out, "qi", parts[p][2]);
            game_text_kint(out, "runes", parts[p][0]);
            game_text_kint(out, "seat", st->pl[p].seat);
            game_text_kint(out, "stone_bonus", parts[p][4]);
            game_text_kint(out, "symbol_bonus", parts[p][3]);
            game_text_kint(out, "total", total[p]);
            game_text_end_obj(out);
        }
        game_text_end_arr(out);
        write_forfeit(out, st);
        game_text_kstr(out, "reason", stones_end_name[st->end_reason]);
        game_text_karr(out, "scores");
        for (int p = 0; p < st->np; p++) {
            game_text_int(out, st->variant == STONES_NOVICE ? parts[p][5] : total[p]);
        }
        game_text_end_arr(out);
        game_text_kstr(out, "scoring", scoring[st->variant]);
        write_winners(out, st);
    }
    game_text_end_obj(out);
}

/* ---- Sections ---- */

static void write_active_section(struct game_text *out, const void *state)
{
    int cs = stones__current_seat(state);
    game_text_arr(out);
    if (cs >= 0) {
        game_text_int(out, cs);
    }
    game_text_end_arr(out);
}

static void write_artifacts_section(struct game_text *out, const void *state)
{
    const struct stones_state *st = state;
    int below = STONES_NART - st->art_top - 1;

    game_text_obj(out);
    if (st->variant == STONES_COOP) {
        game_text_key(out, "completed");
        write_artifact_ids(out, st->coop_done, st->coop_done_n);
    }
    game_text_kint(out, "deck_below", below < 0 ? 0 : below);
    game_text_key(out, "deck_top");
    if (st->art_top < STONES_NART) {
        write_artifact(out, st->art_deck[st->art_top]);
    } else {
        game_text_null(out);
    }
    if (st->variant == STONES_COOP) {
        game_text_kint(out, "placed", st->coop_filled);
    }
    game_text_karr(out, "row");
    for (int i = 0; i < st->art_row_n; i++) {
        write_artifact(out, st->art_row[i]);
    }
    game_text_end_arr(out);
    game_text_end_obj(out);
}

static void write_board_section(struct game_text *out, const void *state)
{
    write_board(out, state);
}

/* The sections of the standard game alone are null in the other variants. */
static void write_element_section(struct game_text *out, const void *state)
{
    const struct stones_state *st = state;
    if (st->variant == STONES_STANDARD) {
        write_element(out, st);
    } else {
        game_text_null(out);
    }
}

static void write_game_section(struct game_text *out, const void *state)
{
    (void)state;
    game_text_str(out, "stones");
}

/* The log: its lines oldest first, as items (game_section.seq), and
 * beside them their messages. Line `i` is in the ring's slot log_slot(). */
static int log_slot(const struct stones_state *st, int i)
{
    return (st->log_head - st->log_n + i + 2 * STONES_LOG_N) % STONES_LOG_N;
}

static int log_count(const void *state)
{
    return ((const struct stones_state *)state)->log_n;
}

static uint32_t log_seq(const void *state)
{
    return ((const struct stones_state *)state)->log_seq;
}

static void write_log_line(struct game_text *out, const void *state, int i)
{
    const struct stones_state *st = state;
    game_text_str(out, st->log[log_slot(st, i)]);
}

/* One message per line of "log", in the same order (game_text_msg()). */
static void write_log_msg(struct game_text *out, const void *state, int i)
{
    const struct stones_state *st = state;
    game_text_msg(out, st->log_msg[log_slot(st, i)]);
}

static void write_objectives_section(struct game_text *out, const void *state)
{
    const struct stones_state *st = state;
    if (st->variant != STONES_STANDARD) {
        game_text_null(out);
        return;
    }
    game_text_arr(out);
    for (int k = 1; k <= 7; k++) {
        if (st->objectives & (1 << (k - 1))) {
            char b[16];
            snprintf(b, sizeof(b), "O%d", k);
            game_text_str(out, b);
        }
    }
    game_text_end_arr(out);
}

static void write_pending_section(struct game_text *out, const void *state)
{
    write_pending(out, state);
}

/* The phase name, with the reward batches of a MOVE phase as "reward_move". */
static const char *phase_str(const struct stones_state *st)
{
    if (st->phase == STONES_PH_MOVE && st->batch != STONES_BATCH_STEP3) {
        return "reward_move";
    }
    return stones_phase_name[st->phase];
}

static void write_phase_section(struct game_text *out, const void *state)
{
    game_text_str(out, phase_str(state));
}

static int player_count(const void *state)
{
    return ((const struct stones_state *)state)->np;
}

static void write_qi_supply_section(struct game_text *out, const void *state)
{
    const struct stones_state *st = state;
    if (st->variant == STONES_STANDARD) {
        game_text_int(out, st->qi_supply);
    } else {
        game_text_null(out);
    }
}

/* Null while the game runs; once it is over, the result. */
static void write_result_section(struct game_text *out, const void *state)
{
    const struct stones_state *st = state;
    if (st->phase == STONES_PH_OVER) {
        write_result(out, st);
    } else {
        game_text_null(out);
    }
}

/* The colours seat `s` controls, by name. */
static void write_seat_colours(struct game_text *out, const struct stones_state *st, int s)
{
    game_text_arr(out);
    for (int p = 0; p < st->np; p++) {
        if (st->pl[p].seat == s) {
            game_text_str(out, stones_colour_name[st->pl[p].colour]);
        }
    }
    game_text_end_arr(out);
}

static void write_seats_section(struct game_text *out, const void *state)
{
    const struct stones_state *st = state;
    game_text_arr(out);
    for (int s = 0; s < st->nseats; s++) {
        game_text_obj(out);
        game_text_key(out, "colours");
        write_seat_colours(out, st, s);
        game_text_kstr(out, "name", st->names[s]);
        game_text_kint(out, "seat", s);
        game_text_end_obj(out);
    }
    game_text_end_arr(out);
}

static void write_supply_section(struct game_text *out, const void *state)
{
    const struct stones_state *st = state;
    game_text_arr(out);
    for (int i = 0; i < st->supply_n; i++) {
        write_colour(out, st->supply[i]);
    }
    game_text_end_arr(out);
}

static void write_turn_section(struct game_text *out, const void *state)
{
    const struct stones_state *st = state;
    game_text_obj(out);
    game_text_kint(out, "casts", st->casts);
    game_text_kstr(out, "colour", stones_colour_name[st->pl[st->cur].colour]);
    game_text_kbool(out, "final_round", st->final_round);
    game_text_kint(out, "number", st->turn_no);
    game_text_kint(out, "seat", st->pl[st->cur].seat);
    game_text_kstr(out, "start", stones_colour_name[st->pl[st->start].colour]);
    game_text_end_obj(out);
}

static void write_variant_section(struct game_text *out, const void *state)
{
    const struct stones_state *st = state;
    game_text_str(out, variant_name[st->variant]);
}

/* The public view (R-stones-3.3), the same for every seat and spectator. */
const struct game_section stones__sections[STONES_NSECTIONS] = {
    [STONES_S_ACTIVE] = {"active", write_active_section},
    [STONES_S_ARTIFACTS] = {"artifacts", write_artifacts_section},
    [STONES_S_BOARD] = {"board", write_board_section},
    [STONES_S_ELEMENT] = {"element", write_element_section},
    [STONES_S_GAME] = {"game", write_game_section},
    [STONES_S_LOG] = {"log", NULL, log_count, write_log_line, log_seq},
    [STONES_S_LOG_KEYS] = {"log_keys", NULL, log_count, write_log_msg, log_seq},
    [STONES_S_OBJECTIVES] = {"objectives", write_objectives_section},
    [STONES_S_PENDING] = {"pending", write_pending_section},
    [STONES_S_PHASE] = {"phase", write_phase_section},
    [STONES_S_PLAYERS] = {"players", NULL, player_count, write_player},
    [STONES_S_QI_SUPPLY] = {"qi_supply", write_qi_supply_section},
    [STONES_S_RESULT] = {"result", write_result_section},
    [STONES_S_SEATS] = {"seats", write_seats_section},
    [STONES_S_SUPPLY] = {"supply", write_supply_section},
    [STONES_S_TURN] = {"turn", write_turn_section},
    [STONES_S_VARIANT] = {"variant", write_variant_section},
};

/* ---- Change mask ---- */

/* 1 when member `f` of the two states is byte-identical. */
#define SAME(f) (memcmp(&a->f, &b->f, sizeof(a->f)) == 0)
#define BIT(k) (UINT64_C(1) << (k))

/* The seat-to-colour mapping: read by "seats" and by every "you". */
static int same_seating(const struct stones_state *a, const struct stones_state *b)
{
    if (!SAME(nseats) || !SAME(np)) {
        return 0;
    }
    for (int p = 0; p < a->np; p++) {
        if (!SAME(pl[p].seat) || !SAME(pl[p].colour)) {
            return 0;
        }
    }
    return 1;
}

/* What "board" reads: tiles, slots and each Taoist with its colour. */
static int same_board(const struct stones_state *a, const struct stones_state *b)
{
    if (!SAME(tile_r) || !SAME(tile_c) || !SAME(slot) || !SAME(np)) {
        return 0;
    }
    for (int p = 0; p < a->np; p++) {
        if (!SAME(pl[p].taoist) || !SAME(pl[p].colour)) {
            return 0;
        }
    }
    return 1;
}

/* The phase whose "pending" has members; -1 for the phases of {}. */
static int pending_kind(const struct stones_state *st)
{
    switch (st->phase) {
    case STONES_PH_CHOOSE:
    case STONES_PH_OFFER:
    case STONES_PH_MOVE:
    case STONES_PH_PAY:
    case STONES_PH_CAST:
        return st->phase;
    default:
        return -1;
    }
}

/* What "pending" reads, by phase. */
static int same_pending(const struct stones_state *a, const struct stones_state *b)
{
    if (pending_kind(a) != pending_kind(b)) {
        return 0;
    }
    switch (pending_kind(a)) {
    case STONES_PH_CHOOSE:
        return SAME(cur) && SAME(pl[a->cur].taoist) && SAME(group_cur) && SAME(group_mask);
    case STONES_PH_OFFER:
        return SAME(pending) && SAME(art_row) && SAME(art_row_n) && SAME(art_top) && SAME(art_deck);
    case STONES_PH_MOVE:
        return SAME(batch) && SAME(grant) && SAME(free_steps) && SAME(batch_steps) &&
               SAME(o6_used) && SAME(step_pair);
    case STONES_PH_PAY:
        return SAME(pay_art) && SAME(owed) && SAME(pay_for);
    case STONES_PH_CAST:
        return SAME(sel_card) && SAME(sel_first);
    default:
        return 1; /* {} in both */
    }
}

/* What "turn" reads: the current and start players and the turn counters. */
static int same_turn(const struct stones_state *a, const struct stones_state *b)
{
    return SAME(cur) && SAME(start) && SAME(turn_no) && SAME(casts) && SAME(final_round) &&
           SAME(pl[a->cur].colour) && SAME(pl[a->cur].seat) && SAME(pl[a->start].colour);
}

/*
 * The change mask between `before` and `after` (game.h): a bit is clear only
 * when every state field its section reads is byte-identical in both, so
 * the section's JSON is equal. "game" never changes; "you" changes only
 * with the seating. Never fails.
 */
uint64_t stones__changed(const void *before, const void *after)
{
    const struct stones_state *a = before;
    const struct stones_state *b = after;
    uint64_t m = 0;

    if (!SAME(variant)) {
        return GAME_CHANGED_ALL;
    }
    if (stones__current_seat(a) != stones__current_seat(b)) {
        m |= BIT(STONES_S_ACTIVE);
    }
    if (!SAME(art_row) || !SAME(art_row_n) || !SAME(art_top) || !SAME(art_deck) ||
        !SAME(coop_done) || !SAME(coop_done_n) || !SAME(coop_filled)) {
        m |= BIT(STONES_S_ARTIFACTS);
    }
    if (!same_board(a, b)) {
        m |= BIT(STONES_S_BOARD);
    }
    if (!SAME(stack) || !SAME(stack_n)) {
        m |= BIT(STONES_S_ELEMENT);
    }
    /* A line and its message are written together. */
    if (!SAME(log) || !SAME(log_msg) || !SAME(log_n) || !SAME(log_head)) {
        m |= BIT(STONES_S_LOG) | BIT(STONES_S_LOG_KEYS);
    }
    if (!SAME(objectives)) {
        m |= BIT(STONES_S_OBJECTIVES);
    }
    if (!same_pending(a, b)) {
        m |= BIT(STONES_S_PENDING);
    }
    if (phase_str(a) != phase_str(b)) {
        m |= BIT(STONES_S_PHASE);
    }
    /* Scores are a function of each player's own fields (stones__score). */
    if (!SAME(np) || !SAME(pl) || !SAME(names)) {
        m |= BIT(STONES_S_PLAYERS);
    }
    if (!SAME(qi_supply)) {
        m |= BIT(STONES_S_QI_SUPPLY);
    }
    /* The result is null until the game is over and never moves after. */
    if (a->phase == STONES_PH_OVER || b->phase == STONES_PH_OVER) {
        m |= BIT(STONES_S_RESULT);
    }
    if (!same_seating(a, b)) {
        m |= BIT(STONES_S_SEATS) | GAME_CHANGED_YOU;
    }
    if (!SAME(names)) {
        m |= BIT(STONES_S_SEATS);
    }
    if (!SAME(supply) || !SAME(supply_n)) {
        m |= BIT(STONES_S_SUPPLY);
    }
    if (!same_turn(a, b)) {
        m |= BIT(STONES_S_TURN);
    }
    return m;
}

#undef SAME
#undef BIT

/* A player's item is written from its own fields (its score among them)
 * and its seat's name; "you" is left to changed(). */
void stones__parts_changed(const void *before, const void *after, unsigned *items, unsigned *you)
{
    const struct stones_state *a = before;
    const struct stones_state *b = after;
    unsigned m = 0;

    *you = ~0u;
    if (a->np != b->np || a->variant != b->variant) {
        *items = ~0u;
        return;
    }
    for (int p = 0; p < b->np; p++) {
        if (memcmp(&a->pl[p], &b->pl[p], sizeof(a->pl[p])) != 0 ||
            strcmp(a->names[a->pl[p].seat], b->names[b->pl[p].seat]) != 0) {
            m |= 1u << p;
        }
    }
    *items = m;
}

/* ---- You ---- */

/*
 * The value of "you" for `seat` (0 <= seat < nseats): the seat and the
 * colours it controls. The game has no secret per-seat data.
 */
void stones__you(struct game_text *out, const void *state, int seat)
{
    game_text_obj(out);
    game_text_key(out, "colours");
    write_seat_colours(out, state, seat);
    game_text_kint(out, "seat", seat);
    game_text_end_obj(out);
}
