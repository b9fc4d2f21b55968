/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The baseline's robust statistics (robust.h) on known inputs, and a measured value judged
 * against a baseline check (baseline_judge.c): the distance, the MAD-0 floor, the direction
 * of latency, the like-for-like size and the noise guard's doubt. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "baseline.h"
#include "check_int.h"
#include "robust.h"

static void median_mad(void **state)
{
	double odd[] = { 5, 1, 3, 2, 4 }, even[] = { 4, 1, 3, 2 }, out[] = { 1, 2, 3, 4, 100 };
	double same[] = { 7, 7, 7 }, one[] = { 9 };

	(void)state;
	assert_true(gd_ck_median(odd, 5) == 3);
	assert_true(gd_ck_median(even, 4) == 2.5);
	assert_true(gd_ck_median(one, 1) == 9);
	/* |x - 3| = 2 1 0 1 97: median 1, scaled 1.4826; the outlier 100 does not move it */
	assert_true(fabs(gd_ck_mad(out, 5, gd_ck_median(out, 5)) - 1.4826) < 1e-12);
	assert_true(gd_ck_mad(same, 3, 7) == 0);
	/* the order of v is kept: the MAD works on a copy */
	assert_true(out[4] == 100);
}

static void spread_distance(void **state)
{
	(void)state;
	/* a MAD of 0 (identical figures) floors at 1 % of the median */
	assert_true(fabs(gd_ck_spread(0, 14.0, 1.0) - 0.14) < 1e-12);
	assert_true(gd_ck_spread(0.5, 14.0, 1.0) == 0.5);
	/* bandwidth: below is bad */
	assert_true(fabs(gd_ck_robust_dist(12.1, 14.0, 0.35, true) - 1.9 / 0.35) < 1e-12);
	assert_true(gd_ck_robust_dist(15.0, 14.0, 0.35, true) < 0);
	/* latency: above is bad */
	assert_true(fabs(gd_ck_robust_dist(3.0, 2.0, 0.25, false) - 4.0) < 1e-12);
	assert_true(gd_ck_robust_dist(1.0, 2.0, 0.25, false) < 0);
	/* no spread at all (a median of 0): any step to the bad side is infinitely far */
	assert_true(isinf(gd_ck_robust_dist(-1, 0, 0, true)));
	assert_true(gd_ck_robust_dist(1, 0, 0, true) == 0);
}

static struct gd_ck_bl_check bw = { .check = "bw mlx5_0 host: min_bw", .size = 65536,
				    .unit = "Gb/s", .higher = true, .median = 14.0, .mad = 0.35,
				    .n = 8 };
static struct gd_ck_bl_check lat = { .check = "lat mlx5_0 host: max_lat", .size = 8,
				     .unit = "us", .higher = false, .median = 2.0, .mad = 0,
				     .n = 8 };

/* One value of check c judged: the row. */
static const struct gd_ck_item *judge(struct gd_ck_report *r, const struct gd_ck_bl_check *c,
				      double v, uint64_t size, const char *msg)
{
	struct gd_ck_baseline b = { .given = true, .nodes = 8, .k = 4, .min_spread_pct = 1 };
	struct gd_ck_bl_check cs[2] = { bw, lat };
	struct gd_ck_item m = { .has_value = true, .value = v };

	(void)c;
	b.c = cs;
	b.n = 2;
	snprintf(m.name, sizeof(m.name), "%s", c->check);
	snprintf(m.measured, sizeof(m.measured), "%g %s", v, c->unit);
	snprintf(m.message, sizeof(m.message), "%s", msg);
	gd_ck_bl_judge(r, &b, b.k, &m, size);
	assert_true(r->n > 0);
	return &r->items[r->n - 1];
}

