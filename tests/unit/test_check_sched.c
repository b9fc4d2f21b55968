/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Pairs between ranks in rounds (check_sched.h): every pair of the pattern once, no rank
 * twice in a round, the round-robin's round count, and the cap. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_sched.h"

/* Every round's pairs are disjoint and at most cap; returns the largest round. */
static size_t check_rounds(const struct gd_ck_sched *s, int n, size_t cap)
{
	unsigned char *seen = calloc((size_t)n, 1);
	size_t widest = 0;

	assert_non_null(seen);
	assert_int_equal(s->start[0], 0);
	assert_int_equal(s->start[s->nrounds], s->np);
	for (size_t r = 0; r < s->nrounds; r++) {
		size_t w = s->start[r + 1] - s->start[r];

		assert_true(w > 0);
		assert_true(!cap || w <= cap);
		widest = w > widest ? w : widest;
		memset(seen, 0, (size_t)n);
		for (size_t k = s->start[r]; k < s->start[r + 1]; k++) {
			for (int e = 0; e < 2; e++) {
				int x = s->pairs[k][e];

				assert_true(x >= 0 && x < n);
				assert_false(seen[x]); /* a rank in two pairs of one round */
				seen[x] = 1;
			}
			assert_int_not_equal(s->pairs[k][0], s->pairs[k][1]);
		}
	}
	free(seen);
	return widest;
}

/* all-pairs: each unordered pair exactly once; n - 1 rounds of n / 2 (even n), n rounds of
 * (n - 1) / 2 (odd n); the server is the lower rank. */
static void all_pairs_round_robin(void **state)
{
	(void)state;
	for (int n = 2; n <= 65; n++) {
		struct gd_ck_sched s;
		unsigned char *met = calloc((size_t)n * (size_t)n, 1);

		assert_non_null(met);
		assert_int_equal(gd_ck_schedule(GD_CK_PAT_ALL_PAIRS, n, 0, SIZE_MAX, &s), 0);
		assert_int_equal(s.np, (size_t)n * (size_t)(n - 1) / 2);
		assert_int_equal(s.nrounds, (size_t)(n % 2 ? n : n - 1));
		assert_int_equal(check_rounds(&s, n, 0), (size_t)(n / 2));
		for (size_t k = 0; k < s.np; k++) {
			int a = s.pairs[k][0], b = s.pairs[k][1];

			assert_true(a < b);
			assert_false(met[a * n + b]);
			met[a * n + b] = 1;
		}
		gd_ck_sched_free(&s);
		free(met);
	}
}

/* ring: two rounds for even n, three for odd; pairwise: one round. */
static void ring_and_pairwise(void **state)
{
	struct gd_ck_sched s;

	(void)state;
	assert_int_equal(gd_ck_schedule(GD_CK_PAT_RING, 8, 0, SIZE_MAX, &s), 0);
	assert_int_equal(s.np, 8);
	assert_int_equal(s.nrounds, 2);
	check_rounds(&s, 8, 0);
	gd_ck_sched_free(&s);
	assert_int_equal(gd_ck_schedule(GD_CK_PAT_RING, 7, 0, SIZE_MAX, &s), 0);
	assert_int_equal(s.np, 7);
	assert_int_equal(s.nrounds, 3);
	check_rounds(&s, 7, 0);
	gd_ck_sched_free(&s);
	assert_int_equal(gd_ck_schedule(GD_CK_PAT_PAIRWISE, 8, 0, SIZE_MAX, &s), 0);
	assert_int_equal(s.np, 4);
	assert_int_equal(s.nrounds, 1);
	assert_int_equal(s.pairs[3][0], 3);
	assert_int_equal(s.pairs[3][1], 7);
	gd_ck_sched_free(&s);
	assert_int_equal(gd_ck_schedule(GD_CK_PAT_ALL_PAIRS, 1, 0, SIZE_MAX, &s), 0);
	assert_int_equal(s.np, 0);
	assert_int_equal(s.nrounds, 0);
	gd_ck_sched_free(&s);
}

/* --concurrency: no round above the cap, every pair still once; 1 is serial. */
static void cap(void **state)
{
	struct gd_ck_sched s;

	(void)state;
	assert_int_equal(gd_ck_schedule(GD_CK_PAT_ALL_PAIRS, 16, 3, SIZE_MAX, &s), 0);
	assert_int_equal(s.np, 120);
	assert_int_equal(check_rounds(&s, 16, 3), 3);
	gd_ck_sched_free(&s);
	assert_int_equal(gd_ck_schedule(GD_CK_PAT_ALL_PAIRS, 6, 1, SIZE_MAX, &s), 0);
	assert_int_equal(s.nrounds, 15);
	gd_ck_sched_free(&s);
	/* max cuts the pairs, not the rounds' rule */
	assert_int_equal(gd_ck_schedule(GD_CK_PAT_ALL_PAIRS, 8, 0, 5, &s), 0);
	assert_int_equal(s.np, 5);
	check_rounds(&s, 8, 0);
	gd_ck_sched_free(&s);
}

