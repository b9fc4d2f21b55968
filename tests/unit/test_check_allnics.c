/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_check's pairs: all-nics and its retries (check_allnics.c with check_attempt.c's rule),
 * which make check cannot run for real (all-nics needs RDMA devices). Linked with
 * --wrap=gd_ck_loopback,--wrap=gd_ck_free_port: every NIC's run is a scripted measurement in
 * a child of gd_ck_all_nics as on a real box (fork, pipe, one deadline), and each attempt
 * asks for its NICs' ports first, so the ports asked for count the attempts, in the parent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bench_opts.h"
#include "check_allnics.h"
#include "check_int.h"
#include "machine.h"
#include "gd.h"
#include "judge.h"

#define NNICS 2

/* script[attempt][nic]: > 0 its Gb/s; <= 0 the engine's exit code negated (no result) */
static double script[GD_CK_MAX_ATTEMPTS][NNICS];
static int ports_asked, no_port_at;

int __wrap_gd_ck_free_port(uint16_t base, uint16_t *port);
int __wrap_gd_ck_loopback(const struct gd_ck_run *run, uint64_t size, struct gd_ck_measure *m);

int __wrap_gd_ck_free_port(uint16_t base, uint16_t *port)
{
	(void)base;
	(void)port;
	return ++ports_asked == no_port_at ? -1 : 0;
}

/* In the NIC's child: the attempt is the ports asked for so far (NNICS each) */
int __wrap_gd_ck_loopback(const struct gd_ck_run *run, uint64_t size, struct gd_ck_measure *m)
{
	int k = ports_asked / NNICS - 1, nic = run->dev[3] - '0';
	double v = script[k][nic];

	if (v <= 0) {
		m->exit_code = (int)-v;
		snprintf(m->error, sizeof(m->error), "scripted exit %d", m->exit_code);
		return m->exit_code;
	}
	m->nsizes = 1;
	m->size[0] = size;
	m->bw_avg_gbps[0] = v;
	return 0;
}

struct fx {
	struct gd_ck_spec s;
	struct gd_ck_test t;
	struct gd_ck_run runs[NNICS];
	struct gd_ck_report r;
};

static void threshold(struct gd_ck_test *t, const char *text)
{
	char why[128];

	assert_int_equal(gd_ck_parse_threshold(GD_CK_BW_AVG, text, &t->th[t->nth], why,
					       sizeof(why)), 0);
	t->nth++;
}

/* nic0 and nic1 (10 Gb/s lines) from host memory, 64 KiB writes; retries unset */
static int setup(void **state)
{
	struct fx *f = test_calloc(1, sizeof(*f));

	f->s.retries = -1;
	f->t = (struct gd_ck_test){ .op = GD_OP_WRITE, .kind = GD_KIND_BW, .size = 65536,
				    .qps = 1, .iters = 100, .pairs = GD_CK_ALL_NICS,
				    .memory = GD_CK_MEM_HOST, .retries = -1 };
	snprintf(f->t.name, sizeof(f->t.name), "all");
	f->t.initiator = GD_INIT_CPU;
	f->t.expect = (struct gd_ck_expect){ .path = -1, .staging = -1 };
	for (int i = 0; i < NNICS; i++) {
		struct gd_ck_run *run = &f->runs[i];

		*run = (struct gd_ck_run){ .t = &f->t, .port = 1, .gpu = -1, .numa = -1,
					   .line_gbps = 10 };
		snprintf(run->dev, sizeof(run->dev), "nic%d", i);
		snprintf(run->label, sizeof(run->label), "nic%d host", i);
		snprintf(run->cls, sizeof(run->cls), "NODE");
		snprintf(run->peer_ip, sizeof(run->peer_ip), "127.0.0.1");
	}
	memset(script, 0, sizeof(script));
	ports_asked = no_port_at = 0;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	gd_ck_report_free(&f->r);
	test_free(f);
	return 0;
}

/* gd_ck_all_nics on the fixture: its return; the attempts made (ports asked / NNICS) */
static int run_all(struct fx *f, int *attempts)
{
	uint16_t port = 20000;
	struct gd_machine m; /* the fake NICs have no ports here: their counters items SKIP */
	int ret;

	gd_machine_live(&m);
	ret = gd_ck_all_nics(&m, &f->s, &f->r, f->runs, NNICS, 20000, &port);

	*attempts = ports_asked / NNICS;
	return ret;
}

static const struct gd_ck_item *item(const struct fx *f, const char *prefix)
{
	for (size_t i = 0; i < f->r.n; i++)
		if (!strncmp(f->r.items[i].name, prefix, strlen(prefix)))
			return &f->r.items[i];
	fail_msg("no item '%s'", prefix);
	return NULL;
}

