/* SPDX-License-Identifier: MIT */
/*
 * log.h - the server's log: one line per event on stderr, as key=value
 * fields fit for journald and for grep:
 *
 *   ts=2026-12-02T01:02:03Z level=info event=bot_seat room=K7QF2M seat=1 bot_level=hard
 *
 * `ts`, `level` and `event` come first on every line; an event's name and
 * its fields' names are stable (docs/operations.md lists them). A value
 * that may hold spaces, quotes or '=' goes through log_quote(). Only
 * server code logs; libraries return errors.
 */
#ifndef CONCLAVE_LOG_H
#define CONCLAVE_LOG_H

#include <stddef.h>

enum log_level {
    LOG_DEBUG,
    LOG_INFO,
    LOG_WARN,
    LOG_ERROR,
};

/* Sets the lowest level written (LOG_INFO at start). */
void log_set_level(int level);

/* Longest line written, its newline included. */
#define LOG_LINE_MAX 2048

/* One line: the event and the fields written by `fields` (printf-style
 * "key=value key=value", may be ""). A line longer than LOG_LINE_MAX keeps
 * the fields that fit whole and ends with "truncated=yes". */
void log_event(enum log_level level, const char *event, const char *fields, ...)
    __attribute__((format(printf, 3, 4)));

#define LOG_QUOTE_MAX 512

/* `s` as one field value: as it is when it is a plain word, else in
 * double quotes with '"', '\\' and control characters escaped (cut to
 * fit `len` bytes). Returns `buf`. */
const char *log_quote(char *buf, size_t len, const char *s);

#endif
