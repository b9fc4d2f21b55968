/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's peak bandwidth from a counted run's raw stamps (bench.h,
 * gd_bw_peak_rate): the cheapest per-message cost over any window from a
 * post g to a later completion c, (tc[c] - tp[g]) / (tn[c] - first(g)).
 *
 * Seen from post g, the point (first(g), tp[g]) lies left of every
 * completion point (tn[c], tc[c]) it may pair with, and the cheapest pair is
 * the smallest slope from it to those points: a tangent to their lower convex
 * hull. Walking the posts from the last to the first, the completions each
 * post may pair with only grow to the left, so the hull is built as a stack
 * (each point pushed and popped once) and asked by binary search: O(n log n)
 * where the double loop was O(posts x completions), 10^10 steps (tens of
 * seconds after the run) for -n 1,000,000 at 8 B.
 *
 * A post whose pairs include a completion stamped at or before it (a tick
 * too coarse) takes the double loop's rule (a window of at least one tick)
 * over the double loop itself, so the result is the one the definition gives.
 */
#include <stdint.h>
#include <stdlib.h>

#include "bench_result.h"

struct pt {
	double x, y;
};

static double slope(struct pt a, struct pt b)
{
	return (b.y - a.y) / (b.x - a.x);
}

/* The double loop for one post: its window ends at completions c0.. */
static double post_brute(uint64_t tpg, uint64_t first, const uint64_t *tc, const uint64_t *tn,
			 uint64_t c0, uint64_t ncomp)
{
	double best = 0;

	for (uint64_t c = c0; c < ncomp; c++) {
		uint64_t dt = tc[c] > tpg ? tc[c] - tpg : 1;
		double per = (double)dt / (double)(tn[c] - first);

		if (best == 0 || per < best)
			best = per;
	}
	return best;
}

/* Push p on the left end of the lower hull h[0..*k) (h[*k - 1] leftmost). */
static void hull_push(struct pt *h, uint64_t *k, struct pt p)
{
	while (*k > 0 && h[*k - 1].x == p.x) {
		if (h[*k - 1].y <= p.y)
			return; /* p is above a point of its own x: never the tangent */
		(*k)--;
	}
	while (*k >= 2 && slope(p, h[*k - 1]) >= slope(h[*k - 1], h[*k - 2]))
		(*k)--;
	h[(*k)++] = p;
}

/* The least slope from q (left of every point) to the hull. */
static double hull_tangent(const struct pt *h, uint64_t k, struct pt q)
{
	uint64_t lo = 0, hi = k - 1; /* left-to-right index i is h[k - 1 - i] */

	while (lo < hi) {
		uint64_t i = lo + (hi - lo) / 2;
		struct pt a = h[k - 1 - i], b = h[k - 2 - i];

		if (slope(a, b) >= slope(q, a))
			hi = i;
		else
			lo = i + 1;
	}
	return slope(q, h[k - 1 - lo]);
}

double gd_bw_peak_rate(const uint64_t *tp, uint64_t nposts, uint32_t post_list,
		       const uint64_t *tc, const uint64_t *tn, uint64_t ncomp, double ns_per_tick)
{
	double best = 0;
	uint64_t c0 = ncomp, k = 0, base;
	struct pt *h;

	if (!post_list || !nposts || !ncomp)
		return 0;
	base = tp[0] < tc[0] ? tp[0] : tc[0];
	h = malloc(ncomp * sizeof(*h));
	for (uint64_t g = nposts; g-- > 0;) {
		uint64_t first = g * post_list;
		double per;

		while (c0 > 0 && tn[c0 - 1] > first) {
			c0--;
			if (h)
				hull_push(h, &k, (struct pt){ (double)tn[c0], (double)(tc[c0] - base) });
		}
		if (c0 == ncomp)
			continue;
		if (!h || tc[c0] <= tp[g])
			per = post_brute(tp[g], first, tc, tn, c0, ncomp);
		else
			per = hull_tangent(h, k, (struct pt){ (double)first, (double)(tp[g] - base) });
		if (best == 0 || per < best)
			best = per;
	}
	free(h);
	return best > 0 ? 1e9 / (best * ns_per_tick) : 0;
}