static void assert_attempts(const struct gd_ck_item *it, size_t n, const enum gd_ck_status *st,
			    const char *const *measured)
{
	assert_int_equal(it->nattempts, n);
	for (size_t k = 0; k < n; k++) {
		assert_int_equal(it->attempts[k].status, st[k]);
		if (measured)
			assert_string_equal(it->attempts[k].measured, measured[k]);
	}
}

/* Missed twice, then met: 3 attempts of every NIC together (retries default 2), PASS on
 * the last; each attempt's aggregate kept; the NICs' items are the last attempt's. */
static void retried_to_pass(void **state)
{
	struct fx *f = *state;
	const struct gd_ck_item *agg, *nic;
	int n;

	threshold(&f->t, "10 Gb/s");
	memcpy(script, (double[3][NNICS]){ { 3, 3 }, { 4, 4 }, { 6, 6 } }, 6 * sizeof(double));
	assert_int_equal(run_all(f, &n), 0);
	assert_int_equal(n, 3);
	agg = item(f, "all: aggregate of 2 NICs: ");
	assert_int_equal(agg->status, GD_CK_PASS);
	assert_string_equal(agg->measured, "12 Gb/s");
	assert_attempts(agg, 3, (enum gd_ck_status[]){ GD_CK_FAIL, GD_CK_FAIL, GD_CK_PASS },
			(const char *[]){ "6 Gb/s", "8 Gb/s", "12 Gb/s" });
	assert_int_equal(f->r.retried, 1);
	nic = item(f, "all nic1 host: runs");
	assert_int_equal(nic->status, GD_CK_PASS);
	assert_string_equal(nic->measured, "6 Gb/s");
	assert_int_equal(nic->nattempts, 0);
	assert_int_equal(gd_ck_exit_code(&f->r), 0);
}

/* Never met: 1 + the test's retries attempts, FAIL; the test's key over the spec's. */
static void missed_every_time(void **state)
{
	struct fx *f = *state;
	int n;

	threshold(&f->t, "10 Gb/s");
	for (int k = 0; k < GD_CK_MAX_ATTEMPTS; k++)
		script[k][0] = script[k][1] = 1;
	f->s.retries = 4;
	f->t.retries = 1;
	assert_int_equal(run_all(f, &n), 0);
	assert_int_equal(n, 2);
	assert_attempts(item(f, "all: aggregate"), 2,
			(enum gd_ck_status[]){ GD_CK_FAIL, GD_CK_FAIL }, NULL);
	assert_int_equal(item(f, "all: aggregate")->status, GD_CK_FAIL);
	assert_int_equal(f->r.retried, 0);
	assert_int_equal(gd_ck_exit_code(&f->r), GD_EXIT_FAIL);
}

