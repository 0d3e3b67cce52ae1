/* SPDX-License-Identifier: MIT */
/*
 * fuzz_game.c - the driver behind the per-game fuzz targets (see
 * fuzz_game.h for the input layout). At first use it fills a table of
 * positions: seeded random games (options from the game's own fuzz_options
 * hook, game_tests.h, over many selectors and seat counts) played through
 * the game's ops to their end, keeping a few positions spread evenly over
 * each game, its last few positions, and the first positions that list
 * each type of action. An input picks one of them, a memcpy of the flat
 * state, and plays a few steps from there: listed actions, listed actions
 * for another seat, altered listed actions, then the JSON at the end of
 * the input as an action of every seat, each from the same position. So
 * an input costs a few actions, never the long prefix of play that leads
 * to a late position; the table costs a few seconds once per process.
 *
 * It checks the game.h contract and aborts on a breach: every listed legal
 * action is accepted; a refused action leaves the state byte-identical and
 * carries its status and a message; invariants hold after every accepted
 * action; on every position of the table, on the position the steps reach
 * and after an accepted final action, the invariants hold, only active
 * seats have legal actions, the public view and every seat's "you" build,
 * and the result exists exactly when nobody may act; the final action,
 * when accepted, gives the same bytes twice. Games are started with
 * game_start(), actions applied with game_try() and views built with
 * game_view(). It knows no game by name, never writes a file, and frees
 * everything it builds except the table, which lives as long as the
 * process.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_game.h"
#include "game_tests.h"
#include "rng.h"

#define FUZZ_HEADER_BYTES 3
#define FUZZ_STEP_BYTES 5
#define FUZZ_TABLE_GAMES 64   /* seeded games played to fill the table */
#define FUZZ_TABLE_TRIES 1024 /* option selectors tried to find them */
#define FUZZ_SPREAD 12        /* positions kept of each, spread evenly over it */
#define FUZZ_RECENT 4         /* and the last positions up to its end */
#define FUZZ_PLAY_MAX 20000   /* actions after which a table game stops */
#define FUZZ_TYPES_MAX 64     /* action types the table tells apart */
#define FUZZ_TYPE_KEEP 2      /* positions kept for the first listings of each */
#define FUZZ_TYPE_BYTES 32    /* bytes of a type name the table keeps */
#define FUZZ_POOL_MAX 256     /* values of legal actions an alteration draws from */
#define FUZZ_NODES_MAX 64     /* values of one action an alteration may pick */

/* The positions of one game, and the working blocks of a run. */
struct fuzz_table {
    const struct game_ops *g;
    size_t n;
    size_t cap;
    int *nseats;           /* the seat count of each position */
    unsigned char *states; /* cap blocks of state_size bytes */
    /* The action types seen while filling the table, and how many of the
     * positions kept for listing a type first list this one. */
    size_t ntypes;
    char types[FUZZ_TYPES_MAX][FUZZ_TYPE_BYTES];
    int type_kept[FUZZ_TYPES_MAX];
    unsigned char *work; /* 4 blocks: state, scratch, second scratch, backup */
};

/* The legal actions of every active seat of a position, numbered in seat
 * order, then in `legal` order. */
struct legal_set {
    json_t *list[GAME_MAX_SEATS]; /* new references; NULL for a seat that may not act */
    size_t n;
};

/* One run: the game, its seat count, the working blocks and the legal
 * actions of the position `st` holds, listed at most once per position. */
struct run {
    const struct game_ops *g;
    int nseats;
    void *st;
    void *scratch;
    void *again;
    void *backup;
    struct legal_set legal;
    bool has_legal;
    bool moved; /* an accepted step moved it off its table position */
};

/* The table of the game this process fuzzes, filled at first use. */
static struct fuzz_table *the_table;

/* ---- Legal actions ---- */

/* Fills `ls` with the legal actions of `st`. Returns 0, or -1 on ENOMEM
 * (nothing to free then). Aborts when seats may act but none has a legal
 * action. */
