/* SPDX-License-Identifier: MIT */
/*
 * search.c - the bot's decision: information-set Monte Carlo tree search
 * over game.h.
 *
 * One tree is shared by every pass. A node stands for what the deciding
 * seat knows after a sequence of actions (its information set, since the
 * hidden part is redrawn on every pass), and holds statistics per (seat,
 * action): how often the action was taken from here, its summed reward for
 * that seat, and how often it was available (ISMCTS availability counts,
 * since which actions another seat has depends on the redrawn hands). A
 * pass:
 *   1. copies the position and redraws what the seat cannot see
 *      (game_bot.determinize, from the bot's generator);
 *   2. descends: at each node every seat that may act chooses, each from
 *      its own statistics (decoupled UCB, so that seats acting at once do
 *      not see each other's choice), the untried actions first; the joint
 *      choice names the child;
 *   3. stops at the first new child, plays out with the game's policy for
 *      at most playout_depth actions, and values the position for every
 *      seat (game_bot.value, or the result: 1/k for each of k winners);
 *   4. adds each seat's value to the statistics of the actions it took.
 * The answer is the deciding seat's most visited action at the root.
 */
#include "bot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rng.h"

#define UCB_C 0.7         /* exploration constant for values in [0, 1] */
#define PLAYOUT_CAP 20000 /* actions a playout to the end may take at most */
#define CLOCK_EVERY 8     /* passes between looks at the clock */

const char *const bot_level_names[BOT_NLEVELS] = {"random", "easy", "normal", "hard"};

/* Passes and milliseconds per level. The passes decide; the milliseconds
 * only cap a decision on a slow or busy machine. */
static const struct bot_budget level_budget[BOT_NLEVELS] = {
    [BOT_RANDOM] = {0, 0},
    [BOT_EASY] = {50, 250},
    [BOT_NORMAL] = {300, 1500},
    [BOT_HARD] = {1500, 6000},
};

int bot_level_parse(const char *name)
{
    for (int i = 0; name && i < BOT_NLEVELS; i++) {
        if (strcmp(name, bot_level_names[i]) == 0) {
            return i;
        }
    }
    return -1;
}

struct bot_budget bot_level_budget(enum bot_level level)
{
    return level_budget[level < BOT_NLEVELS ? level : BOT_LEVEL_DEFAULT];
}

/* ---- Action keys ----
 * An action is known in the tree by a 64-bit hash of its JSON value; the
 * members of an object count whatever their order. */

static uint64_t mix(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);

    for (size_t i = 0; i < n; i++) {
        h = (h ^ (unsigned char)s[i]) * UINT64_C(0x100000001b3);
    }
    return mix(h);
}

static uint64_t key_of(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        uint64_t h = mix(1);
        const char *k;
        json_t *m;
        json_object_foreach((json_t *)v, k, m) {
            h += mix(hash_bytes(k, strlen(k)) ^ key_of(m));
        }
        return h;
    }
    case JSON_ARRAY: {
        uint64_t h = mix(2);
        for (size_t i = 0; i < json_array_size(v); i++) {
            h = mix(h ^ key_of(json_array_get(v, i)));
        }
        return h;
    }
    case JSON_STRING:
        return hash_bytes(json_string_value(v), json_string_length(v)) ^ 3;
    case JSON_INTEGER:
        return mix((uint64_t)json_integer_value(v) ^ UINT64_C(0x51ed270b27364a1d));
    case JSON_REAL: {
        double d = json_real_value(v);
        uint64_t bits;
        memcpy(&bits, &d, sizeof(bits));
        return mix(bits ^ 5);
    }
    case JSON_TRUE:
        return mix(6);
    case JSON_FALSE:
        return mix(7);
    default:
        return mix(8);
    }
}

/* ---- The tree ---- */

struct stat {
    uint64_t key;
    double reward;
    uint32_t visits;
    uint32_t avail;
    int seat;
};

struct edge {
    uint64_t key;
    uint32_t node;
};

struct node {
    struct stat *stats;
    uint32_t nstats, capstats;
    struct edge *kids;
    uint32_t nkids, capkids;
};

/* One node on a pass's way down: which statistic each acting seat took. */
struct step {
    uint32_t node;
    unsigned seats;
    uint32_t stat[GAME_MAX_SEATS];
};

