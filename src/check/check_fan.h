/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A fan's congestion (pairs: one-to-many, many-to-one; check_fan.c): each pair between the
 * root and another rank measured alone, then all at once (check_sched.h). A pair's
 * congestion factor is its bandwidth at once over its bandwidth alone (its share kept: 1 no
 * loss, 1/n a fair share of a saturated root); the fan's congestion factor is the sum of
 * the pairs' bandwidths at once over the median pair alone (1: the root carries as much
 * with n pairs as with one; below 1 congestion loses bandwidth; up to n when the root has
 * room for more than one pair). min_congestion_factor judges the fan's.
 */
#ifndef GD_CHECK_FAN_H
#define GD_CHECK_FAN_H

#include <stdio.h>

#include "check_int.h"

struct gd_ck_fan_pair {
	int rank[2];			/* server, client */
	char end[2][96];		/* each end's "host/device" */
	const struct gd_ck_measure *alone, *once;
};

/* Each pair's congestion item and the fan's (against min_congestion_factor), on rank 0. */
void gd_ck_fan_items(struct gd_ck_report *r, const struct gd_ck_test *t,
		     const struct gd_ck_fan_pair *fp, size_t n, double secs);
/* The table: each pair alone and at once, its factor, the fan's. */
void gd_ck_fan_print(FILE *out, const struct gd_ck_test *t, const struct gd_ck_fan_pair *fp,
		     size_t n);
/* A congestion item (its value a congestion factor): Prometheus' series of them. */
bool gd_ck_fan_item(const struct gd_ck_item *it);

#endif