static int legal_set_init(struct legal_set *ls, const struct game_ops *g, const void *st,
                          int nseats)
{
    memset(ls, 0, sizeof(*ls));
    unsigned active = g->active(st);
    for (int s = 0; s < nseats; s++) {
        if (!(active & (1u << s))) {
            continue;
        }
        ls->list[s] = g->legal(st, s);
        if (ls->list[s] == NULL) {
            for (int k = 0; k < s; k++) {
                json_decref(ls->list[k]);
            }
            return -1;
        }
        if (!json_is_array(ls->list[s])) {
            fprintf(stderr, "%s: the legal list of seat %d is no array\n", g->id, s);
            abort();
        }
        ls->n += json_array_size(ls->list[s]);
    }
    if (active != 0 && ls->n == 0) {
        fprintf(stderr, "%s: seats may act but have no legal action\n", g->id);
        abort();
    }
    return 0;
}

static void legal_set_fini(struct legal_set *ls)
{
    for (int s = 0; s < GAME_MAX_SEATS; s++) {
        json_decref(ls->list[s]);
    }
}

/* Action number `i` (i < ls->n) of `ls`, borrowed, and its seat (NULL
 * and -1 past the end). */
static json_t *legal_set_get(const struct legal_set *ls, size_t i, int *ret_seat)
{
    *ret_seat = -1;
    for (int s = 0; s < GAME_MAX_SEATS; s++) {
        size_t n = json_array_size(ls->list[s]);
        if (i < n) {
            *ret_seat = s;
            return json_array_get(ls->list[s], i);
        }
        i -= n;
    }
    return NULL;
}

/* The legal actions of the run's position. NULL on ENOMEM. */
static const struct legal_set *run_legal(struct run *r)
{
    if (!r->has_legal) {
        if (legal_set_init(&r->legal, r->g, r->st, r->nseats) < 0) {
            return NULL;
        }
        r->has_legal = true;
    }
    return &r->legal;
}

/* Forgets the legal actions of the run's position, which has changed. */
static void run_moved(struct run *r)
{
    if (r->has_legal) {
        legal_set_fini(&r->legal);
        r->has_legal = false;
    }
}

/* The "type" member of `action`, "" when none. */
static const char *type_of(const json_t *action)
{
    const char *t = json_string_value(json_object_get(action, "type"));
    return t != NULL ? t : "";
}

/* ---- Checks ---- */

/* Aborts unless the invariants of the game hold. */
static void check_invariants(const struct run *r)
{
    struct game_error err;
    memset(&err, 0, sizeof(err));
    if (r->g->check_invariants != NULL && r->g->check_invariants(r->st, &err) != 0) {
        fprintf(stderr, "%s: invariant broken: %s\n", r->g->id, err.message);
        abort();
    }
}

/* Aborts unless the game holds a position that obeys the contract:
 * invariants (unless `invariants_held`: checked already), views (the
 * public part once, "you" of every seat), legal lists and result. */
static void check_position(struct run *r, bool invariants_held)
{
    const struct game_ops *g = r->g;
    if (!invariants_held) {
        check_invariants(r);
    }
    json_t *v = game_view(g, r->st, -1);
    if (v == NULL || !json_is_object(v)) {
        fprintf(stderr, "%s: no public view\n", g->id);
        abort();
    }
    json_decref(v);
    for (int s = 0; s < r->nseats; s++) {
        json_t *you = game_section_json(g, r->st, -1, s);
        if (you == NULL) {
            fprintf(stderr, "%s: no view for seat %d\n", g->id, s);
            abort();
        }
        json_decref(you);
    }
    unsigned active = g->active(r->st);
    if (active >> r->nseats != 0) {
        fprintf(stderr, "%s: active mask %#x names a missing seat\n", g->id, active);
        abort();
    }
    /* The active seats' lists are the run's; the others' must be empty. */
    (void)run_legal(r);
    for (int s = 0; s < r->nseats; s++) {
        if (active & (1u << s)) {
            continue;
        }
        json_t *l = g->legal(r->st, s);
        if (l == NULL || !json_is_array(l)) {
            fprintf(stderr, "%s: no legal list for seat %d\n", g->id, s);
            abort();
        }
        if (json_array_size(l) != 0) {
            fprintf(stderr, "%s: inactive seat %d has legal actions\n", g->id, s);
            abort();
        }
        json_decref(l);
    }
    json_t *res = game_result(g, r->st);
    if ((res == NULL) != (active != 0)) {
        fprintf(stderr, "%s: result %s while the active mask is %#x\n", g->id,
                res != NULL ? "given" : "missing", active);
        abort();
    }
    json_decref(res);
}

