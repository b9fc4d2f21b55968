/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_check's ladder, retries and expect: the spec keys, the judge on a stopped rung, the
 * attempts of a retried run, and a GPU run whose registration and path fell back (which
 * make check cannot run for real: no GPU and no RDMA device here). */
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

#include "check.h"
#include "check_int.h"
#include "doctor.h"
#include "judge.h"
#include "locality.h"

static void spec_keys(void **state)
{
	const char *y = "retries: 3\ntests:\n"
			"  - name: g\n    op: write\n    memory: gpu\n    retries: 0\n"
			"    expect: {registration: dma-buf, path: PXB, staging: false}\n"
			"  - name: h\n    op: write\n    rung: 6\n"
			"  - name: p\n    op: write\n    initiator: proxy\n"
			"    expect: {initiator: proxy, producer: gpu}\n"
			"  - name: r\n    op: write\n    pairs: ring\n";
	struct gd_ck_spec s;
	char err[1024] = "";

	(void)state;
	assert_int_equal(gd_ck_spec_parse("t.yaml", (const unsigned char *)y, strlen(y), &s, err,
					  sizeof(err)), 0);
	assert_int_equal(s.retries, 3);
	assert_int_equal(gd_ck_retries(&s, &s.tests[0]), 0);
	assert_int_equal(gd_ck_retries(&s, &s.tests[1]), 3);
	assert_string_equal(s.tests[0].expect.registration, "dma-buf");
	assert_int_equal(s.tests[0].expect.path, GD_LOC_PXB);
	assert_int_equal(s.tests[0].expect.staging, 0);
	assert_int_equal(s.tests[1].expect.path, -1);
	assert_int_equal(gd_ck_test_rung(&s.tests[0]), GD_CK_RUNG_GPUDIRECT);
	assert_int_equal(gd_ck_test_rung(&s.tests[1]), GD_CK_RUNG_GPU_INITIATED);
	assert_int_equal(gd_ck_test_rung(&s.tests[2]), GD_CK_RUNG_GPU_INITIATED);
	assert_int_equal(gd_ck_test_rung(&s.tests[3]), GD_CK_RUNG_NODES);
	s.tests[1].rung = 0;
	assert_int_equal(gd_ck_test_rung(&s.tests[1]), GD_CK_RUNG_P2P);
	/* pairs: all-nics is a loopback of every NIC at once: host memory p2p, GPU memory 4 */
	s.tests[1].pairs = GD_CK_ALL_NICS;
	assert_int_equal(gd_ck_test_rung(&s.tests[1]), GD_CK_RUNG_P2P);
	s.tests[1].memory = GD_CK_MEM_GPU;
	assert_int_equal(gd_ck_test_rung(&s.tests[1]), GD_CK_RUNG_GPUDIRECT);
	s.tests[1].memory = GD_CK_MEM_HOST;
	s.tests[1].pairs = GD_CK_EACH_NIC_LOOPBACK;
	s.retries = -1;
	assert_int_equal(gd_ck_retries(&s, &s.tests[1]), GD_CK_RETRIES_DEFAULT);
	gd_ck_spec_free(&s);
}

