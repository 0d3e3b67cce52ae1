/* SPDX-License-Identifier: MIT */
/*
 * state.c - the client's state directory, where it keeps the seats it may
 * resume (conn.c) and the certificates it trusts (wss.c).
 */
#include "client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int cli_state_path(char *out, size_t outlen, const char *file, bool create)
{
    const char *xdg = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    char dir[4096];

    if (xdg && *xdg) {
        snprintf(dir, sizeof(dir), "%s/conclave", xdg);
    } else if (home && *home) {
        snprintf(dir, sizeof(dir), "%s/.local/state/conclave", home);
    } else {
        return -1;
    }
    if (create) {
        /* Create each missing component with owner-only access. */
        for (char *p = dir + 1; *p; p++) {
            if (*p == '/') {
                *p = '\0';
                (void)mkdir(dir, 0700);
                *p = '/';
            }
        }
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
            return -1;
        }
    }
    if ((size_t)snprintf(out, outlen, "%s/%s", dir, file) >= outlen) {
        return -1;
    }
    return 0;
}