/* Aborts with the action in the message. */
static void fail_action(const struct run *r, const char *what, int seat, const json_t *action,
                        int rc, const struct game_error *err)
{
    char *text = json_dumps(action, JSON_COMPACT | JSON_ENCODE_ANY);
    fprintf(stderr, "%s: %s: action %s of seat %d (%d): %s\n", r->g->id, what,
            text != NULL ? text : "?", seat, rc, err->message);
    free(text);
    abort();
}

/* Applies `action` (borrowed) for `seat` to the run's state and checks the
 * contract either way: an accepted action keeps the invariants and becomes
 * the new state; a refused one leaves the state as it was and carries its
 * status and a message, and is a breach when `listed` (the action is one
 * of the seat's legal actions). */
static void apply_checked(struct run *r, int seat, const json_t *action, bool listed)
{
    size_t n = r->g->state_size;
    struct game_error err;
    memset(&err, 0, sizeof(err));
    memcpy(r->backup, r->st, n);
    int rc = game_try(r->g, r->st, r->scratch, seat, action, &err);
    if (memcmp(r->st, r->backup, n) != 0) {
        fail_action(r, "trying changed the state", seat, action, rc, &err);
    }
    if (rc != GAME_OK) {
        if (rc < GAME_E_NOMEM || rc > GAME_E_ILLEGAL || err.status != rc ||
            err.message[0] == '\0' || memchr(err.message, '\0', sizeof(err.message)) == NULL) {
            fail_action(r, "refusal without its status or message", seat, action, rc, &err);
        }
        if (listed) {
            fail_action(r, "listed action refused", seat, action, rc, &err);
        }
        return;
    }
    memcpy(r->st, r->scratch, n);
    run_moved(r);
    r->moved = true;
    check_invariants(r);
}

/* ---- Altered actions ---- */

/* One value inside an action and where it sits. */
struct node {
    json_t *value;
    json_t *parent; /* NULL for the action itself */
    const char *key;
    size_t index;
};

/* Lists `v` and the values below it, depth first, up to FUZZ_NODES_MAX. */
static void collect_nodes(json_t *v, json_t *parent, const char *key, size_t index,
                          struct node *nodes, size_t *n)
{
    if (*n >= FUZZ_NODES_MAX) {
        return;
    }
    nodes[(*n)++] = (struct node){v, parent, key, index};
    if (json_is_object(v)) {
        const char *k;
        json_t *m;
        json_object_foreach(v, k, m) {
            collect_nodes(m, v, k, 0, nodes, n);
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *m;
        json_array_foreach(v, i, m) {
            collect_nodes(m, v, NULL, i, nodes, n);
        }
    }
}

/* Lists the scalars of `v` (borrowed) into `pool`, up to FUZZ_POOL_MAX. */
static void collect_scalars(json_t *v, json_t **pool, size_t *n)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *m;
        json_object_foreach(v, k, m) {
            collect_scalars(m, pool, n);
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *m;
        json_array_foreach(v, i, m) {
            collect_scalars(m, pool, n);
        }
    } else if (v != NULL && *n < FUZZ_POOL_MAX) {
        pool[(*n)++] = v;
    }
}

/* A value of another type or out of every range, number `which`. New
 * reference. */
