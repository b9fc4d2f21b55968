/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The noise guard (trust.h): each rule fires on its cause and stays quiet without it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "machine.h"
#include "trust.h"

/* A trusted run: nothing adaptive, no latency, no CPU window, not pinned. */
static struct gd_trust_in clean(void)
{
	return (struct gd_trust_in){ .loadavg = -1, .my_cpu = -1, .peer_cpu = -1 };
}

static void quiet_when_clean(void **state)
{
	struct gd_trust_in in = clean();
	struct gd_trust t;
	char buf[600];

	(void)state;
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, 0);
	assert_string_equal(gd_trust_verdict(&t), "ok");
	gd_trust_join(&t, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

static void cap_wide(void **state)
{
	struct gd_trust_in in = clean();
	struct gd_trust t;

	(void)state;
	in.windows = 40;
	in.ci95_rel = 0.35; /* stopped at the cap with +-35 % */
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, GD_TRUST_CAP_WIDE);
	assert_string_equal(gd_trust_verdict(&t), "doubtful");
	assert_non_null(strstr(t.reason[0], "35.0%"));
	in.ci95_rel = 0.05; /* capped, but narrow: believable */
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, 0);
	in.ci95_rel = 0.35;
	in.converged = true; /* converged to a wide epsilon: the user's precision */
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, 0);
}

static void latency_tail(void **state)
{
	struct gd_lat_stats st = { .n = 1000, .typical = 2.0, .avg = 3.5 };
	struct gd_trust_in in = clean();
	struct gd_trust t;

	(void)state;
	in.lat = &st;
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, GD_TRUST_AVG_TAIL);
	st.avg = 2.9; /* 1.45x: below the 1.5x rule */
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, 0);
	st.max = 40;
	st.pct[GD_P999] = 40; /* 1000 samples, the slowest 0.1 % all at the maximum */
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, GD_TRUST_P999_MAX);
	assert_non_null(strstr(t.reason[2], "40 us over 1000 samples"));
	st.pct[GD_P999] = 12; /* a real tail below the maximum */
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, 0);
	st.n = 100; /* too few to rank p99.9 below the maximum: said by p99_9_usec_is_max */
	st.at_max = 1u << GD_P999;
	st.pct[GD_P999] = 40;
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, 0);
}

static void cpu_starved(void **state)
{
	struct gd_trust_in in = clean();
	struct gd_trust t;

	(void)state;
	in.t0 = (struct gd_trust_sample){ .cpu_ns = 1000, .wall_ns = 5000 };
	in.t1 = (struct gd_trust_sample){ .cpu_ns = 1000 + 500000000ull, .wall_ns = 5000 + 1000000000ull };
	in.loadavg = 3.7;
	in.ncpus = 2;
	gd_trust_assess(&in, &t); /* 50 % on a CPU */
	assert_int_equal(t.why, GD_TRUST_CPU_STARVED);
	assert_non_null(strstr(t.reason[3], "50%"));
	assert_non_null(strstr(t.reason[3], "load average 3.70 on 2 CPUs"));
	in.t1.cpu_ns = 1000 + 950000000ull; /* 95 %: a busy-polling loop that had its core */
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, 0);
	in.t1 = (struct gd_trust_sample){ .cpu_ns = 1000, .wall_ns = 5000 + 10000000ull };
	gd_trust_assess(&in, &t); /* 10 ms: too short to tell */
	assert_int_equal(t.why, 0);
}

static void shared_cpu(void **state)
{
	struct gd_trust_in in = clean();
	struct gd_trust t;

	(void)state;
	in.my_cpu = in.peer_cpu = 0;
	in.same_host = true;
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, GD_TRUST_SHARED_CPU);
	in.same_host = false; /* CPU 0 of two hosts */
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, 0);
	in.same_host = true;
	in.peer_cpu = 1;
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, 0);
	in.my_cpu = in.peer_cpu = -1; /* neither pinned to one CPU */
	gd_trust_assess(&in, &t);
	assert_int_equal(t.why, 0);
}

static void single_cpu_lists(void **state)
{
	(void)state;
	assert_int_equal(gd_trust_single_cpu("3"), 3);
	assert_int_equal(gd_trust_single_cpu("3-3"), 3);
	assert_int_equal(gd_trust_single_cpu("0"), 0);
	assert_int_equal(gd_trust_single_cpu("0-1"), -1);
	assert_int_equal(gd_trust_single_cpu("0,2"), -1);
	assert_int_equal(gd_trust_single_cpu(""), -1);
	assert_int_equal(gd_trust_single_cpu(NULL), -1);
	assert_int_equal(gd_trust_single_cpu("x"), -1);
}

static void json_record(void **state)
{
	struct gd_trust_in in = clean();
	json_object *o = json_object_new_object(), *tr, *v, *a;
	struct gd_trust t;

	(void)state;
	in.my_cpu = in.peer_cpu = 2;
	in.same_host = true;
	in.windows = 9;
	in.ci95_rel = 0.5;
	gd_trust_assess(&in, &t);
	gd_trust_to_json(&t, o);
	assert_true(json_object_object_get_ex(o, "trust", &tr));
	assert_true(json_object_object_get_ex(tr, "verdict", &v));
	assert_string_equal(json_object_get_string(v), "doubtful");
	assert_true(json_object_object_get_ex(tr, "reasons", &a));
	assert_int_equal(json_object_array_length(a), 2);
	assert_true(json_object_object_get_ex(json_object_array_get_idx(a, 0), "id", &v));
	assert_string_equal(json_object_get_string(v), "cap_wide");
	assert_true(json_object_object_get_ex(json_object_array_get_idx(a, 1), "id", &v));
	assert_string_equal(json_object_get_string(v), "shared_cpu");
	json_object_put(o);
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void host_load_from_machine(void **state)
{
	char root[] = "/tmp/gd_trust_XXXXXX", cmd[64];
	struct gd_machine m;
	double load;
	int n;

	(void)state;
	assert_non_null(mkdtemp(root));
	put(root, "proc/loadavg", "5.25 4.00 3.00 6/300 1234\n");
	put(root, "sys/devices/system/cpu/online", "0-3,8-11,16\n");
	assert_int_equal(gd_machine_init(&m, root), 0);
	gd_trust_host_load(&m, &load, &n);
	assert_true(load > 5.24 && load < 5.26);
	assert_int_equal(n, 9);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quiet_when_clean),
		cmocka_unit_test(cap_wide),
		cmocka_unit_test(latency_tail),
		cmocka_unit_test(cpu_starved),
		cmocka_unit_test(shared_cpu),
		cmocka_unit_test(single_cpu_lists),
		cmocka_unit_test(json_record),
		cmocka_unit_test(host_load_from_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
