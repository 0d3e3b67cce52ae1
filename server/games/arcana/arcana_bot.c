/* SPDX-License-Identifier: MIT */
/*
 * arcana_bot.c - what a bot searches Res Arcana with (game.h, struct
 * game_bot): the determinizer that redraws everything a seat cannot see
 * (docs/rules/arcana.md 14), a light playout policy and a value estimate
 * from points and progress. Pure like the rest of the core: it reads and
 * writes only the state it is handed and draws only from the generator
 * the caller hands it.
 */
#include <string.h>

#include "arcana.h"

/* ---- Determinizing (docs/rules/arcana.md 14.1) ---- */

/* Games 2 and 3 of a duel: each seat plays the cards it drafted face up,
 * so the cards out of the game are known and a seat's hidden cards can
 * only trade places with its own. */
static bool duel_known_sets(const struct arc_core *c)
{
    return c->match.on && c->match.game >= 2;
}

/* Whether `me` cannot see which card lies at card i's place. */
static bool is_hidden(const struct arc_core *c, int me, int i)
{
    const struct arc_cardst *k = &c->card[i];
    switch (k->loc) {
    case ARC_L_DECK:
    case ARC_L_MDECK:
        return true;
    case ARC_L_OUT:
        if (i >= ARC_FIRST_MAGE && i < ARC_FIRST_ITEM) {
            return true;
        }
        return i < ARC_NART && !duel_known_sets(c);
    case ARC_L_HAND:
    case ARC_L_PACK:
    case ARC_L_LOOK:
    case ARC_L_MAGEOPT:
        return k->owner != me;
    case ARC_L_KEPT:
        return k->owner != me && c->phase != ARC_PH_MATCH_DRAFT;
    default:
        return false;
    }
}

/* One kind of card redrawn on its own: cards [first, last) that trade
 * places among the zones `locs` of the seats (in seat order) and the zone
 * `rest` (owner -1, which takes what is left), with `pinned` (top first)
 * known to `me` on top of `pin_loc` of `pin_owner`. */
struct redraw {
    int first, last;
    uint8_t locs[5];
    int nlocs;
    uint8_t rest;
    const int8_t *pinned;
    int npinned;
    uint8_t pin_loc;
    int8_t pin_owner;
};

/* Puts card i at `loc` of `owner` as the newest card of that zone: out of
 * play, straight and empty. */
static void put(struct arc_core *c, int i, int loc, int owner)
{
    struct arc_cardst *k = &c->card[i];
    k->loc = (uint8_t)loc;
    k->owner = (int8_t)owner;
    k->turned = 0;
    k->pad = 0;
    k->seq = ++c->seq;
    memset(k->ess, 0, sizeof(k->ess));
}

static bool is_pinned(const struct redraw *d, int i)
{
    for (int j = 0; j < d->npinned; j++) {
        if (d->pinned[j] == i) {
            return true;
        }
    }
    return false;
}

/* Redraws the hidden cards of `d` whose group is `group` (a seat in games
 * 2 and 3 of a duel, else 0 for all): the unseen ones in increasing id
 * order, shuffled with `rng` and dealt back zone by zone with the zones'
 * sizes, the pinned ones last on top of their zone. */
static void redraw_group(struct arc_core *c, int me, const struct redraw *d, int group,
                         bool by_owner, struct game_rng *rng)
{
    int8_t pool[ARC_NCARDS];
    int npool = 0;
    for (int i = d->first; i < d->last; i++) {
        if (is_hidden(c, me, i) && (!by_owner || c->card[i].owner == group) && !is_pinned(d, i)) {
            pool[npool++] = (int8_t)i;
        }
    }
    int counts[ARC_MAX_SEATS][5] = {{0}};
    for (int i = d->first; i < d->last; i++) {
        const struct arc_cardst *k = &c->card[i];
        if (k->owner < 0 || k->owner >= c->nseats || (by_owner && k->owner != group) ||
            !is_hidden(c, me, i)) {
            continue;
        }
        for (int z = 0; z < d->nlocs; z++) {
            counts[k->owner][z] += k->loc == d->locs[z];
        }
    }
    for (int z = 0; z < d->nlocs; z++) {
        if (d->locs[z] == d->pin_loc && d->pin_owner >= 0 && (!by_owner || d->pin_owner == group)) {
            counts[d->pin_owner][z] -= d->npinned;
        }
    }
    game_rng_shuffle(rng, pool, (uint32_t)npool, 1);
    int k = 0;
    for (int s = 0; s < c->nseats; s++) {
        for (int z = 0; z < d->nlocs; z++) {
            for (int j = 0; j < counts[s][z] && k < npool; j++) {
                put(c, pool[k++], d->locs[z], s);
            }
        }
    }
    while (k < npool) {
        put(c, pool[k++], d->rest, -1);
    }
    if (!by_owner || group == d->pin_owner) {
        for (int j = d->npinned - 1; j >= 0; j--) {
            put(c, d->pinned[j], d->pin_loc, d->pin_owner);
        }
    }
}

