/* SPDX-License-Identifier: MIT */
/*
 * test_playouts.c - seeded random full games of every registered game,
 * through game.h only (game_start, game_try, game_apply, game_view), for
 * every seat count and every value of every enum option; how many games
 * per configuration is the game's own `playouts_per_config` (game_tests.h).
 * After every action it checks what must always hold:
 *
 *   - some seat may act until the game ends, and every game ends;
 *   - every action `legal` lists is accepted by `apply` as it is, and a
 *     game that writes its list as text (legal_text) writes the canonical
 *     text of that list, byte for byte;
 *   - a refused action (a non-active seat, a malformed or altered action)
 *     leaves the state byte-identical (game_apply);
 *   - every part of the view that changed() says is unchanged is equal:
 *     each section whose bit is clear writes the same text before and
 *     after the action, and so does every seat's "you" when
 *     GAME_CHANGED_YOU is clear;
 *   - every section and every "you" the game writes is one value in the
 *     canonical form: it parses and serialises back to the same bytes;
 *   - the game's own invariants hold;
 *   - every seat's view minus "you" equals the spectator view, which has
 *     no "you"; views hold integers only and never the seed;
 *   - the JSON Patch between consecutive views rebuilds the new view;
 *   - replaying the record (options, names, seed, actions) reproduces every
 *     view byte for byte;
 *   - a view's "log_keys" has one message per line of "log", and each
 *     message's English template in lang/<game>.json, filled with its
 *     arguments, is that line: what a client writes from the message in
 *     English is what the view says.
 *
 * It knows no game by name. Game number j of configuration number c (0 <=
 * j < playouts_per_config, configurations counted from 0 in the order they
 * are listed) is played by run (c + j) % NRUNS, so that meson can spread
 * one game's games over several processes, a game with one game a
 * configuration too.
 *
 * usage: test_playouts [GAME_ID [RUN NRUNS [GAMES_PER_CONFIG]]]
 */
#include "ck_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combos.h"
#include "game.h"
#include "game_tests.h"
#include "logkeys.h"
#include "proto.h"
#include "rng.h"

#define MAX_STEPS 20000

static int games_per_config; /* 0: each game's own count */
static const char *only_game;
static int run_index;
static int nruns = 1;

struct config {
    const struct game_ops *game;
    json_t *options;
    int nseats;
};

/* Canonical bytes of the view of `seat` as the game writes them (each of
 * its parts is checked to be canonical by parts_build); malloc'ed. The
 * view parsed, when `ret_view` asks for it. */
static char *view_bytes(const struct game_ops *g, const void *st, int seat, json_t **ret_view)
{
    struct game_text t = {0};
    char *s;

    ck_assert_msg(game_view_text(g, st, seat, &t) == 0, "%s: the view of %d is not one value",
                  g->id, seat);
    s = strdup(t.data);
    ck_assert_ptr_nonnull(s);
    if (ret_view) {
        *ret_view = json_loadb(t.data, t.len, 0, NULL);
        ck_assert_msg(*ret_view != NULL, "%s: the view of %d is not JSON", g->id, seat);
    }
    game_text_free(&t);
    return s;
}

/* The previous position's view of every recipient, parsed and as text. */
struct prev_views {
    json_t *view[GAME_MAX_SEATS + 1];
    char *text[GAME_MAX_SEATS + 1];
};

/* The catalogue of each game of the registry, loaded once. */
static json_t *catalogues;

static const json_t *catalogue_of(const char *game)
{
    char path[512];

    if (!catalogues) {
        catalogues = json_object();
    }
    json_t *cat = json_object_get(catalogues, game);
    if (!cat) {
        snprintf(path, sizeof(path), "%s/%s.json", CONCLAVE_LANG_DIR, game);
        cat = log_keys_catalogue(path);
        ck_assert_msg(cat != NULL, "%s cannot be read", path);
        json_object_set_new(catalogues, game, cat);
    }
    return cat;
}