static json_t *odd_value(unsigned which)
{
    switch (which % 12) {
    case 0:
        return json_null();
    case 1:
        return json_true();
    case 2:
        return json_integer(0);
    case 3:
        return json_integer(-1);
    case 4:
        return json_integer((json_int_t)1 << 31);
    case 5:
        return json_integer(INT64_MIN);
    case 6:
        return json_integer(INT64_MAX);
    case 7:
        return json_real(1.5);
    case 8:
        return json_string("");
    case 9:
        return json_stringn("a\0b", 3);
    case 10:
        return json_array();
    default:
        return json_object();
    }
}

/* Puts `with` (stolen) where `at` is: in its parent, or as the whole
 * action in *root. */
static void replace_node(json_t **root, const struct node *at, json_t *with)
{
    if (with == NULL) {
        return;
    }
    if (at->parent == NULL) {
        json_decref(*root);
        *root = with;
    } else if (at->key != NULL) {
        (void)json_object_set_new(at->parent, at->key, with);
    } else {
        (void)json_array_set_new(at->parent, at->index, with);
    }
}

/* A value near `v` or one of the pool's: an integer moved by a little or
 * a lot, a string cut or lengthened. New reference. */
static json_t *nudge(const json_t *v, unsigned variant)
{
    static const json_int_t steps[] = {1, -1, 2, -2, 7, -13, 1000, -100000};
    if (json_is_integer(v)) {
        return json_integer(json_integer_value(v) + steps[variant % 8]);
    }
    if (json_is_string(v)) {
        size_t len = json_string_length(v);
        const char *s = json_string_value(v);
        if (variant % 2 == 0 && len > 0) {
            return json_stringn(s, len - 1);
        }
        char buf[80];
        size_t keep = len < 64 ? len : 64;
        memcpy(buf, s, keep);
        buf[keep] = variant % 4 == 1 ? 'x' : '-';
        buf[keep + 1] = variant % 4 == 1 ? '\0' : '1';
        return json_stringn(buf, keep + (variant % 4 == 1 ? 1 : 2));
    }
    return odd_value(variant);
}

/* Alters a copy of `action` (borrowed): mutation `kind` (0..63) at its
 * value number `at`, drawing from the scalars of every legal action of the
 * position (`all`) as `pick` says. New reference; NULL on ENOMEM. */
static json_t *alter(const json_t *action, unsigned kind, uint8_t at, uint8_t pick,
                     const struct legal_set *all)
{
    json_t *root = json_deep_copy(action);
    if (root == NULL) {
        return NULL;
    }
    json_t *pool[FUZZ_POOL_MAX];
    size_t npool = 0;
    for (int s = 0; s < GAME_MAX_SEATS; s++) {
        collect_scalars(all->list[s], pool, &npool);
    }
    for (unsigned round = 0; round < 1 + (kind % 8 == 7); round++) {
        struct node nodes[FUZZ_NODES_MAX];
        size_t n = 0;
        collect_nodes(root, NULL, NULL, 0, nodes, &n);
        const struct node *nd = &nodes[(at + round * 37u) % n];
        unsigned variant = kind / 8 + round * 3;
        json_t *from_pool = npool > 0 ? pool[(pick + round * 101u) % npool] : NULL;
        switch (round == 0 ? kind % 8 : (kind / 8) % 6) {
        case 0: /* a neighbour of the value */
            replace_node(&root, nd, nudge(nd->value, variant));
            break;
        case 1: /* a value of another legal action */
            if (from_pool != NULL) {
                replace_node(&root, nd, json_deep_copy(from_pool));
            }
            break;
        case 2: /* another type, or out of range */
            replace_node(&root, nd, odd_value(variant + pick));
            break;
        case 3: /* gone */
            if (nd->parent == NULL) {
                replace_node(&root, nd, json_object());
            } else if (nd->key != NULL) {
                (void)json_object_del(nd->parent, nd->key);
            } else {
                (void)json_array_remove(nd->parent, nd->index);
            }
            break;
        case 4: /* one more: a repeated element, or a member the action lacks */
            if (nd->parent != NULL && nd->key == NULL) {
                (void)json_array_append_new(nd->parent, json_deep_copy(nd->value));
            } else {
                json_t *obj = nd->parent != NULL ? nd->parent : root;
                const char *name = json_is_string(from_pool) ? json_string_value(from_pool) : "x";
                if (json_is_object(obj)) {
                    (void)json_object_set_new(obj, name, odd_value(variant));
                }
            }
            break;
        case 5: /* members of another legal action over ours */
        case 6:
        default: {
            int other_seat;
            const json_t *other = legal_set_get(all, pick % all->n, &other_seat);
            if (json_is_object(root) && json_is_object(other)) {
                const char *k;
                json_t *m;
                unsigned bit = 0;
                json_object_foreach((json_t *)other, k, m) {
                    if ((variant + pick) >> (bit++ % 3) & 1) {
                        (void)json_object_set_new(root, k, json_deep_copy(m));
                    }
                }
            } else if (from_pool != NULL) {
                replace_node(&root, nd, nudge(from_pool, variant));
            }
            break;
        }
        }
    }
    return root;
}

