/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_check's fleet view: distribution, outliers named by host/NIC/GPU, their verdicts, the
 * spec's fleet: outlier key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "check_fleet.h"
#include "judge.h"
#include "spec.h"

/* n pairs rank i -> rank i+1 on node-i/mlx5_i, values v (< 0: not measured) */
static struct gd_ck_fleet_pair *pairs_of(const double *v, size_t n)
{
	struct gd_ck_fleet_pair *p = calloc(n, sizeof(*p));

	for (size_t i = 0; i < n; i++) {
		for (int e = 0; e < 2; e++) {
			p[i].end[e].rank = (int)i + e;
			snprintf(p[i].end[e].host, sizeof(p[i].end[e].host), "node-%zu", i + e);
			snprintf(p[i].end[e].nic, sizeof(p[i].end[e].nic), "mlx5_%zu", i + e);
			snprintf(p[i].end[e].mem, sizeof(p[i].end[e].mem), "GPU%zu", i + e);
		}
		p[i].ok = v[i] >= 0;
		p[i].value = v[i] >= 0 ? v[i] : 0;
	}
	return p;
}

static void stats(void **state)
{
	const double odd[] = { 5, 1, -1, 3 }, even[] = { 4, 1, 3, 2 };
	struct gd_ck_fleet_pair *p = pairs_of(odd, 4);
	struct gd_ck_fleet_stats st;

	(void)state;
	assert_int_equal(gd_ck_fleet_stats(p, 4, &st), 0);
	assert_int_equal(st.count, 3); /* the pair not measured is not in it */
	assert_true(st.median == 3 && st.min == 1 && st.max == 5);
	free(p);
	p = pairs_of(even, 4);
	assert_int_equal(gd_ck_fleet_stats(p, 4, &st), 0);
	assert_true(st.median == 2.5 && st.count == 4);
	p[0].ok = p[1].ok = p[2].ok = p[3].ok = false;
	assert_int_not_equal(gd_ck_fleet_stats(p, 4, &st), 0);
	free(p);
	assert_true(gd_ck_fleet_worse(true, 80, 100) == 20);	/* bandwidth: below */
	assert_true(gd_ck_fleet_worse(false, 120, 100) == 20);	/* latency: above */
	assert_true(gd_ck_fleet_worse(true, 120, 100) < 0);
}

static const struct gd_ck_item *find(const struct gd_ck_report *r, const char *part)
{
	for (size_t i = 0; i < r->n; i++)
		if (strstr(r->items[i].name, part))
			return &r->items[i];
	return NULL;
}

static void outlier_named(void **state)
{
	const double v[] = { 10, 10.5, 9.8, 6, 10.1 };
	struct gd_ck_test t = { .name = "ring", .kind = GD_KIND_BW };
	struct gd_ck_fleet_pair *p = pairs_of(v, 5);
	struct gd_ck_report r = { 0 };
	const struct gd_ck_item *it;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	gd_ck_ladder_enter(&r, GD_CK_RUNG_NODES); /* as gd_ck_run_spec does around the ranks */
	gd_ck_fleet_judge(&r, &t, 10, p, 5, NULL);
	gd_ck_ladder_leave(&r, GD_CK_RUNG_NODES);
	assert_int_equal(r.n, 2); /* the distribution and one outlier */
	/* the fleet view is on rung 7 (nodes): an outlier is that rung's FAIL */
	assert_int_equal(r.items[0].rung, GD_CK_RUNG_NODES);
	assert_int_equal(r.items[1].rung, GD_CK_RUNG_NODES);
	assert_int_equal(r.failed_rung, GD_CK_RUNG_NODES);
	it = find(&r, "ring: fleet outlier rank3(node-3/mlx5_3/GPU3)->rank4(node-4/mlx5_4/GPU4)");
	assert_non_null(it);
	assert_int_equal(it->status, GD_CK_FAIL);
	assert_non_null(strstr(it->message, "6 Gb/s is 40.0 % below the fleet median 10 Gb/s"));
	assert_non_null(strstr(it->message, "server rank 3 on node-3 (NIC mlx5_3, GPU3), client rank 4 on node-4 (NIC mlx5_4, GPU4)"));
	/* JSON's value and unit (doc/json.md: a number whenever the value found is one) */
	assert_true(it->has_value);
	assert_true(it->value == 6.0);
	assert_string_equal(it->unit, "Gb/s");
	it = find(&r, "ring: fleet");
	assert_int_equal(it->status, GD_CK_FAIL);
	assert_string_equal(it->measured, "median 10, min 6, max 10.5 Gb/s, 5 pairs");
	assert_true(it->has_value); /* the text's first number, the median */
	assert_true(it->value == 10.0);
	assert_string_equal(it->unit, "Gb/s");
	f = open_memstream(&buf, &len);
	assert_int_equal(gd_ck_fleet_json(r.fleet, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"type\":\"check_fleet\""));
	assert_non_null(strstr(buf, "\"median_gbps\":10"));
	assert_non_null(strstr(buf, "\"client\":{\"rank\":4,\"host\":\"node-4\",\"nic\":\"mlx5_4\","
				    "\"gpu\":\"GPU4\"}"));
	free(buf);
	free(p);
	gd_ck_report_free(&r);
}

