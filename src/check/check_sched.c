/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Pairs between ranks in rounds of disjoint pairs (check_sched.h). */
#include "check_sched.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void gd_ck_sched_free(struct gd_ck_sched *s)
{
	free(s->pairs);
	free(s->start);
	free(s->rail);
	memset(s, 0, sizeof(*s));
}

int gd_ck_sched_rail(const struct gd_ck_sched *s, size_t k)
{
	return s->rail ? s->rail[k] : 0;
}

size_t gd_ck_sched_round(const struct gd_ck_sched *s, size_t k)
{
	size_t r = 0;

	while (r + 1 < s->nrounds && s->start[r + 1] <= k)
		r++;
	return r;
}

/* Greedy rounds over pairs in order: each pair goes to the first round with both of its
 * ranks free and room under cap. round[k] receives pair k's round; returns the count. */
static size_t greedy(const int (*pairs)[2], size_t np, int n, size_t cap, size_t *round)
{
	size_t nr = 0, *fill = calloc(np ? np : 1, sizeof(*fill));
	unsigned char *busy = NULL;	/* busy[r * n + rank] */
	size_t busy_rounds = 0;

	for (size_t k = 0; k < np && fill; k++) {
		size_t r = 0;

		for (;; r++) {
			if (r == busy_rounds) { /* a fresh round: grow the table */
				unsigned char *b = realloc(busy, (r + 1) * (size_t)n);

				if (!b)
					goto fail;
				busy = b;
				memset(busy + r * (size_t)n, 0, (size_t)n);
				busy_rounds++;
			}
			if (!busy[r * (size_t)n + (size_t)pairs[k][0]] &&
			    !busy[r * (size_t)n + (size_t)pairs[k][1]] && (!cap || fill[r] < cap))
				break;
		}
		busy[r * (size_t)n + (size_t)pairs[k][0]] = 1;
		busy[r * (size_t)n + (size_t)pairs[k][1]] = 1;
		fill[r]++;
		round[k] = r;
		nr = r + 1 > nr ? r + 1 : nr;
	}
	free(busy);
	free(fill);
	return fill ? nr : (size_t)-1;
fail:
	free(busy);
	free(fill);
	return (size_t)-1;
}

int gd_ck_schedule_pairs(const int (*pairs)[2], size_t np, int n, size_t cap,
			 struct gd_ck_sched *s)
{
	size_t *round = calloc(np ? np : 1, sizeof(*round)), nr, at = 0;

	memset(s, 0, sizeof(*s));
	if (!round)
		return -ENOMEM;
	nr = greedy(pairs, np, n, cap, round);
	s->pairs = calloc(np ? np : 1, sizeof(*s->pairs));
	s->start = calloc(nr + 1 > 1 ? nr + 1 : 2, sizeof(*s->start));
	if (nr == (size_t)-1 || !s->pairs || !s->start) {
		free(round);
		gd_ck_sched_free(s);
		return -ENOMEM;
	}
	for (size_t r = 0; r < nr; r++) { /* stable: pairs keep their order inside a round */
		s->start[r] = at;
		for (size_t k = 0; k < np; k++)
			if (round[k] == r)
				memcpy(s->pairs[at++], pairs[k], sizeof(pairs[k]));
	}
	s->start[nr] = at;
	s->np = np;
	s->nrounds = nr;
	free(round);
	return 0;
}

/* all-pairs as the circle method: rank m = n - 1 (even n; a bye for odd n) stays, the
 * others turn; round r pairs r with m and r + i with r - i (mod m). Server: the lower rank. */
static size_t circle(int n, int (*pairs)[2], size_t max)
{
	int m = n % 2 ? n : n - 1; /* the turning ranks: 0 .. m - 1 */
	size_t k = 0;

	for (int r = 0; r < m; r++) {
		for (int i = 0; i <= (m - 1) / 2 && k < max; i++) {
			int a = (r + i) % m, b = i ? (r - i + m) % m : m;

			if (b >= n) /* odd n: r sits this round out */
				continue;
			pairs[k][0] = a < b ? a : b;
			pairs[k][1] = a < b ? b : a;
			k++;
		}
	}
	return k;
}

int gd_ck_schedule_fan(const int (*pairs)[2], size_t np, size_t cap, struct gd_ck_sched *s)
{
	size_t at = cap && cap < GD_CK_FAN_MAX_ONCE ? cap : GD_CK_FAN_MAX_ONCE;
	size_t together = np ? (np + at - 1) / at : 0;

	memset(s, 0, sizeof(*s));
	s->pairs = calloc(np ? 2 * np : 1, sizeof(*s->pairs));
	s->start = calloc(np + together + 1, sizeof(*s->start));
	if (!s->pairs || !s->start) {
		gd_ck_sched_free(s);
		return -ENOMEM;
	}
	for (size_t k = 0; k < 2 * np; k++)
		memcpy(s->pairs[k], pairs[k % np], sizeof(pairs[0]));
	for (size_t r = 0; r < np; r++) /* alone: one pair a round */
		s->start[r] = r;
	for (size_t g = 0; g <= together; g++) /* at once: at most cap a round */
		s->start[np + g] = np + (g * at < np ? g * at : np);
	s->np = 2 * np;
	s->nalone = np;
	s->nrounds = np + together;
	return 0;
}