static void rungs(void **state)
{
	char why[256];
	int r = 0;

	(void)state;
	assert_int_equal(gd_ck_parse_rung("devices", &r, why, sizeof(why)), 0);
	assert_int_equal(r, GD_CK_RUNG_DEVICES);
	assert_int_equal(gd_ck_parse_rung("7", &r, why, sizeof(why)), 0);
	assert_int_equal(r, GD_CK_RUNG_NODES);
	assert_int_not_equal(gd_ck_parse_rung("8", &r, why, sizeof(why)), 0);
	assert_int_not_equal(gd_ck_parse_rung("0", &r, why, sizeof(why)), 0);
	assert_int_not_equal(gd_ck_parse_rung("", &r, why, sizeof(why)), 0);
	assert_string_equal(gd_ck_rung_name(GD_CK_RUNG_P2P), "p2p");
	assert_int_equal(gd_ck_doctor_rung("rdma.port"), GD_CK_RUNG_DEVICES);
	assert_int_equal(gd_ck_doctor_rung("gdr.registration"), GD_CK_RUNG_GPUDIRECT);
	assert_int_equal(gd_ck_doctor_rung("ibgda.probe"), GD_CK_RUNG_GPU_INITIATED);
	assert_int_equal(gd_ck_doctor_rung("kernel.version"), GD_CK_RUNG_STACK);
	assert_int_equal(gd_ck_doctor_rung("no.such.check"), GD_CK_RUNG_STACK);
	/* the rungs the registry's stages give, counted: 9 devices, 4 topology, 6 GPUDirect,
	 * 3 GPU-initiated checks; the rest on the stack rung */
	{
		int per[GD_CK_NRUNG] = { 0 };

		for (const struct gd_check *c = gd_checks; c->id; c++)
			per[gd_ck_doctor_rung(c->id)]++;
		assert_int_equal(per[GD_CK_RUNG_DEVICES], 9);
		assert_int_equal(per[GD_CK_RUNG_TOPOLOGY], 4);
		assert_int_equal(per[GD_CK_RUNG_GPUDIRECT], 6);
		assert_int_equal(per[GD_CK_RUNG_GPU_INITIATED], 3);
		assert_int_equal(gd_ck_doctor_rung("efa.gdr"), GD_CK_RUNG_GPUDIRECT);
		assert_int_equal(gd_ck_doctor_rung("pcie.link"), GD_CK_RUNG_DEVICES);
		assert_int_equal(gd_ck_doctor_rung("iommu"), GD_CK_RUNG_TOPOLOGY);
	}
	/* every gd_doctor check is on a rung below the tests' */
	for (const struct gd_check *c = gd_checks; c->id; c++)
		assert_true(gd_ck_doctor_rung(c->id) >= GD_CK_RUNG_STACK &&
			    gd_ck_doctor_rung(c->id) != GD_CK_RUNG_P2P &&
			    gd_ck_doctor_rung(c->id) < GD_CK_RUNG_NODES);
	for (int k = GD_CK_RUNG_STACK; k < GD_CK_NRUNG; k++)
		assert_true(gd_ck_rung_fix(k)[0] != 0);
}

/* A failed rung stops the rungs above it, not its own; --keep-going stops nothing. */
static void ladder(void **state)
{
	struct gd_ck_report r = { 0 };
	struct gd_ck_item *it;

	(void)state;
	gd_ck_ladder_enter(&r, GD_CK_RUNG_TOPOLOGY);
	it = gd_ck_add(&r, GD_CK_SEC_TOPOLOGY, "gpus");
	gd_ck_judge_holds(it, false, "one missing");
	gd_ck_ladder_leave(&r, GD_CK_RUNG_TOPOLOGY);
	assert_int_equal(r.failed_rung, GD_CK_RUNG_TOPOLOGY);
	gd_ck_ladder_enter(&r, GD_CK_RUNG_P2P);
	assert_int_equal(gd_ck_ladder_blocked(&r), GD_CK_RUNG_TOPOLOGY);
	it = gd_ck_add(&r, GD_CK_SEC_TESTS, "bw");
	snprintf(it->measured, sizeof(it->measured), "1 Gb/s");
	gd_ck_judge_not_run(it, "port in use"); /* not run at all: SKIP, not ERROR */
	assert_int_equal(it->status, GD_CK_SKIP);
	assert_string_equal(it->message, "not run: rung 3 (topology) failed");
	assert_string_equal(it->measured, "");
	assert_ptr_equal(gd_ck_ladder_first_fail(&r), &r.items[0]);
	r.keep_going = true;
	assert_int_equal(gd_ck_ladder_blocked(&r), 0);
	it = gd_ck_add(&r, GD_CK_SEC_TESTS, "bw2");
	gd_ck_judge_holds(it, true, NULL);
	assert_int_equal(it->status, GD_CK_PASS);
	gd_ck_report_free(&r);
}

static struct gd_ck_test gpu_test(void)
{
	struct gd_ck_test t = { .op = GD_OP_WRITE, .kind = GD_KIND_BW, .size = 65536, .qps = 1,
				.memory = GD_CK_MEM_GPU, .retries = -1 };

