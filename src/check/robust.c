/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Median, scaled MAD, the floored spread and the robust distance (robust.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "robust.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double gd_ck_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double gd_ck_mad(const double *v, size_t n, double median)
{
	double *d = malloc(n * sizeof(*d)), mad;

	if (!d)
		return 0;
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(v[i] - median);
	mad = gd_ck_median(d, n) * GD_CK_MAD_SCALE;
	free(d);
	return mad;
}

double gd_ck_spread(double mad, double median, double min_pct)
{
	double floor = fabs(median) * min_pct / 100;

	return mad > floor ? mad : floor;
}

double gd_ck_robust_dist(double v, double median, double spread, bool higher_better)
{
	double off = higher_better ? median - v : v - median;

	if (spread <= 0) /* a median of 0 with no spread: any step to the bad side is far */
		return off > 0 ? INFINITY : 0;
	return off / spread;
}
