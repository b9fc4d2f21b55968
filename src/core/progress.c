/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

void gd_progress_init(struct gd_progress *pr, bool wanted)
{
	pr->on = wanted && isatty(STDERR_FILENO);
	pr->last_ns = 0;
	pr->width = 0;
}

void gd_progress_update(struct gd_progress *pr, uint64_t now_ns, const char *fmt, ...)
{
	char line[160];
	va_list ap;
	int n;

	if (!pr->on || (pr->last_ns && now_ns - pr->last_ns < 250000000ull))
		return;
	pr->last_ns = now_ns;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	fprintf(stderr, "\r%s%*s", line, pr->width > n ? pr->width - n : 0, "");
	pr->width = n;
	fflush(stderr);
}

void gd_progress_done(struct gd_progress *pr)
{
	if (pr->on && pr->width) {
		fprintf(stderr, "\r%*s\r", pr->width, "");
		fflush(stderr);
	}
	pr->width = 0;
	pr->last_ns = 0;
}