static void check_views(const struct config *c, const void *st, const char *seed_hex,
                        struct prev_views *prev, int step)
{
    const struct game_ops *g = c->game;
    json_t *spec;
    char *spec_s = view_bytes(g, st, -1, &spec);

    ck_assert_msg(json_object_get(spec, "you") == NULL, "%s: spectator view has you", g->id);
    ck_assert_msg(strstr(spec_s, seed_hex) == NULL, "%s: view holds the seed", g->id);
    static const char *const keys[] = {"game",   "phase", "active",  "seats",
                                       "result", "log",   "log_keys"};
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        ck_assert_msg(json_object_get(spec, keys[k]) != NULL, "%s: view lacks \"%s\"", g->id,
                      keys[k]);
    }
    char where[64];
    snprintf(where, sizeof(where), "%s step %d", g->id, step);
    log_keys_check(catalogue_of(g->id), spec, where, NULL);
    for (int s = -1; s < c->nseats; s++) {
        json_t *v;
        char *vs = view_bytes(g, st, s, &v);
        ck_assert_msg(strstr(vs, seed_hex) == NULL, "%s: view of %d holds the seed", g->id, s);
        if (s >= 0) {
            json_t *pub = json_deep_copy(v);
            json_object_del(pub, "you");
            ck_assert_msg(json_equal(pub, spec), "%s step %d: public part of seat %d differs",
                          g->id, step, s);
            json_decref(pub);
        }
        /* The diff from the previous view's text rebuilds this one. */
        json_t **p = &prev->view[s + 1];
        char **pt = &prev->text[s + 1];
        if (*p) {
            struct proto_text ops = {0};
            struct proto_text arr = {0};
            ck_assert_int_eq(proto_patch_diff_text(&ops, NULL, *pt, strlen(*pt), vs, strlen(vs)),
                             0);
            proto_text_add(&arr, "[", 1);
            proto_text_add(&arr, ops.data ? ops.data : "", ops.len);
            proto_text_add(&arr, "]", 1);
            json_t *patch = json_loadb(arr.data, arr.len, 0, NULL);
            ck_assert_ptr_nonnull(patch);
            ck_assert_int_eq(proto_patch_apply(p, patch), 0);
            ck_assert_msg(json_equal(*p, v), "%s: patch does not rebuild the view", g->id);
            json_decref(patch);
            proto_text_free(&ops);
            proto_text_free(&arr);
        }
        json_decref(*p);
        free(*pt);
        *p = v;
        *pt = vs;
    }
    json_decref(spec);
    free(spec_s);
}

/* A game's own text of its legal list is the list's canonical text. */
static void check_legal_text(const struct game_ops *g, const void *st, int seat,
                             const json_t *legal, int step)
{
    struct game_text w = {0};
    size_t len;
    char *want;

    if (!g->legal_text) {
        return;
    }
    want = proto_canonical(legal, &len);
    ck_assert_ptr_nonnull(want);
    g->legal_text(&w, st, seat);
    ck_assert_int_eq(game_text_end(&w), 0);
    ck_assert_msg(w.len == len && memcmp(w.data, want, len) == 0,
                  "%s step %d: legal_text differs from legal:\n%s\n%s", g->id, step, w.data, want);
    free(want);
    game_text_free(&w);
}