struct search {
    const struct bot_ask *ask;
    const struct game_ops *g;
    const struct game_bot *bot;
    struct game_rng rng;
    struct node *nodes;
    uint32_t nnodes, capnodes;
    struct step *path;
    size_t npath, cappath;
    uint64_t *keys; /* keys of the legal list being looked at */
    uint32_t *untried;
    size_t capkeys;
    struct bot_stats *stats;
    bool nomem;
};

static int grow(void **p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap) {
        return 0;
    }
    uint32_t ncap = *cap ? *cap * 2 : 4;
    while (ncap < need) {
        ncap *= 2;
    }
    void *np = realloc(*p, (size_t)ncap * size);
    if (!np) {
        return -1;
    }
    *p = np;
    *cap = ncap;
    return 0;
}

/* A new empty node; its index, or UINT32_MAX on ENOMEM. */
static uint32_t node_new(struct search *s)
{
    if (grow((void **)&s->nodes, &s->capnodes, s->nnodes + 1, sizeof(*s->nodes)) != 0) {
        s->nomem = true;
        return UINT32_MAX;
    }
    memset(&s->nodes[s->nnodes], 0, sizeof(s->nodes[0]));
    s->stats->nodes++;
    return s->nnodes++;
}

static void tree_free(struct search *s)
{
    for (uint32_t i = 0; i < s->nnodes; i++) {
        free(s->nodes[i].stats);
        free(s->nodes[i].kids);
    }
    free(s->nodes);
    free(s->path);
    free(s->keys);
    free(s->untried);
}

static int stat_find(const struct node *n, int seat, uint64_t key)
{
    for (uint32_t i = 0; i < n->nstats; i++) {
        if (n->stats[i].key == key && n->stats[i].seat == seat) {
            return (int)i;
        }
    }
    return -1;
}

static uint32_t kid_find(const struct node *n, uint64_t key)
{
    for (uint32_t i = 0; i < n->nkids; i++) {
        if (n->kids[i].key == key) {
            return n->kids[i].node;
        }
    }
    return UINT32_MAX;
}

/* ---- Values ---- */

/* The worth of `st` to every seat, clamped to [0, 1]. */
static void value_of(struct search *s, const void *st, double v[GAME_MAX_SEATS])
{
    int n = s->ask->nseats;

    for (int i = 0; i < GAME_MAX_SEATS; i++) {
        v[i] = 0.5;
    }
    if (s->bot && s->bot->value) {
        s->bot->value(st, v);
    } else if (!s->g->active(st)) {
        json_t *res = game_result(s->g, st);
        json_t *w = json_object_get(res, "winners");
        size_t k = json_array_size(w);
        for (int i = 0; i < n; i++) {
            v[i] = 0;
        }
        for (size_t i = 0; i < k; i++) {
            json_int_t seat = json_integer_value(json_array_get(w, i));
            if (seat >= 0 && seat < n) {
                v[seat] = 1.0 / (double)k;
            }
        }
        json_decref(res);
    }
    for (int i = 0; i < n; i++) {
        v[i] = isnan(v[i]) ? 0.5 : v[i] < 0 ? 0 : v[i] > 1 ? 1 : v[i];
    }
}

static int lowest_seat(unsigned active)
{
    int q = 0;

    while (!(active & (1u << q))) {
        q++;
    }
    return q;
}

/* Plays `st` on by the game's policy until the end or the depth. */
static void playout(struct search *s, void *st)
{
    int depth = s->bot && s->bot->playout_depth > 0 ? s->bot->playout_depth : PLAYOUT_CAP;
    struct game_error err;

    for (int i = 0; i < depth; i++) {
        unsigned active = s->g->active(st);
        if (!active) {
            return;
        }
        int q = lowest_seat(active);
        json_t *legal = s->g->legal(st, q);
        size_t n = json_array_size(legal);
        if (n == 0) {
            s->nomem |= legal == NULL;
            json_decref(legal);
            return;
        }
        size_t pick = s->bot && s->bot->playout ? s->bot->playout(st, q, legal, &s->rng)
                                                : game_rng_below(&s->rng, (uint32_t)n);
        if (pick >= n) {
            pick = 0;
        }
        if (s->g->apply(st, q, json_array_get(legal, pick), &err) != GAME_OK) {
            s->stats->refused++;
            json_decref(legal);
            return;
        }
        json_decref(legal);
    }
}

