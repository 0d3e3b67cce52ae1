/* SPDX-License-Identifier: MIT */
/*
 * hub.c - what every session of one server shares, and the one door from a
 * transport to the lobby: opening sessions and running the lobby's timed
 * work. It never touches sockets or clocks; the caller passes the time.
 */
#include "session.h"

#include <string.h>

void sess_hub_init(struct sess_hub *hub, struct lobby *lobby, const struct sess_config *cfg)
{
    memset(hub, 0, sizeof(*hub));
    hub->lobby = lobby;
    hub->cfg = cfg;
}

void sess_hub_open(struct sess_hub *hub, struct sess *s, uint64_t id, const struct sess_io *io,
                   void *io_ctx, uint64_t now)
{
    sess_init(s, id, hub->lobby, hub->cfg, io, io_ctx, now);
    s->stats = &hub->stats;
    s->finder = hub->finder;
}

void sess_hub_set_finder(struct sess_hub *hub, const struct sess_finder *finder)
{
    hub->finder = finder;
}

uint64_t sess_hub_run_due(struct sess_hub *hub, uint64_t now)
{
    return lobby_run_due(hub->lobby, now);
}

uint64_t sess_hub_next_due(const struct sess_hub *hub)
{
    return lobby_next_due(hub->lobby);
}

int sess_hub_review(struct sess_hub *hub, const char *body, size_t len, int64_t rev, uint64_t now,
                    char **ret_text, size_t *ret_len)
{
    return lobby_review_text(hub->lobby, body, len, rev, now, ret_text, ret_len);
}
