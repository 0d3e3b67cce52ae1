/* SPDX-License-Identifier: MIT */
/*
 * arcana_rules.c - the Res Arcana rules: zones, costs and discounts, the
 * step machine that resolves every action one small decision at a time
 * (R-arcana-5.7), Collect, life loss, passing, victory checks and the turn
 * flow. Pure: no I/O, no clocks, randomness only from the state's generator.
 */
#include <stdarg.h>
#include <string.h>

#include "arcana.h"
#include "json_util.h"

/* Pseudo-primitives of the actions that are not powers. */
enum {
    OPX_PLACE_HAND = 100, /* pay for res.src and put it into play */
    OPX_DISCARD_GAIN,     /* 1 Gold or any 2 non-Gold */
    OPX_ITEM,             /* the pass's new magic item */
};

static const struct arc_op prog_place[1] = {{OPX_PLACE_HAND, {0}, 0, 0, 0, 0, 0, 0}};
static const struct arc_op prog_discard[1] = {{OPX_DISCARD_GAIN, {0}, 0, 0, 0, 0, 0, 0}};
static const struct arc_op prog_item[1] = {{OPX_ITEM, {0}, 0, 0, 0, 0, 0, 0}};

const char *const arc_ess_name[ARC_NESS] = {"elan", "life", "calm", "death", "gold"};

void arc__log(struct arc_state *st, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    game_format_msg(st->log[st->log_head], ARC_LOG_LEN, st->log_msg[st->log_head], ARC_LOG_LEN, key,
                    fmt, ap);
    va_end(ap);
    st->log_head = (int8_t)((st->log_head + 1) % ARC_LOG_N);
    st->log_seq++;
    if (st->log_n < ARC_LOG_N) {
        st->log_n++;
    }
}

int arc__card_find(const char *id)
{
    if (!id) {
        return -1;
    }
    /* The first byte before the whole id: most cards differ there. */
    for (int i = 0; i < ARC_NCARDS; i++) {
        if (arc_cards[i].id[0] == id[0] && strcmp(arc_cards[i].id, id) == 0) {
            return i;
        }
    }
    return -1;
}

int arc__printed_total(int card)
{
    const struct arc_card *k = &arc_cards[card];
    int t = k->cost_any;
    for (int e = 0; e < ARC_NESS; e++) {
        t += k->cost[e];
    }
    return t;
}

/* The state that holds `c` (its first member), for the log. */
static struct arc_state *state_of(struct arc_core *c)
{
    return (struct arc_state *)(void *)c;
}

/* ---- Counts (I-22) ---- */

static int32_t cap_add(int32_t v, int64_t d)
{
    int64_t r = (int64_t)v + d;
    return r > ARC_CAP ? ARC_CAP : (int32_t)r;
}

static void gain(struct arc_core *c, int seat, int e, int64_t n)
{
    c->seat[seat].pool[e] = cap_add(c->seat[seat].pool[e], n);
}

static void put_on(struct arc_core *c, int card, int e, int64_t n)
{
    c->card[card].ess[e] = cap_add(c->card[card].ess[e], n);
}

static int64_t ess_total(const int32_t *v)
{
    int64_t t = 0;
    for (int e = 0; e < ARC_NESS; e++) {
        t += v[e];
    }
    return t;
}

/* ---- Zones ---- */

static int kind_rank(int card)
{
    return arc_cards[card].kind == ARC_K_MAGE       ? 0
           : arc_cards[card].kind == ARC_K_ITEM     ? 1
           : arc_cards[card].kind == ARC_K_ARTIFACT ? 2
           : arc_cards[card].kind == ARC_K_MONUMENT ? 3
                                                    : 4;
}

