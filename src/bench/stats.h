/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Latency statistics and bandwidth units of the benchmark reports.
 *
 * Percentiles use the nearest-rank method: the p-th percentile of n sorted
 * samples is the sample of 1-based rank ceil(p/100 * n), computed exactly in
 * integers with p in hundredths of a percent (99.99 -> 9999 / 10000), so
 * p99.9 of 1000 samples is the 999th sample and never the maximum.
 *
 * Small samples: a percentile p can only be told apart from the maximum when
 * n >= 10000 / (10000 - 100p), i.e. n >= 2 for p50, 10 for p90, 100 for p99,
 * 1000 for p99.9 and 10000 for p99.99. Below that its rank is n: the value
 * reported is the maximum, and gd_lat_stats.at_max has the percentile's bit
 * set so reports can say so ("p99.9 = max: fewer than 1000 samples") instead
 * of presenting the maximum as a tail percentile. Unlike perftest, no sample
 * is dropped: max is the worst sample measured.
 *
 * typical is the median (mean of the two middle samples when n is even, as
 * perftest); p50 is the nearest-rank 50th percentile (the lower middle).
 * stdev is the population standard deviation (divided by n, as perftest),
 * a double computed in two passes, never truncated.
 * The unit is whatever the samples are in (microseconds or cycles).
 */
#ifndef GD_STATS_H
#define GD_STATS_H

#include <stdbool.h>
#include <stddef.h>

enum gd_pct { GD_P50 = 0, GD_P90, GD_P99, GD_P999, GD_P9999, GD_PCT_COUNT };

struct gd_lat_stats {
	size_t n;
	double min, max, typical, avg, stdev;
	double pct[GD_PCT_COUNT];	/* p50, p90, p99, p99.9, p99.99 */
	unsigned at_max;		/* bit (1 << enum gd_pct): n too small, the value is max */
};

/* Sorts samples in place, then fills st. 0, or -EINVAL for n == 0 or a non-finite sample. */
int gd_lat_stats_compute(double *samples, size_t n, struct gd_lat_stats *st);

/* The percentile of enum gd_pct as a number (99.9) and a label ("99.9"). */
double gd_pct_value(enum gd_pct p);
const char *gd_pct_label(enum gd_pct p);

/* 1-based nearest rank of percentile p (0 < p <= 100, resolution 0.01) among n >= 1 samples. */
size_t gd_stats_rank(size_t n, double p);
/* Percentile p of n >= 1 sorted samples (nearest rank). */
double gd_stats_percentile(const double *sorted, size_t n, double p);
/* Smallest n for which percentile p is not the maximum (p < 100). */
size_t gd_stats_min_samples(double p);

/* Bandwidth and message rate as perftest reports them: MiB = 2^20 bytes, Gb = 10^9 bits,
 * Mpps = 10^6 messages per second. Zero seconds give 0. */
#define GD_MIB 1048576.0
double gd_bw_mib_per_s(double bytes, double seconds);
double gd_bw_gbit_per_s(double bytes, double seconds);
double gd_msgrate_mpps(double messages, double seconds);
/* bytes per second in the report's unit: Gb/s with --report_gbits, else MiB/s */
double gd_bw_in_unit(double bytes_per_s, bool gbits);
const char *gd_bw_unit(bool gbits); /* "Gb/sec" or "MB/sec" (perftest's label for 2^20 bytes) */

#endif
