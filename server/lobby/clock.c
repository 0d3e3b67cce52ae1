/* SPDX-License-Identifier: MIT */
/*
 * clock.c - turn clocks: a room's rules (Fischer, a time bank with free
 * time per move, or correspondence) and each seat's time, as the room's
 * events leave them. Pure: the times come in with the events (an event's
 * record carries the milliseconds it charges, so a replay gives back the
 * same times), and nothing here reads a clock or sends.
 *
 * At every commit of a clocked room, every running clock is charged the
 * time since the last charge (`since`): the seat that moved, less its lag
 * compensation and its free time for the move; then the clocks that run
 * are those of the seats the game says may act, less those whose time ran
 * out. A seat whose turn ends with its move gets its increment, up to the
 * rules' cap.
 */
#include "lobby_int.h"

#include <stdio.h>
#include <string.h>

/* Seconds a rule may take: up to a year. */
#define CLOCK_MAX_S (366LL * 24 * 3600)

const char *const lobby__clock_kinds[] = {"none", "fischer", "bank", "correspondence"};
const char *const lobby__clock_policies[] = {"bot", "lose", "skip"};

/* Member "timeout" of `j` into r->policy: the bot's when missing. */
static int policy(const json_t *j, struct clock_rules *r, char *msg)
{
    const json_t *v = json_object_get(j, "timeout");

    r->policy = CLOCK_ON_TIMEOUT_BOT;
    if (!v) {
        return 0;
    }
    for (uint8_t p = 0; json_is_string(v) && p < 3; p++) {
        if (strcmp(json_string_value(v), lobby__clock_policies[p]) == 0) {
            r->policy = p;
            return 0;
        }
    }
    snprintf(msg, GAME_MSG_MAX, "clock \"timeout\" must be bot, lose or skip");
    return -1;
}

/* Member `key` of `j` in seconds, into *ms: 0 when it is missing and may
 * be, -1 with a message when it is not an integer in [lo, CLOCK_MAX_S]. */
static int seconds(const json_t *j, const char *key, long long lo, bool need, int64_t *ms,
                   char *msg)
{
    const json_t *v = json_object_get(j, key);

    if (!v && !need) {
        *ms = 0;
        return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > CLOCK_MAX_S) {
        snprintf(msg, GAME_MSG_MAX, "clock \"%s\" must be a number of seconds from %lld to %lld",
                 key, lo, CLOCK_MAX_S);
        return -1;
    }
    *ms = (int64_t)json_integer_value(v) * 1000;
    return 0;
}

int lobby__clock_parse(const json_t *j, struct clock_rules *r, char *msg)
{
    const char *type = json_string_value(json_object_get(j, "type"));
    const char *key;
    const json_t *v;

    memset(r, 0, sizeof(*r));
    if (!j) {
        return 0;
    }
    if (!json_is_object(j) || !type) {
        snprintf(msg, GAME_MSG_MAX,
                 "\"clock\" must be an object with a \"type\": fischer, bank or correspondence");
        return -1;
    }
    json_object_foreach((json_t *)j, key, v) {
        static const char *const known[] = {"type", "base",     "increment", "move",
                                            "bank", "per_move", "timeout"};
        bool ok = false;
        for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
            ok |= strcmp(key, known[i]) == 0;
        }
        if (!ok) {
            snprintf(msg, GAME_MSG_MAX, "clock has no member \"%.40s\"", key);
            return -1;
        }
    }
    if (strcmp(type, "fischer") == 0) {
        r->kind = CLOCK_FISCHER;
        if (seconds(j, "base", 1, true, &r->base_ms, msg) != 0 ||
            seconds(j, "increment", 0, false, &r->inc_ms, msg) != 0) {
            return -1;
        }
    } else if (strcmp(type, "bank") == 0) {
        r->kind = CLOCK_BANK;
        if (seconds(j, "move", 1, true, &r->delay_ms, msg) != 0 ||
            seconds(j, "bank", 0, false, &r->base_ms, msg) != 0) {
            return -1;
        }
    } else if (strcmp(type, "correspondence") == 0) {
        r->kind = CLOCK_CORRESPONDENCE;
        if (seconds(j, "per_move", 60, true, &r->inc_ms, msg) != 0 ||
            seconds(j, "bank", 0, false, &r->base_ms, msg) != 0) {
            return -1;
        }
        /* The bank starts full and a move refills it by per_move, never
         * beyond where it started; without one, each move has per_move. */
        if (r->base_ms < r->inc_ms) {
            r->base_ms = r->inc_ms;
        }
        r->cap_ms = r->base_ms;
    } else {
        snprintf(msg, GAME_MSG_MAX, "clock \"type\" must be fischer, bank or correspondence");
        return -1;
    }
    return policy(j, r, msg);
}

