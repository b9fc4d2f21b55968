/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Diagnostics on stderr, prefixed with the tool's name. */
#ifndef GD_LOG_H
#define GD_LOG_H

#include <stdarg.h>

void gd_log_init(const char *argv0);
const char *gd_progname(void);
void gd_log_set_verbose(int level);
int gd_log_verbose(void);

/*
 * A bounded, escaped excerpt of untrusted text (an argument, a file's
 * content) for a message: at most 64 bytes of it, backslash, control and
 * non-ASCII bytes as \xNN, "..." when cut. The result lives in one of 4
 * rotating static buffers: use it within the next few calls.
 */
const char *gd_excerpt(const char *s);

void gd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The text of this thread's last gd_error ("" when none): what a peer is told. */
const char *gd_log_last_error(void);
void gd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gd_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gd_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