/* ---- The table of positions ---- */

/* Picks a seat count the game accepts with `options`, starting from the
 * one `selector` names. Returns 0 when none is accepted. */
static int pick_seats(const struct game_ops *g, const json_t *options, uint8_t selector)
{
    int span = g->max_players - g->min_players + 1;
    if (span < 1) {
        return 0;
    }
    for (int k = 0; k < span; k++) {
        int n = g->min_players + (selector + k) % span;
        struct game_error err;
        if (n >= 1 && n <= GAME_MAX_SEATS && g->check_options(options, n, &err) == GAME_OK) {
            return n;
        }
    }
    return 0;
}

/* Picks one of the actions of `all`: uniformly when `by_type` is false,
 * else first uniformly among the action types listed (the "type" member
 * of an object action), then among the actions of that type, so that rare
 * decisions are taken as often as common ones. */
static size_t pick_action(const struct legal_set *all, bool by_type, struct game_rng *rng)
{
    if (!by_type) {
        return game_rng_below(rng, (uint32_t)all->n);
    }
    const char *types[FUZZ_TYPES_MAX];
    size_t ntypes = 0;
    int seat;
    for (size_t i = 0; i < all->n; i++) {
        const char *t = type_of(legal_set_get(all, i, &seat));
        size_t k = 0;
        while (k < ntypes && strcmp(types[k], t) != 0) {
            k++;
        }
        if (k == ntypes && ntypes < FUZZ_TYPES_MAX) {
            types[ntypes++] = t;
        }
    }
    const char *want = types[game_rng_below(rng, (uint32_t)ntypes)];
    size_t count = 0;
    for (size_t i = 0; i < all->n; i++) {
        count += strcmp(type_of(legal_set_get(all, i, &seat)), want) == 0;
    }
    size_t nth = game_rng_below(rng, (uint32_t)count);
    for (size_t i = 0; i < all->n; i++) {
        if (strcmp(type_of(legal_set_get(all, i, &seat)), want) == 0 && nth-- == 0) {
            return i;
        }
    }
    return 0;
}

/* Appends the state `st` of a game of `nseats` seats, whose invariants
 * hold, to the table, once it obeys the rest of the contract. */
static void table_add(struct fuzz_table *t, const void *st, int nseats)
{
    if (t->n == t->cap) {
        return;
    }
    struct run r = {.g = t->g, .nseats = nseats, .st = t->states + t->n * t->g->state_size};
    memcpy(r.st, st, t->g->state_size);
    check_position(&r, true);
    run_moved(&r);
    t->nseats[t->n++] = nseats;
}

/* Keeps the position `st`, whose legal actions are `all`, when it lists a
 * type of action that fewer than FUZZ_TYPE_KEEP kept positions listed
 * before: so the table holds the rare decisions that the spread positions
 * miss. */