int gd_ck_schedule_test(enum gd_ck_pattern p, const int (*pairs)[2], size_t np, int n,
			size_t cap, struct gd_ck_sched *s)
{
	return GD_CK_PAT_FAN(p) ? gd_ck_schedule_fan(pairs, np, cap, s) :
				  gd_ck_schedule_pairs(pairs, np, n, cap, s);
}

/* A fan: the root with every other rank in rank order; one-to-many the root the client. */
static size_t fan(enum gd_ck_pattern p, int n, int root, int (*pairs)[2], size_t max)
{
	size_t k = 0;

	for (int i = 0; i < n && k < max; i++) {
		if (i == root)
			continue;
		pairs[k][0] = p == GD_CK_PAT_ONE_TO_MANY ? i : root;
		pairs[k][1] = p == GD_CK_PAT_ONE_TO_MANY ? root : i;
		k++;
	}
	return k;
}

size_t gd_ck_pairs(enum gd_ck_pattern p, int n, int (*pairs)[2], size_t max)
{
	return gd_ck_pairs_root(p, n, 0, pairs, max);
}

size_t gd_ck_pairs_root(enum gd_ck_pattern p, int n, int root, int (*pairs)[2], size_t max)
{
	size_t k = 0;

	if (n < 2)
		return 0;
	if (GD_CK_PAT_FAN(p))
		return root >= 0 && root < n ? fan(p, n, root, pairs, max) : 0;
	if (p == GD_CK_PAT_ALL_PAIRS)
		return circle(n, pairs, max);
	if (p == GD_CK_PAT_PAIRWISE) {
		for (int i = 0; i < n / 2 && k < max; i++, k++) {
			pairs[k][0] = i;
			pairs[k][1] = i + n / 2;
		}
		return k;
	}
	for (int i = 0; i < (n == 2 ? 1 : n) && k < max; i++, k++) { /* ring */
		pairs[k][0] = i;
		pairs[k][1] = (i + 1) % n;
	}
	return k;
}

int gd_ck_schedule(enum gd_ck_pattern p, int n, size_t cap, size_t max, struct gd_ck_sched *s)
{
	size_t all = n > 1 ? (size_t)n * (size_t)(n - 1) / 2 : 0, np;
	int (*pairs)[2] = calloc(all ? all : 1, sizeof(*pairs));
	int ret;

	memset(s, 0, sizeof(*s));
	if (!pairs)
		return -ENOMEM;
	np = gd_ck_pairs(p, n, pairs, max < all ? max : all);
	ret = gd_ck_schedule_test(p, (const int (*)[2])pairs, np, n > 0 ? n : 1, cap, s);
	free(pairs);
	return ret;
}

int gd_ck_schedule_rails(const struct gd_ck_sched *s, size_t rails, size_t cap,
			 struct gd_ck_sched *out)
{
	size_t per = cap && cap < rails ? cap : rails; /* a node pair's rails in one round */
	size_t chunks = (rails + per - 1) / per, nr = 0, at = 0;

	memset(out, 0, sizeof(*out));
	if (s->nalone || !rails || rails > GD_CK_MAX_RAILS)
		return -EINVAL;
	out->pairs = calloc(s->np * rails + 1, sizeof(*out->pairs));
	out->rail = calloc(s->np * rails + 1, sizeof(*out->rail));
	out->start = calloc(s->nrounds * chunks + 1, sizeof(*out->start));
	if (!out->pairs || !out->rail || !out->start) {
		gd_ck_sched_free(out);
		return -ENOMEM;
	}
	for (size_t r = 0; r < s->nrounds; r++)
		for (size_t c = 0; c < chunks; c++) { /* rails c * per .. of each node pair */
			out->start[nr++] = at;
			for (size_t k = s->start[r]; k < s->start[r + 1]; k++)
				for (size_t i = c * per; i < (c + 1) * per && i < rails; i++) {
					memcpy(out->pairs[at], s->pairs[k], sizeof(s->pairs[k]));
					out->rail[at++] = (int)i;
				}
		}
	out->start[nr] = at;
	out->np = at;
	out->nrounds = nr;
	return 0;
}

int gd_ck_schedule_test_rails(enum gd_ck_pattern p, const int (*pairs)[2], size_t np, int n,
			      size_t rails, size_t cap, struct gd_ck_sched *s)
{
	struct gd_ck_sched nodes;
	size_t ncap = cap ? (cap / rails ? cap / rails : 1) : 0; /* node pairs a round */
	int ret;

	if (rails <= 1 || GD_CK_PAT_FAN(p))
		return gd_ck_schedule_test(p, pairs, np, n, cap, s);
	ret = gd_ck_schedule_pairs(pairs, np, n, ncap, &nodes);
	if (!ret)
		ret = gd_ck_schedule_rails(&nodes, rails, cap, s);
	gd_ck_sched_free(&nodes);
	return ret;
}
