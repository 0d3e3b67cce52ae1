/* SPDX-License-Identifier: MIT */
/*
 * log.h - the server's log: one line per event on stderr, with a UTC
 * timestamp and a level. Only server code logs; libraries return errors.
 */
#ifndef CONCLAVE_LOG_H
#define CONCLAVE_LOG_H

/* Sets the lowest level written: 0 debug, 1 info, 2 warn, 3 error. */
void log_set_level(int level);

void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