/* The known tops of `me` that are still hidden cards of [first, last):
 * at most as many as the zone holds, top first. */
static int pin_list(const struct arc_core *c, int me, const int8_t *known, int nknown, int first,
                    int last, int loc, int owner, int8_t ret[3])
{
    int room = 0;
    for (int i = first; i < last; i++) {
        room += c->card[i].loc == loc && c->card[i].owner == owner;
    }
    int n = 0;
    for (int j = 0; j < nknown && j < 3 && n < room; j++) {
        int i = known[j];
        bool dup = false;
        for (int m = 0; m < n; m++) {
            dup = dup || ret[m] == i;
        }
        if (i >= first && i < last && is_hidden(c, me, i) && !dup) {
            ret[n++] = (int8_t)i;
        }
    }
    return n;
}

static void redraw(struct arc_core *c, int me, const struct redraw *d, struct game_rng *rng)
{
    if (d->first < ARC_NART && duel_known_sets(c)) {
        for (int s = 0; s < c->nseats; s++) {
            redraw_group(c, me, d, s, true, rng);
        }
    } else {
        redraw_group(c, me, d, 0, false, rng);
    }
}

/* The top `n` cards of a zone, top first, into a known list of 3. */
static void known_from_top(const struct arc_core *c, int loc, int owner, int8_t list[3], uint8_t *n)
{
    int8_t v[ARC_NCARDS];
    int nv = arc__zone(c, loc, owner, v);
    if (*n > nv) {
        *n = (uint8_t)nv;
    }
    if (*n > 3) {
        *n = 3;
    }
    memset(list, 0, 3);
    for (int j = 0; j < *n; j++) {
        list[j] = v[nv - 1 - j];
    }
}

/* A fresh choice among the cards of a zone, or -1 when it is empty. */
static int8_t pick_of(const struct arc_core *c, int loc, int owner, struct game_rng *rng)
{
    int8_t v[ARC_NCARDS];
    int n = arc__zone(c, loc, owner, v);
    return n > 0 ? v[game_rng_below(rng, (uint32_t)n)] : -1;
}

