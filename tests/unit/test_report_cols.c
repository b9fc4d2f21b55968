/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The bench tools' result tables (bench_report.c) keep their columns at any value: each
 * value starts where its label starts in perftest's title (newcomer 24: the latency table
 * drifted out of line at large values, its tabs jumping to the next tab stop).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench_params.h"
#include "bench_report.h"
#include "table.h"

/* perftest 4.5's titles, to the byte (what man/gd_bench.1 and scripts read) */
static const char lat_title[] = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]"
				"    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% "
				"percentile[usec] ";
static const char bw_title[] = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   "
			       "MsgRate[Mpps]";

/* The start of every label of a title (a label: text up to two blanks, or "#..."). */
static size_t label_starts(const char *t, size_t *at, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; t[i] && n < max; i++)
		if (t[i] != ' ' && (i == 0 || t[i - 1] == ' ') &&
		    (t[i] == '#' || (i >= 2 && t[i - 2] == ' ')))
			at[n++] = i;
	return n;
}

/* Every field of row starts where the title's label of the same rank starts. */
static void aligned(const char *title, const char *row)
{
	size_t at[16], n = label_starts(title, at, 16), k = 0;

	for (size_t i = 0; row[i] && row[i] != '\n'; i++) {
		if (row[i] == ' ' || (i && row[i - 1] != ' '))
			continue;
		if (k >= n || i != at[k])
			fail_msg("field %zu starts at %zu, its label at %zu:\n%s\n%s", k + 1, i,
				 k < n ? at[k] : 0, title, row);
		k++;
	}
	assert_int_equal(k, n);
}

static char *capture_lat(const struct gd_bench_params *p, double big)
{
	struct gd_bench_size_result s = { .size = 2, .iters = 1000, .has_lat = true };
	struct gd_report r = { .p = p };
	char *buf = NULL;
	size_t len = 0;

	s.lat.n = 1000;
	s.lat.min = 1.25;
	s.lat.max = big;
	s.lat.typical = 1.5;
	s.lat.avg = big / 7;
	s.lat.stdev = big / 3;
	s.lat.pct[GD_P99] = big / 2;
	s.lat.pct[GD_P999] = big;
	r.out = open_memstream(&buf, &len);
	gd_report_lat(&r, &s, NULL, NULL, 0);
	fclose(r.out);
	return buf;
}

static void lat_rows(void **state)
{
	static const double big[] = { 30.6, 269529.98, 35482.81, 99999999.99 };
	struct gd_bench_params p;

	(void)state;
	gd_bench_params_defaults(&p, GD_OP_SEND, GD_KIND_LAT);
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		char *row = capture_lat(&p, big[i]);

		aligned(lat_title, row);
		free(row);
	}
}

static void bw_rows(void **state)
{
	static const double Bps[] = { 1e3, 5e10, 4.2e11 };
	struct gd_bench_params p;

	(void)state;
	gd_bench_params_defaults(&p, GD_OP_WRITE, GD_KIND_BW);
	for (size_t i = 0; i < sizeof(Bps) / sizeof(Bps[0]); i++) {
		struct gd_bench_size_result s = { .size = 1048576, .iters = 5000,
						  .bw_avg_Bps = Bps[i], .has_local = true };
		struct gd_report r = { .p = &p };
		char *buf = NULL;
		size_t len = 0;

		s.local.size = s.size;
		s.local.iters = s.iters;
		s.local.avg_Bps = s.local.peak_Bps = Bps[i];
		s.local.msg_rate = Bps[i] / (double)s.size;
		r.out = open_memstream(&buf, &len);
		gd_report_bw(&r, &s);
		fclose(r.out);
		aligned(bw_title, buf);
		free(buf);
	}
}

/* A value longer than its label's room moves the rest of its own row by what it needs,
 * a blank kept between cells, and the cells find their labels again where there is room. */
static void overflow(void **state)
{
	static const struct gd_col c[] = { { "#a", 1 }, { "bb", 1 }, { "cccccc", 4 } };
	const char *cell[] = { "123456", "7", "8" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	gd_cols_title(f, c, 3, NULL);
	gd_cols_row(f, c, 3, cell);
	fclose(f);
	assert_string_equal(buf, " #a bb    cccccc\n 123456 7 8\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lat_rows),
		cmocka_unit_test(bw_rows),
		cmocka_unit_test(overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