/* Tries actions that must be refused and checks they change nothing. */
static void check_refusals(const struct config *c, void *st, void *scratch, struct game_rng *rng,
                           const json_t *legal_action, unsigned active)
{
    const struct game_ops *g = c->game;
    struct game_error err;

    memcpy(scratch, st, g->state_size);
    for (int s = 0; s < c->nseats; s++) {
        if (!(active & (1u << s))) {
            json_t *l = g->legal(st, s);
            ck_assert_msg(json_array_size(l) == 0, "%s: inactive seat %d has legal actions", g->id,
                          s);
            json_decref(l);
            int rc = game_apply(g, st, s, legal_action, &err);
            ck_assert_msg(rc != GAME_OK, "%s: inactive seat %d was allowed to act", g->id, s);
            ck_assert_msg(memcmp(scratch, st, g->state_size) == 0, "%s: refusal changed state",
                          g->id);
        }
    }
    static const char *const junk[] = {
        "{}", "{\"type\":7}", "{\"type\":\"no-such-action\"}", "[]", "{\"type\":\"\"}",
    };
    for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
        json_t *a = json_loads(junk[i], JSON_DECODE_ANY, NULL);
        int seat = 0;
        while (!(active & (1u << seat))) {
            seat++;
        }
        int rc = game_apply(g, st, seat, a, &err);
        ck_assert_msg(rc == GAME_E_BAD_ACTION || rc == GAME_E_ILLEGAL, "%s: junk action %s gave %d",
                      g->id, junk[i], rc);
        ck_assert_msg(err.message[0] != '\0', "%s: refusal without a message", g->id);
        ck_assert_msg(memcmp(scratch, st, g->state_size) == 0, "%s: junk changed state", g->id);
        json_decref(a);
    }
    /* An altered legal action: every integer field bumped far out of range. */
    json_t *alt = json_deep_copy(legal_action);
    const char *key;
    json_t *v;
    bool changed = false;
    json_object_foreach(alt, key, v) {
        if (json_is_integer(v)) {
            json_integer_set(v, json_integer_value(v) + 1000 + (json_int_t)game_rng_below(rng, 5));
            changed = true;
        }
    }
    if (changed) {
        int seat = 0;
        while (!(active & (1u << seat))) {
            seat++;
        }
        if (game_apply(g, st, seat, alt, &err) == GAME_OK) {
            memcpy(st, scratch, g->state_size); /* accepted: the game may allow it; undo */
        } else {
            ck_assert_msg(memcmp(scratch, st, g->state_size) == 0,
                          "%s: altered action changed state", g->id);
        }
    }
    json_decref(alt);
}

/* The parts of one position's view as the game wrote them: every section,
 * then every seat's "you", each its canonical text. */
struct parts {
    char *section[GAME_MAX_SECTIONS];
    char *you[GAME_MAX_SEATS];
};

/* What a game wrote for `what`, taken as a string and checked to be one
 * value in the canonical form: it parses, and the canonical form of what
 * it parses to is the very same bytes (keys in order, nothing escaped that
 * need not be). Text equal to what the previous position wrote (`prev`)
 * was checked then. */
