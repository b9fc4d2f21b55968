/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The stop rule of an adaptive measurement (one message size of a sweep, or
 * one -D run): pure arithmetic, no clock, no verbs.
 *
 * The engine measures in windows (e.g. tx_depth messages each) and feeds
 * every window's rate (messages/s or bytes/s, any unit, > 0) with the
 * window's duration in seconds. The first window fed is dropped (it holds
 * the ramp-up: empty queues, cold caches); its duration still counts toward
 * the minimum time. The rule is done when all three hold:
 *   - at least min_windows windows were kept (after the dropped one), and
 *     never fewer than 2 (a spread needs two samples);
 *   - the windows fed (the dropped one included) cover >= min_seconds;
 *   - the 95 % confidence interval of the mean kept rate is within epsilon
 *     of the mean: t(0.975, n-1) * s / sqrt(n) <= epsilon * mean, with s the
 *     sample standard deviation (n-1) and t Student's quantile (exact table
 *     for n-1 <= 30, interpolated in 1/dof beyond, 1.96 in the limit).
 * The caller keeps its own cap (-n messages or -D seconds) and stops there
 * even when the rule is not done; gd_sweep_get() then reports the interval
 * actually reached (rel > epsilon) so the report can say so.
 *
 * The interval is of the mean of per-window rates. With equal-sized windows
 * the whole run's rate (messages / total time) is their harmonic mean, a
 * little below it; report that rate, and the interval as relative width.
 * Windows are assumed independent: with correlated windows (a slow drift)
 * the interval is too narrow, which min_windows and min_seconds temper.
 *
 * Usage:
 *	struct gd_sweep sw;
 *	gd_sweep_init(&sw, 0.01, GD_SWEEP_MIN_WINDOWS, 0.05);
 *	while (messages_left && !gd_sweep_done(&sw)) {
 *		run one window; gd_sweep_add(&sw, msgs / secs, secs);
 *	}
 *	gd_sweep_get(&sw, &res);	// res.mean, res.half, res.rel, res.n
 */
#ifndef GD_SWEEP_H
#define GD_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GD_SWEEP_EPSILON 0.01	/* default relative half-width (--precision) */
#define GD_SWEEP_MIN_WINDOWS 10 /* default windows kept before the rule may stop */

struct gd_sweep {
	double epsilon;	    /* relative half-width to reach, > 0 */
	double min_seconds; /* time the windows must cover, >= 0 */
	size_t min_windows; /* kept windows before stopping, >= 2 */
	size_t fed;	    /* windows fed, the dropped first included */
	size_t n;	    /* windows kept */
	double seconds;	    /* duration of all windows fed */
	double mean, m2;    /* Welford: running mean and sum of squared deviations */
};

struct gd_sweep_result {
	size_t n;	/* windows kept */
	double mean;	/* mean kept rate (0 when n == 0) */
	double half;	/* 95 % CI half-width, in the rate's unit (INFINITY when n < 2) */
	double rel;	/* half / mean (INFINITY when n < 2 or mean == 0) */
	double seconds; /* duration of all windows fed */
};

/* Sets the rule up; epsilon <= 0 or not finite gives GD_SWEEP_EPSILON,
 * min_windows < 2 gives 2, a negative or non-finite min_seconds gives 0. */
void gd_sweep_init(struct gd_sweep *sw, double epsilon, size_t min_windows, double min_seconds);

/* Feeds one window. 0, or -EINVAL (and nothing fed) for a rate that is not
 * finite and > 0 or a duration that is not finite and >= 0. */
int gd_sweep_add(struct gd_sweep *sw, double rate, double seconds);

/* True when the rule above is met. */
bool gd_sweep_done(const struct gd_sweep *sw);

/* The current mean, interval and count. */
void gd_sweep_get(const struct gd_sweep *sw, struct gd_sweep_result *res);

/* Student's t two-sided 95 % quantile t(0.975, dof); dof 0 gives INFINITY. */
double gd_sweep_t95(size_t dof);

/*
 * The default epsilon of a size (-a without --precision): the relative
 * half-width of the 95 % interval of ONE perftest run's result, measured run
 * to run: 1.96 * (sample standard deviation / mean) of ib_write_bw's message
 * rate over repeated runs of that size. A size then stops when gdperf's
 * estimate is as tight as one perftest run is reproducible: the same
 * confidence. Table, runs and where they were measured: sweep.c, man
 * gd_bench(1) ADAPTIVE SWEEP, doc/engine.md.
 */
double gd_sweep_default_epsilon(uint64_t size);

/* The coefficient of variation that table holds for this size (for tests
 * and documentation: the default epsilon is 1.96 times it). */
double gd_sweep_perftest_cv(uint64_t size);

#endif /* GD_SWEEP_H */
