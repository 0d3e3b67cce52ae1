/* SPDX-License-Identifier: MIT */
/*
 * notice.c - "your turn", to a player who is not there: the targets a seat
 * gives (`notify`: a webhook, Web Push subscriptions), kept as the room's
 * notify events leave them, and the notices the room's changes call for.
 *
 * A seat is told when it must act and its player is not connected (once,
 * until the player is back), when the game ends, and when a chat line
 * mentions it ("@Name"). The lobby only says what to tell whom: the
 * server's notifier (lobby_set_notifier) checks targets and sends.
 * Targets are tied to the seat, never to a person: the seat's player
 * leaving, or the seat changing hands, removes them.
 */
#include "lobby_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "log.h"

/* The bytes of a subscription's keys, decoded: a P-256 point and the
 * authentication secret (RFC 8291). */
#define P256DH_BYTES 65
#define AUTH_BYTES 16

/* The text of a chat line quoted in a mention's notice, at most. */
#define QUOTE_MAX 120

void lobby_set_notifier(struct lobby *lobby, const struct lobby_notifier *n)
{
    free(lobby->push_key);
    free(lobby->public_url);
    lobby->notifier = *n;
    lobby->push_key = n->push_key ? strdup(n->push_key) : NULL;
    lobby->public_url = strdup(n->public_url ? n->public_url : "");
    lobby->notifier.push_key = lobby->push_key;
    lobby->notifier.public_url = lobby->public_url;
    lobby->has_notifier = lobby->public_url != NULL;
}

json_t *lobby_notifier_json(const struct lobby *lobby)
{
    if (!lobby->has_notifier) {
        return NULL;
    }
    return json_pack("{s:b, s:s?}", "webhook", 1, "push", lobby->push_key);
}

/* ---- Targets ---- */

void lobby__notice_forget(struct room *room, int seat)
{
    json_decref(room->seats[seat].notice);
    room->seats[seat].notice = NULL;
    room->notices.told &= ~(1u << seat);
    room->notices.mentioned &= ~(1u << seat);
}

void lobby__notice_back(struct room *room, int seat)
{
    room->notices.told &= ~(1u << seat);
    room->notices.mentioned &= ~(1u << seat);
}

/* The number of bytes `b64` (base64url, no padding) decodes to; -1 when
 * it is not that. */
