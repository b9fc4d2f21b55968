/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The sweep stop rule against known data (values checked with Python's statistics module). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sweep.h"

static void near(double a, double b, double tol, int line)
{
	if (!(fabs(a - b) <= tol))
		fail_msg("line %d: %.17g != %.17g (tol %g)", line, a, b, tol);
}
#define NEAR(a, b, tol) near((double)(a), (double)(b), (tol), __LINE__)

static void feed(struct gd_sweep *sw, const double *r, size_t n, double secs)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(gd_sweep_add(sw, r[i], secs), 0);
}

static void t_quantiles(void **state)
{
	(void)state;
	assert_true(isinf(gd_sweep_t95(0)));
	NEAR(gd_sweep_t95(1), 12.706205, 1e-6);
	NEAR(gd_sweep_t95(9), 2.262157, 1e-6);
	NEAR(gd_sweep_t95(30), 2.042272, 1e-6);
	/* interpolated in 1/dof: true values 2.030108 (35), 2.009575 (50), 1.962339 (1000) */
	NEAR(gd_sweep_t95(35), 2.030108, 1e-4);
	NEAR(gd_sweep_t95(50), 2.009575, 1e-3);
	NEAR(gd_sweep_t95(1000), 1.962339, 1e-4);
	NEAR(gd_sweep_t95(SIZE_MAX), 1.959964, 1e-6);
	/* monotone non-increasing */
	for (size_t d = 1; d < 5000; d++)
		assert_true(gd_sweep_t95(d + 1) <= gd_sweep_t95(d));
}

/* ten kept windows, mean 100, s = 1.7638342073763937 */
static const double ten[] = {100, 102, 98, 101, 99, 100, 103, 97, 100, 100};

static void known_interval(void **state)
{
	struct gd_sweep sw;
	struct gd_sweep_result r;

	(void)state;
	gd_sweep_init(&sw, 0.02, 10, 0);
	assert_int_equal(gd_sweep_add(&sw, 5000, 0.1), 0); /* first window: dropped */
	feed(&sw, ten, 10, 0.01);
	gd_sweep_get(&sw, &r);
	assert_int_equal(r.n, 10);
	NEAR(r.mean, 100, 1e-12);
	NEAR(r.half, 1.2617708904294964, 1e-6);
	NEAR(r.rel, 0.012617708904294964, 1e-8);
	NEAR(r.seconds, 0.2, 1e-12);
	assert_true(gd_sweep_done(&sw)); /* 1.26 % <= 2 % */

	gd_sweep_init(&sw, 0.01, 10, 0); /* same data, 1 %: not done */
	assert_int_equal(gd_sweep_add(&sw, 5000, 0.1), 0);
	feed(&sw, ten, 10, 0.01);
	assert_false(gd_sweep_done(&sw));
}

static void min_windows_and_time(void **state)
{
	struct gd_sweep sw;
	struct gd_sweep_result r;
	size_t i;

	(void)state;
	gd_sweep_init(&sw, 0.01, 10, 1.0);
	/* constant rate: zero width as soon as two windows are kept, but the rule waits */
	for (i = 0; i < 10; i++) {
		assert_int_equal(gd_sweep_add(&sw, 42, 0.0625), 0);
		assert_false(gd_sweep_done(&sw)); /* fewer than 10 kept */
	}
	assert_int_equal(gd_sweep_add(&sw, 42, 0.0625), 0); /* 10 kept, 0.6875 s < 1 s */
	gd_sweep_get(&sw, &r);
	assert_int_equal(r.n, 10);
	NEAR(r.half, 0, 0);
	assert_false(gd_sweep_done(&sw));
	for (i = 0; i < 4; i++)
		assert_int_equal(gd_sweep_add(&sw, 42, 0.0625), 0);
	assert_false(gd_sweep_done(&sw)); /* 0.9375 s */
	assert_int_equal(gd_sweep_add(&sw, 42, 0.0625), 0);
	assert_true(gd_sweep_done(&sw)); /* 1.0 s exactly (the dropped window's time counts) */
}

