/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A one-line progress indicator on stderr, only when stderr is a terminal. */
#ifndef GD_PROGRESS_H
#define GD_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct gd_progress {
	bool on;
	uint64_t last_ns;
	int width; /* of the last line, to clear it */
};

void gd_progress_init(struct gd_progress *pr, bool wanted);
/* Redraw at most 4 times a second. */
void gd_progress_update(struct gd_progress *pr, uint64_t now_ns, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void gd_progress_done(struct gd_progress *pr);

#endif
