/* SPDX-License-Identifier: MIT */
/*
 * arcana_timeout.c - what a turn clock's timeout does to a Res Arcana game
 * (docs/rules/arcana.md 15): a forfeit ends the game (or the duel) with the
 * seat ranked last, and a skip takes the least option of each of the
 * seat's open decisions until its part is done. Both are functions of the
 * state alone, so replaying them gives the same bytes; neither reads or
 * writes anything a seat may not see.
 */
#include <string.h>

#include "arcana.h"

/* 1 when `a` ranks above `b` by the normal scoring (R-arcana-9). */
static bool scores_above(const struct arc_core *c, int a, int b)
{
    if (c->final_vp[a] != c->final_vp[b]) {
        return c->final_vp[a] > c->final_vp[b];
    }
    return c->final_tb[a] > c->final_tb[b];
}

int arc__ranking(const struct arc_core *c, int8_t ret[ARC_MAX_SEATS])
{
    int n = 0;
    for (int s = 0; s < c->nseats; s++) {
        if (s == c->forfeit) {
            continue;
        }
        int i = n++;
        for (; i > 0 && scores_above(c, s, ret[i - 1]); i--) {
            ret[i] = ret[i - 1];
        }
        ret[i] = (int8_t)s;
    }
    if (c->forfeit >= 0) {
        ret[n++] = c->forfeit;
    }
    return n;
}

void arc__forfeit(struct arc_state *st, int seat)
{
    struct arc_core *c = &st->c;
    for (int s = 0; s < c->nseats; s++) {
        c->final_vp[s] = arc__vp(c, s);
        c->final_tb[s] = arc__tiebreak(c, s);
    }
    c->forfeit = (int8_t)seat;
    int8_t rank[ARC_MAX_SEATS];
    arc__ranking(c, rank);
    c->winners = 0;
    for (int s = 0; s < c->nseats; s++) {
        if (s != seat && !scores_above(c, rank[0], s)) {
            c->winners |= (uint8_t)(1u << s);
        }
    }
    if (c->match.on) {
        arc__log(st, "forfeits_match", "%s forfeits the match.", st->names[seat]);
    } else {
        arc__log(st, "forfeits", "%s forfeits.", st->names[seat]);
    }
    for (int s = 0; s < c->nseats; s++) {
        if (c->winners & (1u << s)) {
            arc__log(st, "wins", "%s wins.", st->names[s]);
        }
    }
    c->round_limit = 0;
    c->statue_used = 0;
    c->res.kind = ARC_R_NONE;
    c->dec = ARC_D_NONE;
    c->dec_seat = -1;
    c->over = 1;
    c->phase = ARC_PH_ENDED;
}

/* The least option of the open decision of `seat` (docs/rules/arcana.md
 * 15.2): the one the table names where it is listed, else the first. */
static struct arc_action least(const struct arc_core *c, int seat, const struct arc_action *opts,
                               int n)
{
    static const struct {
        int8_t type;
        int8_t a;
    } want[ARC_D_COUNT] = {
        [ARC_D_TOP] = {ARC_A_PASS, 0},        [ARC_D_SAME] = {ARC_A_SAME, ARC_NONE_ARG},
        [ARC_D_SAME_MORE] = {ARC_A_DONE, 0},  [ARC_D_TARGET] = {ARC_A_TARGET, ARC_NONE_ARG},
        [ARC_D_RESPOND] = {ARC_A_RESPOND, 0}, [ARC_D_STATUE] = {ARC_A_STATUE, 0},
        [ARC_D_TAKE] = {ARC_A_LEAVE, 0},      [ARC_D_FORGE] = {ARC_A_FORGE, 1},
        [ARC_D_FIRST] = {ARC_A_FIRST, -1},
    };
    int8_t type = want[c->dec].type;
    int8_t a = c->dec == ARC_D_FIRST ? (int8_t)seat : want[c->dec].a;
    for (int i = 0; i < n && type != ARC_A_NONE; i++) {
        if (opts[i].type == type && opts[i].a == a) {
            return opts[i];
        }
    }
    return opts[0];
}

int arc__skip(struct arc_state *st, int seat, struct game_error *err)
{
    struct arc_core *c = &st->c;
    struct arc_action opts[ARC_MAX_OPTS];
    int n = arc__options(c, seat, opts, ARC_MAX_OPTS);
    if (n == 0) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-arcana-15.2: this decision has nothing to choose");
    }
    if (c->dec == ARC_D_TOP) {
        arc__log(st, "turn_skipped", "%s's turn is skipped.", st->names[seat]);
    } else {
        arc__log(st, "decision_skipped", "%s's decision (%s) is skipped.", st->names[seat],
                 arc_dec_name[c->dec]);
    }
    int round = c->round;
    int phase = c->phase;
    for (int guard = 0; guard < 1000 && n > 0; guard++) {
        struct arc_action a = least(c, seat, opts, n);
        int rc = arc__act(st, seat, &a, err);
        if (rc != GAME_OK) {
            return rc;
        }
        if (c->over || c->round != round || c->phase != phase || c->dec == ARC_D_TOP) {
            break;
        }
        n = arc__options(c, seat, opts, ARC_MAX_OPTS);
    }
    return GAME_OK;
}