/* ---- One pass ---- */

/* Chooses for `seat` at node `ni` among `legal`: an untried action first
 * (added to the node), else the best by UCB over the actions
 * available now. Returns the index into legal, or -1 on ENOMEM. */
static int choose(struct search *s, uint32_t ni, int seat, const json_t *legal, uint32_t *ret_stat)
{
    size_t n = json_array_size(legal);
    uint32_t nuntried = 0;
    int best = -1;
    double best_score = -1;

    if (n > s->capkeys) {
        uint64_t *k = realloc(s->keys, n * sizeof(*k));
        if (k) {
            s->keys = k;
        }
        uint32_t *u = realloc(s->untried, n * sizeof(*u));
        if (u) {
            s->untried = u;
        }
        if (!k || !u) {
            return -1;
        }
        s->capkeys = n;
    }
    struct node *node = &s->nodes[ni];
    for (size_t i = 0; i < n; i++) {
        s->keys[i] = key_of(json_array_get(legal, i));
        int si = stat_find(node, seat, s->keys[i]);
        if (si < 0) {
            s->untried[nuntried++] = (uint32_t)i;
            continue;
        }
        struct stat *st = &node->stats[si];
        st->avail++;
        double score =
            st->reward / st->visits + UCB_C * sqrt(log((double)st->avail) / (double)st->visits);
        if (score > best_score) {
            best_score = score;
            best = (int)i;
            *ret_stat = (uint32_t)si;
        }
    }
    if (nuntried > 0) {
        int i = (int)s->untried[game_rng_below(&s->rng, nuntried)];
        if (grow((void **)&node->stats, &node->capstats, node->nstats + 1, sizeof(*node->stats)) !=
            0) {
            return -1;
        }
        node->stats[node->nstats] = (struct stat){.key = s->keys[i], .avail = 1, .seat = seat};
        *ret_stat = node->nstats++;
        return i;
    }
    return best;
}

/* Appends a step to the pass's path. -1 on ENOMEM. */
static struct step *path_push(struct search *s, uint32_t ni)
{
    if (s->npath == s->cappath) {
        size_t ncap = s->cappath ? s->cappath * 2 : 16;
        struct step *p = realloc(s->path, ncap * sizeof(*p));
        if (!p) {
            return NULL;
        }
        s->path = p;
        s->cappath = ncap;
    }
    struct step *st = &s->path[s->npath++];
    st->node = ni;
    st->seats = 0;
    return st;
}

/* Descends from the root through `st` (a redrawn copy), adding at most one
 * node; the steps taken are in s->path. */
static void descend(struct search *s, void *st)
{
    uint32_t ni = 0;
    struct game_error err;

    s->npath = 0;
    for (;;) {
        unsigned active = s->g->active(st);
        if (!active) {
            return;
        }
        struct step *step = path_push(s, ni);
        json_t *chosen[GAME_MAX_SEATS] = {0};
        uint64_t joint = mix(active);
        if (!step) {
            s->nomem = true;
            return;
        }
        for (int q = 0; q < s->ask->nseats; q++) {
            if (!(active & (1u << q))) {
                continue;
            }
            json_t *legal = s->g->legal(st, q);
            int i = json_array_size(legal) > 0 ? choose(s, ni, q, legal, &step->stat[q]) : -1;
            if (i >= 0) {
                chosen[q] = json_incref(json_array_get(legal, (size_t)i));
                step->seats |= 1u << q;
                joint = mix(joint ^ (s->nodes[ni].stats[step->stat[q]].key + (uint64_t)q));
            } else {
                s->nomem |= legal == NULL || json_array_size(legal) > 0;
            }
            json_decref(legal);
        }
        bool refused = false;
        for (int q = 0; q < s->ask->nseats; q++) {
            if (chosen[q] && !refused && s->g->apply(st, q, chosen[q], &err) != GAME_OK) {
                s->stats->refused++;
                refused = true;
            }
            json_decref(chosen[q]);
        }
        if (refused || step->seats == 0) {
            s->nomem |= step->seats == 0;
            return;
        }
        uint32_t kid = kid_find(&s->nodes[ni], joint);
        if (kid != UINT32_MAX) {
            ni = kid;
            continue;
        }
        kid = node_new(s);
        struct node *node = &s->nodes[ni];
        if (kid == UINT32_MAX ||
            grow((void **)&node->kids, &node->capkids, node->nkids + 1, sizeof(*node->kids)) != 0) {
            s->nomem = true;
            return;
        }
        node->kids[node->nkids++] = (struct edge){.key = joint, .node = kid};
        return;
    }
}