static long key_bytes(const char *b64)
{
    unsigned char bin[P256DH_BYTES + 1];
    size_t len = 0;

    if (!b64 || sodium_base642bin(bin, sizeof(bin), b64, strlen(b64), NULL, &len, NULL,
                                  sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0) {
        return -1;
    }
    return (long)len;
}

/* A subscription as the page's PushSubscription.toJSON() gives it, checked
 * and in the record's form {"auth","endpoint","p256dh"}; NULL with a
 * message. New reference. */
static json_t *push_target(struct lobby *lobby, const json_t *sub, char *msg)
{
    const json_t *keys = json_object_get(sub, "keys");
    const char *endpoint = json_string_value(json_object_get(sub, "endpoint"));
    const char *p256dh = json_string_value(json_object_get(keys, "p256dh"));
    const char *auth = json_string_value(json_object_get(keys, "auth"));

    if (!lobby->push_key) {
        snprintf(msg, GAME_MSG_MAX, "this server sends no Web Push notices");
        return NULL;
    }
    if (!endpoint || key_bytes(p256dh) != P256DH_BYTES || key_bytes(auth) != AUTH_BYTES) {
        snprintf(msg, GAME_MSG_MAX,
                 "\"push\" is a subscription: {\"endpoint\", \"keys\": {\"p256dh\", \"auth\"}}");
        return NULL;
    }
    if (lobby->notifier.check(lobby->notifier.ctx, endpoint, true, msg) != 0) {
        return NULL;
    }
    return json_pack("{s:s, s:s, s:s}", "auth", auth, "endpoint", endpoint, "p256dh", p256dh);
}

/* The seat's targets after request `req`: {"webhook"?, "push"?: [...]},
 * from what it had; NULL with a message (or, out of memory, without). New
 * reference. */
static json_t *targets_after(struct lobby *lobby, const json_t *had, const json_t *req, char *msg)
{
    const json_t *hook = json_object_get(req, "webhook");
    const json_t *sub = json_object_get(req, "push");
    json_t *t =
        json_is_true(json_object_get(req, "off")) || !had ? json_object() : json_deep_copy(had);

    if (!t) {
        return NULL;
    }
    if (json_is_string(hook)) {
        if (lobby->notifier.check(lobby->notifier.ctx, json_string_value(hook), false, msg) != 0 ||
            json_object_set(t, "webhook", (json_t *)hook) != 0) {
            json_decref(t);
            return NULL;
        }
    } else if (json_is_null(hook)) {
        json_object_del(t, "webhook");
    } else if (hook) {
        snprintf(msg, GAME_MSG_MAX, "\"webhook\" is a URL, or null for none");
        json_decref(t);
        return NULL;
    }
    if (sub) {
        json_t *p = push_target(lobby, sub, msg);
        json_t *list = json_object_get(t, "push");
        if (!p) {
            json_decref(t);
            return NULL;
        }
        if (!list) {
            json_object_set_new(t, "push", list = json_array());
        }
        /* The same endpoint again replaces its keys; past the bound the
         * oldest goes. */
        for (size_t i = json_array_size(list); i > 0; i--) {
            if (json_equal(json_object_get(json_array_get(list, i - 1), "endpoint"),
                           json_object_get(p, "endpoint"))) {
                json_array_remove(list, i - 1);
            }
        }
        while (json_array_size(list) >= LOBBY_PUSH_MAX) {
            json_array_remove(list, 0);
        }
        if (json_array_append_new(list, p) != 0) {
            json_decref(t);
            return NULL;
        }
    }
    return t;
}

/* The reply's "notify": {"webhook": URL or null, "push": n}. */
static json_t *targets_summary(const json_t *t)
{
    return json_pack("{s:O?, s:I}", "webhook", json_object_get(t, "webhook"), "push",
                     (json_int_t)json_array_size(json_object_get(t, "push")));
}

/* Commits seat `seat`'s targets `t` (borrowed): PROTO_OK or an error. */
static int targets_commit(struct room *room, int seat, const json_t *t, uint64_t now, char *msg)
{
    struct room_event ev = {.type = ROOM_EV_NOTIFY, .index = seat, .notify.rec = t};
    struct room_commit c = {.now = now, .msg = msg};
    int rc = lobby__event_commit(room, &ev, &c);

    if (rc == PROTO_OK) {
        lobby__commit_tail(room, &c);
    }
    return rc;
}

int lobby_notify(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    struct room *room = peer->room;
    const json_t *had = room->seats[peer->seat].notice;
    const json_t *req = rq->args;
    json_t *t;
    int rc;

    if (!lobby->has_notifier) {
        snprintf(rq->msg, GAME_MSG_MAX, "this server sends no notices");
        return PROTO_ERR_BAD_REQUEST;
    }
    if (!json_object_get(req, "webhook") && !json_object_get(req, "push") &&
        !json_object_get(req, "off")) {
        lobby__reply_ok(room, peer, rq->id,
                        json_pack("{s:o}", "notify", targets_summary(had ? had : json_null())));
        return PROTO_OK;
    }
    t = targets_after(lobby, had, req, rq->msg);
    if (!t) {
        return rq->msg[0] ? PROTO_ERR_BAD_REQUEST : PROTO_ERR_INTERNAL;
    }
    rc = targets_commit(room, peer->seat, t, rq->now, rq->msg);
    if (rc == PROTO_OK) {
        lobby__reply_ok(room, peer, rq->id, json_pack("{s:o}", "notify", targets_summary(t)));
    }
    json_decref(t);
    return rc;
}

void lobby_push_gone(struct lobby *lobby, const char *code, int seat, const char *endpoint,
                     uint64_t now)
{
    struct room *room = proto_code_map_get(&lobby->index, code);
    char msg[GAME_MSG_MAX] = "";

    /* A room asleep is left be: the next notice finds it gone again. */
    if (!room || seat < 0 || seat >= room->nseats || !room->seats[seat].notice) {
        return;
    }
    json_t *t = json_deep_copy(room->seats[seat].notice);
    json_t *list = json_object_get(t, "push");
    size_t before = json_array_size(list);
    for (size_t i = before; i > 0; i--) {
        const char *e = json_string_value(json_object_get(json_array_get(list, i - 1), "endpoint"));
        if (e && strcmp(e, endpoint) == 0) {
            json_array_remove(list, i - 1);
        }
    }
    if (t && json_array_size(list) < before) {
        if (targets_commit(room, seat, t, now, msg) == PROTO_OK) {
            log_event(LOG_INFO, "push_gone", "room=%s seat=%d", code, seat);
        } else {
            log_event(LOG_WARN, "push_gone_kept", "room=%s seat=%d reason=%s", code, seat, msg);
        }
    }
    json_decref(t);
}

/* ---- Notices ---- */

enum notice_kind { NOTICE_TURN, NOTICE_END, NOTICE_MENTION };

/* Sends seat `seat` the notice of `kind` (a mention: by `from`, saying
 * `quote`). */
static void tell(struct room *room, int seat, enum notice_kind kind, const char *from,
                 const char *quote)
{
    static const char *const events[] = {"turn", "end", "mention"};
    struct lobby *lobby = room->lobby;
    const json_t *t = room->seats[seat].notice;
    const json_t *list = json_object_get(t, "push");
    struct lobby_push_sub subs[LOBBY_PUSH_MAX];
    char title[GAME_MSG_MAX], text[GAME_MSG_MAX + QUOTE_MAX], url[LOBBY_URL_MAX + 16];
    size_t n = 0;

    switch (kind) {
    case NOTICE_TURN:
        snprintf(title, sizeof(title), "Conclave: your turn");
        snprintf(text, sizeof(text), "Your turn in %s, room %s.", room->game->title, room->code);
        break;
    case NOTICE_END:
        snprintf(title, sizeof(title), "Conclave: game over");
        snprintf(text, sizeof(text), "The game of %s in room %s is over.", room->game->title,
                 room->code);
        break;
    case NOTICE_MENTION:
        snprintf(title, sizeof(title), "Conclave: %s mentioned you", from);
        snprintf(text, sizeof(text), "%s in room %s: %.*s", from, room->code, QUOTE_MAX, quote);
        break;
    }
    snprintf(url, sizeof(url), "%s#%s", lobby->public_url, room->code);
    char content[sizeof(title) + sizeof(text) + sizeof(url)];
    snprintf(content, sizeof(content), "%s\n%s\n%s", title, text, url);
    /* The members a webhook of ntfy, Discord, Matrix or Slack shows. */
    json_t *body =
        json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:s}", "content", content, "event",
                  events[kind], "game", room->game->id, "name", room->seats[seat].name, "room",
                  room->code, "seat", seat, "text", text, "title", title, "url", url);
    char *line = body ? json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(body);
    if (!line) {
        log_event(LOG_WARN, "notice_not_sent", "room=%s seat=%d cause=out_of_memory", room->code,
                  seat);
        return;
    }
    for (size_t i = 0; i < json_array_size(list) && n < LOBBY_PUSH_MAX; i++) {
        const json_t *s = json_array_get(list, i);
        subs[n].endpoint = json_string_value(json_object_get(s, "endpoint"));
        subs[n].p256dh = json_string_value(json_object_get(s, "p256dh"));
        subs[n].auth = json_string_value(json_object_get(s, "auth"));
        n++;
    }
    struct lobby_notice_to to = {
        .room = room->code,
        .seat = seat,
        .webhook = json_string_value(json_object_get(t, "webhook")),
        .npush = n,
        .push = subs,
    };
    lobby->notifier.send(lobby->notifier.ctx, &to, line, strlen(line));
    free(line);
}