static void determinize(void *state, int me, struct game_rng *rng)
{
    struct arc_core *c = &((struct arc_state *)state)->c;
    struct arc_res *r = &c->res;
    struct arc_seat *mine = &c->seat[me];
    for (int i = 0; i < 4; i++) {
        c->rng.s[i] = game_rng_next(rng);
    }
    c->rng.s[0] |= 1;

    int8_t pin_art[3];
    int8_t pin_mon[3];
    struct redraw art = {
        .first = 0,
        .last = ARC_NART,
        .locs = {ARC_L_HAND, ARC_L_DECK, ARC_L_PACK, ARC_L_KEPT, ARC_L_LOOK},
        .nlocs = 5,
        .rest = ARC_L_OUT,
        .pinned = pin_art,
        .npinned = pin_list(c, me, mine->known_own, mine->known_own_n, 0, ARC_NART, ARC_L_DECK, me,
                            pin_art),
        .pin_loc = ARC_L_DECK,
        .pin_owner = (int8_t)me,
    };
    struct redraw mon = {
        .first = ARC_FIRST_MON,
        .last = ARC_FIRST_POP,
        .locs = {ARC_L_LOOK},
        .nlocs = 1,
        .rest = ARC_L_MDECK,
        .pinned = pin_mon,
        .npinned = pin_list(c, me, mine->known_mon, mine->known_mon_n, ARC_FIRST_MON, ARC_FIRST_POP,
                            ARC_L_MDECK, -1, pin_mon),
        .pin_loc = ARC_L_MDECK,
        .pin_owner = -1,
    };
    struct redraw mage = {
        .first = ARC_FIRST_MAGE,
        .last = ARC_FIRST_ITEM,
        .locs = {ARC_L_MAGEOPT},
        .nlocs = 1,
        .rest = ARC_L_OUT,
        .pinned = NULL,
        .npinned = 0,
        .pin_loc = ARC_L_OUT,
        .pin_owner = -1,
    };
    redraw(c, me, &art, rng);
    redraw(c, me, &mon, rng);
    redraw(c, me, &mage, rng);

    /* What the other seats know or chose in secret follows the new deal. */
    for (int s = 0; s < c->nseats; s++) {
        struct arc_seat *p = &c->seat[s];
        if (s == me) {
            memset(p->known_own + p->known_own_n, 0, (size_t)(3 - p->known_own_n));
            memset(p->known_mon + p->known_mon_n, 0, (size_t)(3 - p->known_mon_n));
            continue;
        }
        known_from_top(c, ARC_L_DECK, s, p->known_own, &p->known_own_n);
        known_from_top(c, ARC_L_MDECK, -1, p->known_mon, &p->known_mon_n);
        if (p->mage_pick >= 0) {
            p->mage_pick = pick_of(c, ARC_L_MAGEOPT, s, rng);
        }
        if (p->draft_pick >= 0) {
            p->draft_pick = pick_of(c, ARC_L_PACK, s, rng);
        }
    }
    /* An open look of another seat now holds the cards dealt to it. */
    int8_t v[ARC_NCARDS];
    int nlook = r->actor >= 0 && r->actor < c->nseats ? arc__zone(c, ARC_L_LOOK, r->actor, v) : 0;
    if (nlook == 0) {
        memset(r->look_cards, 0, sizeof(r->look_cards));
    } else if (r->actor != me) {
        memset(r->look_cards, 0, sizeof(r->look_cards));
        for (int j = 0; j < nlook && j < 3; j++) {
            r->look_cards[j] = v[j];
        }
    }
}

/* ---- Playouts ---- */

static bool type_is(const json_t *a, const char *type)
{
    const char *t = json_string_value(json_object_get(a, "type"));
    return t && strcmp(t, type) == 0;
}

/* Whether listed power `a` would only straighten a component that is
 * already straight (the Guard Dog's power 0 used while straight, D-1 of
 * docs/rules/arcana.md): legal, but it spends essences for nothing. */
static bool is_idle_power(const struct arc_core *c, const json_t *a)
{
    int card = arc__card_find(json_string_value(json_object_get(a, "card")));
    json_int_t p = json_integer_value(json_object_get(a, "power"));
    if (card < 0 || p < 0 || p >= arc_cards[card].npw || c->card[card].turned) {
        return false;
    }
    const struct arc_power *pw = &arc_cards[card].pw[p];
    for (int i = 0; i < pw->neff; i++) {
        if (pw->eff[i].op != ARC_OP_STRAIGHTEN_SELF) {
            return false;
        }
    }
    return pw->neff > 0;
}

/* At the top of a turn, points (a monument, a Place of Power) come first
 * most of the time, then any building (an artifact too), then powers; a
 * pass only when little else is left; an idle power counts as nothing
 * useful. A Collect takes the essences, a Golden Statue is used.
 * Everything else is uniform. */
static size_t playout(const void *state, int seat, const json_t *legal, struct game_rng *rng)
{
    const struct arc_core *c = &((const struct arc_state *)state)->c;
    size_t n = json_array_size(legal);
    (void)seat;
    if (n <= 1) {
        return 0;
    }
    uint32_t roll = game_rng_below(rng, 100);
    if (c->dec == ARC_D_TOP) {
        size_t build[ARC_MAX_OPTS];
        size_t useful[ARC_MAX_OPTS];
        size_t points[ARC_MAX_OPTS];
        size_t nb = 0;
        size_t nu = 0;
        size_t np = 0;
        size_t pass = n;
        for (size_t i = 0; i < n && i < ARC_MAX_OPTS; i++) {
            const json_t *a = json_array_get(legal, i);
            if (type_is(a, "monument") || type_is(a, "pop")) {
                points[np++] = i;
                build[nb++] = i;
                useful[nu++] = i;
            } else if (type_is(a, "place")) {
                build[nb++] = i;
                useful[nu++] = i;
            } else if (type_is(a, "power") && !is_idle_power(c, a)) {
                useful[nu++] = i;
            } else if (type_is(a, "pass")) {
                pass = i;
            }
        }
        if (np > 0 && roll < 70) {
            return points[game_rng_below(rng, (uint32_t)np)];
        }
        if (nb > 0 && roll < 80) {
            return build[game_rng_below(rng, (uint32_t)nb)];
        }
        if (nu > 0 && roll < 95) {
            return useful[game_rng_below(rng, (uint32_t)nu)];
        }
        if (nu == 0 && pass < n && roll < 50) {
            return pass;
        }
        return game_rng_below(rng, (uint32_t)n);
    }
    if ((c->dec == ARC_D_TAKE || c->dec == ARC_D_STATUE) && roll < 85) {
        for (size_t i = 0; i < n; i++) {
            const json_t *a = json_array_get(legal, i);
            if (type_is(a, "take") || json_is_true(json_object_get(a, "use"))) {
                return i;
            }
        }
    }
    return game_rng_below(rng, (uint32_t)n);
}

