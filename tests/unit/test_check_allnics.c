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
#include <stdlib.h>
#include <string.h>
#include <wordexp.h>
#include <cmocka.h>

#include "bench_opts.h"
#include "check_allnics.h"
#include "check.h"
#include "check_int.h"
#include "check_machine.h"
#include "fixture.h"
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
	assert_true(agg->has_value && agg->value == 12.0); /* JSON's value and unit beside the text */
	assert_string_equal(agg->unit, "Gb/s");
	assert_attempts(agg, 3, (enum gd_ck_status[]){ GD_CK_FAIL, GD_CK_FAIL, GD_CK_PASS },
			(const char *[]){ "6 Gb/s", "8 Gb/s", "12 Gb/s" });
	assert_int_equal(f->r.retried, 1);
	nic = item(f, "all nic1 host: runs");
	assert_int_equal(nic->status, GD_CK_PASS);
	assert_string_equal(nic->measured, "6 Gb/s");
	assert_true(nic->has_value && nic->value == 6.0);
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
	assert_false(item(f, "all: aggregate")->has_value); /* no sum of some NICs as a value */
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

/* Parse one side of a reproduce line as a shell would hand it to its tool (wordexp: words,
 * quotes removed; an unquoted ; | & < > or command substitution is refused, as a line that
 * would run something else): 0 and *q filled, or the refusal. */
static int reparse(char *side, const struct gd_ck_test *t, struct gd_bench_params *q)
{
	wordexp_t we;
	int ret;

	if (wordexp(side, &we, WRDE_NOCMD | WRDE_UNDEF)) {
		print_error("not one shell command: %s\n", side);
		return -EINVAL;
	}
	ret = gd_bench_parse((int)we.we_wordc, we.we_wordv, t->op, t->kind, q);
	wordfree(&we);
	return ret;
}

/* Every parameter of the list that has an option is what gd_check ran with (want, through
 * the engine's own check as the tool's are), the fabric's three beside them. */
static void same_run(const struct gd_bench_params *want, const struct gd_bench_params *got,
		     const char *cmd)
{
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];

		if (!d->opt || d->opt[0] != '-' ||
		    !memcmp((const char *)want + d->off, (const char *)got + d->off, d->len))
			continue;
		print_error("%s differs after reparsing: %s\n", d->opt, cmd);
		fail();
	}
	assert_int_equal(got->fab.fabric, want->fab.fabric);
	assert_string_equal(got->fab.provider, want->fab.provider);
	assert_int_equal(got->fab.ep, want->fab.ep);
	assert_int_equal(got->role, want->role);
	assert_string_equal(got->peer, want->peer);
}

/* Both sides of run's reproduce line (gd_ck_command) parse back, through the tools' own
 * options, into the parameters gd_check ran (gd_ck_params). */
static void reparses(const struct gd_ck_run *run, uint64_t size)
{
	struct gd_bench_params want, got;
	char cmd[2048], line[2048], *amp;

	gd_ck_command(run, size, cmd, sizeof(cmd));
	snprintf(line, sizeof(line), "%s", cmd);
	amp = strstr(cmd, " & ");
	assert_non_null(amp);
	*amp = 0;
	for (int side = 0; side < 2; side++) {
		gd_ck_params(run, size, side ? GD_ROLE_CLIENT : GD_ROLE_SERVER, &want);
		assert_int_equal(gd_bench_check(&want), 0);
		if (reparse(side ? amp + 3 : cmd, run->t, &got)) {
			print_error("refused: %s\n", line);
			fail();
		}
		same_run(&want, &got, line);
	}
}

/* A hand-made run's reproduce line, verbs and libfabric. Before the line was the tools'
 * own spelling (gd_bench_args), it left out --timeout: the reproduced run waited 5 s for
 * its peer where gd_check's waited 15. */
static void command_reparses(void **state)
{
	struct fx *f = *state;
	struct gd_ck_run *run = &f->runs[1];

	f->t.qps = 2;
	f->t.roce.sl = 3;
	f->t.roce.sl_given = 1;
	run->tcp_port = 21423;
	run->fab.fabric = GD_FABRIC_VERBS;
	reparses(run, 4096);
	if (!gd_fabric_have_ofi())
		return;
	/* a libfabric run: the fabric, provider, domain and endpoint type, no device, no
	 * service level (a spec's sl sets its value and sl_given together) */
	run->fab.fabric = GD_FABRIC_OFI;
	snprintf(run->fab.provider, sizeof(run->fab.provider), "tcp");
	snprintf(run->fab.domain, sizeof(run->fab.domain), "lo");
	run->fab.ep = GD_EP_MSG;
	run->dev[0] = 0;
	f->t.roce.sl = 0;
	f->t.roce.sl_given = 0;
	reparses(run, 4096);
	/* a provider name a shell would split: one quoted word (it ran 'ofi_rxm' as a command in
	 * a bundle's reproduce.sh before gd_shell_word) */
	snprintf(run->fab.provider, sizeof(run->fab.provider), "verbs;ofi_rxm");
	run->fab.ep = GD_EP_RDM;
	reparses(run, 4096);
}

/* Every reproduce line gd_check prints for the spec it writes (--example's tests, and the
 * built-in suites) on each fixture box parses with the tool's own option parser into the
 * run gd_check made (issue 32 item 1). */
static void example_lines_reparse(void **state)
{
	static const char *const box[] = { "rxe", "ib", "h20" };
	size_t lines = 0;

	(void)state;
	for (size_t b = 0; b < GD_ARRAY_SIZE(box); b++) {
		struct gd_ck_machine m;
		struct gd_ck_spec s;
		char *text = NULL, err[1024] = "";
		size_t len = 0;
		FILE *out;

		if (gd_fixture_use(box[b]))
			skip();
		out = open_memstream(&text, &len);
		assert_non_null(out);
		assert_int_equal(gd_ck_print_sections(out, &gd_fixture_m, NULL, GD_CK_EX_TESTS,
						      "--example"), 0);
		fclose(out);
		assert_int_equal(gd_ck_spec_parse("example.yaml", (const unsigned char *)text, len,
						  &s, err, sizeof(err)), 0);
		free(text);
		assert_int_equal(gd_ck_machine_load(&m, &gd_fixture_m, NULL), 0);
		for (size_t i = 0; i < s.ntests; i++) {
			struct gd_ck_runs rs = { 0 };
			const struct gd_ck_test *t = &s.tests[i];

			if (t->pairs == GD_CK_HOSTS || t->initiator != GD_INIT_CPU)
				continue; /* check_mpi.c's; a SKIP */
			assert_int_equal(gd_ck_expand(&m, t, &rs), 0);
			for (size_t k = 0; k < rs.n; k++, lines++) {
				rs.v[k].tcp_port = (uint16_t)(21400 + k);
				reparses(&rs.v[k], t->sweep_min ? t->sweep_min : t->size);
			}
			free(rs.v);
		}
		gd_ck_machine_free(&m);
		gd_ck_spec_free(&s);
	}
	assert_true(lines > 0);
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
		cmocka_unit_test(example_lines_reparse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