/* Whether a seat may be told: a player's, with targets, not connected. */
static bool away(const struct room *room, int seat)
{
    const struct seat *s = &room->seats[seat];

    return room->lobby->has_notifier && s->kind == SEAT_HUMAN && s->notice && !s->peer;
}

void lobby__notices_after(struct room *room, const struct room_commit *c)
{
    if (!room->lobby->has_notifier || room->status == ROOM_LOBBY) {
        return;
    }
    unsigned active = room->status == ROOM_PLAYING ? room->game->active(room->state) : 0;
    for (int i = 0; i < room->nseats; i++) {
        if (!away(room, i)) {
            continue;
        }
        if (c->flags & EV_ENDED) {
            tell(room, i, NOTICE_END, NULL, NULL);
        } else if ((active & (1u << i)) && !(room->notices.told & (1u << i))) {
            room->notices.told |= 1u << i;
            tell(room, i, NOTICE_TURN, NULL, NULL);
        }
    }
}

/* Whether `text` has "@" `name` (ASCII letters of any case), not followed
 * by a letter or digit. */
static bool mentions(const char *text, const char *name)
{
    size_t n = strlen(name);

    for (const char *p = strchr(text, '@'); n && p; p = strchr(p + 1, '@')) {
        if (strncasecmp(p + 1, name, n) == 0 && !isalnum((unsigned char)p[1 + n])) {
            return true;
        }
    }
    return false;
}

void lobby__notices_chat(struct room *room, int from, const char *name, const char *text)
{
    for (int i = 0; i < room->nseats; i++) {
        if (i != from && away(room, i) && !(room->notices.mentioned & (1u << i)) &&
            mentions(text, room->seats[i].name)) {
            room->notices.mentioned |= 1u << i;
            tell(room, i, NOTICE_MENTION, name, text);
        }
    }
}
