/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "log.h"

#include <stdio.h>
#include <string.h>

static const char *progname = "gdperf";
static int verbose;

void gd_log_init(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0)
		progname = slash ? slash + 1 : argv0;
	/* libtool-style wrappers prefix "lt-" */
	if (strncmp(progname, "lt-", 3) == 0)
		progname += 3;
}

const char *gd_progname(void)
{
	return progname;
}

void gd_log_set_verbose(int level)
{
	verbose = level;
}

int gd_log_verbose(void)
{
	return verbose;
}

#define EXCERPT_MAX 64

const char *gd_excerpt(const char *s)
{
	static char bufs[4][4 * EXCERPT_MAX + 8];
	static unsigned next;
	char *buf = bufs[next++ % 4], *p = buf;
	size_t i;

	if (!s)
		s = "";
	for (i = 0; s[i] && i < EXCERPT_MAX; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f || c == '\\')
			p += sprintf(p, "\\x%02x", c);
		else
			*p++ = (char)c;
	}
	strcpy(p, s[i] ? "..." : "");
	return buf;
}

static void vlog(const char *level, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", progname, level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* the last error of this thread, for a peer told why (gd_log_last_error) */
static __thread char last_error[512];

void gd_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	vlog("error: ", fmt, ap);
	va_end(ap);
}

const char *gd_log_last_error(void)
{
	return last_error;
}

void gd_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("warning: ", fmt, ap);
	va_end(ap);
}

void gd_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
}

void gd_debug(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	vlog("debug: ", fmt, ap);
	va_end(ap);
}
