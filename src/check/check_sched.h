/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Pairs between ranks in rounds: the pairs of a pattern ordered so that the pairs of one
 * round share no rank, and run at once. all-pairs is the round-robin (circle) schedule:
 * n - 1 rounds of n / 2 disjoint pairs for even n, n rounds of (n - 1) / 2 for odd n
 * (every pair exactly once, as SuperBench's ib-traffic); pairwise is one round; ring two
 * (three for odd n). A cap on the pairs of a round (--concurrency) splits a round into
 * several; a cap of 1 is the serial schedule.
 *
 * Fans (one-to-many, many-to-one) are the one exception to "no rank twice in a round": a
 * root and each other rank, each pair alone first (one round each), then the same pairs at
 * once (one round, or rounds of at most cap), the root in all of them; the congestion
 * factor compares the two (check_fan.c). one-to-many: the root sends (the client, which
 * writes); many-to-one: the root receives (the server).
 *
 * Rails (gd_check --rails all): each node pair of a schedule becomes one pair per rail (NIC i
 * of one node with NIC i of the other), all in the node pair's round: a node is in one node
 * pair a round, and each of its rails in one NIC pair. The cap counts NIC pairs: a round holds
 * cap / rails node pairs (at least one), and a node pair's rails are split over consecutive
 * rounds only when the cap is below the rails.
 */
#ifndef GD_CHECK_SCHED_H
#define GD_CHECK_SCHED_H

#include <stddef.h>

#include "spec_types.h"

/* A fan's pairs at once in one round at most (its root runs a process for each). */
#define GD_CK_FAN_MAX_ONCE 64

struct gd_ck_sched {
	int (*pairs)[2];	/* (server, client) ranks, round after round */
	size_t np;
	size_t *start;		/* round r is pairs[start[r]] .. pairs[start[r + 1] - 1] */
	size_t nrounds;
	size_t nalone;		/* a fan: pairs[0 .. nalone - 1] alone, pairs[nalone + j] is
				 * pair j again at once; 0: not a fan */
	int *rail;		/* pair k's rail (gd_ck_schedule_rails); NULL: one rail, 0 */
};
/* Rails a node pair runs at once at most (--rails all). */
#define GD_CK_MAX_RAILS 16

/* Pairs (server, client) of a pattern over n ranks, in round order; returns the count
 * (<= max). all-pairs: the circle order, server the lower rank. */
size_t gd_ck_pairs(enum gd_ck_pattern p, int n, int (*pairs)[2], size_t max);
/* The same with a fan's root (0 <= root < n; other patterns ignore it). */
size_t gd_ck_pairs_root(enum gd_ck_pattern p, int n, int root, int (*pairs)[2], size_t max);
/* The schedule of pattern p over n ranks (a fan's root: 0), at most cap pairs a round (0: no
 * cap) and at most max pairs in all. 0, or -ENOMEM (s is then empty). */
int gd_ck_schedule(enum gd_ck_pattern p, int n, size_t cap, size_t max, struct gd_ck_sched *s);
/* A schedule of the given pairs in their order (greedy: a pair joins the first round
 * where neither rank is busy and the cap allows). 0 or -ENOMEM. */
int gd_ck_schedule_pairs(const int (*pairs)[2], size_t np, int n, size_t cap,
			 struct gd_ck_sched *s);
/* A fan's schedule over its np pairs: each alone, then at once (rounds of at most cap, and of
 * at most GD_CK_FAN_MAX_ONCE). 0 or -ENOMEM. */
int gd_ck_schedule_fan(const int (*pairs)[2], size_t np, size_t cap, struct gd_ck_sched *s);
/* The schedule of a test's pairs: a fan's for a fan pattern, else the greedy one. */
int gd_ck_schedule_test(enum gd_ck_pattern p, const int (*pairs)[2], size_t np, int n,
			size_t cap, struct gd_ck_sched *s);
/* The schedule s of node pairs (not a fan's) with each node pair made rails NIC pairs in its
 * round, at most cap NIC pairs a round (0: no cap), into out. 0, -EINVAL (a fan, or rails
 * outside 1 .. GD_CK_MAX_RAILS), or -ENOMEM (out is then empty). */
int gd_ck_schedule_rails(const struct gd_ck_sched *s, size_t rails, size_t cap,
			 struct gd_ck_sched *out);
/* A test's node pairs scheduled with rails (1: gd_ck_schedule_test's schedule): each node
 * pair's rails in one round, cap on NIC pairs. */
int gd_ck_schedule_test_rails(enum gd_ck_pattern p, const int (*pairs)[2], size_t np, int n,
			      size_t rails, size_t cap, struct gd_ck_sched *s);
/* Pair k's rail: 0 without rails. */
int gd_ck_sched_rail(const struct gd_ck_sched *s, size_t k);
void gd_ck_sched_free(struct gd_ck_sched *s);
/* The round of pair k. */
size_t gd_ck_sched_round(const struct gd_ck_sched *s, size_t k);

#endif
