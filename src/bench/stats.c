/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "gd.h"

static const unsigned pct_hundredths[GD_PCT_COUNT] = { 5000, 9000, 9900, 9990, 9999 };
static const char *const pct_labels[GD_PCT_COUNT] = { "50", "90", "99", "99.9", "99.99" };

double gd_pct_value(enum gd_pct p)
{
	return (unsigned)p < GD_PCT_COUNT ? pct_hundredths[p] / 100.0 : 0;
}

const char *gd_pct_label(enum gd_pct p)
{
	return (unsigned)p < GD_PCT_COUNT ? pct_labels[p] : "?";
}

/* p in hundredths of a percent, 1..10000 */
static uint64_t hundredths(double p)
{
	double h = floor(p * 100.0 + 0.5);

	if (!(h >= 1))
		return 1;
	return h > 10000 ? 10000 : (uint64_t)h;
}

size_t gd_stats_rank(size_t n, double p)
{
	uint64_t h = hundredths(p);
	/* ceil(h * n / 10000) without floating point; n < 2^50 keeps this exact */
	uint64_t rank = (h * (uint64_t)n + 9999) / 10000;

	if (rank < 1)
		rank = 1;
	return rank > n ? n : (size_t)rank;
}

double gd_stats_percentile(const double *sorted, size_t n, double p)
{
	return n ? sorted[gd_stats_rank(n, p) - 1] : 0;
}

size_t gd_stats_min_samples(double p)
{
	uint64_t h = hundredths(p);

	if (h >= 10000)
		return SIZE_MAX;
	/* rank < n  <=>  n * (10000 - h) >= 10000 */
	return (size_t)((10000 + (10000 - h) - 1) / (10000 - h));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int gd_lat_stats_compute(double *s, size_t n, struct gd_lat_stats *st)
{
	double sum = 0, sq = 0;

	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(s[i]))
			return -EINVAL;
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(s, n, sizeof(*s), cmp_double);
	st->n = n;
	st->min = s[0];
	st->max = s[n - 1];
	st->typical = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	st->avg = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (s[i] - st->avg) * (s[i] - st->avg);
	st->stdev = sqrt(sq / (double)n);
	st->at_max = 0;
	for (int p = 0; p < GD_PCT_COUNT; p++) {
		size_t rank = gd_stats_rank(n, gd_pct_value(p));

		st->pct[p] = s[rank - 1];
		if (rank == n)
			st->at_max |= 1u << p;
	}
	return 0;
}

double gd_bw_mib_per_s(double bytes, double seconds)
{
	return seconds > 0 ? bytes / seconds / GD_MIB : 0;
}

double gd_bw_gbit_per_s(double bytes, double seconds)
{
	return seconds > 0 ? bytes * 8 / seconds / 1e9 : 0;
}

double gd_msgrate_mpps(double messages, double seconds)
{
	return seconds > 0 ? messages / seconds / 1e6 : 0;
}

double gd_bw_in_unit(double bytes_per_s, bool gbits)
{
	return gbits ? bytes_per_s * 8 / 1e9 : bytes_per_s / GD_MIB;
}

const char *gd_bw_unit(bool gbits)
{
	return gbits ? "Gb/sec" : "MB/sec"; /* perftest's label: MB = 2^20 bytes */
}