/* Given pairs in any order (hosts: one pair; a custom list) are scheduled greedily. */
static void given_pairs(void **state)
{
	static const int p[][2] = { { 0, 1 }, { 0, 2 }, { 1, 2 }, { 3, 4 } };
	struct gd_ck_sched s;

	(void)state;
	assert_int_equal(gd_ck_schedule_pairs(p, 4, 5, 0, &s), 0);
	assert_int_equal(s.nrounds, 3);
	check_rounds(&s, 5, 0);
	assert_int_equal(gd_ck_sched_round(&s, 0), 0);
	assert_int_equal(gd_ck_sched_round(&s, 1), 0); /* { 3, 4 } joins round 0 */
	assert_int_equal(s.pairs[1][0], 3);
	gd_ck_sched_free(&s);
}

/* A fan (one-to-many, many-to-one): the root with every other rank, each pair alone in a round
 * of its own, then the same pairs at once (the root in every one of them), cut by the cap and
 * by GD_CK_FAN_MAX_ONCE; one-to-many's root is the client (it sends), many-to-one's the
 * server. */
static void fans(void **state)
{
	static const struct {
		enum gd_ck_pattern p;
		int n, root;
		size_t cap, rounds_once;
	} c[] = {
		{ GD_CK_PAT_ONE_TO_MANY, 4, 0, 0, 1 }, { GD_CK_PAT_MANY_TO_ONE, 4, 2, 0, 1 },
		{ GD_CK_PAT_MANY_TO_ONE, 5, 4, 2, 2 }, { GD_CK_PAT_ONE_TO_MANY, 2, 1, 0, 1 },
		{ GD_CK_PAT_MANY_TO_ONE, 130, 0, 0, 3 }, /* 129 pairs: 64 + 64 + 1 at once */
	};
	int pairs[256][2];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		size_t np = gd_ck_pairs_root(c[i].p, c[i].n, c[i].root, pairs, 256);
		struct gd_ck_sched s;
		int side = c[i].p == GD_CK_PAT_ONE_TO_MANY; /* the root's: 1 client, 0 server */

		assert_int_equal(np, (size_t)c[i].n - 1);
		for (size_t k = 0; k < np; k++) {
			assert_int_equal(pairs[k][side], c[i].root);
			assert_int_not_equal(pairs[k][!side], c[i].root);
			assert_int_equal(pairs[k][!side], (int)k + (pairs[k][!side] > c[i].root));
		}
		assert_int_equal(gd_ck_schedule_test(c[i].p, (const int (*)[2])pairs, np, c[i].n,
						     c[i].cap, &s), 0);
		assert_int_equal(s.nalone, np);
		assert_int_equal(s.np, 2 * np);
		assert_int_equal(s.nrounds, np + c[i].rounds_once);
		for (size_t r = 0; r < np; r++) /* alone: one pair a round, in order */
			assert_true(s.start[r] == r && s.start[r + 1] == r + 1);
		for (size_t r = np; r < s.nrounds; r++) {
			size_t w = s.start[r + 1] - s.start[r];

			assert_true(w > 0 && w <= GD_CK_FAN_MAX_ONCE && (!c[i].cap || w <= c[i].cap));
		}
		assert_int_equal(s.start[s.nrounds], s.np);
		for (size_t k = 0; k < np; k++) /* at once: the same pairs, in the same order */
			assert_memory_equal(s.pairs[np + k], pairs[k], sizeof(pairs[k]));
		gd_ck_sched_free(&s);
	}
	/* a root outside the ranks makes no pair; all-pairs keeps its schedule (not a fan) */
	assert_int_equal(gd_ck_pairs_root(GD_CK_PAT_ONE_TO_MANY, 4, 4, pairs, 256), 0);
	{
		struct gd_ck_sched s;

		assert_int_equal(gd_ck_schedule(GD_CK_PAT_ALL_PAIRS, 4, 0, 256, &s), 0);
		assert_int_equal(s.nalone, 0);
		assert_int_equal(s.nrounds, 3);
		gd_ck_sched_free(&s);
	}
}