static void judged(void **state)
{
	struct gd_ck_report r = { 0 };
	const struct gd_ck_item *it;

	(void)state;
	it = judge(&r, &bw, 12.1, 65536, "");
	assert_int_equal(it->status, GD_CK_FAIL);
	assert_string_equal(it->name, "bw mlx5_0 host: min_bw: baseline");
	if (!strstr(it->message, "12.1 Gb/s is 5.4 MAD below the baseline median 14 Gb/s (N=8"))
		fail_msg("%s", it->message);
	it = judge(&r, &bw, 13.9, 65536, ""); /* 0.3 MAD below: within k = 4 */
	assert_int_equal(it->status, GD_CK_PASS);
	it = judge(&r, &bw, 12.1, 4096, ""); /* another size: not like for like */
	assert_int_equal(it->status, GD_CK_FAIL);
	assert_non_null(strstr(it->message, "not like for like"));
	/* MAD 0: the spread floors at 1 % of 2.0 us = 0.02 us; 2.05 us is 2.5 of it above */
	it = judge(&r, &lat, 2.05, 8, "");
	assert_int_equal(it->status, GD_CK_PASS);
	assert_non_null(strstr(it->message, "min_spread floor"));
	it = judge(&r, &lat, 2.2, 8, ""); /* 10 % slower: 10 spreads above */
	assert_int_equal(it->status, GD_CK_FAIL);
	if (!strstr(it->message, "2.2 us is 10.0 MAD above the baseline median 2 us"))
		fail_msg("%s", it->message);
	it = judge(&r, &lat, 1.5, 8, ""); /* faster than every good node: not a failure */
	assert_int_equal(it->status, GD_CK_PASS);
	/* a measurement the noise guard doubted is never a PASS */
	it = judge(&r, &bw, 14.0, 65536, "x: measured 14 Gb/s, but the measurement should not be "
		   "believed: the host is busier than its cores");
	assert_int_equal(it->status, GD_CK_FAIL);
	assert_non_null(strstr(it->message, "busier than its cores"));
	gd_ck_report_free(&r);
}

/* repeat: K (check_repeat.c): each statistic's median over the runs; the noise guard's doubted
 * runs left out while the trusted are a majority, else the size doubted; a failed run wins */
static void set_run(struct gd_ck_measure *m, double gbps, double p99, const char *doubt)
{
	memset(m, 0, sizeof(*m));
	m->nsizes = 1;
	m->size[0] = 65536;
	m->bw_avg_gbps[0] = gbps;
	m->bw_peak_gbps[0] = gbps + 1;
	m->lat_p99_us[0] = p99;
	snprintf(m->doubtful[0], sizeof(m->doubtful[0]), "%s", doubt);
}

static void repeated(void **state)
{
	struct gd_ck_measure v[5], out;

	(void)state;
	set_run(&v[0], 30, 9, "");
	set_run(&v[1], 10, 1, "");
	set_run(&v[2], 29, 2, "");
	set_run(&v[3], 31, 3, "");
	set_run(&v[4], 28, 4, "");
	gd_ck_repeat_median(v, 5, &out);
	assert_true(out.bw_avg_gbps[0] == 29 && out.bw_peak_gbps[0] == 30);
	assert_true(out.lat_p99_us[0] == 3); /* its own median, not the median run's */
	assert_int_equal(out.repeats, 5);
	assert_string_equal(out.doubtful[0], "");
	/* two doubted of five: left out, the median of 30, 29, 31 */
	set_run(&v[1], 10, 1, "the host is busier than its cores");
	set_run(&v[4], 28, 4, "the host is busier than its cores");
	gd_ck_repeat_median(v, 5, &out);
	assert_true(out.bw_avg_gbps[0] == 30);
	assert_string_equal(out.doubtful[0], "");
	assert_int_equal(out.repeat_doubted[0], 2);
	/* three of five: no trusted majority, the size stays doubted */
	set_run(&v[0], 30, 9, "the host is busier than its cores");
	gd_ck_repeat_median(v, 5, &out);
	assert_true(out.bw_avg_gbps[0] == 29);
	assert_string_equal(out.doubtful[0], "3 of 5 repeated runs doubted: the host is busier "
			    "than its cores");
	/* a run that failed is the result, never hidden by the others' median */
	set_run(&v[3], 0, 0, "");
	v[3].exit_code = 1;
	snprintf(v[3].error, sizeof(v[3].error), "completion error");
	gd_ck_repeat_median(v, 4, &out);
	assert_int_equal(out.exit_code, 1);
	assert_string_equal(out.error, "completion error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(median_mad),
		cmocka_unit_test(spread_distance),
		cmocka_unit_test(judged),
		cmocka_unit_test(repeated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
