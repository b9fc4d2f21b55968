/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The pair schedule of gd_check for a fleet, without running it (scripts/bench-rounds.sh):
 *   sched_sim PATTERN NODES RAILS PAIR_SECONDS [CONCURRENCY]
 * prints the rounds, pairs per round and the predicted wall time (rounds x pair time, the
 * rails of a node pair at once, or one after another) of gd_check's own scheduler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_sched.h"

int main(int argc, char **argv)
{
	static const char *const pat[] = { "pairwise", "ring", "all-pairs", "one-to-many",
					   "many-to-one" };
	struct gd_ck_sched s;
	int n, rails, p = -1;
	double t;
	size_t cap = 0, widest = 0;

	if (argc < 5) {
		fprintf(stderr, "usage: %s pairwise|ring|all-pairs|one-to-many|many-to-one NODES "
			"RAILS PAIR_SECONDS [CONCURRENCY]\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < 5; i++)
		if (!strcmp(argv[1], pat[i]))
			p = i;
	n = atoi(argv[2]);
	rails = atoi(argv[3]);
	t = atof(argv[4]);
	cap = argc > 5 ? (size_t)atol(argv[5]) : 0;
	if (p < 0 || n < 2 || n > 65536 || rails < 1 || t <= 0) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		return 2;
	}
	if (gd_ck_schedule((enum gd_ck_pattern)p, n, cap, (size_t)-1, &s)) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return 3;
	}
	for (size_t r = 0; r < s.nrounds; r++)
		if (s.start[r + 1] - s.start[r] > widest)
			widest = s.start[r + 1] - s.start[r];
	printf("%s nodes %d rails %d: %zu node pairs%s (%zu NIC pairs) in %zu rounds of at most "
	       "%zu; pair %.1f s: rails at once %.1f min, rails one after another %.1f min, "
	       "serial %.1f h\n", argv[1], n, rails, s.np, s.nalone ? " (a fan: n - 1 pairs alone, then at "
	       "once)" : "", s.np * (size_t)rails, s.nrounds, widest,
	       t, (double)s.nrounds * t / 60.0, (double)s.nrounds * rails * t / 60.0,
	       (double)s.np * rails * t / 3600.0);
	gd_ck_sched_free(&s);
	return 0;
}
