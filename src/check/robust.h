/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Robust statistics of a baseline (doc/check.md, "Baseline of good nodes"): the median, the
 * median absolute deviation scaled by 1.4826 (the standard deviation of a normal
 * distribution it estimates), the spread floored at a stated share of the median (a MAD of 0
 * from identical figures must not make every small difference a failure), and the robust
 * distance of a value from the median in spreads, on the bad side only. Pure functions:
 * tests/unit/test_check_baseline.c drives them with known inputs.
 */
#ifndef GD_CHECK_ROBUST_H
#define GD_CHECK_ROBUST_H

#include <stdbool.h>
#include <stddef.h>

#define GD_CK_MAD_SCALE 1.4826		/* MAD to sigma of a normal distribution */
#define GD_CK_BL_K_DEFAULT 4.0		/* robust distances a value may lie on the bad side */
#define GD_CK_BL_K_MIN 1.0		/* the bounds of k (spec key baseline: k) */
#define GD_CK_BL_K_MAX 20.0
#define GD_CK_BL_MIN_SPREAD_PCT 1.0	/* the spread's floor, % of the median */
#define GD_CK_BL_MIN_NODES 3		/* a baseline needs this many good nodes */

/* The median of v[0..n) (n >= 1); v is sorted in place. */
double gd_ck_median(double *v, size_t n);
/* The scaled MAD of v[0..n) around median (n >= 1); v is left as it was. 0 on no memory. */
double gd_ck_mad(const double *v, size_t n, double median);
/* The spread a distance is counted in: the MAD, at least min_pct % of |median|. */
double gd_ck_spread(double mad, double median, double min_pct);
/* How many spreads v lies from median on the bad side (below it when higher is better,
 * above it when lower is); 0 or less: on the good side. */
double gd_ck_robust_dist(double v, double median, double spread, bool higher_better);

#endif
