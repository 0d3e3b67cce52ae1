/* SPDX-License-Identifier: MIT */
/*
 * sorc_codec.h - the JSON functions of the Sorcerers core: action decoding
 * and encoding, view, legal list, result and the position load/dump pair
 * used by tests. Only sorc_codec.c and sorc_view.c implement these; rule
 * files never include this header.
 */
#ifndef CONCLAVE_SORC_CODEC_H
#define CONCLAVE_SORC_CODEC_H

#include <jansson.h>

#include "sorc.h"

/* Decodes a wire action (borrowed) into *a. Returns 0, or -1 when it is
 * malformed (unknown type, missing or ill-typed field, unknown card id). */
int sorc_action_decode(const json_t *json, struct sorc_action *a);

/* Encodes *a in canonical form. New reference, NULL on ENOMEM. */
json_t *sorc_action_encode(const struct sorc_action *a);

/* The view of `seat` (-1 spectator); new reference, NULL on ENOMEM. */
json_t *sorc_view_json(const void *state, int seat);

/* Every legal action of `seat`; new reference, NULL on ENOMEM. */
json_t *sorc_legal_json(const void *state, int seat);

/* The result, or NULL while the game runs; new reference. */
json_t *sorc_result_json(const void *state);

/* Builds a position in *st from `pos` (borrowed): {"seed", "merlinian_seat",
 * "turn", "max_turns", "dave", "morgana", "play": [{"card", "objects"}],
 * "hands": {"mer", "mor"}, "discard", "deck" (top first), "rest": "deck",
 * "discard" or "hand_mer" (where unlisted cards go, list order), "gates", "start": "lore" |
 * "recruit" | "recruit_mor" | "event" | "event_priority" (with "priority" and
 * "last_pass") | "encounter" | "duel" (with "duel": [mer, mor]) | "end"}.
 * Runs the automatic steps from `start`. Returns 0, or -1 with msg. */
int sorc_state_load(struct sorc_state *st, const json_t *pos, char *msg, size_t msglen);

/* Zones and counters of *st in the position format (without "start");
 * new reference. */
json_t *sorc_state_dump(const struct sorc_state *st);

#endif