static char *part_text(const struct game_ops *g, struct game_text *w, const char *what,
                       const char *prev)
{
    json_t *v;
    char *canon;
    size_t len;

    ck_assert_msg(game_text_end(w) == 0, "%s: %s is not canonical text (%d)", g->id, what, w->err);
    if (prev && strcmp(prev, w->data) == 0) {
        canon = strdup(prev);
        ck_assert_ptr_nonnull(canon);
        game_text_free(w);
        return canon;
    }
    v = json_loadb(w->data, w->len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
    ck_assert_msg(v != NULL, "%s: %s is not JSON: %s", g->id, what, w->data);
    canon = proto_canonical(v, &len);
    ck_assert_msg(canon && len == w->len && memcmp(canon, w->data, len) == 0,
                  "%s: %s is not in the canonical form: %s", g->id, what, w->data);
    json_decref(v);
    game_text_free(w);
    return canon;
}

/* The parts of the position `st`; `prev` (may be NULL) those of the
 * position before it. */
static void parts_build(const struct config *c, const void *st, struct parts *p,
                        const struct parts *prev)
{
    const struct game_ops *g = c->game;

    for (size_t k = 0; k < g->nsections; k++) {
        struct game_text w = {0};
        game_section_write(&w, &g->sections[k], st);
        p->section[k] = part_text(g, &w, g->sections[k].key, prev ? prev->section[k] : NULL);
    }
    for (int s = 0; s < c->nseats; s++) {
        struct game_text w = {0};
        g->you(&w, st, s);
        p->you[s] = part_text(g, &w, "you", prev ? prev->you[s] : NULL);
    }
}

static void parts_free(const struct config *c, struct parts *p)
{
    for (size_t k = 0; k < c->game->nsections; k++) {
        free(p->section[k]);
        p->section[k] = NULL;
    }
    for (int s = 0; s < c->nseats; s++) {
        free(p->you[s]);
        p->you[s] = NULL;
    }
}

/* Seat `seat`'s item of section `k` at `st`, as write_item() writes it
 * alone: one canonical value. */
static char *item_text(const struct game_ops *g, size_t k, const void *st, int seat)
{
    struct game_text w = {0};
    char *text;

    g->sections[k].write_item(&w, st, seat);
    ck_assert_msg(game_text_end(&w) == 0, "%s: item %d of \"%s\" is not one value", g->id, seat,
                  g->sections[k].key);
    text = strdup(w.data);
    ck_assert_ptr_nonnull(text);
    game_text_free(&w);
    return text;
}

/* Field f of item `item` of section k, as its write_field() writes it
 * (to be freed). */
static char *field_text(const struct game_ops *g, size_t k, const void *st, int item, int f)
{
    struct game_text w = {0};
    char *text;

    g->sections[k].write_field(&w, st, item, f);
    ck_assert_msg(game_text_end(&w) == 0, "%s: field \"%s\" of item %d of \"%s\" is not one value",
                  g->id, g->sections[k].field_keys[f], item, g->sections[k].key);
    text = strdup(w.data);
    ck_assert_ptr_nonnull(text);
    game_text_free(&w);
    return text;
}

/* The promise of fields_changed(before, after, item) for an item of
 * section k that may have changed: every field whose bit is clear is
 * equal at `before` and at `after`. */
static void check_fields(const struct game_ops *g, size_t k, const void *st_before,
                         const void *st_after, int item, const json_t *action, int step)
{
    const struct game_section *sec = &g->sections[k];
    uint32_t m = sec->fields_changed(st_before, st_after, item);

    for (int f = 0; f < sec->nfields; f++) {
        if (m & (UINT32_C(1) << f)) {
            continue;
        }
        char *b = field_text(g, k, st_before, item, f);
        char *a = field_text(g, k, st_after, item, f);
        if (strcmp(a, b) != 0) {
            char *act = json_dumps(action, JSON_COMPACT);
            ck_abort_msg("%s step %d: field \"%s\" of item %d of \"%s\" changed after %s, but "
                         "its fields_changed() bit is clear",
                         g->id, step, sec->field_keys[f], item, sec->key, act ? act : "?");
        }
        free(a);
        free(b);
    }
}

/* The promise of parts_changed(before, after): every item, and every seat's "you", whose
 * bit is clear is equal at `before` and at `after`; a log's items are
 * those its seq() says it kept, then new ones. `after` holds
 * the parts at `after`, `before_you` the "you"s at `before`. */
static void check_seats(const struct config *c, const struct parts *after, char *const *before_you,
                        const void *st_before, const void *st_after, const json_t *action, int step)
{
    const struct game_ops *g = c->game;
    unsigned items = ~0u, you = ~0u;

    if (g->parts_changed) {
        g->parts_changed(st_before, st_after, &items, &you);
    }
    for (int s = 0; s < c->nseats; s++) {
        if (!(you & (1u << s)) && strcmp(before_you[s], after->you[s]) != 0) {
            char *act = json_dumps(action, JSON_COMPACT);
            ck_abort_msg("%s step %d: \"you\" of seat %d changed after %s, but its "
                         "parts_changed() bit is clear",
                         g->id, step, s, act ? act : "?");
        }
    }
    for (size_t k = 0; k < g->nsections; k++) {
        if (!g->sections[k].write_item) {
            continue;
        }
        int n = g->sections[k].nitems(st_after);
        int nb = g->sections[k].nitems(st_before);
        /* A log's items (game_section.seq): the first `keep` at `after`
         * are the last `keep` at `before`, the rest were appended. */
        int keep = -1;
        if (g->sections[k].seq) {
            uint32_t added = g->sections[k].seq(st_after) - g->sections[k].seq(st_before);
            keep = added < (uint32_t)n ? n - (int)added : 0;
            ck_assert_msg(keep <= nb, "%s step %d: \"%s\" kept %d of its %d items", g->id, step,
                          g->sections[k].key, keep, nb);
        }
        for (int s = 0; s < n; s++) {
            if (s < keep) {
                char *b = item_text(g, k, st_before, nb - keep + s);
                char *a = item_text(g, k, st_after, s);
                if (strcmp(a, b) != 0) {
                    char *act = json_dumps(action, JSON_COMPACT);
                    ck_abort_msg("%s step %d: item %d of log \"%s\" is not the one its seq() "
                                 "says it kept after %s",
                                 g->id, step, s, g->sections[k].key, act ? act : "?");
                }
                free(a);
                free(b);
            }
            char *b = s < nb && keep < 0 ? item_text(g, k, st_before, s) : NULL;
            char *a = item_text(g, k, st_after, s);
            if (b && n == nb && s < 32 && !(items & (1u << s)) && strcmp(a, b) != 0) {
                char *act = json_dumps(action, JSON_COMPACT);
                ck_abort_msg("%s step %d: item %d of \"%s\" changed after %s, but its "
                             "parts_changed() bit is clear",
                             g->id, step, s, g->sections[k].key, act ? act : "?");
            }
            if (b && n == nb && g->sections[k].fields_changed) {
                check_fields(g, k, st_before, st_after, s, action, step);
            }
            free(a);
            free(b);
        }
    }
}

/* Checks the promise of changed(before, after): every part whose bit is
 * clear is equal in `before` (built) and `after` (built here, then moved
 * into `before` for the next action). */
static void check_changed(const struct config *c, struct parts *before, const void *st_before,
                          const void *st_after, const json_t *action, int step)
{
    const struct game_ops *g = c->game;
    uint64_t mask = g->changed(st_before, st_after);
    struct parts after;

    parts_build(c, st_after, &after, before);
    for (size_t k = 0; k < g->nsections; k++) {
        if (!(mask & (UINT64_C(1) << k)) && strcmp(before->section[k], after.section[k]) != 0) {
            char *a = json_dumps(action, JSON_COMPACT);
            ck_abort_msg("%s step %d: section \"%s\" changed after %s, but its changed() bit "
                         "is clear",
                         g->id, step, g->sections[k].key, a ? a : "?");
        }
    }
    for (int s = 0; s < c->nseats && !(mask & GAME_CHANGED_YOU); s++) {
        if (strcmp(before->you[s], after.you[s]) != 0) {
            char *a = json_dumps(action, JSON_COMPACT);
            ck_abort_msg("%s step %d: \"you\" of seat %d changed after %s, but "
                         "GAME_CHANGED_YOU is clear",
                         g->id, step, s, a ? a : "?");
        }
    }
    check_seats(c, &after, before->you, st_before, st_after, action, step);
    parts_free(c, before);
    *before = after;
}

static void play_one(const struct config *c, uint64_t game_seed, bool deep)
{
    const struct game_ops *g = c->game;
    struct game_setup setup;
    struct game_error err;
    struct game_rng rng;
    uint8_t rseed[32] = {0};
    void *st = calloc(1, g->state_size);
    void *scratch = calloc(1, g->state_size);
    json_t *actions = json_array();
    json_t *views = json_array(); /* canonical views per step, for replay */
    struct prev_views prev = {0};
    char seed_hex[65];
    int steps = 0;

    memset(&setup, 0, sizeof(setup));
    setup.nseats = c->nseats;
    for (int i = 0; i < 8; i++) {
        rseed[i] = (uint8_t)(game_seed >> (8 * i));
        setup.seed[i] = (uint8_t)(game_seed >> (8 * i));
        setup.seed[31 - i] = (uint8_t)((game_seed * 0x9e3779b97f4a7c15ULL) >> (8 * i));
    }
    rseed[9] = 0x5a;
    game_rng_seed(&rng, rseed);
    for (int i = 0; i < c->nseats; i++) {
        snprintf(setup.names[i], sizeof(setup.names[i]), "Player %d", i + 1);
    }
    proto_hex(setup.seed, 32, seed_hex);
    ck_assert_msg(game_start(g, st, c->options, &setup, &err) == GAME_OK, "%s init: %s", g->id,
                  err.message);
    struct parts parts = {0};
    parts_build(c, st, &parts, NULL);

    for (;;) {
        unsigned active = g->active(st);
        json_t *result = game_result(g, st);
        if (deep) {
            check_views(c, st, seed_hex, &prev, steps);
        }
        {
            char *vb = view_bytes(g, st, steps % (c->nseats + 1) - 1, NULL);
            json_array_append_new(views, json_string(vb));
            free(vb);
        }
        if (g->check_invariants) {
            ck_assert_msg(g->check_invariants(st, &err) == 0, "%s step %d: invariant: %s", g->id,
                          steps, err.message);
        }
        if (result) {
            ck_assert_msg(active == 0, "%s: seats active after the end", g->id);
            ck_assert(json_is_array(json_object_get(result, "scores")));
            ck_assert(json_is_array(json_object_get(result, "winners")));
            json_decref(result);
            break;
        }
        ck_assert_msg(active != 0, "%s step %d: nobody may act and the game is not over", g->id,
                      steps);
        ck_assert_msg(steps < MAX_STEPS, "%s: no end after %d actions", g->id, MAX_STEPS);

        int seats[GAME_MAX_SEATS], n = 0;
        for (int s = 0; s < c->nseats; s++) {
            if (active & (1u << s)) {
                seats[n++] = s;
            }
        }
        int seat = seats[game_rng_below(&rng, (uint32_t)n)];
        json_t *legal = g->legal(st, seat);
        ck_assert_msg(json_array_size(legal) > 0, "%s step %d: active seat %d has no legal action",
                      g->id, steps, seat);
        check_legal_text(g, st, seat, legal, steps);
        json_t *pick =
            json_array_get(legal, game_rng_below(&rng, (uint32_t)json_array_size(legal)));
        if (deep) {
            check_refusals(c, st, scratch, &rng, pick, active);
        }
        int rc = game_try(g, st, scratch, seat, pick, &err);
        if (rc != GAME_OK) {
            char *s = json_dumps(pick, JSON_COMPACT);
            ck_abort_msg("%s step %d: listed action %s refused: %s", g->id, steps, s, err.message);
        }
        check_changed(c, &parts, st, scratch, pick, steps);
        memcpy(st, scratch, g->state_size);
        json_array_append_new(actions, json_pack("{s:i, s:O}", "seat", seat, "action", pick));
        json_decref(legal);
        steps++;
    }

    /* Replay from the record: the same views, byte for byte. */
    parts_free(c, &parts);
    void *again = calloc(1, g->state_size);
    ck_assert_int_eq(game_start(g, again, c->options, &setup, &err), GAME_OK);
    size_t i;
    json_t *step;
    json_array_foreach(actions, i, step) {
        char *vb = view_bytes(g, again, (int)(i % (size_t)(c->nseats + 1)) - 1, NULL);
        ck_assert_msg(strcmp(vb, json_string_value(json_array_get(views, i))) == 0,
                      "%s: replay differs at step %zu", g->id, i);
        free(vb);
        ck_assert_int_eq(game_apply(g, again,
                                    (int)json_integer_value(json_object_get(step, "seat")),
                                    json_object_get(step, "action"), &err),
                         GAME_OK);
    }
    ck_assert_msg(memcmp(again, st, g->state_size) == 0, "%s: replay ends in another state", g->id);
    free(again);
    for (int s = 0; s <= GAME_MAX_SEATS; s++) {
        json_decref(prev.view[s]);
        free(prev.text[s]);
    }
    json_decref(actions);
    json_decref(views);
    free(st);
    free(scratch);
}

/* A section with fields has all its hooks, at most GAME_FIELDS_MAX fields, and is the game's
 * only one (a commit carries one set of field masks). */
static void check_sections(const struct game_ops *g)
{
    int with = 0;

    for (size_t k = 0; k < g->nsections; k++) {
        const struct game_section *sec = &g->sections[k];
        if (sec->nfields == 0 && !sec->write_field && !sec->fields_changed) {
            continue;
        }
        with++;
        ck_assert_msg(sec->nfields > 0 && sec->nfields <= GAME_FIELDS_MAX && sec->field_keys &&
                          sec->write_field && sec->fields_changed && sec->write_item,
                      "%s: section \"%s\" has fields without all their hooks", g->id, sec->key);
    }
    ck_assert_msg(with <= 1, "%s: %d sections have fields", g->id, with);
}

START_TEST(random_playouts)
{
    int configs = 0;

    for (size_t gi = 0; game_registry[gi]; gi++) {
        const struct game_ops *g = game_registry[gi];
        if (only_game && strcmp(only_game, g->id) != 0) {
            continue;
        }
        check_sections(g);
        json_t *schema = g->options_schema();
        json_t *combos = option_combos(schema, false);
        json_decref(schema);
        size_t i;
        json_t *opts;
        json_array_foreach(combos, i, opts) {
            for (int n = 1; n <= GAME_MAX_SEATS; n++) {
                struct game_error err;
                struct config c = {g, opts, n};
                if (g->check_options(opts, n, &err) != GAME_OK) {
                    ck_assert_msg(n < g->min_players || n > g->max_players || err.message[0],
                                  "%s: seat count %d refused without reason", g->id, n);
                    continue;
                }
                ck_assert_msg(n >= g->min_players && n <= g->max_players,
                              "%s: %d seats accepted outside min/max", g->id, n);
                int per_config =
                    games_per_config > 0 ? games_per_config : g->tests->playouts_per_config;
                for (int j = (nruns - configs % nruns + run_index) % nruns; j < per_config;
                     j += nruns) {
                    uint64_t seed = (uint64_t)(gi * 1000003 + i * 7919 + (size_t)n * 131) +
                                    (uint64_t)j * 104729 + 1;
                    play_one(&c, seed, j < 3 * nruns);
                }
                configs++;
            }
        }
        json_decref(combos);
    }
    ck_assert_int_gt(configs, 0);
    json_decref(catalogues);
    catalogues = NULL;
}
END_TEST

int main(int argc, char **argv)
{
    if (argc > 1) {
        only_game = argv[1];
        if (!game_find(only_game)) {
            fprintf(stderr, "unknown game %s\n", only_game);
            return EXIT_FAILURE;
        }
    }
    if (argc > 3) {
        run_index = atoi(argv[2]);
        nruns = atoi(argv[3]);
        if (nruns < 1 || run_index < 0 || run_index >= nruns) {
            fprintf(stderr, "RUN must be in 0 .. NRUNS - 1\n");
            return EXIT_FAILURE;
        }
    }
    if (argc > 4) {
        games_per_config = atoi(argv[4]);
    }
    const struct ck_case cases[] = {
        {"random", random_playouts},
    };
    return ck_run("playouts", cases, 1, NULL, NULL, 100000);
}