	snprintf(t.name, sizeof(t.name), "g");
	t.initiator = GD_INIT_CPU;
	t.expect = (struct gd_ck_expect){ .path = -1, .staging = -1 };
	return t;
}

static struct gd_ck_run gpu_run(const struct gd_ck_test *t)
{
	struct gd_ck_run run = { .t = t, .port = 1, .gpu = 0, .numa = -1 };

	snprintf(run.dev, sizeof(run.dev), "mlx5_0");
	snprintf(run.cls, sizeof(run.cls), "PIX");
	snprintf(run.label, sizeof(run.label), "mlx5_0 GPU0");
	snprintf(run.peer_ip, sizeof(run.peer_ip), "127.0.0.1");
	return run;
}

static struct gd_ck_measure ran(const char *reg, const char *cls, double gbps)
{
	struct gd_ck_measure m = { .nsizes = 1, .size = { 65536 }, .bw_avg_gbps = { gbps } };

	snprintf(m.registration, sizeof(m.registration), "%s", reg);
	snprintf(m.gpu_path_class, sizeof(m.gpu_path_class), "%s", cls);
	return m;
}

/* The engine fell back to peer memory on a far GPU: FAIL naming both; a nearer class passes. */
static void expect_fallback(void **state)
{
	struct gd_ck_test t = gpu_test();
	struct gd_ck_run run = gpu_run(&t);
	struct gd_ck_measure m = ran("peer-memory", "SYS", 10);
	struct gd_ck_report r = { 0 };

	(void)state;
	snprintf(t.expect.registration, sizeof(t.expect.registration), "dma-buf");
	t.expect.path = GD_LOC_PXB;
	t.expect.given = true;
	gd_ck_evaluate(&r, &run, &m, 1);
	assert_int_equal(r.n, 2); /* path used, runs */
	assert_string_equal(r.items[0].name, "g mlx5_0 GPU0: path used");
	assert_int_equal(r.items[0].status, GD_CK_FAIL);
	assert_non_null(strstr(r.items[0].message, "a silent fallback: expected registration "
				"dma-buf, ran peer-memory; expected path PXB, ran SYS"));
	assert_string_equal(r.items[0].where.path, "SYS");
	gd_ck_report_free(&r);
	m = ran("dma-buf", "PIX", 10);
	gd_ck_evaluate(&r, &run, &m, 1);
	assert_int_equal(r.items[0].status, GD_CK_PASS);
	assert_string_equal(r.items[0].measured, "registration dma-buf, path PIX");
	gd_ck_report_free(&r);
	m.exit_code = 3; /* could not run: ERROR, never the fallback's FAIL */
	gd_ck_evaluate(&r, &run, &m, 1);
	assert_int_equal(r.items[0].status, GD_CK_ERROR);
	gd_ck_report_free(&r);
}

/* Missed, then met: two attempts, PASS, counted as passed on a retry; ERROR is not retried. */
static void attempts(void **state)
{
	struct gd_ck_test t = gpu_test();
	struct gd_ck_run run = gpu_run(&t);
	struct gd_ck_measure slow = ran("dma-buf", "PIX", 5), fast = ran("dma-buf", "PIX", 50);
	struct gd_ck_tries tr = { 0 };
	struct gd_ck_report r = { 0 };
	char why[128];

	(void)state;
	assert_int_equal(gd_ck_parse_threshold(GD_CK_BW_AVG, "10 Gb/s", &t.th[0], why,
					       sizeof(why)), 0);
	t.nth = 1;
	assert_true(gd_ck_tries_add(&tr, &run, &slow, 1));
	assert_false(gd_ck_tries_add(&tr, &run, &fast, 1));
	gd_ck_thresholds(&r, &run, &fast, 2);
	gd_ck_tries_attach(&r, 0, &tr);
	assert_int_equal(r.items[0].status, GD_CK_PASS);
	assert_int_equal(r.items[0].nattempts, 2);
	assert_int_equal(r.items[0].attempts[0].status, GD_CK_FAIL);
	assert_string_equal(r.items[0].attempts[0].measured, "5 Gb/s");
	assert_int_equal(r.items[0].attempts[1].status, GD_CK_PASS);
	assert_int_equal(r.retried, 1);
	gd_ck_report_free(&r);
	memset(&tr, 0, sizeof(tr));
	slow.exit_code = 3;
	assert_false(gd_ck_tries_add(&tr, &run, &slow, 1));
	assert_int_equal(tr.a[0][0].status, GD_CK_ERROR);
	slow.exit_code = 1; /* the hardware failed the run (completion error): not a miss */
	assert_false(gd_ck_tries_add(&tr, &run, &slow, 1));
}

