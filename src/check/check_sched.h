/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Pairs between ranks in rounds: the pairs of a pattern ordered so that the pairs of one
 * round share no rank, and run at once. all-pairs is the round-robin (circle) schedule:
 * n - 1 rounds of n / 2 disjoint pairs for even n, n rounds of (n - 1) / 2 for odd n
 * (every pair exactly once, as SuperBench's ib-traffic); pairwise is one round; ring two
 * (three for odd n). A cap on the pairs of a round (--concurrency) splits a round into
 * several; a cap of 1 is the serial schedule.
 */
#ifndef GD_CHECK_SCHED_H
#define GD_CHECK_SCHED_H

#include <stddef.h>

#include "spec.h"

struct gd_ck_sched {
	int (*pairs)[2];	/* (server, client) ranks, round after round */
	size_t np;
	size_t *start;		/* round r is pairs[start[r]] .. pairs[start[r + 1] - 1] */
	size_t nrounds;
};

/* Pairs (server, client) of a pattern over n ranks, in round order; returns the count
 * (<= max). all-pairs: the circle order, server the lower rank. */
size_t gd_ck_pairs(enum gd_ck_pattern p, int n, int (*pairs)[2], size_t max);
/* The schedule of pattern p over n ranks, at most cap pairs a round (0: no cap) and at
 * most max pairs in all. 0, or -ENOMEM (s is then empty). */
int gd_ck_schedule(enum gd_ck_pattern p, int n, size_t cap, size_t max, struct gd_ck_sched *s);
/* A schedule of the given pairs in their order (greedy: a pair joins the first round
 * where neither rank is busy and the cap allows). 0 or -ENOMEM. */
int gd_ck_schedule_pairs(const int (*pairs)[2], size_t np, int n, size_t cap,
			 struct gd_ck_sched *s);
void gd_ck_sched_free(struct gd_ck_sched *s);
/* The round of pair k. */
size_t gd_ck_sched_round(const struct gd_ck_sched *s, size_t k);

#endif
