/* SPDX-License-Identifier: MIT */
/*
 * stones_view.c - the JSON view and the result of a Sorcerer & Stones game:
 * the sections of the public view, the change mask that says which of them
 * an action may have changed, "you" and the result. Everything public by
 * R-stones-3.3 is shown identically to every seat and to spectators; the
 * hidden parts (magic deck order, artifact deck below its top, unused
 * objectives, removed runes, the generator) appear nowhere. The game has no
 * secret per-seat data, so "you" only names the seat and the colours it
 * controls. The sections of the standard game alone ("element",
 * "objectives", "qi_supply") are null in the other variants. This file
 * never changes the state.
 */
#include "stones.h"

#include <stdio.h>
#include <string.h>

#include "json_util.h"

static const char *const variant_name[] = {"standard", "novice", "cooperative"};
static const char *const title_name[] = {"Apprentice Xian", "Novice Xian", "Expert Xian",
                                         "Master Xian"};

static json_t *colour_str(int c)
{
    return c < 0 ? json_null() : json_string(stones_colour_letter[c]);
}

static json_t *artifact_json(int art)
{
    const struct stones_artifact *A = &stones_artifacts[art];
    json_t *cost = json_array();
    json_t *sym = json_array();
    int rc = 0;
    for (int i = 0; cost && i < A->ncost; i++) {
        rc |= game_json_push(cost, colour_str(A->cost[i]));
    }
    for (int i = 0; sym && i < A->nsym; i++) {
        rc |= game_json_push(sym, json_string(stones_element_name[A->symbols[i]]));
    }
    if (rc || !cost || !sym) {
        json_decref(cost);
        json_decref(sym);
        return NULL;
    }
    return json_pack("{s:s,s:s,s:o,s:i,s:o}", "id", A->id, "name", A->name, "cost", cost, "points",
                     A->points, "symbols", sym);
}