/* Each latency threshold judges its own statistic and names it; the plain max_lat is the median
 * (a mean of 615 us over a median of 1 us judged the mean before). */
static void lat_statistics(void **state)
{
	static const struct {
		const char *key, *stat;
		enum gd_ck_status want;
	} c[] = {
		{ "max_lat", "p50 latency", GD_CK_PASS },
		{ "max_lat_p50", "p50 latency", GD_CK_PASS },
		{ "max_lat_avg", "average latency", GD_CK_FAIL },
		{ "max_lat_p99", "p99 latency", GD_CK_FAIL },
		{ "max_lat_p999", "p99.9 latency", GD_CK_FAIL },
		{ "max_lat_max", "maximum latency", GD_CK_FAIL },
	};
	struct gd_ck_test t = gpu_test();
	struct gd_ck_run run = gpu_run(&t);
	struct gd_ck_measure m = { .nsizes = 1, .size = { 2 }, .lat_avg_us = { 615 },
				   .lat_p50_us = { 1 }, .lat_p99_us = { 20 },
				   .lat_p999_us = { 30 }, .lat_max_us = { 9000 } };
	char why[128], word[64];

	(void)state;
	t.kind = GD_KIND_LAT;
	t.memory = GD_CK_MEM_HOST;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct gd_ck_report r = { 0 };
		int metric = 0;

		while (metric < GD_CK_NMETRIC && strcmp(gd_ck_metric_name(metric), c[i].key))
			metric++;
		assert_true(metric < GD_CK_NMETRIC);
		assert_int_equal(gd_ck_parse_threshold(metric, "10 us", &t.th[0], why,
						       sizeof(why)), 0);
		t.nth = 1;
		gd_ck_thresholds(&r, &run, &m, 1);
		assert_int_equal(r.n, 1);
		if (r.items[0].status != c[i].want || !strstr(r.items[0].message, c[i].stat))
			fail_msg("%s: %s '%s'", c[i].key, gd_ck_status_str(r.items[0].status),
				 r.items[0].message);
		snprintf(word, sizeof(word), "%s 1 us <= 10 us", c[i].stat); /* the spec's unit */
		if (c[i].want == GD_CK_PASS && strncmp(r.items[0].message, word, strlen(word)))
			fail_msg("%s: '%s' does not start '%s'", c[i].key, r.items[0].message, word);
		gd_ck_report_free(&r);
	}
}

/* A FAIL that is only the noise guard's doubt (the threshold was met) is told to rerun on a
 * quiet host, not to look for a slow path; a plain miss keeps its rung's fix. */
static void doubt_fix(void **state)
{
	struct gd_ck_test t = gpu_test();
	struct gd_ck_run run = gpu_run(&t);
	struct gd_ck_measure m = ran("dma-buf", "PIX", 50);
	struct gd_ck_report r = { 0 };
	char why[128];

	(void)state;
	assert_int_equal(gd_ck_parse_threshold(GD_CK_BW_AVG, "10 Gb/s", &t.th[0], why,
					       sizeof(why)), 0);
	t.nth = 1;
	snprintf(m.doubtful[0], sizeof(m.doubtful[0]), "the host is busier than its cores");
	gd_ck_thresholds(&r, &run, &m, 1);
	assert_int_equal(r.items[0].status, GD_CK_FAIL);
	assert_non_null(strstr(gd_ck_fail_fix(&r.items[0]), "rerun on a quiet host"));
	gd_ck_report_free(&r);
	m = ran("dma-buf", "PIX", 5); /* missed: the path's fix, not the quiet host's */
	snprintf(m.doubtful[0], sizeof(m.doubtful[0]), "the host is busier than its cores");
	gd_ck_thresholds(&r, &run, &m, 1);
	assert_int_equal(r.items[0].status, GD_CK_FAIL);
	assert_null(strstr(gd_ck_fail_fix(&r.items[0]), "quiet host"));
	gd_ck_report_free(&r);
}