/* The spec's retries when the test has none: 0, one attempt. */
static void spec_retries(void **state)
{
	struct fx *f = *state;
	int n;

	threshold(&f->t, "10 Gb/s");
	script[0][0] = script[0][1] = 1;
	script[1][0] = script[1][1] = 9;
	f->s.retries = 0;
	assert_int_equal(run_all(f, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(item(f, "all: aggregate")->status, GD_CK_FAIL);
	assert_int_equal(item(f, "all: aggregate")->nattempts, 1);
}

/* A NIC that could not run: ERROR, exit 3, one attempt: never retried into a FAIL. */
static void could_not_run(void **state)
{
	struct fx *f = *state;
	int n;

	threshold(&f->t, "10 Gb/s");
	script[0][0] = 5;
	script[0][1] = -GD_EXIT_ENV;
	script[1][0] = script[1][1] = 1;
	assert_int_equal(run_all(f, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(item(f, "all nic1 host: runs")->status, GD_CK_ERROR);
	assert_attempts(item(f, "all: aggregate"), 1, (enum gd_ck_status[]){ GD_CK_ERROR }, NULL);
	assert_non_null(strstr(item(f, "all: aggregate")->message, "nic1 host did not finish"));
	assert_int_equal(gd_ck_exit_code(&f->r), GD_EXIT_ENV);
}

/* A NIC's run that failed (exit 1, a completion error): FAIL, not a threshold missed. */
static void failed_run(void **state)
{
	struct fx *f = *state;
	int n;

	threshold(&f->t, "10 Gb/s");
	script[0][0] = -GD_EXIT_FAIL;
	script[0][1] = 50;
	script[1][0] = script[1][1] = 50;
	assert_int_equal(run_all(f, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(item(f, "all: aggregate")->status, GD_CK_FAIL);
	assert_int_equal(item(f, "all: aggregate")->nattempts, 1);
}

/* Missed, then a NIC could not run: no third attempt; the verdict is the last: ERROR. */
static void missed_then_error(void **state)
{
	struct fx *f = *state;
	int n;

	threshold(&f->t, "10 Gb/s");
	script[0][0] = script[0][1] = 3;
	script[1][0] = -GD_EXIT_ENV;
	script[1][1] = 3;
	script[2][0] = script[2][1] = 50;
	assert_int_equal(run_all(f, &n), 0);
	assert_int_equal(n, 2);
	assert_attempts(item(f, "all: aggregate"), 2,
			(enum gd_ck_status[]){ GD_CK_FAIL, GD_CK_ERROR }, NULL);
	assert_int_equal(item(f, "all: aggregate")->status, GD_CK_ERROR);
	assert_int_equal(gd_ck_exit_code(&f->r), GD_EXIT_ENV);
}

/* Two thresholds (Gb/s and % of the summed lines): each aggregate item with its attempts. */
static void two_thresholds(void **state)
{
	struct fx *f = *state;
	const struct gd_ck_item *gbps, *line;
	int n;

	threshold(&f->t, "10 Gb/s");
	threshold(&f->t, "90% line"); /* of 20 Gb/s: 18 */
	script[0][0] = script[0][1] = 6;
	script[1][0] = script[1][1] = 9.5;
	assert_int_equal(run_all(f, &n), 0);
	assert_int_equal(n, 2);
	gbps = item(f, "all: aggregate of 2 NICs: 10 Gb/s");
	line = item(f, "all: aggregate of 2 NICs: 90% line");
	assert_attempts(gbps, 2, (enum gd_ck_status[]){ GD_CK_PASS, GD_CK_PASS },
			(const char *[]){ "12 Gb/s", "19 Gb/s" });
	assert_attempts(line, 2, (enum gd_ck_status[]){ GD_CK_FAIL, GD_CK_PASS },
			(const char *[]){ "12 Gb/s", "19 Gb/s" });
	assert_int_equal(line->status, GD_CK_PASS);
}

/* No threshold: nothing to miss, one attempt. */
static void no_threshold(void **state)
{
	struct fx *f = *state;
	int n;

	script[0][0] = script[0][1] = 1;
	assert_int_equal(run_all(f, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(item(f, "all: aggregate of 2 NICs")->status, GD_CK_PASS);
	/* every NIC's port counters are sampled: these fake NICs have no port here */
	assert_int_equal(item(f, "all nic0 host: counters")->status, GD_CK_SKIP);
	assert_string_equal(item(f, "all nic1 host: counters")->ctr.dev, "nic1");
}

/* No free port for nic1: nothing starts, GD_EXIT_ENV, ERROR, no retry. */
static void no_port(void **state)
{
	struct fx *f = *state;
	int n;

	threshold(&f->t, "10 Gb/s");
	no_port_at = 2;
	assert_int_equal(run_all(f, &n), GD_EXIT_ENV);
	assert_int_equal(n, 1);
	assert_int_equal(item(f, "all nic0 host: runs")->status, GD_CK_ERROR);
	assert_int_equal(item(f, "all: aggregate")->status, GD_CK_ERROR);
	assert_int_equal(item(f, "all: aggregate")->nattempts, 1);
}

/* Above a failed rung: none of its runs starts, SKIP "not run", no retry. */
static void blocked(void **state)
{
	struct fx *f = *state;
	struct gd_ck_item *it;
	int n;

	threshold(&f->t, "10 Gb/s");
	gd_ck_ladder_enter(&f->r, GD_CK_RUNG_DEVICES);
	it = gd_ck_add(&f->r, GD_CK_SEC_DEVICES, "nic0 port 1 state");
	gd_ck_judge_holds(it, false, "DOWN");
	gd_ck_ladder_leave(&f->r, GD_CK_RUNG_DEVICES);
	gd_ck_ladder_enter(&f->r, GD_CK_RUNG_P2P);
	assert_int_equal(run_all(f, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(item(f, "all: aggregate")->status, GD_CK_SKIP);
	assert_int_equal(item(f, "all nic0 host: runs")->status, GD_CK_SKIP);
	for (size_t i = 0; i < f->r.n; i++) /* not run: no counters item */
		assert_null(strstr(f->r.items[i].name, "counters"));
}

/* The spec loads retries on an all-nics test (issue 23 refused it before). */
static void spec_key(void **state)
{
	const char *y = "retries: 4\ntests:\n"
			"  - {name: a, op: write, pairs: all-nics, retries: 1,"
			" thresholds: {min_bw: 70% line}}\n"
			"  - {name: b, op: write, pairs: all-nics}\n";
	struct gd_ck_spec s;
	char err[1024] = "";

	(void)state;
	assert_int_equal(gd_ck_spec_parse("t.yaml", (const unsigned char *)y, strlen(y), &s, err,
					  sizeof(err)), 0);
	assert_int_equal(gd_ck_retries(&s, &s.tests[0]), 1);
	assert_int_equal(gd_ck_retries(&s, &s.tests[1]), 4);
	gd_ck_spec_free(&s);
}

/* Parse one side of a reproduce line as its tool would: 0 and *q filled, or the refusal. */
static int reparse(char *side, const struct gd_ck_test *t, struct gd_bench_params *q)
{
	char *argv[64], *save = NULL;
	int argc = 0;

	for (char *w = strtok_r(side, " ", &save); w && argc < 63; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	return gd_bench_parse(argc, argv, t->op, t->kind, q);
}

/* Both sides of the reproduce line gd_check prints (gd_ck_command) parse back, through the
 * tools' own options, into the parameters gd_check ran (gd_ck_params). */
static void command_reparses(void **state)
{
	struct fx *f = *state;
	struct gd_ck_run *run = &f->runs[1];
	struct gd_bench_params want, got;
	char cmd[1024], *amp;

	f->t.qps = 2;
	f->t.roce.sl = 3;
	f->t.roce.sl_given = 1;
	run->tcp_port = 21123;
	run->fab.fabric = GD_FABRIC_VERBS;
	gd_ck_command(run, 4096, cmd, sizeof(cmd));
	amp = strstr(cmd, " & ");
	assert_non_null(amp);
	*amp = 0;
	for (int side = 0; side < 2; side++) {
		gd_ck_params(run, 4096, side ? GD_ROLE_CLIENT : GD_ROLE_SERVER, &want);
		assert_int_equal(reparse(side ? amp + 3 : cmd, &f->t, &got), 0);
		assert_int_equal(got.role, want.role);
		assert_int_equal(got.size, want.size);
		assert_int_equal(got.iters, want.iters);
		assert_int_equal(got.num_qps, 2);
		assert_string_equal(got.dev, "nic1");
		assert_int_equal(got.ib_port, want.ib_port);
		assert_int_equal(got.tcp_port, 21123);
		assert_int_equal(got.fab.fabric, GD_FABRIC_VERBS);
		assert_int_equal(got.roce.sl, 3);
		assert_true(got.report_gbits);
		assert_string_equal(got.peer, want.peer);
	}
	if (!gd_fabric_have_ofi())
		return;
	/* a libfabric run: the fabric, provider, domain and endpoint type, no device */
	run->fab.fabric = GD_FABRIC_OFI;
	snprintf(run->fab.provider, sizeof(run->fab.provider), "tcp");
	snprintf(run->fab.domain, sizeof(run->fab.domain), "lo");
	run->fab.ep = GD_EP_MSG;
	f->t.roce.sl_given = 0;
	gd_ck_command(run, 4096, cmd, sizeof(cmd));
	amp = strstr(cmd, " & ");
	assert_non_null(amp);
	*amp = 0;
	assert_int_equal(reparse(amp + 3, &f->t, &got), 0);
	assert_int_equal(got.fab.fabric, GD_FABRIC_OFI);
	assert_string_equal(got.fab.provider, "tcp");
	assert_string_equal(got.fab.domain, "lo");
	assert_int_equal(got.fab.ep, GD_EP_MSG);
	assert_string_equal(got.dev, "");
	assert_int_equal(got.size, 4096);
	assert_int_equal(got.num_qps, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(retried_to_pass, setup, teardown),
		cmocka_unit_test_setup_teardown(missed_every_time, setup, teardown),
		cmocka_unit_test_setup_teardown(spec_retries, setup, teardown),
		cmocka_unit_test_setup_teardown(could_not_run, setup, teardown),
		cmocka_unit_test_setup_teardown(failed_run, setup, teardown),
		cmocka_unit_test_setup_teardown(missed_then_error, setup, teardown),
		cmocka_unit_test_setup_teardown(two_thresholds, setup, teardown),
		cmocka_unit_test_setup_teardown(no_threshold, setup, teardown),
		cmocka_unit_test_setup_teardown(no_port, setup, teardown),
		cmocka_unit_test_setup_teardown(blocked, setup, teardown),
		cmocka_unit_test(spec_key),
		cmocka_unit_test_setup_teardown(command_reparses, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