static void backup(struct search *s, const double v[GAME_MAX_SEATS])
{
    for (size_t i = 0; i < s->npath; i++) {
        const struct step *step = &s->path[i];
        for (int q = 0; q < s->ask->nseats; q++) {
            if (step->seats & (1u << q)) {
                struct stat *st = &s->nodes[step->node].stats[step->stat[q]];
                st->visits++;
                st->reward += v[q];
            }
        }
    }
}

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static bool stopped(const struct bot_ask *ask)
{
    return ask->stop && atomic_load_explicit(ask->stop, memory_order_relaxed);
}

/* ---- The decision ---- */

/* The index in `legal` (the real position's list) of the root action the
 * search visited most (ties: the better mean, then the first listed). */
static size_t best_at_root(const struct search *s, const json_t *legal)
{
    size_t best = 0;
    uint32_t best_visits = 0;
    double best_mean = -1;

    for (size_t i = 0; s->nnodes > 0 && i < json_array_size(legal); i++) {
        int si = stat_find(&s->nodes[0], s->ask->seat, key_of(json_array_get(legal, i)));
        if (si < 0) {
            continue;
        }
        const struct stat *st = &s->nodes[0].stats[si];
        double mean = st->visits ? st->reward / st->visits : 0;
        if (st->visits > best_visits || (st->visits == best_visits && mean > best_mean)) {
            best = i;
            best_visits = st->visits;
            best_mean = mean;
        }
    }
    return best;
}

json_t *bot_decide(const struct bot_ask *ask, struct bot_stats *ret_stats)
{
    struct bot_stats stats = {0};
    struct search s = {.ask = ask, .g = ask->game, .bot = ask->game->bot, .stats = &stats};
    double t0 = now_ms();
    json_t *legal = ask->game->legal(ask->state, ask->seat);
    size_t n = json_array_size(legal);
    json_t *pick = NULL;

    /* Every byte of the seed counts in every word, so in the first draw. */
    uint64_t w[4], all = 0;
    memcpy(w, ask->seed, sizeof(w));
    for (int i = 0; i < 4; i++) {
        all = mix(all ^ w[i]);
    }
    for (int i = 0; i < 4; i++) {
        s.rng.s[i] = mix(w[i] ^ all ^ mix((uint64_t)i + 1)) | (i == 0);
    }
    if (n == 0) {
        json_decref(legal);
        goto out;
    }
    if (n == 1 || ask->random || !s.bot || !s.bot->determinize) {
        pick = json_incref(json_array_get(legal, n == 1 ? 0 : game_rng_below(&s.rng, (uint32_t)n)));
        json_decref(legal);
        goto out;
    }
    void *st = malloc(ask->game->state_size);
    if (!st || node_new(&s) == UINT32_MAX) {
        free(st);
        tree_free(&s);
        json_decref(legal);
        goto out;
    }
    stats.searched = true;
    unsigned passes = ask->budget.passes ? ask->budget.passes : UINT32_MAX;
    for (unsigned p = 0; p < passes && !s.nomem; p++) {
        if (p % CLOCK_EVERY == CLOCK_EVERY - 1 &&
            ((ask->budget.ms && now_ms() - t0 >= ask->budget.ms) || stopped(ask))) {
            break;
        }
        double v[GAME_MAX_SEATS];
        memcpy(st, ask->state, ask->game->state_size);
        s.bot->determinize(st, ask->seat, &s.rng);
        descend(&s, st);
        playout(&s, st);
        value_of(&s, st, v);
        backup(&s, v);
        stats.passes++;
    }
    free(st);
    pick = json_incref(json_array_get(legal, best_at_root(&s, legal)));
    json_decref(legal);
    tree_free(&s);
out:
    stats.ms = now_ms() - t0;
    if (ret_stats) {
        *ret_stats = stats;
    }
    return pick;
}