json_t *lobby__clock_rules_json(const struct clock_rules *r)
{
    json_t *j = NULL;

    switch (r->kind) {
    case CLOCK_FISCHER:
        j = json_pack("{s:s, s:I, s:I}", "type", "fischer", "base", (json_int_t)r->base_ms / 1000,
                      "increment", (json_int_t)r->inc_ms / 1000);
        break;
    case CLOCK_BANK:
        j = json_pack("{s:s, s:I, s:I}", "type", "bank", "move", (json_int_t)r->delay_ms / 1000,
                      "bank", (json_int_t)r->base_ms / 1000);
        break;
    case CLOCK_CORRESPONDENCE:
        j = json_pack("{s:s, s:I, s:I}", "type", "correspondence", "per_move",
                      (json_int_t)r->inc_ms / 1000, "bank", (json_int_t)r->base_ms / 1000);
        break;
    default:
        return NULL;
    }
    /* The bot's policy is left out, as rooms made before there were
     * others have it. */
    if (j && r->policy != CLOCK_ON_TIMEOUT_BOT &&
        json_object_set_new(j, "timeout", json_string(lobby__clock_policies[r->policy])) != 0) {
        json_decref(j);
        j = NULL;
    }
    return j;
}

/* What is left of seat i's free time this turn (a time bank's). */
static int64_t turn_free(const struct room_clock *c, int i)
{
    return c->rules.delay_ms > c->used[i] ? c->rules.delay_ms - c->used[i] : 0;
}

void lobby__clock_start(struct room_clock *c, int nseats, unsigned active, uint64_t now)
{
    for (int i = 0; i < nseats; i++) {
        c->left[i] = c->rules.base_ms;
        c->lag[i] = LOBBY_LAG_QUOTA_MS;
        c->used[i] = 0;
    }
    c->running = c->rules.kind ? active : 0;
    c->flagged = 0;
    c->since = now;
}

int64_t lobby__clock_elapsed(const struct room_clock *c, uint64_t now)
{
    return c->running && now > c->since ? (int64_t)(now - c->since) : 0;
}

void lobby__clock_charge(struct room_clock *c, int64_t ms, int mover)
{
    for (int i = 0; i < GAME_MAX_SEATS; i++) {
        if (!(c->running & (1u << i))) {
            continue;
        }
        int64_t e = ms;
        if (i == mover) {
            /* The move's lag, forgiven from the seat's quota. */
            int64_t comp = e < LOBBY_LAG_MOVE_MS ? e : LOBBY_LAG_MOVE_MS;
            comp = comp < c->lag[i] ? comp : c->lag[i];
            c->lag[i] -= comp;
            e -= comp;
        }
        /* The free time of this turn is used first. */
        int64_t free_left = turn_free(c, i);
        c->used[i] += e;
        e = e > free_left ? e - free_left : 0;
        c->left[i] = c->left[i] > e ? c->left[i] - e : 0;
    }
}

void lobby__clock_settle(struct room_clock *c, int mover, unsigned active, uint64_t now)
{
    if (!c->rules.kind) {
        return;
    }
    if (mover >= 0) {
        c->lag[mover] += LOBBY_LAG_GAIN_MS;
        if (c->lag[mover] > LOBBY_LAG_QUOTA_MS) {
            c->lag[mover] = LOBBY_LAG_QUOTA_MS;
        }
        if (!(active & (1u << mover)) && !(c->flagged & (1u << mover))) {
            /* Its turn is over: the increment, within the cap. */
            c->left[mover] += c->rules.inc_ms;
            if (c->rules.cap_ms && c->left[mover] > c->rules.cap_ms) {
                c->left[mover] = c->rules.cap_ms;
            }
        }
    }
    unsigned running = active & ~c->flagged;
    for (int i = 0; i < GAME_MAX_SEATS; i++) {
        if ((running & (1u << i)) && !(c->running & (1u << i))) {
            c->used[i] = 0; /* a new turn: its free time again */
        }
    }
    c->running = running;
    c->since = now;
}

void lobby__clock_flag(struct room_clock *c, int seat)
{
    c->left[seat] = 0;
    c->flagged |= 1u << seat;
    c->running &= ~(1u << seat);
}

uint64_t lobby__clock_due(const struct room_clock *c, int *ret_seat)
{
    uint64_t due = UINT64_MAX;

    for (int i = 0; i < GAME_MAX_SEATS; i++) {
        if (!(c->running & (1u << i))) {
            continue;
        }
        int64_t free_left = turn_free(c, i);
        uint64_t at = c->since + (uint64_t)c->left[i] + (uint64_t)free_left;
        if (at < due) {
            due = at;
            if (ret_seat) {
                *ret_seat = i;
            }
        }
    }
    return due;
}

void lobby__clock_write(struct game_text *w, const struct room_clock *c, int nseats)
{
    game_text_obj(w);
    game_text_karr(w, "seats");
    for (int i = 0; i < nseats; i++) {
        game_text_obj(w);
        game_text_kbool(w, "flag", (c->flagged >> i) & 1u);
        game_text_kint(w, "free", turn_free(c, i));
        game_text_kint(w, "left", c->left[i]);
        game_text_kbool(w, "running", (c->running >> i) & 1u);
        game_text_end_obj(w);
    }
    game_text_end_arr(w);
    game_text_kstr(w, "timeout", lobby__clock_policies[c->rules.policy]);
    game_text_kstr(w, "type", lobby__clock_kinds[c->rules.kind]);
    game_text_end_obj(w);
}