/* gd_check's table: every row's columns start where the header's do, whatever the length of a
 * value, with a blank between two cells; rung headings and a row's message lines do not move
 * them (a 24-character "fabric ofi, provider tcp" ran into the next column of a 16-wide one). */
static void table_columns(void **state)
{
	static const char *const head[] = { "CHECK", "RESULT", "MEASURED", "EXPECTED" };
	static const char *const v[] = { "fabric ofi, provider tcp", "1.37 Gb/s", "0" };
	struct gd_ck_report r = { 0 };
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0, col[4], rows = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct gd_ck_item *it = gd_ck_add(&r, i ? GD_CK_SEC_TOPOLOGY : GD_CK_SEC_TESTS,
						  "%s", i == 1 ? "a check whose name is longer "
						  "than forty-four characters" : "gpus");

		snprintf(it->measured, sizeof(it->measured), "%s", v[i]);
		snprintf(it->expected, sizeof(it->expected), "%s", v[i]);
		snprintf(it->message, sizeof(it->message), "a message longer than any column of "
			 "the table, which is a line of its own under its row");
		it->status = i ? GD_CK_PASS : GD_CK_FAIL;
		it->rung = (int)i + 1;
	}
	gd_ck_print_table(&r, f);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "SECTION", 7)) {
			for (size_t c = 0; c < 4; c++)
				col[c] = (size_t)(strstr(line, head[c]) - line);
			continue;
		}
		if (strncmp(line, "tests ", 6) && strncmp(line, "topology ", 9))
			continue;
		rows++;
		for (size_t c = 0; c < 4; c++)
			if (strlen(line) <= col[c] || line[col[c] - 1] != ' ' ||
			    line[col[c]] == ' ')
				fail_msg("column %s does not start at %zu in '%s'", head[c], col[c],
					 line);
	}
	assert_int_equal(rows, 3);
	free(buf);
	gd_ck_report_free(&r);
}

/* A suite for a machine leaves out the gd_doctor checks about what it lacks, by the registry's
 * tag (doctor.h: about), not by a list of id prefixes: on an EFA node without GPUs, efa.gdr
 * (GPUDirect over EFA), which PASSes there (a p5 device, RDMA on by default), is not required.
 * The prefix lists of check_example.c missed it. */
static void suite_asks_the_registry(void **state)
{
	char root[] = "/tmp/gd-ladder-XXXXXX", path[256], *text = NULL, *must;
	struct gd_machine m;
	size_t len = 0;
	FILE *out;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/sys/class/infiniband/efa0/device", root);
	for (char *c = path + strlen(root) + 1; *c; c++)
		if (*c == '/') {
			*c = 0;
			mkdir(path, 0755);
			*c = '/';
		}
	assert_int_equal(mkdir(path, 0755), 0);
	strncat(path, "/device", sizeof(path) - strlen(path) - 1);
	out = fopen(path, "w");
	assert_non_null(out);
	fputs("0xefa2\n", out);
	fclose(out);
	assert_int_equal(gd_machine_init(&m, root), 0);
	out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(gd_ck_print_sections(out, &m, NULL, GD_CK_EX_DOCTOR | GD_CK_EX_SUITE,
					      "--suite"), 0);
	fclose(out);
	must = strstr(text, "must_pass: [");
	assert_non_null(must);
	*strchr(must, '\n') = 0;
	assert_non_null(strstr(must, "efa.device")); /* the node's own checks stay */
	assert_null(strstr(must, "efa.gdr"));
	assert_null(strstr(must, "nvidia.driver"));
	free(text);
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spec_keys), cmocka_unit_test(rungs), cmocka_unit_test(ladder),
		cmocka_unit_test(expect_fallback), cmocka_unit_test(attempts),
		cmocka_unit_test(lat_statistics), cmocka_unit_test(doubt_fix),
		cmocka_unit_test(table_columns), cmocka_unit_test(suite_asks_the_registry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