static void sort_cards(const struct arc_core *c, int8_t *v, int n, bool by_kind)
{
    for (int i = 1; i < n; i++) {
        int8_t x = v[i];
        int j = i - 1;
        while (j >= 0) {
            int kx = by_kind ? kind_rank(x) : 0;
            int kj = by_kind ? kind_rank(v[j]) : 0;
            if (kj < kx || (kj == kx && c->card[v[j]].seq < c->card[x].seq)) {
                break;
            }
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static bool in_zone(const struct arc_core *c, int card, int loc, int owner)
{
    return c->card[card].loc == loc && (owner < 0 || c->card[card].owner == owner);
}

int arc__zone(const struct arc_core *c, int loc, int owner, int8_t ret[ARC_NCARDS])
{
    int n = 0;
    for (int i = 0; i < ARC_NCARDS; i++) {
        if (in_zone(c, i, loc, owner)) {
            ret[n++] = (int8_t)i;
        }
    }
    sort_cards(c, ret, n, false);
    return n;
}

int arc__zone_count(const struct arc_core *c, int loc, int owner)
{
    int n = 0;
    for (int i = 0; i < ARC_NCARDS; i++) {
        n += in_zone(c, i, loc, owner);
    }
    return n;
}

int arc__components(const struct arc_core *c, int seat, int8_t ret[ARC_NCARDS])
{
    int n = 0;
    for (int i = 0; i < ARC_NCARDS; i++) {
        if (c->card[i].loc == ARC_L_PLAY && c->card[i].owner == seat) {
            ret[n++] = (int8_t)i;
        }
    }
    sort_cards(c, ret, n, true);
    return n;
}

/* Moves a card; leaving play straightens it and returns its essences. */
static void move(struct arc_core *c, int card, int loc, int owner)
{
    struct arc_cardst *k = &c->card[card];
    k->loc = (uint8_t)loc;
    k->owner = (int8_t)owner;
    k->seq = ++c->seq;
    if (loc != ARC_L_PLAY) {
        k->turned = 0;
        memset(k->ess, 0, sizeof(k->ess));
    }
}

static int top_of(const struct arc_core *c, int loc, int owner)
{
    int best = -1;
    for (int i = 0; i < ARC_NCARDS; i++) {
        if (c->card[i].loc == loc && c->card[i].owner == owner &&
            (best < 0 || c->card[i].seq > c->card[best].seq)) {
            best = i;
        }
    }
    return best;
}

/* Shuffles the cards of a zone into `loc` of `owner` in a random order. */
static void shuffle_into(struct arc_core *c, int from, int owner, int loc)
{
    int8_t v[ARC_NCARDS];
    int n = arc__zone(c, from, owner, v);
    game_rng_shuffle(&c->rng, v, (uint32_t)n, 1);
    for (int i = 0; i < n; i++) {
        move(c, v[i], loc, owner);
    }
}

static void known_shift(int8_t *list, uint8_t *n)
{
    if (*n > 0) {
        memmove(list, list + 1, 2);
        (*n)--;
    }
}

/* R-arcana-7.4: the top card of a seat's deck, reshuffling the discard
 * pile when the deck is empty; -1 when both are empty. */
static int deck_take(struct arc_core *c, int seat)
{
    if (arc__zone_count(c, ARC_L_DECK, seat) == 0) {
        if (arc__zone_count(c, ARC_L_DISCARD, seat) == 0) {
            return -1;
        }
        shuffle_into(c, ARC_L_DISCARD, seat, ARC_L_DECK);
        c->seat[seat].known_own_n = 0;
    }
    int card = top_of(c, ARC_L_DECK, seat);
    known_shift(c->seat[seat].known_own, &c->seat[seat].known_own_n);
    return card;
}

static int draw(struct arc_core *c, int seat, int count)
{
    int got = 0;
    for (int i = 0; i < count; i++) {
        int card = deck_take(c, seat);
        if (card < 0) {
            break;
        }
        move(c, card, ARC_L_HAND, seat);
        c->draws[seat]++;
        got++;
    }
    return got;
}

/* The top monument leaves the deck: every known top loses its first card. */
static int monument_take(struct arc_core *c)
{
    int card = top_of(c, ARC_L_MDECK, -1);
    if (card < 0) {
        return -1;
    }
    for (int s = 0; s < c->nseats; s++) {
        known_shift(c->seat[s].known_mon, &c->seat[s].known_mon_n);
    }
    return card;
}

/* ---- Scoring (R-arcana-9) ---- */

static int count_tag(const struct arc_core *c, int seat, int tag)
{
    int n = 0;
    for (int i = 0; i < ARC_NART; i++) {
        n += c->card[i].loc == ARC_L_PLAY && c->card[i].owner == seat &&
             (arc_cards[i].tags & tag) != 0;
    }
    return n;
}

int arc__vp(const struct arc_core *c, int seat)
{
    int64_t vp = c->first == seat ? 1 : 0;
    for (int i = 0; i < ARC_NCARDS; i++) {
        const struct arc_card *k = &arc_cards[i];
        if (c->card[i].loc != ARC_L_PLAY || c->card[i].owner != seat) {
            continue;
        }
        vp += k->vp;
        for (int f = 0; f < k->nvp; f++) {
            if (k->vp_per[f].per == ARC_VP_ESSENCE) {
                vp += (int64_t)k->vp_per[f].vp * c->card[i].ess[k->vp_per[f].arg];
            } else {
                vp += k->vp_per[f].vp * count_tag(c, seat, k->vp_per[f].arg);
            }
        }
    }
    if (c->statue_used && c->card[ARC_ID_GOLDEN_STATUE].loc == ARC_L_PLAY &&
        c->card[ARC_ID_GOLDEN_STATUE].owner == seat) {
        vp += 3;
    }
    return vp > 2000000000 ? 2000000000 : (int)vp;
}

int arc__tiebreak(const struct arc_core *c, int seat)
{
    return (int)(ess_total(c->seat[seat].pool) + c->seat[seat].pool[ARC_G]);
}

/* ---- Costs and discounts (R-arcana-6) ---- */

struct pcost {
    int f[ARC_NESS];
    int any;
    int r;  /* removed by discounts */
    int k;  /* to pay */
    int da; /* discount that may remove Gold */
};

static void place_cost(const struct arc_core *c, int seat, int card, int reduce, int flag,
                       struct pcost *p)
{
    const struct arc_card *k = &arc_cards[card];
    int dn = 0;
    int da = 0;
    int sf = 0;
    memset(p, 0, sizeof(*p));
    for (int e = 0; e < ARC_NESS; e++) {
        p->f[e] = k->cost[e];
        sf += k->cost[e];
    }
    p->any = k->cost_any;
    for (int i = 0; i < ARC_NCARDS; i++) {
        const struct arc_card *d = &arc_cards[i];
        if (c->card[i].loc != ARC_L_PLAY || c->card[i].owner != seat || !d->disc.applies) {
            continue;
        }
        if (d->disc.applies == ARC_DISC_DRAGON && !(k->tags & ARC_TAG_DRAGON)) {
            continue;
        }
        if (d->disc.nogold) {
            dn += d->disc.amount;
        } else {
            da += d->disc.amount;
        }
    }
    if (flag & ARC_PF_NOGOLD) {
        dn += reduce;
    } else {
        da += reduce;
    }
    int total = sf + p->any;
    int ng = sf - p->f[ARC_G] + p->any;
    int r = (dn < ng ? dn : ng) + da;
    p->r = r < total ? r : total;
    p->da = da;
    p->k = total - p->r;
    if (flag & ARC_PF_ZERO) {
        p->r = total;
        p->k = 0;
        p->da = total;
    }
}

/* The spec's exact validity test of a whole payment. */
static bool pay_valid(const struct pcost *p, const int32_t *pool, const int *pay)
{
    int sum = 0;
    int def = 0;
    for (int e = 0; e < ARC_NESS; e++) {
        if (pay[e] > pool[e]) {
            return false;
        }
        sum += pay[e];
        int d = p->f[e] - pay[e];
        def += d > 0 ? d : 0;
    }
    int dg = p->f[ARC_G] - pay[ARC_G];
    return sum == p->k && (dg > 0 ? dg : 0) <= p->da && def <= p->r;
}

/* Some valid payment extends `q` (R-arcana-6, greedy). `pool` is what the
 * payer held before paying q. */
static bool pay_completable(const struct pcost *p, const int32_t *pool, const int *q)
{
    int pay[ARC_NESS];
    int avail[ARC_NESS];
    int k = p->k;
    for (int e = 0; e < ARC_NESS; e++) {
        pay[e] = q[e];
        avail[e] = pool[e] - q[e];
        k -= q[e];
        if (avail[e] < 0) {
            return false;
        }
    }
    if (k < 0) {
        return false;
    }
    static const int order[ARC_NESS] = {ARC_G, ARC_E, ARC_L, ARC_C, ARC_D};
    for (int i = 0; i < ARC_NESS; i++) {
        int e = order[i];
        int want = p->f[e] - pay[e];
        int x = want < avail[e] ? want : avail[e];
        x = x < k ? x : k;
        if (x > 0) {
            pay[e] += x;
            avail[e] -= x;
            k -= x;
        }
    }
    for (int e = 0; e < ARC_NESS && k > 0; e++) {
        int x = avail[e] < k ? avail[e] : k;
        pay[e] += x;
        k -= x;
    }
    return k == 0 && pay_valid(p, pool, pay);
}

static bool can_place(const struct arc_core *c, int seat, int card, int reduce, int flag)
{
    struct pcost p;
    int q[ARC_NESS] = {0};
    place_cost(c, seat, card, reduce, flag, &p);
    return pay_completable(&p, c->seat[seat].pool, q);
}

/* ---- Powers (R-arcana-7) ---- */

static bool state_ok(const struct arc_core *c, int card, int when)
{
    bool turned = c->card[card].turned != 0;
    return when == ARC_W_EITHER || (when == ARC_W_TURNED) == turned;
}

static bool destroy_target_ok(const struct arc_core *c, int seat, int card, int self,
                              const struct arc_op *o)
{
    if (card >= ARC_NART || c->card[card].loc != ARC_L_PLAY || c->card[card].owner != seat) {
        return false;
    }
    if (o->flag && card == self) {
        return false;
    }
    return o->tag == 0 || (arc_cards[card].tags & o->tag) != 0;
}

static bool turn_target_ok(const struct arc_core *c, int seat, int card, int self, int tag)
{
    return card != self && c->card[card].loc == ARC_L_PLAY && c->card[card].owner == seat &&
           !c->card[card].turned && (arc_cards[card].tags & tag) != 0;
}

/* Every cost part of power `pw` of `card` can be paid at once (5.7). */
static bool cost_payable(const struct arc_core *c, int seat, int card, const struct arc_power *pw)
{
    int32_t need[ARC_NESS] = {0};
    const int32_t *pool = c->seat[seat].pool;
    for (int i = 0; i < pw->ncost; i++) {
        const struct arc_op *o = &pw->cost[i];
        if (o->op == ARC_OP_PAY) {
            for (int e = 0; e < ARC_NESS; e++) {
                need[e] += o->ess[e];
            }
        }
    }
    for (int e = 0; e < ARC_NESS; e++) {
        if (need[e] > pool[e]) {
            return false;
        }
    }
    for (int i = 0; i < pw->ncost; i++) {
        const struct arc_op *o = &pw->cost[i];
        bool ok = true;
        switch (o->op) {
        case ARC_OP_TURN_SELF:
            ok = !c->card[card].turned;
            break;
        case ARC_OP_PAY_ANY:
        case ARC_OP_PAY_CHOICE: {
            int64_t have = 0;
            for (int e = 0; e < ARC_NESS; e++) {
                if (o->mask & (1 << e)) {
                    have += pool[e] - need[e];
                }
            }
            ok = have >= (o->op == ARC_OP_PAY_ANY ? o->count : 1);
            break;
        }
        case ARC_OP_REMOVE_SELF:
            for (int e = 0; e < ARC_NESS; e++) {
                ok = ok && c->card[card].ess[e] >= o->ess[e];
            }
            break;
        case ARC_OP_TURN_OWN:
            ok = false;
            for (int t = 0; t < ARC_NCARDS && !ok; t++) {
                ok = turn_target_ok(c, seat, t, card, o->tag);
            }
            break;
        case ARC_OP_DESTROY_OWN:
            ok = false;
            for (int t = 0; t < ARC_NART && !ok; t++) {
                ok = destroy_target_ok(c, seat, t, card, o);
            }
            break;
        case ARC_OP_DISCARD_HAND:
            ok = arc__zone_count(c, ARC_L_HAND, seat) > 0;
            break;
        default:
            break;
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

static bool power_usable(const struct arc_core *c, int seat, int card, int p)
{
    const struct arc_card *k = &arc_cards[card];
    if (p < 0 || p >= k->npw || k->pw[p].kind != ARC_PW_ACTION) {
        return false;
    }
    if (c->card[card].loc != ARC_L_PLAY || c->card[card].owner != seat) {
        return false;
    }
    return state_ok(c, card, k->pw[p].when) && cost_payable(c, seat, card, &k->pw[p]);
}

/* A React of `seat`'s `card` answers the life loss now being resolved. */
static bool react_usable(const struct arc_core *c, int seat, int card, int p)
{
    const struct arc_card *k = &arc_cards[card];
    if (p < 0 || p >= k->npw || k->pw[p].kind != ARC_PW_REACT) {
        return false;
    }
    const struct arc_power *pw = &k->pw[p];
    bool dragon = (arc_cards[c->res.src].tags & ARC_TAG_DRAGON) != 0;
    if (pw->trigger != ARC_TR_LIFE && !(pw->trigger == ARC_TR_DRAGON && dragon)) {
        return false;
    }
    if (c->card[card].loc != ARC_L_PLAY || c->card[card].owner != seat) {
        return false;
    }
    return state_ok(c, card, pw->when) && cost_payable(c, seat, card, pw);
}

static void pay_fixed(struct arc_core *c, int seat, const uint8_t *ess)
{
    for (int e = 0; e < ARC_NESS; e++) {
        c->seat[seat].pool[e] -= ess[e];
    }
}

/* ---- The current program ---- */

static const struct arc_op *prog(const struct arc_core *c, int *ret_n)
{
    const struct arc_res *r = &c->res;
    *ret_n = 0;
    switch (r->kind) {
    case ARC_R_POWER: {
        const struct arc_power *pw = &arc_cards[r->src].pw[r->power];
        *ret_n = r->part == 0 ? pw->ncost : pw->neff;
        return r->part == 0 ? pw->cost : pw->eff;
    }
    case ARC_R_CLAIM:
        *ret_n = r->part == 0 ? 0 : arc_cards[r->src].nclaim;
        return arc_cards[r->src].on_claim;
    case ARC_R_PLACE:
        *ret_n = r->part == 0 ? 1 : 0;
        return prog_place;
    case ARC_R_DISCARD:
        *ret_n = r->part == 0 ? 1 : 0;
        return prog_discard;
    case ARC_R_PASS:
        *ret_n = r->part == 0 ? 1 : 0;
        return prog_item;
    default:
        return NULL;
    }
}

static const struct arc_op *cur_op(const struct arc_core *c)
{
    int n;
    const struct arc_op *p = prog(c, &n);
    return p && c->res.pc < n ? &p[c->res.pc] : NULL;
}

static void op_done(struct arc_core *c)
{
    c->res.pc++;
    c->res.entered = 0;
    c->dec = ARC_D_NONE;
}

static void set_dec(struct arc_core *c, int dec, int seat)
{
    c->dec = (uint8_t)dec;
    c->dec_seat = (int8_t)seat;
}

static void start_pay(struct arc_core *c, int mode, int mask, int left)
{
    c->res.paymode = (uint8_t)mode;
    c->res.mask = (uint8_t)mask;
    c->res.left = (int16_t)left;
    memset(c->res.paid, 0, sizeof(c->res.paid));
    set_dec(c, ARC_D_PAY, c->res.actor);
}

static void start_gain(struct arc_core *c, int mask, int left, int dest)
{
    c->res.mask = (uint8_t)mask;
    c->res.left = (int16_t)left;
    c->res.dest = (uint8_t)dest;
    if (left <= 0) {
        c->res.gainx = 0;
        op_done(c);
        return;
    }
    set_dec(c, ARC_D_GAIN, c->res.actor);
}

static void start_target(struct arc_core *c, int why, int tag, int seat)
{
    c->res.why = (uint8_t)why;
    c->res.tag = (uint8_t)tag;
    set_dec(c, ARC_D_TARGET, seat);
}

static void finish_placement(struct arc_core *c)
{
    int card = c->res.placing;
    move(c, card, ARC_L_PLAY, c->res.actor);
    c->res.placing = -1;
    op_done(c);
}

/* Begins paying for `card` (already in ARC_L_PLACING). */
static void start_placement(struct arc_core *c, int card, int reduce, int flag)
{
    struct pcost p;
    place_cost(c, c->res.actor, card, reduce, flag, &p);
    c->res.placing = (int8_t)card;
    c->res.place_reduce = (uint8_t)reduce;
    c->res.place_flag = (uint8_t)flag;
    c->res.place_k = (int16_t)p.k;
    move(c, card, ARC_L_PLACING, c->res.actor);
    if (p.k == 0) {
        finish_placement(c);
        return;
    }
    start_pay(c, 1, ARC_ALL_MASK, p.k);
}

static void victory_start(struct arc_core *c, bool mid);

/* ---- Life loss (R-arcana-7.3) ---- */

static void ll_next(struct arc_core *c)
{
    int n = c->nseats;
    for (; c->res.ll_i < n; c->res.ll_i++) {
        int r = (c->res.actor + c->res.ll_i) % n;
        if (c->seat[r].passed || ess_total(c->seat[r].pool) == 0) {
            continue;
        }
        c->res.ll_rival = (int8_t)r;
        c->res.ll_stage = 0;
        set_dec(c, ARC_D_RESPOND, r);
        return;
    }
    c->res.ll_rival = -1;
    op_done(c);
}

static void ll_rival_done(struct arc_core *c)
{
    c->res.ll_i++;
    c->dec = ARC_D_NONE;
    ll_next(c);
}

static void ll_lose(struct arc_core *c, int r)
{
    int32_t *pool = c->seat[r].pool;
    int amount = c->res.ll_amount;
    int l = pool[ARC_L] < amount ? pool[ARC_L] : amount;
    pool[ARC_L] -= l;
    int64_t need = 2LL * (amount - l);
    int64_t other = ess_total(pool) - pool[ARC_L];
    const char *name = state_of(c)->names[r];
    if (need == 0) {
        arc__log(state_of(c), "lose_life", "%s loses %d Life.", name, l);
        ll_rival_done(c);
    } else if (need >= other) {
        arc__log(state_of(c), "lose_life_all", "%s loses %d Life and every other essence.", name,
                 l);
        for (int e = 0; e < ARC_NESS; e++) {
            if (e != ARC_L) {
                pool[e] = 0;
            }
        }
        ll_rival_done(c);
    } else {
        arc__log(state_of(c), "lose_life_more", "%s loses %d Life and more essences.", name, l);
        c->res.ll_stage = 2;
        c->res.left = (int16_t)need;
        set_dec(c, ARC_D_LOSE, r);
    }
}

/* ---- Entering a primitive ---- */

static void look_start(struct arc_core *c, int deck);

/* Starts primitive `o` of the current action; it either finishes at once
 * (op_done) or opens a decision. */
static void enter_op(struct arc_core *c, const struct arc_op *o)
{
    struct arc_res *r = &c->res;
    int me = r->actor;
    int src = r->src;
    switch (o->op) {
    case ARC_OP_TURN_SELF:
    case ARC_OP_PAY:
    case ARC_OP_REMOVE_SELF:
    case ARC_OP_DESTROY_SELF:
        op_done(c); /* paid when the action began */
        break;
    case ARC_OP_PAY_ANY:
        start_pay(c, 0, o->mask, o->count);
        break;
    case ARC_OP_PAY_CHOICE:
        start_pay(c, 2, o->mask, 1);
        break;
    case ARC_OP_PAY_SAME:
        r->mask = o->mask;
        r->bind_x = 0;
        r->bind_type = -1;
        set_dec(c, ARC_D_SAME, me);
        break;
    case ARC_OP_TURN_OWN:
        start_target(c, ARC_WHY_TURN, o->tag, me);
        break;
    case ARC_OP_DESTROY_OWN:
        r->flag = o->flag;
        start_target(c, ARC_WHY_DESTROY, o->tag, me);
        break;
    case ARC_OP_DISCARD_HAND:
        start_target(c, ARC_WHY_DISCARD, 0, me);
        break;
    case ARC_OP_GAIN:
        for (int e = 0; e < ARC_NESS; e++) {
            gain(c, me, e, o->ess[e]);
        }
        op_done(c);
        break;
    case ARC_OP_GAIN_ANY:
    case ARC_OP_GAIN_CHOICE:
        start_gain(c, o->mask, o->op == ARC_OP_GAIN_ANY ? o->count : 1, ARC_DEST_POOL);
        break;
    case ARC_OP_PLACE_SELF:
        for (int e = 0; e < ARC_NESS; e++) {
            put_on(c, src, e, o->ess[e]);
        }
        op_done(c);
        break;
    case ARC_OP_PLACE_ANY_SELF:
        start_gain(c, o->mask, o->count, ARC_DEST_SELF);
        break;
    case ARC_OP_PLACE_SPENT_SELF:
        if (r->bind_type >= 0) {
            put_on(c, src, r->bind_type, 1);
        }
        op_done(c);
        break;
    case ARC_OP_PLACE_SPENT_OWN:
        start_target(c, ARC_WHY_RECEIVE, 0, me);
        break;
    case ARC_OP_RIVALS_GAIN:
        for (int s = 0; s < c->nseats; s++) {
            for (int e = 0; e < ARC_NESS; e++) {
                if (s != me) {
                    gain(c, s, e, o->ess[e]);
                }
            }
        }
        op_done(c);
        break;
    case ARC_OP_RIVALS_LOSE:
        r->ll_i = 1;
        r->ll_amount = o->count;
        ll_next(c);
        break;
    case ARC_OP_GAIN_RIVAL:
        set_dec(c, ARC_D_RIVAL, me);
        break;
    case ARC_OP_DRAW:
        draw(c, me, o->count);
        op_done(c);
        break;
    case ARC_OP_DRAW_DISCARD:
        r->div_left = (uint8_t)draw(c, me, o->count);
        if (r->div_left == 0) {
            op_done(c);
        } else {
            start_target(c, ARC_WHY_DISCARD, 0, me);
        }
        break;
    case ARC_OP_LOOK:
        set_dec(c, ARC_D_DECK, me);
        break;
    case ARC_OP_STRAIGHTEN_OWN:
        start_target(c, ARC_WHY_STRAIGHTEN, o->tag, me);
        break;
    case ARC_OP_STRAIGHTEN_SELF:
        c->card[src].turned = 0;
        op_done(c);
        break;
    case ARC_OP_GAIN_BOUND:
        if (o->flag == 0) {
            gain(c, me, ARC_G, r->bind_x);
            op_done(c);
        } else if (r->bind_x == 0) {
            op_done(c);
        } else {
            int mask = o->mask;
            if (o->arg && r->bind_type >= 0) {
                mask &= ~(1 << r->bind_type);
            }
            r->gainx = 1;
            start_gain(c, mask, 1, ARC_DEST_POOL);
        }
        break;
    case ARC_OP_GAIN_COST:
        if (o->flag) {
            gain(c, me, ARC_G, r->bind_t + o->count);
            op_done(c);
        } else {
            start_gain(c, o->mask, r->bind_t + o->count, ARC_DEST_POOL);
        }
        break;
    case ARC_OP_PLACE_ARTIFACT:
        start_target(c, ARC_WHY_PLACE, o->tag, me);
        break;
    case ARC_OP_CHECK_VICTORY:
        victory_start(c, true);
        break;
    case OPX_PLACE_HAND:
        start_placement(c, src, 0, 0);
        break;
    case OPX_DISCARD_GAIN:
        set_dec(c, ARC_D_GAIN_DISCARD, me);
        break;
    case OPX_ITEM:
        set_dec(c, ARC_D_ITEM, me);
        break;
    default:
        op_done(c);
        break;
    }
}

/* ---- Turn flow ---- */

static void collect_begin_round(struct arc_core *c);
static void collect_step(struct arc_core *c);

void arc__reset_res(struct arc_core *c)
{
    memset(&c->res, 0, sizeof(c->res));
    c->res.placing = -1;
    c->res.ll_rival = -1;
    c->res.bind_type = -1;
    c->res.look_deck = -1;
    c->res.returned_item = -1;
    c->statue_seat = -1;
    c->over = 0;
}

void arc__reset_seat(struct arc_seat *p)
{
    memset(p, 0, sizeof(*p));
    p->mage = -1;
    p->item = -1;
    p->mage_pick = -1;
    p->draft_pick = -1;
    p->looked_deck = -1;
}

static void start_turn(struct arc_core *c, int seat)
{
    arc__reset_res(c);
    c->cur = (int8_t)seat;
    c->phase = ARC_PH_ACTIONS;
    set_dec(c, ARC_D_TOP, seat);
}

static void end_of_round(struct arc_core *c)
{
    c->res.kind = ARC_R_NONE;
    victory_start(c, false);
}

/* The action is complete: the next seat clockwise that has not passed. */
static void next_turn(struct arc_core *c)
{
    int n = c->nseats;
    c->res.kind = ARC_R_NONE;
    for (int i = 1; i <= n; i++) {
        int s = (c->cur + i) % n;
        if (!c->seat[s].passed) {
            start_turn(c, s);
            return;
        }
    }
    end_of_round(c);
}

/* The walker: runs the current action's primitives until a decision. */
static void resolve(struct arc_core *c)
{
    while (c->dec == ARC_D_NONE && c->res.kind != ARC_R_NONE && !c->over) {
        int n;
        const struct arc_op *p = prog(c, &n);
        if (c->res.pc >= n) {
            if (c->res.part == 0) {
                c->res.part = 1;
                c->res.pc = 0;
                c->res.entered = 0;
                continue;
            }
            if (c->res.kind == ARC_R_CLAIM && c->res.from_display) {
                int m = monument_take(c);
                if (m >= 0) {
                    move(c, m, ARC_L_DISPLAY, -1);
                }
            }
            if (c->res.kind == ARC_R_PASS) {
                draw(c, c->res.actor, 1);
            }
            next_turn(c);
            return;
        }
        c->res.entered = 1;
        enter_op(c, &p[c->res.pc]);
    }
}

/* ---- Victory (R-arcana-9) ---- */

static void end_game(struct arc_core *c, bool limit);

static void new_round(struct arc_core *c)
{
    c->round++;
    for (int i = 0; i < ARC_NCARDS; i++) {
        if (c->card[i].loc == ARC_L_PLAY) {
            c->card[i].turned = 0;
        }
    }
    c->first_passed = 0;
    for (int s = 0; s < c->nseats; s++) {
        c->seat[s].passed = 0;
    }
    arc__log(state_of(c), "round_begins", "Nobody has %d VP; round %d begins.", ARC_WIN_VP,
             c->round);
    collect_begin_round(c);
}

static void victory_finish(struct arc_core *c)
{
    bool mid = c->statue_mid != 0;
    int best = 0;
    for (int s = 0; s < c->nseats; s++) {
        int v = arc__vp(c, s);
        best = v > best ? v : best;
    }
    if (best >= ARC_WIN_VP || (!mid && c->round >= ARC_ROUND_LIMIT)) {
        end_game(c, best < ARC_WIN_VP);
        return;
    }
    c->statue_used = 0;
    c->statue_seat = -1;
    if (mid) {
        c->phase = ARC_PH_ACTIONS;
        op_done(c);
    } else {
        new_round(c);
    }
}

static void victory_start(struct arc_core *c, bool mid)
{
    int st = ARC_ID_GOLDEN_STATUE;
    c->statue_mid = mid;
    c->statue_used = 0;
    c->statue_seat = -1;
    if (c->card[st].loc == ARC_L_PLAY && !c->card[st].turned &&
        c->seat[c->card[st].owner].pool[ARC_G] >= 3) {
        c->statue_seat = c->card[st].owner;
        c->phase = ARC_PH_VICTORY;
        set_dec(c, ARC_D_STATUE, c->statue_seat);
        return;
    }
    victory_finish(c);
}

static void match_game_over(struct arc_core *c);

static void end_game(struct arc_core *c, bool limit)
{
    int best = -1;
    int bestt = -1;
    for (int s = 0; s < c->nseats; s++) {
        c->final_vp[s] = arc__vp(c, s);
        c->final_tb[s] = arc__tiebreak(c, s);
        if (c->final_vp[s] > best) {
            best = c->final_vp[s];
        }
    }
    for (int s = 0; s < c->nseats; s++) {
        if (c->final_vp[s] == best && c->final_tb[s] > bestt) {
            bestt = c->final_tb[s];
        }
    }
    c->winners = 0;
    for (int s = 0; s < c->nseats; s++) {
        if (c->final_vp[s] == best && c->final_tb[s] == bestt) {
            c->winners |= (uint8_t)(1u << s);
        }
    }
    c->round_limit = limit;
    for (int s = 0; s < c->nseats; s++) {
        if (c->winners & (1u << s)) {
            if (limit) {
                arc__log(state_of(c), "wins_at_limit", "%s wins with %d VP at the round limit.",
                         state_of(c)->names[s], c->final_vp[s]);
            } else {
                arc__log(state_of(c), "wins_vp", "%s wins with %d VP.", state_of(c)->names[s],
                         c->final_vp[s]);
            }
        }
    }
    c->statue_used = 0;
    c->res.kind = ARC_R_NONE;
    c->dec = ARC_D_NONE;
    if (c->match.on) {
        match_game_over(c);
        return;
    }
    c->over = 1;
    c->phase = ARC_PH_ENDED;
}

/* ---- Collect (R-arcana-4) ---- */

static int forge_owner(const struct arc_core *c)
{
    int f = ARC_ID_CURSED_FORGE;
    return c->card[f].loc == ARC_L_PLAY ? c->card[f].owner : -1;
}

static void collect_seat_begin(struct arc_core *c, int seat)
{
    struct arc_collect *col = &c->col;
    int8_t comp[ARC_NCARDS];
    int n = arc__components(c, seat, comp);
    col->seat = (int8_t)seat;
    col->stage = 0;
    col->n = 0;
    col->i = 0;
    col->gq_n = 0;
    col->gq_i = 0;
    memset(col->vault_left, 0, sizeof(col->vault_left));
    for (int i = 0; i < n; i++) {
        const struct arc_card *k = &arc_cards[comp[i]];
        for (int j = 0; j < k->ncollect; j++) {
            if (k->collect[j].op == ARC_OP_GAIN) {
                for (int e = 0; e < ARC_NESS; e++) {
                    gain(c, seat, e, k->collect[j].ess[e]);
                }
            }
        }
        if (ess_total(c->card[comp[i]].ess) > 0) {
            col->list[col->n++] = comp[i];
        }
    }
}

static void collect_queue_gains(struct arc_core *c)
{
    struct arc_collect *col = &c->col;
    int8_t comp[ARC_NCARDS];
    int n = arc__components(c, col->seat, comp);
    for (int i = 0; i < n; i++) {
        const struct arc_card *k = &arc_cards[comp[i]];
        for (int j = 0; j < k->ncollect; j++) {
            const struct arc_op *o = &k->collect[j];
            int cnt = 0;
            if (o->op == ARC_OP_GAIN_ANY) {
                cnt = o->count;
            } else if (o->op == ARC_OP_GAIN_CHOICE) {
                cnt = 1;
            } else if (o->op == ARC_OP_IF_LEFT && o->arg2 == ARC_OP_GAIN_ANY &&
                       col->vault_left[comp[i]]) {
                cnt = o->count;
            }
            if (cnt > 0 && col->gq_n < 32) {
                col->gq_mask[col->gq_n] = o->mask;
                col->gq_left[col->gq_n] = (uint8_t)cnt;
                col->gq_n++;
            }
        }
    }
}

static void collect_step(struct arc_core *c)
{
    struct arc_collect *col = &c->col;
    for (;;) {
        int s = col->seat;
        if (col->stage == 0) {
            if (col->i < col->n) {
                set_dec(c, ARC_D_TAKE, s);
                return;
            }
            collect_queue_gains(c);
            col->stage = 1;
        }
        if (col->stage == 1) {
            while (col->gq_i < col->gq_n && col->gq_left[col->gq_i] == 0) {
                col->gq_i++;
            }
            if (col->gq_i < col->gq_n) {
                set_dec(c, ARC_D_GAIN, s);
                return;
            }
            col->stage = 2;
        }
        if (col->stage == 2) {
            col->stage = 3;
            if (forge_owner(c) == s) {
                if (c->seat[s].pool[ARC_D] >= 1) {
                    set_dec(c, ARC_D_FORGE, s);
                    return;
                }
                c->card[ARC_ID_CURSED_FORGE].turned = 1;
            }
        }
        col->seats_done++;
        if (col->seats_done >= c->nseats) {
            start_turn(c, c->first);
            return;
        }
        collect_seat_begin(c, (s + 1) % c->nseats);
    }
}

static void collect_begin_round(struct arc_core *c)
{
    c->phase = ARC_PH_COLLECT;
    c->res.kind = ARC_R_NONE;
    c->col.seats_done = 0;
    collect_seat_begin(c, c->first);
    collect_step(c);
}

void arc__begin_collect(struct arc_core *c)
{
    collect_begin_round(c);
}

/* ---- Setup (R-arcana-2, 10) ---- */

static void item_phase(struct arc_core *c)
{
    int n = c->nseats;
    for (int i = 0; i < n; i++) {
        c->item_order[i] = (int8_t)((c->first - 1 - i + 2 * n) % n);
    }
    c->item_i = 0;
    c->phase = ARC_PH_SETUP_ITEM;
    set_dec(c, ARC_D_ITEM, c->item_order[0]);
}

static void mage_phase(struct arc_core *c)
{
    c->phase = ARC_PH_SETUP_MAGE;
    for (int s = 0; s < c->nseats; s++) {
        c->seat[s].mage_pick = -1;
    }
    set_dec(c, ARC_D_MAGE, -1);
}

static void deal(struct arc_core *c, int first_card, int ncards, int per_seat, int loc)
{
    int8_t v[ARC_NCARDS];
    int n = 0;
    for (int i = first_card; i < first_card + ncards; i++) {
        if (c->card[i].loc == ARC_L_OUT) {
            v[n++] = (int8_t)i;
        }
    }
    game_rng_shuffle(&c->rng, v, (uint32_t)n, 1);
    int k = 0;
    for (int s = 0; s < c->nseats; s++) {
        for (int j = 0; j < per_seat && k < n; j++) {
            move(c, v[k++], loc, s);
        }
    }
}

static void decks_from(struct arc_core *c, int loc)
{
    for (int s = 0; s < c->nseats; s++) {
        shuffle_into(c, loc, s, ARC_L_DECK);
        draw(c, s, 3);
    }
}

/* Steps 1-5 of R-arcana-2: items, Places of Power, monuments, pools, the
 * First Player (I-1); `first` < 0 draws it. */
static void setup_common(struct arc_core *c, bool first_game, int first)
{
    for (int i = 0; i < ARC_NCARDS; i++) {
        c->card[i].loc = ARC_L_OUT;
        c->card[i].owner = -1;
        c->card[i].turned = 0;
        memset(c->card[i].ess, 0, sizeof(c->card[i].ess));
    }
    c->first = (int8_t)(first >= 0 ? first : (int)game_rng_below(&c->rng, c->nseats));
    c->first_at_start = c->first;
    for (int i = ARC_FIRST_ITEM; i < ARC_FIRST_MON; i++) {
        move(c, i, ARC_L_SUPPLY, -1);
    }
    for (int b = 1; b <= 5; b++) {
        int side = first_game ? 0 : (int)game_rng_below(&c->rng, 2);
        for (int i = ARC_FIRST_POP; i < ARC_NCARDS; i++) {
            if (arc_cards[i].pop_board == b) {
                move(c, i, arc_cards[i].pop_side == side ? ARC_L_BOARD : ARC_L_UNUSED, -1);
            }
        }
    }
    int8_t m[10];
    for (int i = 0; i < 10; i++) {
        m[i] = (int8_t)(ARC_FIRST_MON + i);
    }
    game_rng_shuffle(&c->rng, m, 10, 1);
    for (int i = 0; i < 10; i++) {
        move(c, m[i], i < 8 ? ARC_L_MDECK : ARC_L_DISPLAY, -1);
    }
    for (int s = 0; s < c->nseats; s++) {
        struct arc_seat *p = &c->seat[s];
        arc__reset_seat(p);
        for (int e = 0; e < ARC_NESS; e++) {
            p->pool[e] = 1;
        }
    }
    c->round = 0;
    c->first_passed = 0;
    arc__reset_res(c);
}

static void setup_first_game(struct arc_core *c)
{
    int n = c->nseats;
    for (int k = 1; k <= n; k++) {
        int s = (c->first + k - 1) % n;
        for (int i = 0; i < ARC_NCARDS; i++) {
            if (arc_cards[i].preset == k && arc_cards[i].kind == ARC_K_ARTIFACT) {
                move(c, i, ARC_L_HAND, s);
            } else if (arc_cards[i].preset == k && arc_cards[i].kind == ARC_K_MAGE) {
                move(c, i, ARC_L_PLAY, s);
                c->seat[s].mage = (int8_t)i;
            }
        }
    }
    deal(c, 0, ARC_NART, 5, ARC_L_DECK);
    for (int s = 0; s < n; s++) {
        shuffle_into(c, ARC_L_DECK, s, ARC_L_DECK);
    }
    item_phase(c);
}

static void draft_round_start(struct arc_core *c)
{
    deal(c, 0, ARC_NART, 4, ARC_L_PACK);
    c->phase = ARC_PH_DRAFT;
    for (int s = 0; s < c->nseats; s++) {
        c->seat[s].draft_pick = -1;
    }
    set_dec(c, ARC_D_DRAFT, -1);
}

/* Game setup after the common part, by the setup option. */
static void setup_game(struct arc_core *c, int setup)
{
    if (setup == 1) {
        setup_first_game(c);
        return;
    }
    deal(c, ARC_FIRST_MAGE, 10, 2, ARC_L_MAGEOPT);
    if (setup == 2) {
        c->draft_round = 0;
        draft_round_start(c);
        return;
    }
    deal(c, 0, ARC_NART, 8, ARC_L_KEPT);
    decks_from(c, ARC_L_KEPT);
    mage_phase(c);
}

void arc__setup(struct arc_state *st, int nseats, int setup, int duel, const struct game_setup *gs)
{
    struct arc_core *c = &st->c;
    memset(st, 0, sizeof(*st));
    game_rng_seed(&c->rng, gs->seed);
    c->nseats = (uint8_t)nseats;
    c->setup = (uint8_t)setup;
    c->forfeit = -1;
    for (int s = 0; s < nseats; s++) {
        memcpy(st->names[s], gs->names[s], GAME_NAME_MAX);
        st->names[s][GAME_NAME_MAX - 1] = '\0';
    }
    c->match.on = (uint8_t)duel;
    c->match.game = 1;
    c->match.setup = (uint8_t)setup;
    setup_common(c, setup == 1, -1);
    setup_game(c, setup);
    arc__log(st, "game_begins", "Res Arcana begins; %s holds the First Player token.",
             st->names[c->first]);
    arc__settle(st);
}

/* ---- Duel (R-arcana-10.2) ---- */

static const uint8_t duel_schedule[9] = {1, 2, 2, 2, 2, 2, 2, 2, 1};

static void match_start_game(struct arc_core *c, int first)
{
    struct arc_match *m = &c->match;
    int8_t mages[2] = {c->seat[0].mage, c->seat[1].mage};
    uint8_t loc[ARC_NART];
    int8_t own[ARC_NART];
    for (int i = 0; i < ARC_NART; i++) {
        loc[i] = c->card[i].loc;
        own[i] = c->card[i].owner;
    }
    setup_common(c, false, first);
    for (int s = 0; s < 2; s++) {
        move(c, mages[s], ARC_L_PLAY, s);
        c->seat[s].mage = mages[s];
    }
    for (int i = 0; i < ARC_NART; i++) {
        if (loc[i] == ARC_L_KEPT || loc[i] == ARC_L_POOL) {
            move(c, i, loc[i], own[i]);
        }
    }
    if (m->game == 2) {
        c->phase = ARC_PH_MATCH_DRAFT;
        m->pick_turn = 0;
        m->picks_left = duel_schedule[0];
        m->drafter = c->first;
        set_dec(c, ARC_D_MDRAFT, m->drafter);
        return;
    }
    decks_from(c, ARC_L_KEPT);
    item_phase(c);
}

/* R-arcana-10.2, [I-24]: the cards of a finished game are gathered up and
 * every deck is shuffled anew before anyone sees it again, so nothing a
 * seat knew of a hidden zone survives: the known tops of its own deck and
 * of the monument deck, its last look, and the cards of a look. */
static void forget_hidden(struct arc_core *c)
{
    for (int s = 0; s < c->nseats; s++) {
        struct arc_seat *p = &c->seat[s];
        memset(p->known_own, 0, sizeof(p->known_own));
        p->known_own_n = 0;
        memset(p->known_mon, 0, sizeof(p->known_mon));
        p->known_mon_n = 0;
        p->looked_deck = -1;
        p->looked_n = 0;
    }
    memset(c->res.look_cards, 0, sizeof(c->res.look_cards));
    c->res.look_deck = -1;
    c->res.look_n = 0;
    c->res.look_done = 0;
}

static void match_game_over(struct arc_core *c)
{
    struct arc_match *m = &c->match;
    int g = m->game - 1;
    m->winners[g] = (int8_t)c->winners;
    m->ngames = m->game;
    if (c->winners == 1 || c->winners == 2) {
        m->score[c->winners == 1 ? 0 : 1]++;
    }
    if (m->score[0] >= 2 || m->score[1] >= 2 || m->game >= 3) {
        c->winners = m->score[0] > m->score[1] ? 1 : m->score[1] > m->score[0] ? 2 : 3;
        c->over = 1;
        c->phase = ARC_PH_ENDED;
        return;
    }
    forget_hidden(c);
    /* The 16 artifacts of this game: dealt to the seats, wherever they are. */
    for (int i = 0; i < ARC_NART; i++) {
        int l = c->card[i].loc;
        bool used = l == ARC_L_HAND || l == ARC_L_DECK || l == ARC_L_DISCARD || l == ARC_L_PLAY ||
                    l == ARC_L_PLACING || l == ARC_L_LOOK || l == ARC_L_KEPT;
        if (m->game == 1) {
            move(c, i, used ? ARC_L_POOL : ARC_L_OUT, -1);
        }
    }
    if (m->game == 2) {
        /* Game 3: each keeps the 8 drafted after game 1 (stored in kept_by). */
        for (int i = 0; i < ARC_NART; i++) {
            int l = c->card[i].loc;
            if (l == ARC_L_HAND || l == ARC_L_DECK || l == ARC_L_DISCARD || l == ARC_L_PLAY ||
                l == ARC_L_PLACING || l == ARC_L_LOOK) {
                move(c, i, ARC_L_OUT, -1);
            }
        }
        for (int i = 0; i < ARC_NART; i++) {
            if (m->drafted[i] >= 1) {
                move(c, i, ARC_L_KEPT, m->drafted[i] - 1);
            }
        }
    }
    m->game++;
    if (c->winners == 1 || c->winners == 2) {
        m->decider = (int8_t)(c->winners == 1 ? 1 : 0);
    } else {
        m->decider = (int8_t)(1 - c->first_at_start);
    }
    c->phase = ARC_PH_MATCH_FIRST;
    set_dec(c, ARC_D_FIRST, m->decider);
}

/* ---- Options of a decision ---- */

#define PUSH(T, A, B, C)                                                                           \
    do {                                                                                           \
        if (n < max) {                                                                             \
            ret[n].type = (int8_t)(T);                                                             \
            ret[n].a = (int8_t)(A);                                                                \
            ret[n].b = (int8_t)(B);                                                                \
            ret[n].c = (int8_t)(C);                                                                \
            n++;                                                                                   \
        }                                                                                          \
    } while (0)

static bool target_ok(const struct arc_core *c, int card);

static int gain_mask_now(const struct arc_core *c)
{
    if (c->phase == ARC_PH_COLLECT) {
        return c->col.gq_mask[c->col.gq_i];
    }
    return c->res.mask;
}

unsigned arc__active(const struct arc_core *c)
{
    if (c->over) {
        return 0;
    }
    if (c->dec == ARC_D_MAGE || c->dec == ARC_D_DRAFT) {
        unsigned m = 0;
        for (int s = 0; s < c->nseats; s++) {
            bool open = c->dec == ARC_D_MAGE
                            ? c->seat[s].mage_pick < 0
                            : c->seat[s].draft_pick < 0 && arc__zone_count(c, ARC_L_PACK, s) > 0;
            if (open) {
                m |= 1u << s;
            }
        }
        return m;
    }
    return c->dec_seat >= 0 ? 1u << c->dec_seat : 0;
}

int arc__options(const struct arc_core *c, int seat, struct arc_action *ret, int max)
{
    int n = 0;
    if (!(arc__active(c) & (1u << seat))) {
        return 0;
    }
    const struct arc_res *r = &c->res;
    const int32_t *pool = c->seat[seat].pool;
    int8_t v[ARC_NCARDS];
    int nv;
    switch (c->dec) {
    case ARC_D_TOP:
        nv = arc__zone(c, ARC_L_HAND, seat, v);
        for (int i = 0; i < nv; i++) {
            if (can_place(c, seat, v[i], 0, 0)) {
                PUSH(ARC_A_PLACE, v[i], 0, 0);
            }
        }
        if (pool[ARC_G] >= 4) {
            nv = arc__zone(c, ARC_L_DISPLAY, -1, v);
            for (int i = 0; i < nv; i++) {
                PUSH(ARC_A_MONUMENT, v[i], 0, 0);
            }
            if (arc__zone_count(c, ARC_L_MDECK, -1) > 0) {
                PUSH(ARC_A_MONUMENT, ARC_DECK_ARG, 0, 0);
            }
        }
        for (int i = ARC_FIRST_POP; i < ARC_NCARDS; i++) {
            bool ok = c->card[i].loc == ARC_L_BOARD;
            for (int e = 0; e < ARC_NESS && ok; e++) {
                ok = pool[e] >= arc_cards[i].cost[e];
            }
            if (ok) {
                PUSH(ARC_A_POP, i, 0, 0);
            }
        }
        nv = arc__zone(c, ARC_L_HAND, seat, v);
        for (int i = 0; i < nv; i++) {
            PUSH(ARC_A_DISCARD, v[i], 0, 0);
        }
        nv = arc__components(c, seat, v);
        for (int i = 0; i < nv; i++) {
            for (int p = 0; p < arc_cards[v[i]].npw; p++) {
                if (power_usable(c, seat, v[i], p)) {
                    PUSH(ARC_A_POWER, v[i], p, 0);
                }
            }
        }
        PUSH(ARC_A_PASS, 0, 0, 0);
        break;
    case ARC_D_PAY:
        for (int e = 0; e < ARC_NESS; e++) {
            if (pool[e] < 1 || !(r->mask & (1 << e))) {
                continue;
            }
            if (r->paymode == 1) {
                struct pcost p;
                int32_t before[ARC_NESS];
                int q[ARC_NESS];
                place_cost(c, seat, r->placing, r->place_reduce, r->place_flag, &p);
                for (int t = 0; t < ARC_NESS; t++) {
                    before[t] = pool[t] + r->paid[t];
                    q[t] = r->paid[t] + (t == e);
                }
                if (!pay_completable(&p, before, q)) {
                    continue;
                }
            }
            PUSH(ARC_A_PAY, e, 0, 0);
        }
        break;
    case ARC_D_SAME:
        for (int e = 0; e < ARC_NESS; e++) {
            if (pool[e] >= 1 && (r->mask & (1 << e))) {
                PUSH(ARC_A_SAME, e, 0, 0);
            }
        }
        PUSH(ARC_A_SAME, ARC_NONE_ARG, 0, 0);
        break;
    case ARC_D_SAME_MORE:
        if (r->bind_type >= 0 && pool[r->bind_type] >= 1) {
            PUSH(ARC_A_MORE, 0, 0, 0);
        }
        PUSH(ARC_A_DONE, 0, 0, 0);
        break;
    case ARC_D_GAIN: {
        int mask = gain_mask_now(c);
        for (int e = 0; e < ARC_NESS; e++) {
            if (mask & (1 << e)) {
                PUSH(ARC_A_GAIN, e, 0, 0);
            }
        }
        break;
    }
    case ARC_D_GAIN_DISCARD:
        for (int e = 0; e < ARC_NESS; e++) {
            PUSH(ARC_A_GAIN, e, 0, 0);
        }
        break;
    case ARC_D_TARGET:
        for (int i = 0; i < ARC_NCARDS; i++) {
            if (target_ok(c, i)) {
                PUSH(ARC_A_TARGET, i, 0, 0);
            }
        }
        if (r->why == ARC_WHY_PLACE || r->why == ARC_WHY_STRAIGHTEN) {
            PUSH(ARC_A_TARGET, ARC_NONE_ARG, 0, 0);
        }
        break;
    case ARC_D_RIVAL:
        for (int s = 0; s < c->nseats; s++) {
            if (s != seat) {
                PUSH(ARC_A_RIVAL, s, 0, 0);
            }
        }
        break;
    case ARC_D_DECK:
        PUSH(ARC_A_DECK, 0, 0, 0);
        PUSH(ARC_A_DECK, 1, 0, 0);
        break;
    case ARC_D_ORDER:
        for (int i = r->look_done; i < r->look_n; i++) {
            PUSH(ARC_A_ORDER, r->look_cards[i], 0, 0);
        }
        break;
    case ARC_D_RESPOND: {
        const struct arc_op *o = cur_op(c);
        PUSH(ARC_A_RESPOND, 0, 0, 0);
        bool ig = false;
        if (o && o->arg == ARC_IG_PAY) {
            ig = true;
            for (int e = 0; e < ARC_NESS; e++) {
                ig = ig && pool[e] >= o->ess[e];
            }
        } else if (o && o->arg == ARC_IG_DISCARD) {
            ig = arc__zone_count(c, ARC_L_HAND, seat) > 0;
        } else if (o && o->arg == ARC_IG_DESTROY) {
            for (int i = 0; i < ARC_NART && !ig; i++) {
                ig = c->card[i].loc == ARC_L_PLAY && c->card[i].owner == seat;
            }
        }
        if (ig) {
            PUSH(ARC_A_RESPOND, 1, 0, 0);
        }
        nv = arc__components(c, seat, v);
        for (int i = 0; i < nv; i++) {
            for (int p = 0; p < arc_cards[v[i]].npw; p++) {
                if (react_usable(c, seat, v[i], p)) {
                    PUSH(ARC_A_RESPOND, 2, p, v[i]);
                }
            }
        }
        break;
    }
    case ARC_D_LOSE:
        for (int e = 0; e < ARC_NESS; e++) {
            if (e != ARC_L && pool[e] >= 1) {
                PUSH(ARC_A_LOSE, e, 0, 0);
            }
        }
        break;
    case ARC_D_STATUE:
        PUSH(ARC_A_STATUE, 1, 0, 0);
        PUSH(ARC_A_STATUE, 0, 0, 0);
        break;
    case ARC_D_ITEM:
        nv = arc__zone(c, ARC_L_SUPPLY, -1, v);
        for (int i = 0; i < nv; i++) {
            if (v[i] != r->returned_item || c->phase != ARC_PH_ACTIONS) {
                PUSH(ARC_A_ITEM, v[i], 0, 0);
            }
        }
        break;
    case ARC_D_TAKE:
        PUSH(ARC_A_TAKE, 0, 0, 0);
        PUSH(ARC_A_LEAVE, 0, 0, 0);
        break;
    case ARC_D_FORGE:
        PUSH(ARC_A_FORGE, 0, 0, 0);
        PUSH(ARC_A_FORGE, 1, 0, 0);
        break;
    case ARC_D_MAGE:
        nv = arc__zone(c, ARC_L_MAGEOPT, seat, v);
        for (int i = 0; i < nv; i++) {
            PUSH(ARC_A_MAGE, v[i], 0, 0);
        }
        break;
    case ARC_D_DRAFT:
        nv = arc__zone(c, ARC_L_PACK, seat, v);
        for (int i = 0; i < nv; i++) {
            PUSH(ARC_A_DRAFT, v[i], 0, 0);
        }
        break;
    case ARC_D_MDRAFT:
        nv = arc__zone(c, ARC_L_POOL, -1, v);
        for (int i = 0; i < nv; i++) {
            PUSH(ARC_A_DRAFT, v[i], 0, 0);
        }
        break;
    case ARC_D_FIRST:
        PUSH(ARC_A_FIRST, 0, 0, 0);
        PUSH(ARC_A_FIRST, 1, 0, 0);
        break;
    default:
        break;
    }
    return n;
}

static bool target_ok(const struct arc_core *c, int card)
{
    const struct arc_res *r = &c->res;
    const struct arc_cardst *k = &c->card[card];
    int me = c->dec_seat;
    switch (r->why) {
    case ARC_WHY_DESTROY: {
        const struct arc_op *o = cur_op(c);
        return o && destroy_target_ok(c, me, card, r->src, o);
    }
    case ARC_WHY_DISCARD:
    case ARC_WHY_IG_DISCARD:
        return k->loc == ARC_L_HAND && k->owner == me;
    case ARC_WHY_IG_DESTROY:
        return card < ARC_NART && k->loc == ARC_L_PLAY && k->owner == me;
    case ARC_WHY_PLACE: {
        const struct arc_op *o = cur_op(c);
        if (!o || card >= ARC_NART) {
            return false;
        }
        bool zone = o->arg == ARC_Z_FROM_HAND          ? k->loc == ARC_L_HAND && k->owner == me
                    : o->arg == ARC_Z_FROM_OWN_DISCARD ? k->loc == ARC_L_DISCARD && k->owner == me
                                                       : k->loc == ARC_L_DISCARD;
        if (!zone || (o->tag && !(arc_cards[card].tags & o->tag))) {
            return false;
        }
        return can_place(c, me, card, o->count, o->flag);
    }
    case ARC_WHY_STRAIGHTEN:
        return k->loc == ARC_L_PLAY && k->owner == me && k->turned &&
               (r->tag == 0 || (arc_cards[card].tags & r->tag));
    case ARC_WHY_TURN:
        return turn_target_ok(c, me, card, r->src, r->tag);
    case ARC_WHY_RECEIVE:
        return k->loc == ARC_L_PLAY && k->owner == me;
    default:
        return false;
    }
}

/* ---- Applying an option ---- */

static void look_start(struct arc_core *c, int deck)
{
    struct arc_res *r = &c->res;
    int me = r->actor;
    r->look_deck = (int8_t)deck;
    r->look_n = 0;
    r->look_done = 0;
    for (int j = 0; j < 3; j++) {
        int card = deck == 0 ? deck_take(c, me) : monument_take(c);
        if (card < 0) {
            break;
        }
        move(c, card, ARC_L_LOOK, me);
        r->look_cards[r->look_n++] = (int8_t)card;
    }
    c->seat[me].looked_deck = (int8_t)deck;
    c->seat[me].looked_n = r->look_n;
    if (r->look_n == 0) {
        op_done(c);
        return;
    }
    set_dec(c, ARC_D_ORDER, me);
}

static void look_finish(struct arc_core *c)
{
    struct arc_res *r = &c->res;
    int me = r->actor;
    struct arc_seat *p = &c->seat[me];
    for (int j = r->look_n - 1; j >= 0; j--) {
        move(c, r->look_cards[j], r->look_deck == 0 ? ARC_L_DECK : ARC_L_MDECK,
             r->look_deck == 0 ? me : -1);
    }
    if (r->look_deck == 0) {
        memcpy(p->known_own, r->look_cards, 3);
        p->known_own_n = r->look_n;
    } else {
        for (int s = 0; s < c->nseats; s++) {
            c->seat[s].known_mon_n = 0;
        }
        memcpy(p->known_mon, r->look_cards, 3);
        p->known_mon_n = r->look_n;
    }
    op_done(c);
}

static void start_action(struct arc_core *c, int kind, int src, int power)
{
    struct arc_res *r = &c->res;
    r->kind = (uint8_t)kind;
    r->actor = c->cur;
    r->src = (int8_t)src;
    r->power = (int8_t)power;
    r->part = 0;
    r->pc = 0;
    r->entered = 0;
    c->dec = ARC_D_NONE;
}

/* Pays the automatic cost parts of a power when it is chosen (5.7). */
static void pay_auto_costs(struct arc_core *c, int seat, int card, const struct arc_power *pw)
{
    for (int i = 0; i < pw->ncost; i++) {
        const struct arc_op *o = &pw->cost[i];
        if (o->op == ARC_OP_TURN_SELF) {
            c->card[card].turned = 1;
        } else if (o->op == ARC_OP_PAY) {
            pay_fixed(c, seat, o->ess);
        } else if (o->op == ARC_OP_REMOVE_SELF) {
            for (int e = 0; e < ARC_NESS; e++) {
                c->card[card].ess[e] -= o->ess[e];
            }
        }
    }
    for (int i = 0; i < pw->ncost; i++) {
        if (pw->cost[i].op == ARC_OP_DESTROY_SELF) {
            move(c, card, ARC_L_DISCARD, seat);
        }
    }
}

static void apply_top(struct arc_state *st, int seat, const struct arc_action *a)
{
    struct arc_core *c = &st->c;
    const char *who = st->names[seat];
    switch (a->type) {
    case ARC_A_PLACE:
        arc__log(st, "places", "%s places %s.", who, arc_cards[a->a].name);
        start_action(c, ARC_R_PLACE, a->a, 0);
        break;
    case ARC_A_MONUMENT: {
        int m = a->a == ARC_DECK_ARG ? monument_take(c) : a->a;
        c->seat[seat].pool[ARC_G] -= 4;
        start_action(c, ARC_R_CLAIM, m, 0);
        c->res.from_display = a->a != ARC_DECK_ARG;
        move(c, m, ARC_L_PLAY, seat);
        if (a->a == ARC_DECK_ARG) {
            arc__log(st, "claims_from_deck", "%s claims %s from the monument deck.", who,
                     arc_cards[m].name);
        } else {
            arc__log(st, "claims", "%s claims %s.", who, arc_cards[m].name);
        }
        break;
    }
    case ARC_A_POP:
        pay_fixed(c, seat, arc_cards[a->a].cost);
        move(c, a->a, ARC_L_PLAY, seat);
        arc__log(st, "claims", "%s claims %s.", who, arc_cards[a->a].name);
        start_action(c, ARC_R_CLAIM, a->a, 0);
        break;
    case ARC_A_DISCARD:
        move(c, a->a, ARC_L_DISCARD, seat);
        arc__log(st, "discards", "%s discards %s.", who, arc_cards[a->a].name);
        start_action(c, ARC_R_DISCARD, a->a, 0);
        break;
    case ARC_A_POWER:
        arc__log(st, "uses", "%s uses %s.", who, arc_cards[a->a].name);
        start_action(c, ARC_R_POWER, a->a, a->b);
        pay_auto_costs(c, seat, a->a, &arc_cards[a->a].pw[a->b]);
        break;
    case ARC_A_PASS: {
        struct arc_seat *p = &c->seat[seat];
        if (!c->first_passed) {
            c->first = (int8_t)seat;
            c->first_passed = 1;
        }
        p->passed = 1;
        start_action(c, ARC_R_PASS, -1, 0);
        c->res.returned_item = p->item;
        if (p->item >= 0) {
            move(c, p->item, ARC_L_SUPPLY, -1);
        }
        p->item = -1;
        arc__log(st, "passes", "%s passes.", who);
        break;
    }
    default:
        break;
    }
}

static void apply_step(struct arc_state *st, int seat, const struct arc_action *a)
{
    struct arc_core *c = &st->c;
    struct arc_res *r = &c->res;
    int32_t *pool = c->seat[seat].pool;
    switch (a->type) {
    case ARC_A_PAY:
        pool[a->a]--;
        r->paid[a->a]++;
        r->left--;
        if (r->paymode == 1) {
            if (r->left <= 0) {
                finish_placement(c);
            }
        } else {
            r->bind_type = a->a;
            if (r->left <= 0) {
                op_done(c);
            }
        }
        break;
    case ARC_A_SAME:
        if (a->a == ARC_NONE_ARG) {
            r->bind_x = 0;
            op_done(c);
        } else {
            pool[a->a]--;
            r->bind_type = a->a;
            r->bind_x = 1;
            set_dec(c, ARC_D_SAME_MORE, seat);
        }
        break;
    case ARC_A_MORE:
        pool[r->bind_type]--;
        r->bind_x++;
        break;
    case ARC_A_DONE:
        op_done(c);
        break;
    case ARC_A_GAIN:
        if (c->dec == ARC_D_GAIN_DISCARD) {
            gain(c, seat, a->a, 1);
            if (a->a == ARC_G) {
                op_done(c);
            } else {
                start_gain(c, ARC_NOGOLD_MASK, 1, ARC_DEST_POOL);
            }
        } else if (c->phase == ARC_PH_COLLECT) {
            gain(c, seat, a->a, 1);
            c->col.gq_left[c->col.gq_i]--;
            c->dec = ARC_D_NONE;
            collect_step(c);
        } else {
            int64_t amt = r->gainx ? r->bind_x : 1;
            if (r->dest == ARC_DEST_SELF) {
                put_on(c, r->src, a->a, amt);
            } else {
                gain(c, seat, a->a, amt);
            }
            r->left--;
            if (r->left <= 0) {
                r->gainx = 0;
                op_done(c);
            }
        }
        break;
    case ARC_A_TARGET:
        switch (r->why) {
        case ARC_WHY_DESTROY:
            r->bind_t = (int16_t)arc__printed_total(a->a);
            arc__log(st, "destroys", "%s destroys %s.", st->names[seat], arc_cards[a->a].name);
            move(c, a->a, ARC_L_DISCARD, seat);
            op_done(c);
            break;
        case ARC_WHY_DISCARD: {
            const struct arc_op *o = cur_op(c);
            arc__log(st, "discards", "%s discards %s.", st->names[seat], arc_cards[a->a].name);
            move(c, a->a, ARC_L_DISCARD, seat);
            r->bind_t = (int16_t)arc__printed_total(a->a);
            if (o && o->op == ARC_OP_DRAW_DISCARD && --r->div_left > 0) {
                break;
            }
            op_done(c);
            break;
        }
        case ARC_WHY_PLACE: {
            const struct arc_op *o = cur_op(c);
            if (a->a == ARC_NONE_ARG || !o) {
                op_done(c);
                break;
            }
            arc__log(st, "places", "%s places %s.", st->names[seat], arc_cards[a->a].name);
            start_placement(c, a->a, o->count, o->flag);
            break;
        }
        case ARC_WHY_STRAIGHTEN:
            if (a->a != ARC_NONE_ARG) {
                c->card[a->a].turned = 0;
            }
            op_done(c);
            break;
        case ARC_WHY_TURN:
            c->card[a->a].turned = 1;
            op_done(c);
            break;
        case ARC_WHY_RECEIVE:
            if (r->bind_type >= 0) {
                put_on(c, a->a, r->bind_type, 1);
            }
            op_done(c);
            break;
        case ARC_WHY_IG_DISCARD:
            arc__log(st, "discards", "%s discards %s.", st->names[seat], arc_cards[a->a].name);
            move(c, a->a, ARC_L_DISCARD, seat);
            ll_rival_done(c);
            break;
        case ARC_WHY_IG_DESTROY:
            arc__log(st, "destroys", "%s destroys %s.", st->names[seat], arc_cards[a->a].name);
            move(c, a->a, ARC_L_DISCARD, seat);
            ll_rival_done(c);
            break;
        default:
            break;
        }
        break;
    case ARC_A_RIVAL: {
        const struct arc_op *o = cur_op(c);
        if (o) {
            gain(c, seat, o->arg, c->seat[a->a].pool[o->arg2]);
        }
        op_done(c);
        break;
    }
    case ARC_A_DECK:
        if (a->a == 0) {
            arc__log(st, "looks_own_deck", "%s looks at the top of their deck.", st->names[seat]);
        } else {
            arc__log(st, "looks_monument_deck", "%s looks at the monument deck.", st->names[seat]);
        }
        look_start(c, a->a);
        break;
    case ARC_A_ORDER:
        for (int i = r->look_done; i < r->look_n; i++) {
            if (r->look_cards[i] == a->a) {
                int8_t t = r->look_cards[r->look_done];
                r->look_cards[r->look_done] = r->look_cards[i];
                r->look_cards[i] = t;
                break;
            }
        }
        r->look_done++;
        if (r->look_done >= r->look_n) {
            look_finish(c);
        }
        break;
    case ARC_A_RESPOND: {
        const struct arc_op *o = cur_op(c);
        if (a->a == 0) {
            ll_lose(c, seat);
        } else if (a->a == 1 && o) {
            arc__log(st, "pays_to_ignore", "%s pays to ignore the loss of Life.", st->names[seat]);
            if (o->arg == ARC_IG_PAY) {
                pay_fixed(c, seat, o->ess);
                ll_rival_done(c);
            } else {
                r->ll_stage = 1;
                start_target(c, o->arg == ARC_IG_DISCARD ? ARC_WHY_IG_DISCARD : ARC_WHY_IG_DESTROY,
                             0, seat);
            }
        } else {
            const struct arc_power *pw = &arc_cards[a->c].pw[a->b];
            arc__log(st, "uses_to_ignore", "%s uses %s to ignore the loss of Life.",
                     st->names[seat], arc_cards[a->c].name);
            pay_auto_costs(c, seat, a->c, pw);
            for (int i = 0; i < pw->neff; i++) {
                if (pw->eff[i].op == ARC_OP_PLACE_SELF) {
                    for (int e = 0; e < ARC_NESS; e++) {
                        put_on(c, a->c, e, pw->eff[i].ess[e]);
                    }
                }
            }
            ll_rival_done(c);
        }
        break;
    }
    case ARC_A_LOSE:
        pool[a->a]--;
        if (--r->left <= 0) {
            ll_rival_done(c);
        }
        break;
    case ARC_A_STATUE:
        if (a->a) {
            int stt = ARC_ID_GOLDEN_STATUE;
            c->card[stt].turned = 1;
            pool[ARC_G] -= 3;
            c->statue_used = 1;
            arc__log(st, "uses_golden_statue", "%s uses the Golden Statue.", st->names[seat]);
        }
        c->dec = ARC_D_NONE;
        c->dec_seat = -1;
        victory_finish(c);
        break;
    case ARC_A_ITEM:
        move(c, a->a, ARC_L_PLAY, seat);
        c->seat[seat].item = a->a;
        arc__log(st, "takes_item", "%s takes %s.", st->names[seat], arc_cards[a->a].name);
        if (c->phase == ARC_PH_SETUP_ITEM) {
            if (++c->item_i >= c->nseats) {
                c->round = 1;
                collect_begin_round(c);
            } else {
                set_dec(c, ARC_D_ITEM, c->item_order[c->item_i]);
            }
        } else {
            op_done(c);
        }
        break;
    case ARC_A_TAKE:
    case ARC_A_LEAVE: {
        int card = c->col.list[c->col.i];
        struct arc_cardst *k = &c->card[card];
        if (a->type == ARC_A_TAKE) {
            for (int e = 0; e < ARC_NESS; e++) {
                gain(c, seat, e, k->ess[e]);
                k->ess[e] = 0;
            }
        } else {
            const struct arc_card *d = &arc_cards[card];
            for (int j = 0; j < d->ncollect; j++) {
                const struct arc_op *o = &d->collect[j];
                if (o->op != ARC_OP_IF_LEFT) {
                    continue;
                }
                if (o->arg2 == ARC_OP_WIND) {
                    for (int e = 0; e < ARC_NESS; e++) {
                        if (k->ess[e] > 0) {
                            put_on(c, card, e, 2);
                        }
                    }
                } else if (o->arg < ARC_NESS && k->ess[o->arg] > 0) {
                    c->col.vault_left[card] = 1;
                }
            }
        }
        c->col.i++;
        c->dec = ARC_D_NONE;
        collect_step(c);
        break;
    }
    case ARC_A_FORGE:
        if (a->a == 0) {
            pool[ARC_D]--;
        } else {
            c->card[ARC_ID_CURSED_FORGE].turned = 1;
        }
        c->dec = ARC_D_NONE;
        collect_step(c);
        break;
    default:
        break;
    }
}

static void apply_setup(struct arc_state *st, int seat, const struct arc_action *a)
{
    struct arc_core *c = &st->c;
    if (a->type == ARC_A_MAGE) {
        c->seat[seat].mage_pick = a->a;
        for (int s = 0; s < c->nseats; s++) {
            if (c->seat[s].mage_pick < 0) {
                return;
            }
        }
        for (int s = 0; s < c->nseats; s++) {
            int8_t v[ARC_NCARDS];
            int nv = arc__zone(c, ARC_L_MAGEOPT, s, v);
            for (int i = 0; i < nv; i++) {
                move(c, v[i], v[i] == c->seat[s].mage_pick ? ARC_L_PLAY : ARC_L_OUT,
                     v[i] == c->seat[s].mage_pick ? s : -1);
            }
            c->seat[s].mage = c->seat[s].mage_pick;
            c->seat[s].mage_pick = -1;
            arc__log(st, "is_the_mage", "%s is the %s.", st->names[s],
                     arc_cards[c->seat[s].mage].name);
        }
        item_phase(c);
        return;
    }
    if (a->type == ARC_A_DRAFT && c->dec == ARC_D_DRAFT) {
        c->seat[seat].draft_pick = a->a;
        for (int s = 0; s < c->nseats; s++) {
            if (c->seat[s].draft_pick < 0 && arc__zone_count(c, ARC_L_PACK, s) > 0) {
                return;
            }
        }
        int n = c->nseats;
        for (int s = 0; s < n; s++) {
            if (c->seat[s].draft_pick >= 0) {
                move(c, c->seat[s].draft_pick, ARC_L_KEPT, s);
            }
            c->seat[s].draft_pick = -1;
        }
        int dir = c->draft_round == 0 ? 1 : n - 1;
        int8_t owner_new[ARC_NCARDS];
        for (int i = 0; i < ARC_NCARDS; i++) {
            owner_new[i] = c->card[i].loc == ARC_L_PACK ? (int8_t)((c->card[i].owner + dir) % n)
                                                        : c->card[i].owner;
        }
        for (int i = 0; i < ARC_NCARDS; i++) {
            c->card[i].owner = owner_new[i];
        }
        for (int s = 0; s < n; s++) {
            if (arc__zone_count(c, ARC_L_PACK, s) == 1) {
                move(c, top_of(c, ARC_L_PACK, s), ARC_L_KEPT, s);
            }
        }
        if (arc__zone_count(c, ARC_L_PACK, 0) == 0) {
            if (c->draft_round == 0) {
                c->draft_round = 1;
                draft_round_start(c);
            } else {
                decks_from(c, ARC_L_KEPT);
                mage_phase(c);
            }
        }
        return;
    }
    if (a->type == ARC_A_DRAFT) { /* duel face-up draft */
        struct arc_match *m = &c->match;
        move(c, a->a, ARC_L_KEPT, seat);
        m->drafted[a->a] = (int8_t)(seat + 1);
        arc__log(st, "drafts", "%s drafts %s.", st->names[seat], arc_cards[a->a].name);
        if (--m->picks_left == 0) {
            if (++m->pick_turn >= 9) {
                decks_from(c, ARC_L_KEPT);
                item_phase(c);
                return;
            }
            m->picks_left = duel_schedule[m->pick_turn];
            m->drafter = (int8_t)(1 - m->drafter);
        }
        set_dec(c, ARC_D_MDRAFT, m->drafter);
        return;
    }
    if (a->type == ARC_A_FIRST) {
        int first = a->a;
        arc__log(st, "chooses_first", "%s chooses %s as First Player of game %d.", st->names[seat],
                 st->names[first], c->match.game);
        c->first_at_start = (int8_t)first;
        match_start_game(c, first);
    }
}

static const char *refusal_rule(int dec)
{
    switch (dec) {
    case ARC_D_TOP:
        return "R-arcana-5: that action is not available now (a card not in hand, a cost that "
               "cannot be paid, or a power that cannot be used)";
    case ARC_D_PAY:
        return "R-arcana-6: that essence cannot be paid here, or the payment could not be "
               "completed";
    case ARC_D_SAME:
    case ARC_D_SAME_MORE:
        return "R-arcana-7.4: a same-type payment takes one type you hold, one unit at a time";
    case ARC_D_GAIN:
    case ARC_D_GAIN_DISCARD:
        return "R-arcana-4: that essence type may not be gained here";
    case ARC_D_TARGET:
        return "R-arcana-7.4: that card is not a valid target";
    case ARC_D_RESPOND:
    case ARC_D_LOSE:
        return "R-arcana-7.3: that is not an allowed answer to the loss of Life";
    case ARC_D_ITEM:
        return "R-arcana-8: that magic item cannot be taken";
    case ARC_D_TAKE:
    case ARC_D_FORGE:
        return "R-arcana-4: Collect takes or leaves all essences of a component";
    case ARC_D_MAGE:
        return "R-arcana-2: choose one of your two mages";
    case ARC_D_DRAFT:
    case ARC_D_MDRAFT:
        return "R-arcana-10: draft a card of the pack in front of you";
    default:
        return "R-arcana-5.7: that is not one of the choices of the open decision";
    }
}

static void apply_option(struct arc_state *st, int seat, const struct arc_action *a)
{
    struct arc_core *c = &st->c;
    switch (c->dec) {
    case ARC_D_TOP:
        apply_top(st, seat, a);
        break;
    case ARC_D_MAGE:
    case ARC_D_DRAFT:
    case ARC_D_MDRAFT:
    case ARC_D_FIRST:
        apply_setup(st, seat, a);
        break;
    default:
        apply_step(st, seat, a);
        break;
    }
}

void arc__settle(struct arc_state *st)
{
    struct arc_core *c = &st->c;
    for (int guard = 0; guard < 100000 && !c->over; guard++) {
        if (c->dec == ARC_D_NONE) {
            if (c->res.kind == ARC_R_NONE) {
                break; /* nothing open: cannot happen outside the end */
            }
            resolve(c);
            continue;
        }
        if (c->dec == ARC_D_TOP || c->dec == ARC_D_MAGE || c->dec == ARC_D_DRAFT) {
            break;
        }
        struct arc_action opts[2];
        int n = arc__options(c, c->dec_seat, opts, 2);
        if (n != 1) {
            break;
        }
        apply_option(st, c->dec_seat, &opts[0]);
    }
}

int arc__act(struct arc_state *st, int seat, const struct arc_action *a, struct game_error *err)
{
    struct arc_core *c = &st->c;
    struct arc_action opts[ARC_MAX_OPTS];
    if (c->over) {
        return game_error_set(err, GAME_E_OVER, "R-arcana-9: the game is over");
    }
    if (!(arc__active(c) & (1u << seat))) {
        return game_error_set(err, GAME_E_NOT_TURN, "R-arcana-11.5: it is not your turn");
    }
    int n = arc__options(c, seat, opts, ARC_MAX_OPTS);
    for (int i = 0; i < n; i++) {
        if (memcmp(&opts[i], a, sizeof(*a)) == 0) {
            uint16_t draws[ARC_MAX_SEATS];
            memcpy(draws, c->draws, sizeof(draws));
            apply_option(st, seat, a);
            arc__settle(st);
            for (int s = 0; s < c->nseats; s++) {
                int k = c->draws[s] - draws[s];
                if (k > 0 && c->round > 0) {
                    if (k == 1) {
                        arc__log(st, "draws_one", "%s draws %d card.", st->names[s], k);
                    } else {
                        arc__log(st, "draws", "%s draws %d cards.", st->names[s], k);
                    }
                }
            }
            return GAME_OK;
        }
    }
    return game_error_set(err, GAME_E_ILLEGAL, "%s", refusal_rule(c->dec));
}
