/* SPDX-License-Identifier: MIT */
/*
 * replay.c - a finished game's record: kept in a file as the server gives
 * it, and `conclave replay RECORD.json`, which runs it through the same
 * rules engines the server uses. It checks that the seed matches the
 * commitment shown during the game (when the record carries it), that
 * every recorded action is accepted in order, and prints the result the
 * engine reaches.
 */
#include "client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "game.h"
#include "lang.h"

static int hex_decode(const char *hex, uint8_t *out, size_t n)
{
    size_t len = 0;

    if (!hex || strlen(hex) != n * 2) {
        return -1;
    }
    if (sodium_hex2bin(out, n, hex, n * 2, NULL, &len, NULL) != 0 || len != n) {
        return -1;
    }
    return 0;
}

/* The positions before the last actions, for the undos that follow. */
#define BACK_MAX 8

struct back {
    void *states[BACK_MAX];
    int n;
};

static void back_free(struct back *b)
{
    for (int i = 0; i < b->n; i++) {
        free(b->states[i]);
    }
    b->n = 0;
}

/* Keeps `state` as the position before the next action. */
static int back_push(const struct game_ops *game, struct back *b, const void *state,
                     struct game_error *err)
{
    void *copy = malloc(game->state_size);

    if (!copy) {
        return game_error_set(err, GAME_E_NOMEM, _("out of memory"));
    }
    memcpy(copy, state, game->state_size);
    if (b->n == BACK_MAX) {
        free(b->states[0]);
        memmove(b->states, b->states + 1, sizeof(b->states[0]) * (BACK_MAX - 1));
        b->n--;
    }
    b->states[b->n++] = copy;
    return GAME_OK;
}

/* One step of the record: an action, a timeout that lost or skipped
 * ({"seat", "timeout": "lose"|"skip"}) or an undo ({"seat", "undo":
 * true}: the position before the last action comes back), as the server
 * played it. */
static int replay_step(const struct game_ops *game, void *state, struct back *b, const json_t *step,
                       struct game_error *err)
{
    int seat = (int)json_integer_value(json_object_get(step, "seat"));
    const char *timeout = json_string_value(json_object_get(step, "timeout"));
    int rc;

    if (json_is_true(json_object_get(step, "undo"))) {
        if (b->n == 0) {
            return game_error_set(err, GAME_E_ILLEGAL, _("an undo with nothing to take back"));
        }
        memcpy(state, b->states[b->n - 1], game->state_size);
        free(b->states[--b->n]);
        return GAME_OK;
    }
    if (!timeout) {
        rc = back_push(game, b, state, err);
        return rc == GAME_OK ? game_apply(game, state, seat, json_object_get(step, "action"), err)
                             : rc;
    }
    if (strcmp(timeout, "lose") != 0 && strcmp(timeout, "skip") != 0) {
        return game_error_set(err, GAME_E_BAD_ACTION, _("a timeout is \"lose\" or \"skip\""));
    }
    back_free(b);
    return game_apply_timeout(game, state, seat, strcmp(timeout, "lose") == 0, err);
}

int cli_record_save(const json_t *record, const char *path)
{
    if (!json_is_object(record) || json_dump_file(record, path, JSON_INDENT(1)) != 0) {
        printf(_("cannot write %s\n"), path);
        return -1;
    }
    printf(_("record saved to %s (check it with: conclave replay %s)\n"), path, path);
    return 0;
}

int cli_replay(const char *path)
{
    json_error_t jerr;
    json_t *rec = json_load_file(path, 0, &jerr);
    json_t *inner, *seats, *actions, *step;
    const struct game_ops *game;
    struct game_setup setup;
    struct game_error gerr = {0};
    void *state = NULL;
    struct back back = {0};
    size_t i;
    int status = 1;

    if (!rec) {
        fprintf(stderr, _("replay: %s: %s (line %d)\n"), path, jerr.text, jerr.line);
        return 1;
    }
    /* Accept both the bare record and the whole `record` reply. */
    inner = json_object_get(rec, "record");
    if (json_is_object(inner)) {
        json_incref(inner);
        json_decref(rec);
        rec = inner;
    }
    game = game_find(json_string_value(json_object_get(rec, "game")));
    seats = json_object_get(rec, "seats");
    actions = json_object_get(rec, "actions");
    memset(&setup, 0, sizeof(setup));
    if (!game || !json_is_array(seats) || !json_is_array(actions) ||
        json_array_size(seats) > GAME_MAX_SEATS ||
        hex_decode(json_string_value(json_object_get(rec, "seed")), setup.seed,
                   sizeof(setup.seed)) != 0) {
        fprintf(stderr, _("replay: %s is not a game record of a known game\n"), path);
        goto out;
    }
    setup.nseats = (int)json_array_size(seats);
    json_array_foreach(seats, i, step) {
        const char *name = json_string_value(json_object_get(step, "name"));
        snprintf(setup.names[i], sizeof(setup.names[i]), "%s", name ? name : "");
    }
    uint8_t h[32];
    char commit[65];
    crypto_generichash(h, sizeof(h), setup.seed, sizeof(setup.seed), NULL, 0);
    proto_hex(h, sizeof(h), commit);
    printf(_("game %s, %d seats, seed commitment %s\n"), game->id, setup.nseats, commit);
    const char *claimed = json_string_value(json_object_get(rec, "seed_commit"));
    if (claimed && strcmp(claimed, commit) != 0) {
        fprintf(stderr, _("replay: the seed does not match the commitment %s\n"), claimed);
        goto out;
    }
    state = malloc(game->state_size);
    if (!state) {
        goto out;
    }
    if (game_start(game, state, json_object_get(rec, "options"), &setup, &gerr) != GAME_OK) {
        fprintf(stderr, _("replay: setup refused: %s\n"), gerr.message);
        goto out;
    }
    json_array_foreach(actions, i, step) {
        json_t *jseat = json_object_get(step, "seat");
        if (!json_is_integer(jseat) || replay_step(game, state, &back, step, &gerr) != GAME_OK) {
            char *s = json_dumps(step, JSON_COMPACT);
            fprintf(stderr, _("replay: step %zu refused: %s\n  %s\n"), i + 1,
                    json_is_integer(jseat) ? gerr.message : _("no seat"), s ? s : "");
            free(s);
            goto out;
        }
    }
    json_t *result = game_result(game, state);
    if (!result) {
        printf(_("all %zu actions accepted; the game has not ended\n"), json_array_size(actions));
        status = 2;
        goto out;
    }
    char *s = json_dumps(result, JSON_COMPACT);
    printf(_("all %zu actions accepted; result %s\n"), json_array_size(actions), s ? s : "");
    free(s);
    json_decref(result);
    status = 0;
out:
    back_free(&back);
    free(state);
    json_decref(rec);
    return status;
}
