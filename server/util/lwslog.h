/* SPDX-License-Identifier: MIT */
/*
 * lwslog.h - libwebsockets' own messages, warnings and errors only, into
 * the server's log (event=libwebsockets msg="..."). Every user of
 * libwebsockets in the server calls it before creating a context.
 */
#ifndef CONCLAVE_LWSLOG_H
#define CONCLAVE_LWSLOG_H

void lwslog_route(void);

#endif