static void table_note(struct fuzz_table *t, const void *st, int nseats,
                       const struct legal_set *all)
{
    size_t idx[FUZZ_TYPES_MAX];
    size_t nidx = 0;
    bool novel = false;
    for (size_t i = 0; i < all->n; i++) {
        int seat;
        const char *name = type_of(legal_set_get(all, i, &seat));
        size_t k = 0;
        while (k < t->ntypes && strncmp(t->types[k], name, FUZZ_TYPE_BYTES - 1) != 0) {
            k++;
        }
        if (k == t->ntypes) {
            if (t->ntypes == FUZZ_TYPES_MAX) {
                continue;
            }
            snprintf(t->types[k], FUZZ_TYPE_BYTES, "%s", name);
            t->ntypes++;
        }
        size_t j = 0;
        while (j < nidx && idx[j] != k) {
            j++;
        }
        if (j == nidx) {
            idx[nidx++] = k;
            novel = novel || t->type_kept[k] < FUZZ_TYPE_KEEP;
        }
    }
    if (novel) {
        table_add(t, st, nseats);
        for (size_t j = 0; j < nidx; j++) {
            t->type_kept[idx[j]]++;
        }
    }
}

/* Plays a game of the options and seat count that try number `c` picks,
 * to its end (or FUZZ_PLAY_MAX actions), and adds to the table up to
 * FUZZ_SPREAD positions spread over it, halving the kept ones whenever
 * they fill up, and the last FUZZ_RECENT ones. `spread` holds FUZZ_SPREAD
 * blocks and `recent` FUZZ_RECENT. Returns false when the game refuses
 * those options. Aborts when a listed action is refused. */
static bool table_play(struct fuzz_table *t, size_t c, unsigned char *spread, unsigned char *recent)
{
    const struct game_ops *g = t->g;
    size_t size = g->state_size;
    json_t *opts = g->tests->fuzz_options((uint8_t)c);
    int nseats = pick_seats(g, opts, (uint8_t)(c * 37 + c / 5));
    if (nseats == 0) {
        json_decref(opts);
        return false;
    }
    struct game_setup setup;
    memset(&setup, 0, sizeof(setup));
    setup.nseats = nseats;
    for (int s = 0; s < nseats; s++) {
        snprintf(setup.names[s], sizeof(setup.names[s]), "Seat %d", s + 1);
    }
    uint8_t rseed[GAME_SEED_BYTES];
    for (int i = 0; i < GAME_SEED_BYTES; i++) {
        setup.seed[i] = (uint8_t)(c * 131 + (size_t)i * 0x9d + 1);
        rseed[i] = (uint8_t)(c * 17 + (size_t)i * 0x3b + 7);
    }
    struct game_rng rng;
    game_rng_seed(&rng, rseed);
    bool by_type = game_rng_below(&rng, 2) == 1;
    struct run r = {.g = g, .nseats = nseats, .st = t->work, .scratch = t->work + size};
    struct game_error err;
    memset(&err, 0, sizeof(err));
    if (game_start(g, r.st, opts, &setup, &err) != GAME_OK) {
        /* check_options accepted these options and seats, so init must. */
        fprintf(stderr, "%s: init refused accepted options: %s\n", g->id, err.message);
        abort();
    }
    json_decref(opts);

    size_t nspread = 0;
    size_t stride = 1;
    size_t played = 0;
    for (;;) {
        if (played % stride == 0 && nspread == FUZZ_SPREAD) {
            for (size_t k = 0; k < FUZZ_SPREAD / 2; k++) {
                memcpy(spread + k * size, spread + 2 * k * size, size);
            }
            nspread = FUZZ_SPREAD / 2;
            stride *= 2;
        }
        if (played % stride == 0) {
            memcpy(spread + nspread++ * size, r.st, size);
        }
        memcpy(recent + (played % FUZZ_RECENT) * size, r.st, size);
        check_invariants(&r);
        if (g->active(r.st) == 0 || played == FUZZ_PLAY_MAX) {
            break;
        }
        struct legal_set all;
        if (legal_set_init(&all, g, r.st, nseats) < 0) {
            fprintf(stderr, "%s: out of memory while filling the table\n", g->id);
            abort();
        }
        table_note(t, r.st, nseats, &all);
        int seat;
        json_t *action = legal_set_get(&all, pick_action(&all, by_type, &rng), &seat);
        int rc = game_try(g, r.st, r.scratch, seat, action, &err);
        if (rc != GAME_OK) {
            fail_action(&r, "listed action refused", seat, action, rc, &err);
        }
        memcpy(r.st, r.scratch, size);
        legal_set_fini(&all);
        played++;
    }
    for (size_t k = 0; k < nspread; k++) {
        table_add(t, spread + k * size, nseats);
    }
    /* Every multiple of the stride up to the end is kept already. */
    size_t first = played + 1 > FUZZ_RECENT ? played + 1 - FUZZ_RECENT : 0;
    for (size_t s = first; s <= played; s++) {
        if (s % stride != 0) {
            table_add(t, recent + (s % FUZZ_RECENT) * size, nseats);
        }
    }
    return true;
}