/* latency: worse is above; within the threshold no outlier; one pair: SKIP; off: no item */
static void latency_and_edges(void **state)
{
	const double lat[] = { 2, 2.1, 3 }, near[] = { 10, 9.5, 9.2 }, one[] = { 4 };
	struct gd_ck_test t = { .name = "lat", .kind = GD_KIND_LAT };
	struct gd_ck_fleet_pair *p = pairs_of(lat, 3);
	struct gd_ck_report r = { 0 };

	(void)state;
	gd_ck_fleet_judge(&r, &t, 10, p, 3, NULL);
	assert_non_null(find(&r, "lat: fleet outlier rank2("));
	gd_ck_report_free(&r);
	free(p);
	t.kind = GD_KIND_BW;
	p = pairs_of(near, 3);
	gd_ck_fleet_judge(&r, &t, 10, p, 3, NULL);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.items[0].status, GD_CK_PASS);
	gd_ck_report_free(&r);
	gd_ck_fleet_judge(&r, &t, 0, p, 3, NULL); /* off: the view, no verdict */
	assert_int_equal(r.n, 0);
	assert_non_null(r.fleet);
	gd_ck_report_free(&r);
	free(p);
	p = pairs_of(one, 1);
	gd_ck_fleet_judge(&r, &t, 10, p, 1, NULL);
	assert_int_equal(r.items[0].status, GD_CK_SKIP);
	gd_ck_report_free(&r);
	free(p);
}

static void spec_key(void **state)
{
	const char *good = "version: 1\nfleet: {outlier: 25%}\n", *none = "version: 1\n",
		   *off = "version: 1\nfleet:\n  outlier: off\n",
		   *bad = "version: 1\nfleet:\n  outlier: 10\n";
	struct gd_ck_spec s;
	char err[512];

	(void)state;
	assert_int_equal(gd_ck_spec_parse("t.yaml", (const unsigned char *)none, strlen(none), &s,
					  err, sizeof(err)), 0);
	assert_true(s.fleet_outlier_pct == 10);
	gd_ck_spec_free(&s);
	assert_int_equal(gd_ck_spec_parse("t.yaml", (const unsigned char *)good, strlen(good), &s,
					  err, sizeof(err)), 0);
	assert_true(s.fleet_outlier_pct == 25);
	gd_ck_spec_free(&s);
	assert_int_equal(gd_ck_spec_parse("t.yaml", (const unsigned char *)off, strlen(off), &s,
					  err, sizeof(err)), 0);
	assert_true(s.fleet_outlier_pct == 0);
	gd_ck_spec_free(&s);
	assert_int_not_equal(gd_ck_spec_parse("t.yaml", (const unsigned char *)bad, strlen(bad),
					      &s, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "t.yaml:3:12: fleet: outlier must be a percentage"));
}

/* include: keeps the included spec's fleet section unless the including spec has one */
static void include_keeps(void **state)
{
	char dir[] = "/tmp/fleetXXXXXX", base[64], over[64], err[512];
	struct gd_ck_spec s;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(base, sizeof(base), "%s/base.yaml", dir);
	snprintf(over, sizeof(over), "%s/over.yaml", dir);
	f = fopen(base, "w");
	fputs("version: 1\nfleet: {outlier: 25%}\n", f);
	fclose(f);
	f = fopen(over, "w");
	fputs("version: 1\ninclude: base.yaml\n", f);
	fclose(f);
	assert_int_equal(gd_ck_spec_load_all(over, NULL, NULL, &s, err, sizeof(err)), 0);
	assert_true(s.fleet_outlier_pct == 25);
	gd_ck_spec_free(&s);
	f = fopen(over, "w");
	fputs("version: 1\ninclude: base.yaml\nfleet: {outlier: off}\n", f);
	fclose(f);
	assert_int_equal(gd_ck_spec_load_all(over, NULL, NULL, &s, err, sizeof(err)), 0);
	assert_true(s.fleet_outlier_pct == 0);
	gd_ck_spec_free(&s);
	unlink(base);
	unlink(over);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stats), cmocka_unit_test(outlier_named),
		cmocka_unit_test(latency_and_edges), cmocka_unit_test(spec_key),
		cmocka_unit_test(include_keeps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