static json_t *counts_obj(const int8_t counts[STONES_NCOL])
{
    json_t *o = json_object();
    for (int c = 0; o && c < STONES_NCOL; c++) {
        if (game_json_set(o, stones_colour_letter[c], json_integer(counts[c]))) {
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

/* The names of n magic cards, in order or (reverse) from the last. New
 * reference, NULL on ENOMEM. Shared with the state dump of the codec. */
json_t *stones__cards_json(const int8_t *v, int n, int reverse)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++) {
        int c = reverse ? v[n - 1 - i] : v[i];
        if (game_json_push(a, json_string(stones_card_name[c]))) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static json_t *player_json(const struct stones_state *st, int p)
{
    const struct stones_player *pl = &st->pl[p];
    int rc = 0;
    json_t *o = json_object();
    if (!o) {
        return NULL;
    }
    rc |= game_json_set(o, "colour", json_string(stones_colour_name[pl->colour]));
    rc |= game_json_set(o, "seat", json_integer(pl->seat));
    rc |= game_json_set(o, "name", json_string(st->names[pl->seat]));
    rc |= game_json_set(o, "taoist",
                        pl->taoist >= 0 ? json_string(stones_tile_name[pl->taoist]) : json_null());
    rc |= game_json_set(o, "row", stones__cards_json(pl->row, pl->row_n, 0));
    rc |= game_json_set(o, "deck", json_integer(pl->deck_n));
    if (st->variant == STONES_COOP) {
        rc |= game_json_set(o, "removed", json_integer(pl->removed_n));
    } else {
        rc |= game_json_set(o, "discard", stones__cards_json(pl->discard, pl->discard_n, 0));
        rc |= game_json_set(o, "reservoir", counts_obj(pl->held));
        json_t *crafted = json_array();
        for (int i = 0; crafted && i < pl->ncrafted; i++) {
            rc |= game_json_push(crafted, json_string(stones_artifacts[pl->crafted[i]].id));
        }
        rc |= game_json_set(o, "crafted", crafted);
    }
    if (st->variant == STONES_STANDARD) {
        rc |= game_json_set(o, "spirit", json_pack("[ii]", pl->spirit_r, pl->spirit_c));
        rc |= game_json_set(o, "qi", json_integer(pl->qi));
        rc |= game_json_set(o, "excess", json_integer(pl->excess));
        json_t *runes = json_array();
        for (int t = 0; runes && t < STONES_NCOL; t++) {
            if (pl->rune_owned[t]) {
                rc |= game_json_push(
                    runes, json_pack("{s:s,s:i,s:b}", "element", stones_element_name[t], "value",
                                     pl->rune_val[t], "starting", t == pl->colour));
            }
        }
        rc |= game_json_set(o, "runes", runes);
        int parts[6];
        rc |= game_json_set(o, "score", json_integer(stones__score(st, p, parts)));
    }
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *board_json(const struct stones_state *st)
{
    int rc = 0;
    json_t *tiles = json_array();
    for (int t = 0; tiles && t < STONES_NTILES; t++) {
        json_t *stones = json_array();
        json_t *taoists = json_array();
        for (int s = 0; stones && s < STONES_NSLOTS; s++) {
            rc |= game_json_push(stones, colour_str(st->slot[t][s]));
        }
        for (int p = 0; taoists && p < st->np; p++) {
            if (st->pl[p].taoist == t) {
                rc |= game_json_push(taoists, json_string(stones_colour_name[st->pl[p].colour]));
            }
        }
        rc |= game_json_push(tiles, json_pack("{s:s,s:[ii],s:o,s:o}", "id", stones_tile_name[t],
                                              "pos", st->tile_r[t], st->tile_c[t], "stones", stones,
                                              "taoists", taoists));
    }
    /* A text picture of the global grid: letters, '.' empty, ' ' off-board. */
    int8_t grid[10][10];
    stones__grid(st, grid);
    int rows = 0;
    int cols = 0;
    for (int t = 0; t < STONES_NTILES; t++) {
        rows = 2 * st->tile_r[t] + 2 > rows ? 2 * st->tile_r[t] + 2 : rows;
        cols = 2 * st->tile_c[t] + 2 > cols ? 2 * st->tile_c[t] + 2 : cols;
    }
    json_t *pic = json_array();
    for (int r = 0; pic && r < rows && r < 10; r++) {
        char line[11];
        for (int c = 0; c < cols && c < 10; c++) {
            int g = grid[r][c];
            int col = g < 0 ? -2 : st->slot[g / 4][g % 4];
            line[c] = col == -2 ? ' ' : col < 0 ? '.' : stones_colour_letter[col][0];
        }
        line[cols < 10 ? cols : 10] = 0;
        rc |= game_json_push(pic, json_string(line));
    }
    if (rc || !tiles || !pic) {
        json_decref(tiles);
        json_decref(pic);
        return NULL;
    }
    return json_pack("{s:o,s:o}", "tiles", tiles, "grid", pic);
}

static json_t *element_json(const struct stones_state *st)
{
    int rc = 0;
    json_t *map = json_array();
    for (int r = 0; map && r < STONES_EMAP; r++) {
        char line[STONES_EMAP + 1];
        for (int c = 0; c < STONES_EMAP; c++) {
            int v = stones_emap[r][c];
            /* Sites are lower-case letters of their element's colour. */
            line[c] = STONES_SITE(v) ? (char)(stones_colour_letter[v - 10][0] + 32)
                                     : stones_colour_letter[v][0];
        }
        line[STONES_EMAP] = 0;
        rc |= game_json_push(map, json_string(line));
    }
    json_t *stacks = json_object();
    for (int t = 0; stacks && t < STONES_NCOL; t++) {
        json_t *s = json_array();
        for (int i = 0; s && i < st->stack_n[t]; i++) {
            rc |= game_json_push(s, json_integer(st->stack[t][i]));
        }
        rc |= game_json_set(stacks, stones_element_name[t], s);
    }
    if (rc || !map || !stacks) {
        json_decref(map);
        json_decref(stacks);
        return NULL;
    }
    return json_pack("{s:o,s:o}", "map", map, "stacks", stacks);
}

static json_t *artifacts_json(const struct stones_state *st)
{
    int rc = 0;
    json_t *row = json_array();
    for (int i = 0; row && i < st->art_row_n; i++) {
        rc |= game_json_push(row, artifact_json(st->art_row[i]));
    }
    json_t *top =
        st->art_top < STONES_NART ? artifact_json(st->art_deck[st->art_top]) : json_null();
    int below = STONES_NART - st->art_top - 1;
    json_t *o = json_pack("{s:o,s:o,s:i}", "row", row, "deck_top", top, "deck_below",
                          below < 0 ? 0 : below);
    if (o && st->variant == STONES_COOP) {
        json_t *done = json_array();
        for (int i = 0; done && i < st->coop_done_n; i++) {
            rc |= game_json_push(done, json_string(stones_artifacts[st->coop_done[i]].id));
        }
        rc |= game_json_set(o, "completed", done);
        rc |= game_json_set(o, "placed", json_integer(st->coop_filled));
    }
    if (rc && o) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *pending_json(const struct stones_state *st)
{
    const struct stones_player *pl = &st->pl[st->cur];
    switch (st->phase) {
    case STONES_PH_CHOOSE: {
        json_t *slots = json_array();
        for (int s = 0; slots && s < 4; s++) {
            if (st->group_mask[st->group_cur] & (1 << s)) {
                char b[8];
                snprintf(b, sizeof(b), "%s.%s", stones_tile_name[pl->taoist], stones_slot_name[s]);
                if (game_json_push(slots, json_string(b))) {
                    json_decref(slots);
                    return NULL;
                }
            }
        }
        return json_pack("{s:o}", "choices", slots);
    }
    case STONES_PH_OFFER: {
        int art = stones__leftmost_artifact(st);
        return json_pack("{s:o,s:s?}", "stones", counts_obj(st->pending), "leftmost",
                         art >= 0 ? stones_artifacts[art].id : NULL);
    }
    case STONES_PH_MOVE: {
        static const char *const bn[] = {"step3", "step4", "o5"};
        json_t *o = json_pack("{s:s,s:o,s:i,s:i,s:b}", "batch", bn[st->batch], "grants",
                              counts_obj(st->grant), "free_steps", st->free_steps, "steps",
                              st->batch_steps, "o6_used", st->o6_used);
        if (o && st->step_pair >= 0 &&
            game_json_set(o, "step_pair",
                          json_pack("[ss]", stones_colour_letter[st->step_pair / STONES_NCOL],
                                    stones_colour_letter[st->step_pair % STONES_NCOL]))) {
            /* "step_pair": the stones of an O7 paid step chosen step by step. */
            json_decref(o);
            return NULL;
        }
        return o;
    }
    case STONES_PH_PAY:
        /* "pair_for": the colour of an O7 pair being paid step by step. */
        return json_pack("{s:s,s:o,s:s?}", "artifact", stones_artifacts[st->pay_art].id, "owed",
                         counts_obj(st->owed), "pair_for",
                         st->pay_for >= 0 ? stones_colour_letter[st->pay_for] : NULL);
    case STONES_PH_CAST: {
        /* R-stones-4.2: the cast being chosen, in the fields of its action. */
        json_t *o = json_object();
        if (!o || st->sel_card < 0) {
            return o;
        }
        int rc = game_json_set(o, "card", json_string(stones_card_name[st->sel_card]));
        if (st->sel_first >= 0 && st->sel_card <= STONES_QUAKE2) {
            rc |= game_json_set(o, "move", json_string(stones_tile_name[st->sel_first]));
        } else if (st->sel_first >= 0) {
            char b[8];
            snprintf(b, sizeof(b), "%s.%s", stones_tile_name[st->sel_first / 4],
                     stones_slot_name[st->sel_first % 4]);
            rc |= game_json_set(o, "a", json_string(b));
        }
        if (rc) {
            json_decref(o);
            return NULL;
        }
        return o;
    }
    default:
        return json_object();
    }
}

/*
 * The result of a finished game (R-stones-6.2, 7.1, 7.2): per-seat scores,
 * winners, the end reason and a breakdown. New reference; NULL while the
 * game runs or on allocation failure.
 */
json_t *stones__result(const void *state)
{
    const struct stones_state *st = state;
    if (st->phase != STONES_PH_OVER) {
        return NULL;
    }
    int score[STONES_MAX_PLAYERS] = {0};
    int rc = 0;
    json_t *res = json_object();
    json_t *scores = json_array();
    json_t *winners = json_array();
    json_t *detail = json_array();
    if (!res || !scores || !winners || !detail) {
        json_decref(res);
        json_decref(scores);
        json_decref(winners);
        json_decref(detail);
        return NULL;
    }
    if (st->variant == STONES_COOP) {
        int n = st->coop_done_n;
        int title = n >= 9 ? 3 : n - 6;
        for (int s = 0; s < st->nseats; s++) {
            rc |= game_json_push(scores, json_integer(n));
            if (title >= 0) {
                rc |= game_json_push(winners, json_integer(s));
            }
        }
        rc |=
            game_json_set(res, "title", title >= 0 ? json_string(title_name[title]) : json_null());
        rc |= game_json_set(res, "completed", json_integer(n));
    } else {
        int best = -1;
        for (int p = 0; p < st->np; p++) {
            int parts[6];
            int total = stones__score(st, p, parts);
            score[p] = st->variant == STONES_NOVICE ? parts[5] : total;
            best = score[p] > best ? score[p] : best;
            rc |= game_json_push(
                detail, json_pack("{s:i,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "seat", st->pl[p].seat,
                                  "colour", stones_colour_name[st->pl[p].colour], "runes", parts[0],
                                  "artifacts", parts[1], "qi", parts[2], "symbol_bonus", parts[3],
                                  "stone_bonus", parts[4], "crafted", parts[5], "total", total));
        }
        for (int p = 0; p < st->np; p++) {
            rc |= game_json_push(scores, json_integer(score[p]));
            if (score[p] == best) {
                rc |= game_json_push(winners, json_integer(st->pl[p].seat));
            }
        }
    }
    rc |= game_json_set(res, "scores", scores);
    rc |= game_json_set(res, "winners", winners);
    rc |= game_json_set(res, "reason", json_string(stones_end_name[st->end_reason]));
    rc |= game_json_set(res, "scoring",
                        json_string(st->variant == STONES_NOVICE ? "artifacts crafted"
                                    : st->variant == STONES_COOP ? "artifacts completed by the team"
                                                                 : "points"));
    if (st->variant != STONES_COOP) {
        rc |= game_json_set(res, "breakdown", detail);
    } else {
        json_decref(detail);
    }
    if (rc) {
        json_decref(res);
        return NULL;
    }
    return res;
}

/* ---- Sections ---- */

static json_t *build_active(const void *state)
{
    json_t *active = json_array();
    int cs = stones__current_seat(state);
    if (active && cs >= 0 && game_json_push(active, json_integer(cs))) {
        json_decref(active);
        return NULL;
    }
    return active;
}

static json_t *build_artifacts(const void *state)
{
    return artifacts_json(state);
}

static json_t *build_board(const void *state)
{
    return board_json(state);
}

/* The sections of the standard game alone are null in the other variants. */
static json_t *build_element(const void *state)
{
    const struct stones_state *st = state;
    return st->variant == STONES_STANDARD ? element_json(st) : json_null();
}

static json_t *build_game(const void *state)
{
    return json_string("stones");
}

static json_t *build_log(const void *state)
{
    const struct stones_state *st = state;
    json_t *log = json_array();
    for (int i = 0; log && i < st->log_n; i++) {
        int k = (st->log_head - st->log_n + i + 2 * STONES_LOG_N) % STONES_LOG_N;
        if (game_json_push(log, json_string(st->log[k]))) {
            json_decref(log);
            return NULL;
        }
    }
    return log;
}

static json_t *build_objectives(const void *state)
{
    const struct stones_state *st = state;
    if (st->variant != STONES_STANDARD) {
        return json_null();
    }
    json_t *obj = json_array();
    for (int k = 1; obj && k <= 7; k++) {
        if (st->objectives & (1 << (k - 1))) {
            char b[16];
            snprintf(b, sizeof(b), "O%d", k);
            if (game_json_push(obj, json_string(b))) {
                json_decref(obj);
                return NULL;
            }
        }
    }
    return obj;
}

static json_t *build_pending(const void *state)
{
    return pending_json(state);
}

/* The phase name, with the reward batches of a MOVE phase as "reward_move". */
static const char *phase_str(const struct stones_state *st)
{
    if (st->phase == STONES_PH_MOVE && st->batch != STONES_BATCH_STEP3) {
        return "reward_move";
    }
    return stones_phase_name[st->phase];
}

static json_t *build_phase(const void *state)
{
    return json_string(phase_str(state));
}

static json_t *build_players(const void *state)
{
    const struct stones_state *st = state;
    json_t *players = json_array();
    for (int p = 0; players && p < st->np; p++) {
        if (game_json_push(players, player_json(st, p))) {
            json_decref(players);
            return NULL;
        }
    }
    return players;
}

static json_t *build_qi_supply(const void *state)
{
    const struct stones_state *st = state;
    return st->variant == STONES_STANDARD ? json_integer(st->qi_supply) : json_null();
}

/* Over means a result: a failed one fails the view, never reads as null. */
static json_t *build_result(const void *state)
{
    const struct stones_state *st = state;
    return st->phase == STONES_PH_OVER ? stones__result(st) : json_null();
}

/* The colours seat `s` controls, by name. New reference, NULL on ENOMEM. */
static json_t *seat_colours(const struct stones_state *st, int s)
{
    json_t *cols = json_array();
    for (int p = 0; cols && p < st->np; p++) {
        if (st->pl[p].seat == s &&
            game_json_push(cols, json_string(stones_colour_name[st->pl[p].colour]))) {
            json_decref(cols);
            return NULL;
        }
    }
    return cols;
}

static json_t *build_seats(const void *state)
{
    const struct stones_state *st = state;
    json_t *seats = json_array();
    for (int s = 0; seats && s < st->nseats; s++) {
        json_t *cols = seat_colours(st, s);
        if (!cols || game_json_push(seats, json_pack("{s:i,s:s,s:o}", "seat", s, "name",
                                                     st->names[s], "colours", cols))) {
            json_decref(seats);
            return NULL;
        }
    }
    return seats;
}

static json_t *build_supply(const void *state)
{
    const struct stones_state *st = state;
    json_t *supply = json_array();
    for (int i = 0; supply && i < st->supply_n; i++) {
        if (game_json_push(supply, colour_str(st->supply[i]))) {
            json_decref(supply);
            return NULL;
        }
    }
    return supply;
}

static json_t *build_turn(const void *state)
{
    const struct stones_state *st = state;
    return json_pack("{s:s,s:i,s:s,s:i,s:i,s:b}", "colour",
                     stones_colour_name[st->pl[st->cur].colour], "seat", st->pl[st->cur].seat,
                     "start", stones_colour_name[st->pl[st->start].colour], "number", st->turn_no,
                     "casts", st->casts, "final_round", st->final_round);
}

static json_t *build_variant(const void *state)
{
    const struct stones_state *st = state;
    return json_string(variant_name[st->variant]);
}

/* The public view (R-stones-3.3), the same for every seat and spectator. */
const struct game_section stones__sections[STONES_NSECTIONS] = {
    [STONES_S_ACTIVE] = {"active", build_active},
    [STONES_S_ARTIFACTS] = {"artifacts", build_artifacts},
    [STONES_S_BOARD] = {"board", build_board},
    [STONES_S_ELEMENT] = {"element", build_element},
    [STONES_S_GAME] = {"game", build_game},
    [STONES_S_LOG] = {"log", build_log},
    [STONES_S_OBJECTIVES] = {"objectives", build_objectives},
    [STONES_S_PENDING] = {"pending", build_pending},
    [STONES_S_PHASE] = {"phase", build_phase},
    [STONES_S_PLAYERS] = {"players", build_players},
    [STONES_S_QI_SUPPLY] = {"qi_supply", build_qi_supply},
    [STONES_S_RESULT] = {"result", build_result},
    [STONES_S_SEATS] = {"seats", build_seats},
    [STONES_S_SUPPLY] = {"supply", build_supply},
    [STONES_S_TURN] = {"turn", build_turn},
    [STONES_S_VARIANT] = {"variant", build_variant},
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
    if (!SAME(log) || !SAME(log_n) || !SAME(log_head)) {
        m |= BIT(STONES_S_LOG);
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

/* ---- You ---- */

/*
 * The value of "you" for `seat` (0 <= seat < nseats): the seat and the
 * colours it controls. The game has no secret per-seat data. New
 * reference, NULL on allocation failure.
 */
json_t *stones__you(const void *state, int seat)
{
    json_t *cols = seat_colours(state, seat);
    return cols ? json_pack("{s:i,s:o}", "seat", seat, "colours", cols) : NULL;
}
