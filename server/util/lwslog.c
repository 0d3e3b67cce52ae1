/* SPDX-License-Identifier: MIT */
#include "lwslog.h"

#include <stdio.h>
#include <string.h>

#include <libwebsockets.h>

#include "log.h"

static void lws_log(int level, const char *line)
{
    char buf[512], q[LOG_QUOTE_MAX];
    size_t n = strlen(line);

    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) {
        n--;
    }
    snprintf(buf, sizeof(buf), "%.*s", (int)n, line);
    log_event(level & LLL_ERR    ? LOG_ERROR
              : level & LLL_WARN ? LOG_WARN
                                 : LOG_DEBUG,
              "libwebsockets", "msg=%s", log_quote(q, sizeof(q), buf));
}

void lwslog_route(void)
{
    lws_set_log_level(LLL_ERR | LLL_WARN, lws_log);
}