/* The table of game `g`, filled at first use. Aborts when it cannot be. */
static const struct fuzz_table *table_get(const struct game_ops *g)
{
    if (the_table != NULL && the_table->g == g) {
        return the_table;
    }
    if (the_table != NULL) {
        fprintf(stderr, "fuzz: one game per process (%s, then %s)\n", the_table->g->id, g->id);
        abort();
    }
    size_t size = g->state_size;
    size_t cap = FUZZ_TABLE_GAMES * (FUZZ_SPREAD + FUZZ_RECENT) + FUZZ_TYPES_MAX * FUZZ_TYPE_KEEP;
    struct fuzz_table *t = calloc(1, sizeof(*t));
    unsigned char *spread = malloc(FUZZ_SPREAD * size);
    unsigned char *recent = malloc(FUZZ_RECENT * size);
    if (t == NULL || spread == NULL || recent == NULL) {
        fprintf(stderr, "fuzz: out of memory\n");
        abort();
    }
    t->g = g;
    t->cap = cap;
    t->nseats = calloc(cap, sizeof(*t->nseats));
    t->states = malloc(cap * size);
    t->work = malloc(4 * size);
    if (t->nseats == NULL || t->states == NULL || t->work == NULL) {
        fprintf(stderr, "fuzz: out of memory\n");
        abort();
    }
    size_t games = 0;
    for (size_t c = 0; c < FUZZ_TABLE_TRIES && games < FUZZ_TABLE_GAMES; c++) {
        games += table_play(t, c, spread, recent);
    }
    free(spread);
    free(recent);
    if (t->n == 0) {
        fprintf(stderr, "%s: no options of fuzz_options are accepted\n", g->id);
        abort();
    }
    fprintf(stderr, "fuzz: %s: %zu positions from %zu seeded games\n", g->id, t->n, games);
    the_table = t;
    return t;
}

/* ---- One input ---- */

/* Prints the position line and the legal actions of the reached position,
 * one per line. */
static void print_legal(struct run *r, size_t p, size_t npos)
{
    printf("{\"position\": %zu, \"positions\": %zu, \"seats\": %d}\n", p, npos, r->nseats);
    const struct legal_set *all = run_legal(r);
    for (size_t i = 0; all != NULL && i < all->n; i++) {
        int seat;
        json_t *action = legal_set_get(all, i, &seat);
        json_t *line = json_pack("{sisO}", "seat", seat, "action", action);
        char *text = json_dumps(line, JSON_COMPACT | JSON_SORT_KEYS);
        if (text != NULL) {
            printf("%s\n", text);
            free(text);
        }
        json_decref(line);
    }
    fflush(stdout);
}