/* Rails of a NIC pair's round: no (rank, rail) twice, each rank with one partner node. */
static void check_rail_round(const struct gd_ck_sched *s, size_t r, int n, size_t rails)
{
	int partner[64];
	unsigned char seen[64 * GD_CK_MAX_RAILS] = { 0 };

	for (int i = 0; i < n; i++)
		partner[i] = -1;
	for (size_t k = s->start[r]; k < s->start[r + 1]; k++) {
		int rail = gd_ck_sched_rail(s, k);

		assert_true(rail >= 0 && (size_t)rail < rails);
		for (int e = 0; e < 2; e++) {
			int x = s->pairs[k][e], y = s->pairs[k][!e];

			assert_false(seen[x * GD_CK_MAX_RAILS + rail]); /* a NIC in two pairs */
			seen[x * GD_CK_MAX_RAILS + rail] = 1;
			assert_true(partner[x] < 0 || partner[x] == y); /* a node in two node pairs */
			partner[x] = y;
		}
	}
}

/* --rails all: each node pair once per rail, every rail of a node pair in the same round (when
 * the cap allows), no NIC twice and no node with two partners in a round; the cap counts NIC
 * pairs; a fan has no rails. */
static void rails(void **state)
{
	static const struct {
		int n;
		size_t rails, cap, rounds, widest;
	} c[] = {
		{ 4, 2, 0, 3, 4 },	/* all-pairs of 4: 3 rounds of 2 node pairs x 2 rails */
		{ 4, 2, 3, 6, 2 },	/* cap 3: one node pair (2 NIC pairs) a round */
		{ 4, 2, 4, 3, 4 },
		{ 4, 8, 3, 18, 3 },	/* cap below the rails: 8 rails as 3 + 3 + 2 */
		{ 8, 8, 0, 7, 32 },
		{ 5, 1, 0, 5, 2 },	/* one rail: the node schedule */
	};
	int pairs[64][2];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		size_t np = gd_ck_pairs(GD_CK_PAT_ALL_PAIRS, c[i].n, pairs, 64), widest = 0;
		unsigned char *once = calloc(np * c[i].rails, 1);
		struct gd_ck_sched s;

		assert_non_null(once);
		assert_int_equal(gd_ck_schedule_test_rails(GD_CK_PAT_ALL_PAIRS,
							   (const int (*)[2])pairs, np, c[i].n,
							   c[i].rails, c[i].cap, &s), 0);
		assert_int_equal(s.np, np * c[i].rails);
		assert_int_equal(s.nrounds, c[i].rounds);
		for (size_t r = 0; r < s.nrounds; r++) {
			size_t w = s.start[r + 1] - s.start[r];

			assert_true(w > 0 && (!c[i].cap || w <= c[i].cap));
			widest = w > widest ? w : widest;
			check_rail_round(&s, r, c[i].n, c[i].rails);
		}
		assert_int_equal(widest, c[i].widest);
		for (size_t k = 0; k < s.np; k++) { /* each (node pair, rail) once */
			size_t j = 0;

			while (j < np && memcmp(pairs[j], s.pairs[k], sizeof(pairs[j])))
				j++;
			assert_true(j < np);
			assert_false(once[j * c[i].rails + (size_t)gd_ck_sched_rail(&s, k)]);
			once[j * c[i].rails + (size_t)gd_ck_sched_rail(&s, k)] = 1;
			if (c[i].cap == 0 || c[i].cap >= c[i].rails) { /* its rails: its round */
				size_t r = gd_ck_sched_round(&s, k), same = 0;

				for (size_t q = s.start[r]; q < s.start[r + 1]; q++)
					same += !memcmp(s.pairs[q], s.pairs[k], sizeof(pairs[0]));
				assert_int_equal(same, c[i].rails);
			}
		}
		free(once);
		gd_ck_sched_free(&s);
	}
	{ /* a fan's schedule has no rails: refused, not expanded */
		struct gd_ck_sched f, out;
		size_t np = gd_ck_pairs(GD_CK_PAT_MANY_TO_ONE, 4, pairs, 64);

		assert_int_equal(gd_ck_schedule_fan((const int (*)[2])pairs, np, 0, &f), 0);
		assert_int_equal(gd_ck_schedule_rails(&f, 2, 0, &out), -EINVAL);
		gd_ck_sched_free(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(all_pairs_round_robin), cmocka_unit_test(ring_and_pairwise),
		cmocka_unit_test(cap), cmocka_unit_test(given_pairs), cmocka_unit_test(fans),
		cmocka_unit_test(rails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