static void first_window_dropped(void **state)
{
	struct gd_sweep sw;
	struct gd_sweep_result r;

	(void)state;
	gd_sweep_init(&sw, 0.01, 2, 0);
	gd_sweep_get(&sw, &r);
	assert_int_equal(r.n, 0);
	NEAR(r.mean, 0, 0);
	assert_true(isinf(r.half) && isinf(r.rel));
	assert_int_equal(gd_sweep_add(&sw, 1, 0), 0); /* a slow ramp-up that would spoil the mean */
	assert_int_equal(gd_sweep_add(&sw, 1000, 0), 0);
	gd_sweep_get(&sw, &r);
	assert_int_equal(r.n, 1);
	NEAR(r.mean, 1000, 0);
	assert_true(isinf(r.half)); /* one sample: no spread */
	assert_false(gd_sweep_done(&sw));
	assert_int_equal(gd_sweep_add(&sw, 1000, 0), 0);
	assert_true(gd_sweep_done(&sw));
}

static void bad_input(void **state)
{
	struct gd_sweep sw;
	struct gd_sweep_result r;

	(void)state;
	gd_sweep_init(&sw, NAN, 0, -1);
	NEAR(sw.epsilon, GD_SWEEP_EPSILON, 0);
	assert_int_equal(sw.min_windows, 2);
	NEAR(sw.min_seconds, 0, 0);
	gd_sweep_init(&sw, -0.5, 1, INFINITY);
	NEAR(sw.epsilon, GD_SWEEP_EPSILON, 0);
	NEAR(sw.min_seconds, 0, 0);
	assert_int_equal(gd_sweep_add(&sw, 0, 1), -EINVAL);
	assert_int_equal(gd_sweep_add(&sw, -3, 1), -EINVAL);
	assert_int_equal(gd_sweep_add(&sw, NAN, 1), -EINVAL);
	assert_int_equal(gd_sweep_add(&sw, INFINITY, 1), -EINVAL);
	assert_int_equal(gd_sweep_add(&sw, 1, -1), -EINVAL);
	assert_int_equal(gd_sweep_add(&sw, 1, NAN), -EINVAL);
	gd_sweep_get(&sw, &r);
	assert_int_equal(sw.fed, 0); /* nothing fed: the next window is still the dropped one */
	NEAR(r.seconds, 0, 0);
}

/* the default epsilon: 1.96 x perftest's measured run-to-run CV, per band,
 * covering every size of -a and beyond; never below the old fixed 1 %, and
 * a band edge belongs to the band below it */
static void default_epsilon(void **state)
{
	static const uint64_t sizes[] = { 1, 2, 8, 2048, 2049, 4096, 32768, 32769, 65536,
					  524288, 524289, 1u << 20, 8u << 20, UINT64_MAX };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		double cv = gd_sweep_perftest_cv(sizes[i]), e = gd_sweep_default_epsilon(sizes[i]);

		assert_true(cv > 0 && cv < 1);
		NEAR(e, 1.96 * cv, 1e-12);
		assert_true(e >= GD_SWEEP_EPSILON);
	}
	NEAR(gd_sweep_perftest_cv(8), 0.26, 0);
	NEAR(gd_sweep_perftest_cv(2048), 0.26, 0);
	NEAR(gd_sweep_perftest_cv(4096), 0.23, 0);
	NEAR(gd_sweep_perftest_cv(65536), 0.18, 0);
	NEAR(gd_sweep_perftest_cv(8u << 20), 0.17, 0);
}

/* a noisy rate narrows as 1/sqrt(n): with s/mean = 5 %, 1 % needs ~ (1.96*5)^2 = 96 windows */
static void converges(void **state)
{
	struct gd_sweep sw;
	size_t i;

	(void)state;
	gd_sweep_init(&sw, 0.01, 10, 0);
	for (i = 0; i < 10000 && !gd_sweep_done(&sw); i++)
		assert_int_equal(gd_sweep_add(&sw, i % 2 ? 105 : 95, 0.001), 0);
	/* +-5 alternating: s = 5 * sqrt(n/(n-1)); done at the first n with t*s/sqrt(n) <= 1 */
	assert_true(sw.n >= 90 && sw.n <= 110);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_quantiles),
		cmocka_unit_test(known_interval),
		cmocka_unit_test(min_windows_and_time),
		cmocka_unit_test(first_window_dropped),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(default_epsilon),
		cmocka_unit_test(converges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
