/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Latency statistics and bandwidth units against known samples. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "stats.h"

static void near(double a, double b, int line)
{
	double tol = 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);

	if (!(fabs(a - b) <= tol))
		fail_msg("line %d: %.17g != %.17g", line, a, b);
}
#define NEAR(a, b) near((double)(a), (double)(b), __LINE__)

/* 1..n in a scrambled order (the function must sort) */
static double *ramp(size_t n)
{
	double *s = malloc(n * sizeof(*s));

	for (size_t i = 0; i < n; i++)
		s[i] = (double)((i * 7919) % n + 1);
	return s;
}

static void ten_samples(void **state)
{
	double s[] = { 10, 3, 7, 1, 9, 2, 8, 4, 6, 5 };
	struct gd_lat_stats st;

	assert_int_equal(gd_lat_stats_compute(s, 10, &st), 0);
	assert_int_equal(st.n, 10);
	NEAR(st.min, 1);
	NEAR(st.max, 10);
	NEAR(st.typical, 5.5);
	NEAR(st.avg, 5.5);
	NEAR(st.stdev, sqrt(8.25)); /* population: sum (x - 5.5)^2 / 10 */
	NEAR(st.pct[GD_P50], 5);
	NEAR(st.pct[GD_P90], 9);
	NEAR(st.pct[GD_P99], 10);
	/* p99 and above cannot be resolved with 10 samples: flagged as max */
	assert_int_equal(st.at_max, (1u << GD_P99) | (1u << GD_P999) | (1u << GD_P9999));
	NEAR(s[0], 1); /* sorted in place */
	NEAR(s[9], 10);
}

static void thousand_samples(void **state)
{
	double *s = ramp(1000);
	struct gd_lat_stats st;

	assert_int_equal(gd_lat_stats_compute(s, 1000, &st), 0);
	NEAR(st.pct[GD_P50], 500);
	NEAR(st.pct[GD_P90], 900);
	NEAR(st.pct[GD_P99], 990);
	NEAR(st.pct[GD_P999], 999); /* perftest's default run reports max here */
	NEAR(st.max, 1000);
	NEAR(st.pct[GD_P9999], 1000);
	assert_int_equal(st.at_max, 1u << GD_P9999);
	NEAR(st.typical, 500.5);
	NEAR(st.avg, 500.5);
	NEAR(st.stdev, sqrt((1000.0 * 1000 - 1) / 12)); /* uniform 1..n */
	free(s);

	/* 999 samples: p99.9 is the max, and says so */
	s = ramp(999);
	assert_int_equal(gd_lat_stats_compute(s, 999, &st), 0);
	NEAR(st.pct[GD_P999], 999);
	assert_true(st.at_max & (1u << GD_P999));
	assert_false(st.at_max & (1u << GD_P99));
	free(s);

	s = ramp(10000);
	assert_int_equal(gd_lat_stats_compute(s, 10000, &st), 0);
	NEAR(st.pct[GD_P9999], 9999);
	NEAR(st.pct[GD_P999], 9990);
	assert_int_equal(st.at_max, 0);
	free(s);
}

static void small_and_exact(void **state)
{
	double one[] = { 4.25 };
	double two[] = { 1.5, 1.0 };
	double big[] = { 1e9 + 1, 1e9 };
	double bad[] = { 1, NAN };
	struct gd_lat_stats st;

	assert_int_equal(gd_lat_stats_compute(one, 1, &st), 0);
	NEAR(st.min, 4.25);
	NEAR(st.max, 4.25);
	NEAR(st.typical, 4.25);
	NEAR(st.stdev, 0);
	assert_int_equal(st.at_max, (1u << GD_PCT_COUNT) - 1);

	/* sub-unit deviation is kept (perftest's int stdev gave 0 here) */
	assert_int_equal(gd_lat_stats_compute(two, 2, &st), 0);
	NEAR(st.stdev, 0.25);
	NEAR(st.typical, 1.25);
	NEAR(st.pct[GD_P50], 1.0);
	/* two-pass stdev stays exact on large offsets */
	assert_int_equal(gd_lat_stats_compute(big, 2, &st), 0);
	NEAR(st.stdev, 0.5);

	assert_int_equal(gd_lat_stats_compute(one, 0, &st), -EINVAL);
	assert_int_equal(gd_lat_stats_compute(bad, 2, &st), -EINVAL);
}

static void ranks(void **state)
{
	assert_int_equal(gd_stats_rank(1000, 99.9), 999);
	assert_int_equal(gd_stats_rank(1001, 99.9), 1000);
	assert_int_equal(gd_stats_rank(100, 99), 99);
	assert_int_equal(gd_stats_rank(3, 50), 2);
	assert_int_equal(gd_stats_rank(4, 50), 2);
	assert_int_equal(gd_stats_rank(5, 100), 5);
	assert_int_equal(gd_stats_rank(5, 0.001), 1);
	assert_int_equal(gd_stats_min_samples(99.9), 1000);
	assert_int_equal(gd_stats_min_samples(99.99), 10000);
	assert_int_equal(gd_stats_min_samples(99), 100);
	assert_int_equal(gd_stats_min_samples(90), 10);
	assert_int_equal(gd_stats_min_samples(50), 2);
	for (size_t n = 1; n < 3000; n++) {
		for (int p = 0; p < GD_PCT_COUNT; p++) {
			double pv = gd_pct_value(p);
			bool is_max = gd_stats_rank(n, pv) == n;

			assert_int_equal(is_max, n < gd_stats_min_samples(pv));
		}
	}
	{
		double sorted[] = { 1, 2, 3, 4 };

		assert_true(gd_stats_percentile(sorted, 4, 75) == 3);
		assert_true(gd_stats_percentile(sorted, 4, 76) == 4);
	}
	assert_string_equal(gd_pct_label(GD_P999), "99.9");
	assert_true(gd_pct_value(GD_P9999) == 99.99);
}

static void bandwidth_units(void **state)
{
	/* 5000 x 64 KiB in one second */
	NEAR(gd_bw_mib_per_s(65536.0 * 5000, 1.0), 312.5);
	NEAR(gd_bw_gbit_per_s(65536.0 * 5000, 1.0), 2.62144);
	NEAR(gd_msgrate_mpps(5000, 1.0), 0.005);
	NEAR(gd_bw_in_unit(1e9 / 8, true), 1.0);
	NEAR(gd_bw_in_unit(GD_MIB, false), 1.0);
	NEAR(gd_bw_mib_per_s(1, 0), 0);
	/* perftest's conversion factor: 10^9/(2^20*8) = 119.2 MiB/s per Gb/s */
	NEAR(gd_bw_in_unit(1e9 / 8, false), 1e9 / (GD_MIB * 8));
	assert_string_equal(gd_bw_unit(false), "MB/sec"); /* perftest 4.5: 2^20 bytes */
	assert_string_equal(gd_bw_unit(true), "Gb/sec");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ten_samples),
		cmocka_unit_test(thousand_samples),
		cmocka_unit_test(small_and_exact),
		cmocka_unit_test(ranks),
		cmocka_unit_test(bandwidth_units),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