/* Plays one step (see fuzz_game.h) from the run's position. */
static void play_step(struct run *r, const uint8_t *step)
{
    const struct legal_set *all = run_legal(r);
    if (all == NULL || all->n == 0) {
        return;
    }
    /* A reference of its own: an accepted action frees the list. */
    int seat;
    json_t *action =
        json_incref(legal_set_get(all, (size_t)(step[1] | step[2] << 8) % all->n, &seat));
    switch (step[0] % 4) {
    case 2:
        apply_checked(r, step[3] % r->nseats, action, false);
        break;
    case 3: {
        json_t *altered = alter(action, step[0] / 4u, step[3], step[4], all);
        if (altered != NULL) {
            apply_checked(r, seat, altered, false);
            json_decref(altered);
        }
        break;
    }
    default:
        apply_checked(r, seat, action, true);
        break;
    }
    json_decref(action);
}

/* Applies `action` for every seat, each from the reached position. An
 * accepted action must give the same bytes when applied twice, and a
 * position that obeys the contract. */
static void try_action(struct run *r, const json_t *action)
{
    size_t n = r->g->state_size;
    memcpy(r->backup, r->st, n);
    for (int s = 0; s < r->nseats; s++) {
        struct game_error err;
        memset(&err, 0, sizeof(err));
        int rc = game_try(r->g, r->st, r->scratch, s, action, &err);
        if (memcmp(r->st, r->backup, n) != 0) {
            fail_action(r, "trying changed the state", s, action, rc, &err);
        }
        if (rc == GAME_OK) {
            int again = game_try(r->g, r->st, r->again, s, action, &err);
            if (again != GAME_OK || memcmp(r->scratch, r->again, n) != 0) {
                fail_action(r, "the same action twice gave two outcomes", s, action, again, &err);
            }
            struct run after = *r;
            after.st = r->scratch;
            after.has_legal = false;
            check_position(&after, false);
            run_moved(&after);
        } else if (rc < GAME_E_NOMEM || rc > GAME_E_ILLEGAL || err.status != rc ||
                   err.message[0] == '\0' ||
                   memchr(err.message, '\0', sizeof(err.message)) == NULL) {
            fail_action(r, "refusal without its status or message", s, action, rc, &err);
        }
    }
}

/* The game with wire id `id`. Aborts unless it is registered with a
 * fuzz_options hook. */
static const struct game_ops *fuzzed_game(const char *id)
{
    const struct game_ops *g = game_find(id);
    if (g == NULL || g->tests == NULL || g->tests->fuzz_options == NULL) {
        fprintf(stderr, "fuzz: no game %s with fuzz options\n", id != NULL ? id : "(null)");
        abort();
    }
    return g;
}

void fuzz_game_prepare(const char *id)
{
    (void)table_get(fuzzed_game(id));
}

int fuzz_game_run(const char *id, const uint8_t *data, size_t size)
{
    const struct game_ops *g = fuzzed_game(id);
    const struct fuzz_table *t = table_get(g);
    if (size < FUZZ_HEADER_BYTES) {
        return 0;
    }
    size_t ss = g->state_size;
    size_t p = (size_t)(data[0] | data[1] << 8) % t->n;
    struct run r = {
        .g = g,
        .nseats = t->nseats[p],
        .st = t->work,
        .scratch = t->work + ss,
        .again = t->work + 2 * ss,
        .backup = t->work + 3 * ss,
    };
    memcpy(r.st, t->states + p * ss, ss);

    size_t pos = FUZZ_HEADER_BYTES;
    size_t nsteps = data[2] % (FUZZ_GAME_MAX_STEPS + 1);
    for (size_t k = 0; k < nsteps && size - pos >= FUZZ_STEP_BYTES; k++) {
        play_step(&r, data + pos);
        pos += FUZZ_STEP_BYTES;
    }
    /* The table's positions were checked when it was filled, and the
     * invariants after every accepted step. */
    if (r.moved) {
        check_position(&r, true);
    }
    if (getenv("FUZZ_GAME_PRINT_LEGAL") != NULL) {
        print_legal(&r, p, t->n);
    }

    if (pos < size) {
        json_t *action = json_loadb((const char *)data + pos, size - pos,
                                    JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
        if (action != NULL) {
            try_action(&r, action);
            json_decref(action);
        }
    }
    run_moved(&r);
    return 0;
}