/* ---- Value ---- */

#define VALUE_TEMP 2.75 /* points of lead that multiply the odds by e */

/* e^x for x <= 0 as (1 + x/16)^16: monotone, 1 at 0, 0 below -16. */
static double exp_neg(double x)
{
    double y = 1.0 + x / 16.0;
    if (y <= 0.0) {
        return 0.0;
    }
    for (int i = 0; i < 4; i++) {
        y *= y;
    }
    return y;
}

/* Points now, plus progress: essences in the pool (Gold twice) and on own
 * components, and own artifacts in play. */
static double strength(const struct arc_core *c, int s)
{
    const int32_t *p = c->seat[s].pool;
    double ess = (double)p[ARC_E] + p[ARC_L] + p[ARC_C] + p[ARC_D] + 2.0 * p[ARC_G];
    double on_cards = 0;
    int arts = 0;
    for (int i = 0; i < ARC_NCARDS; i++) {
        const struct arc_cardst *k = &c->card[i];
        if (k->loc != ARC_L_PLAY || k->owner != s) {
            continue;
        }
        arts += i < ARC_NART;
        on_cards += (double)k->ess[ARC_E] + k->ess[ARC_L] + k->ess[ARC_C] + k->ess[ARC_D] +
                    2.0 * k->ess[ARC_G];
    }
    if (ess > 40) {
        ess = 40;
    }
    if (on_cards > 40) {
        on_cards = 40;
    }
    return arc__vp(c, s) + 0.05 * ess + 0.06 * on_cards + 0.8 * arts;
}

/* A duel: the chance seat 0 takes the match from score a:b before game g,
 * game g going to seat 0 with chance p and any later game even; a shared
 * match counts half. */
static double match_chance(int a, int b, int g, double p)
{
    if (a >= 2 || b >= 2 || g > 3) {
        return a > b ? 1.0 : a < b ? 0.0 : 0.5;
    }
    return p * match_chance(a + 1, b, g + 1, 0.5) + (1 - p) * match_chance(a, b + 1, g + 1, 0.5);
}

static void value(const void *state, double ret[GAME_MAX_SEATS])
{
    const struct arc_core *c = &((const struct arc_state *)state)->c;
    int n = c->nseats;
    if (c->over) {
        int k = 0;
        for (int s = 0; s < n; s++) {
            k += (c->winners >> s) & 1;
        }
        for (int s = 0; s < n; s++) {
            ret[s] = k > 0 && ((c->winners >> s) & 1) ? 1.0 / k : 0.0;
        }
        return;
    }
    bool playing = c->phase != ARC_PH_MATCH_FIRST && c->phase != ARC_PH_MATCH_DRAFT;
    double str[ARC_MAX_SEATS];
    for (int s = 0; s < n; s++) {
        str[s] = playing ? strength(c, s) : 0.0;
    }
    double top = str[0];
    for (int s = 1; s < n; s++) {
        top = str[s] > top ? str[s] : top;
    }
    double sum = 0;
    for (int s = 0; s < n; s++) {
        ret[s] = exp_neg((str[s] - top) / VALUE_TEMP);
        sum += ret[s];
    }
    for (int s = 0; s < n; s++) {
        ret[s] /= sum;
    }
    if (c->match.on) {
        double p0 = match_chance(c->match.score[0], c->match.score[1], c->match.game, ret[0]);
        ret[0] = p0;
        ret[1] = 1.0 - p0;
    }
}

const struct game_bot arcana_bot = {
    .determinize = determinize,
    .playout = playout,
    .value = value,
    .playout_depth = 30,
};
