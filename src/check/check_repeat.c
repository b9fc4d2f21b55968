/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A test's `repeat: K`: the run is measured K times in a row and judged on the median of
 * the K figures, each statistic of each size on its own (doc/check.md, "Repeated runs").
 * One short run of a loopback spreads by 2-3 % from the next on an idle host, with heavy
 * tails; a median of K such runs spreads about 1.25/sqrt(K) as much, so a baseline built
 * from medians (the same spec on every good node) can tell a 5 % loss from noise.
 * The noise guard's word is kept: the median is taken over the runs it trusted when they are
 * more than half of the K; otherwise the size stays doubted (never a PASS), naming how many
 * runs were. A run that failed or could not run is the result, as it is without repeat.
 */
#include <stdio.h>
#include <string.h>

#include "check_int.h"
#include "robust.h"

/* Each per-size statistic of a measurement, by its offset in the struct. */
static const size_t stats[] = {
	offsetof(struct gd_ck_measure, bw_avg_gbps), offsetof(struct gd_ck_measure, bw_peak_gbps),
	offsetof(struct gd_ck_measure, msg_rate_mpps), offsetof(struct gd_ck_measure, lat_avg_us),
	offsetof(struct gd_ck_measure, lat_p50_us), offsetof(struct gd_ck_measure, lat_p99_us),
	offsetof(struct gd_ck_measure, lat_p999_us), offsetof(struct gd_ck_measure, lat_max_us),
};

static double stat_at(const struct gd_ck_measure *m, size_t off, size_t k)
{
	return ((const double *)(const void *)((const char *)m + off))[k];
}

/* Size k of out from the runs' size k: the median of the trusted runs' figures when they are
 * a majority, else of all, the size doubted. */
static void median_size(const struct gd_ck_measure *v, size_t n, size_t k,
			struct gd_ck_measure *out)
{
	double x[GD_CK_REPEAT_MAX];
	size_t trusted = 0, first_doubt = n;

	for (size_t i = 0; i < n; i++) {
		if (!v[i].doubtful[k][0])
			trusted++;
		else if (first_doubt == n)
			first_doubt = i;
	}
	for (size_t s = 0; s < sizeof(stats) / sizeof(stats[0]); s++) {
		size_t c = 0;

		for (size_t i = 0; i < n; i++)
			if (trusted * 2 <= n || !v[i].doubtful[k][0])
				x[c++] = stat_at(&v[i], stats[s], k);
		((double *)(void *)((char *)out + stats[s]))[k] = gd_ck_median(x, c);
	}
	out->doubtful[k][0] = 0;
	if (trusted * 2 <= n)
		snprintf(out->doubtful[k], sizeof(out->doubtful[k]), "%zu of %zu repeated runs "
			 "doubted: %.140s", n - trusted, n, v[first_doubt].doubtful[k]);
	out->repeat_doubted[k] = (unsigned)(n - trusted);
}

void gd_ck_repeat_median(const struct gd_ck_measure *v, size_t n, struct gd_ck_measure *out)
{
	size_t ns;

	if (n > GD_CK_REPEAT_MAX)
		n = GD_CK_REPEAT_MAX;
	*out = v[n - 1]; /* the plan facts and the bond: the last run's */
	ns = out->nsizes;
	for (size_t i = 0; i < n; i++) /* one that failed or stopped short is the result */
		if (v[i].exit_code || v[i].nsizes < ns || !v[i].nsizes) {
			*out = v[i];
			return;
		}
	for (size_t k = 0; k < ns; k++)
		median_size(v, n, k, out);
	out->repeats = (unsigned)n;
}
