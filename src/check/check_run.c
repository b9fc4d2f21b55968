/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Running a spec: the sections in order, then the tests one run at a time
 * (a run = a test on one device and one memory), with a time estimate up
 * front and a progress line on a terminal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "check_machine.h"
#include "check_manifest.h"
#include "check_allnics.h"
#include "check_counters.h"
#include "check_matrix.h"
#include "check_mpi.h"
#include "check_nodes.h"
#include "check_sections.h"
#include "baseline.h"
#include "check_sku.h"
#include "fabric.h"
#include "jsonout.h"
#include "judge.h"
#include "log.h"
#include "progress.h"
#include "table.h"

volatile sig_atomic_t gd_ck_stop;

/* Bytes the run moved, roughly: the last size's average rate over the test's duration. */


static void bond_items(struct gd_ck_report *r, const struct gd_ck_run *run,
		       const struct gd_ck_measure *m, const struct gd_ck_bond_sample *b0,
		       const struct gd_ck_bond_sample *b1)
{
	char msg[512];
	double min = gd_ck_bond_shares(b0, b1, msg, sizeof(msg)), total = 0;

	for (size_t i = 0; i < b1->n && i < b0->n; i++)
		total += (double)(b1->bytes[i] - b0->bytes[i]);
	gd_ck_bond_verdict(r, run, m, msg, min, total, b1->bond);
}

struct runner {
	const struct gd_ck_spec *s;
	const struct gd_ck_opts *o;
	struct gd_ck_report *r;
	struct gd_progress pr;
	size_t done, total;
	double est_left;
	uint16_t port;
	struct gd_ck_matrix *mx;
};

/* One measurement of a run: each of its sizes, on a free side-channel port. */
static void measure(struct runner *x, struct gd_ck_run *run, struct gd_ck_measure *m)
{
	const struct gd_ck_test *t = run->t;
	uint64_t sizes[32];
	size_t ns = gd_ck_test_sizes(t, sizes, 32);

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < ns && !gd_ck_stop; i++) {
		/* another gd_check (or anything) on the port: the next free one, not a
		 * client of someone else's server */
		if (gd_ck_free_port(x->o->base_port, &x->port)) {
			m->exit_code = GD_EXIT_ENV;
			snprintf(m->error, sizeof(m->error), "no free TCP port among 200 from %u (-p "
				 "gives another first port)", x->port);
			break;
		}
		run->tcp_port = x->port;
		x->port = gd_ck_next_port(x->o->base_port, x->port);
		gd_progress_update(&x->pr, gd_clock_mono_ns(), "gd_check: run %zu/%zu %s %s, %llu "
				   "bytes (about %.0f s left)", x->done + 1, x->total, t->name,
				   run->label, (unsigned long long)sizes[i], x->est_left);
		if (gd_ck_loopback(run, sizes[i], m))
			break;
	}
	if (gd_ck_stop) { /* cut short: not a measurement of the hardware */
		m->exit_code = gd_exit_signal(gd_ck_stop);
		snprintf(m->error, sizeof(m->error), "interrupted by signal %d (%s)", (int)gd_ck_stop,
			 strsignal(gd_ck_stop));
	}
}

/* One measurement of a run with repeat: K: K measurements, judged on their medians
 * (check_repeat.c); the first that fails or is stopped is the result. */
static void measure_repeated(struct runner *x, struct gd_ck_run *run, struct gd_ck_measure *m)
{
	size_t k = run->t->repeat > 1 ? (size_t)run->t->repeat : 1;
	struct gd_ck_measure *v;

	if (k == 1) {
		measure(x, run, m);
		return;
	}
	if (!(v = calloc(k, sizeof(*v)))) {
		memset(m, 0, sizeof(*m));
		m->exit_code = GD_EXIT_ENV;
		snprintf(m->error, sizeof(m->error), "no memory for %zu repeated runs", k);
		return;
	}
	for (size_t i = 0; i < k; i++) {
		measure(x, run, &v[i]);
		if (v[i].exit_code || !v[i].nsizes) {
			k = i + 1;
			break;
		}
	}
	gd_ck_repeat_median(v, k, m);
	free(v);
}

/* The run's items from its last attempt (the path used, the thresholds), each threshold
 * item with every attempt; the matrix cell. */
static void judge_run(struct runner *x, const struct gd_ck_run *run, const struct gd_ck_measure *m,
		      const struct gd_ck_tries *tr, double seconds)
{
	size_t first;

	gd_ck_expect_item(x->r, run, m, seconds);
	first = x->r->n;
	gd_ck_thresholds(x->r, run, m, seconds);
	gd_ck_tries_attach(x->r, first, tr);
	if (x->s->baseline.given) /* each measured value against the good nodes' figures */
		gd_ck_bl_items(x->r, &x->s->baseline, first);
	if (x->mx && tr->n)
		gd_ck_matrix_add(x->mx, run, m);
}

/* Not on a terminal (a CI log): one line on stderr per finished run, its worst verdict. A
 * run a failed rung stopped did not run: no line. */
static void progress_line(const struct runner *x, const struct gd_ck_run *run, size_t first,
			  double seconds)
{
	static const int rank[GD_CK_NSTATUS] = { [GD_CK_PASS] = 0, [GD_CK_SKIP] = 1,
						 [GD_CK_ERROR] = 2, [GD_CK_FAIL] = 3 };
	int worst = -1;
	char a[64], b[sizeof(run->label)];

	if (!x->o->progress_lines || gd_ck_ladder_blocked(x->r))
		return;
	for (size_t i = first; i < x->r->n; i++)
		if (worst < 0 || rank[x->r->items[i].status] > rank[worst])
			worst = (int)x->r->items[i].status;
	fprintf(stderr, "gd_check: run %zu/%zu %s %s: %s (%.1f s)\n", x->done, x->total,
		gd_ck_tty(run->t->name, a, sizeof(a)), gd_ck_tty(run->label, b, sizeof(b)),
		worst < 0 ? "no check" : gd_ck_status_str((enum gd_ck_status)worst), seconds);
}

/* A rung's tests about to start (not one a failed rung stopped): how many, how long. */
static void announce(const struct runner *x, const struct gd_ck_runs *rs, int k)
{
	size_t n = 0;
	double est = 0;

	if (gd_ck_ladder_blocked(x->r))
		return;
	for (size_t i = 0; i < rs->n; i++)
		if (gd_ck_test_rung(rs->v[i].t) == k && rs->v[i].t->initiator == GD_INIT_CPU) {
			n++;
			est += gd_ck_estimate(rs->v[i].t);
		}
	if (n && x->o->out)
		fprintf(x->o->out, "rung %d (%s): %zu test run(s), about %.0f s\n", k,
			gd_ck_rung_name(k), n, est);
	else if (n)
		gd_info("rung %d (%s): %zu test run(s), about %.0f s", k, gd_ck_rung_name(k), n,
			est);
}

static void one_run(struct runner *x, struct gd_ck_run *run)
{
	const struct gd_ck_test *t = run->t;
	struct gd_ck_bond_sample b0, b1;
	struct gd_ck_ctr_run ctr = { 0 };
	struct gd_ck_tries tr = { 0 };
	struct gd_ck_measure m = { 0 };
	bool bonded = false;
	uint64_t t0 = gd_clock_mono_ns(), ta = t0;
	size_t first;

	while (gd_ck_tries_again(x->s, t, x->r, &tr)) {
		bonded = t->kind == GD_KIND_BW && !gd_ck_bond_sample(x->o->m, run->dev, run->port,
								      &b0);
		if (!tr.n) /* the counters span every attempt: an error in any one counts */
			gd_ck_counters_before(x->o->m, run, &ctr);
		ta = gd_clock_mono_ns();
		measure_repeated(x, run, &m);
		gd_ck_tries_add(&tr, run, &m, (double)(gd_clock_mono_ns() - ta) / 1e9);
	}
	x->est_left -= gd_ck_estimate(t);
	x->done++;
	first = x->r->n;
	judge_run(x, run, &m, &tr, (double)(gd_clock_mono_ns() - t0) / 1e9);
	gd_ck_counters_item(x->r, x->o->m, run, &m, (double)(gd_clock_mono_ns() - t0) / 1e9, &ctr);
	progress_line(x, run, first, (double)(gd_clock_mono_ns() - t0) / 1e9);
	if (bonded && !gd_ck_bond_sample(x->o->m, run->dev, run->port, &b1))
		bond_items(x->r, run, &m, &b0, &b1);
	else if (t->bond_balance) {
		struct gd_ck_item *it = gd_ck_add(x->r, GD_CK_SEC_TESTS, "%s %s: bond-balance",
						  t->name, run->label);
		if (it)
			gd_ck_judge_skip(it, GD_CK_SKIP_NOT_BONDED, run->dev);
	}
}

static int dry_run_json(const struct gd_ck_runs *rs, FILE *out)
{
	char cmd[600];
	json_object *sum;

	for (size_t i = 0; i < rs->n; i++) {
		const struct gd_ck_run *r = &rs->v[i];
		json_object *rec = gd_json_record("check_plan");

		gd_ck_command(r, r->t->sweep_min ? r->t->sweep_min : r->t->size, cmd, sizeof(cmd));
		gd_json_add_str(rec, "test", r->t->name);
		gd_json_add_str(rec, "run", r->label);
		gd_json_add_str(rec, "device", r->dev);
		gd_json_add_str(rec, "memory", r->gpu >= 0 ? "gpu" : "host");
		gd_json_add_str(rec, "path_class", r->cls);
		gd_json_add_str(rec, "fabric", gd_fabric_decided_name(r->fab.fabric));
		gd_json_add_str_or_null(rec, "provider", gd_fabric_traits_of(r->fab.fabric)->providers ?
					r->fab.provider : NULL);
		gd_json_add_int_or_null(rec, "line_gbps", (int64_t)r->line_gbps, r->line_gbps > 0);
		gd_json_add_int_or_null(rec, "pcie_gbps", (int64_t)r->pcie_gbps, r->pcie_gbps > 0);
		gd_json_add_str(rec, "command", cmd);
		gd_json_emit(rec, out);
	}
	sum = gd_json_record("check_plan_summary"); /* also when no run: never empty output */
	gd_json_add_int(sum, "runs", (int64_t)rs->n);
	return gd_json_emit(sum, out) ? GD_EXIT_ENV : 0;
}

/* The tests between hosts are planned by the ranks, not on one node: named, with why. */
static void dry_run_hosts(const struct gd_ck_spec *s, FILE *out)
{
	char name[GD_CK_NAME];

	for (size_t i = 0; i < s->ntests; i++)
		if (s->tests[i].pairs == GD_CK_HOSTS)
			fprintf(out, "%-20s not in this plan: %s\n",
				gd_ck_tty(s->tests[i].name, name, sizeof(name)),
				gd_ck_skip_reason(GD_CK_SKIP_NO_LAUNCH));
}

/* One planned run's row: its test, pair, class, line and PCIe rates, command. 0 or -ENOMEM. */
static int dry_run_row(struct gd_table *t, const struct gd_ck_run *r)
{
	char cmd[600], line[16], pcie[16], name[GD_CK_NAME], label[sizeof(r->label)];
	int ret;

	gd_ck_command(r, r->t->sweep_min ? r->t->sweep_min : r->t->size, cmd, sizeof(cmd));
	snprintf(line, sizeof(line), r->line_gbps > 0 ? "%.0fG" : "?", r->line_gbps);
	snprintf(pcie, sizeof(pcie), r->pcie_gbps > 0 ? "%.0fG" : "?", r->pcie_gbps);
	ret = gd_table_add(t, gd_ck_tty(r->t->name, name, sizeof(name)));
	ret = ret ?: gd_table_add(t, gd_ck_tty(r->label, label, sizeof(label)));
	ret = ret ?: gd_table_add(t, r->cls);
	ret = ret ?: gd_table_add(t, line);
	ret = ret ?: gd_table_add(t, pcie);
	return ret ?: gd_table_add(t, cmd);
}

/* The plan as one table (src/core/table.c: each column as wide as its widest cell, at
 * least the widths it always had). */
static void dry_run(const struct gd_ck_spec *s, const struct gd_ck_runs *rs, FILE *out)
{
	static const char *const head[] = { "TEST", "RUN", "CLASS", "LINE", "PCIE", "COMMAND" };
	static const size_t floor_w[] = { 20, 28, 5, 10, 10 };
	struct gd_table *t = gd_table_new(6);
	int ret = t ? 0 : -ENOMEM;
	size_t unknown = 0;

	for (size_t c = 0; t && c < 5; c++)
		gd_table_min_width(t, c, floor_w[c], 0);
	for (size_t c = 0; !ret && c < 6; c++)
		ret = gd_table_add(t, head[c]);
	for (size_t i = 0; i < rs->n && !ret; i++)
		ret = dry_run_row(t, &rs->v[i]);
	if (ret || gd_table_print(t, " ", out))
		fprintf(out, "gd_check: out of memory for the plan's table\n");
	gd_table_free(t);
	for (size_t i = 0; i < rs->n; i++)
		unknown += rs->v[i].addr_unknown;
	if (unknown) /* a --topology XML's NICs: hwloc has no port, address or rate */
		fprintf(out, "%zu run(s) name an RDMA device that has no sysfs entry here (the "
			"--topology XML's): its address and line rate are unknown, the commands use "
			"127.0.0.1; give --sysfs-root DIR (a copy of that box's /sys) for them\n",
			unknown);
	dry_run_hosts(s, out);
	fprintf(out, "%zu run(s); nothing was run (--dry-run)\n", rs->n);
}

static int plot_plan(const struct gd_ck_runs *rs, const char *path)
{
	struct gd_ck_matrix *mx = gd_ck_matrix_new(NULL);
	int ret = 0;

	if (!mx)
		return GD_EXIT_ENV;
	for (size_t i = 0; i < rs->n; i++)
		gd_ck_matrix_add_plan(mx, &rs->v[i]);
	if (mx->n && gd_ck_matrix_plot(mx, path))
		ret = GD_EXIT_ENV;
	gd_ck_matrix_free(mx);
	return ret;
}

/* A test with no run here: what it names is missing, a FAIL (a bandwidth gate never passes on
 * a box whose NIC or GPU is absent), unless this machine's topology could not be read. */
static void no_runs(struct gd_ck_report *r, const struct gd_ck_machine *m,
		    const struct gd_ck_test *t)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s: runs", t->name);
	bool gpu = t->memory == GD_CK_MEM_GPU ||
		   (t->pairs != GD_CK_EACH_NIC_LOOPBACK && t->pairs != GD_CK_ALL_NICS);
	char ev[256];

	if (!it)
		return;
	snprintf(it->expected, sizeof(it->expected), "%s", t->device[0] ? t->device :
		 gpu ? "a GPU and an RDMA device" : "an RDMA device");
	snprintf(it->measured, sizeof(it->measured), "absent");
	if (gd_ck_ofi_missing(m, t)) {
		it->measured[0] = 0;
		gd_ck_judge_not_run(it, "fabric ofi: this gd_check was built without libfabric "
				    "(install libfabric-dev and configure --with-libfabric)");
		return;
	}
	if (t->device[0] && !gd_ck_hca(m, t->device))
		snprintf(ev, sizeof(ev), "the test names %s, which this machine does not have "
			 "('gd_devinfo' lists the devices)", t->device);
	else if (!m->nhcas)
		snprintf(ev, sizeof(ev), "no RDMA device on this machine ('gd_doctor' says why)");
	else if (gpu && !m->topo_ok) {
		it->measured[0] = 0;
		gd_ck_judge_skip(it, GD_CK_SKIP_NO_TOPOLOGY, "the test's GPUs cannot be found");
		return;
	} else
		snprintf(ev, sizeof(ev), "no GPU and RDMA device pair for it on this machine");
	gd_ck_judge_holds(it, false, ev);
}

/* The runs of the tests this gd_check runs on this machine (between hosts: check_mpi.c;
 * initiators other than cpu: SKIP), each test's items made at its rung. */
static int plan(const struct gd_ck_spec *s, const struct gd_ck_machine *m, struct gd_ck_runs *rs)
{
	for (size_t i = 0; i < s->ntests; i++) {
		const struct gd_ck_test *t = &s->tests[i];

		if (t->pairs != GD_CK_HOSTS && t->initiator == GD_INIT_CPU &&
		    gd_ck_expand(m, t, rs))
			return GD_EXIT_ENV;
	}
	return 0;
}

/* Test t at its rung: its runs (an all-nics test's together, check_allnics.c), or why it has
 * none. 0, or GD_EXIT_ENV when an all-nics test's runs could not start. */
static int run_test(struct runner *x, const struct gd_ck_machine *m, const struct gd_ck_test *t,
		    struct gd_ck_runs *rs)
{
	size_t n = 0;
	int ret = 0;

	if (t->pairs == GD_CK_HOSTS)
		return 0; /* check_mpi.c */
	if (t->initiator != GD_INIT_CPU) {
		struct gd_ck_item *it = gd_ck_add(x->r, GD_CK_SEC_TESTS, "%s", t->name);

		if (it)
			gd_ck_judge_skip(it, GD_CK_SKIP_INITIATOR, gd_initiator_name(t->initiator));
		return 0;
	}
	for (size_t i = 0; i < rs->n; i++) {
		size_t k = 1;

		if (rs->v[i].t != t)
			continue;
		n++;
		if (gd_ck_stop)
			continue;
		if (t->pairs != GD_CK_ALL_NICS) {
			one_run(x, &rs->v[i]);
			continue;
		}
		/* pairs: all-nics: the test's runs (one per NIC, in a row) together */
		while (i + k < rs->n && rs->v[i + k].t == t)
			k++;
		n += k - 1;
		ret = gd_ck_all_nics(x->o->m, x->s, x->r, &rs->v[i], k, x->o->base_port,
				     &x->port);
		x->done += k;
		for (size_t j = 0; j < k; j++)
			x->est_left -= gd_ck_estimate(t);
		i += k - 1;
	}
	if (!n)
		no_runs(x->r, m, t);
	return ret;
}

/* Would --plot draw anything: a matrix run (a dry run plots its plan), or a bandwidth sweep? */
static bool plottable(const struct gd_ck_runs *rs, bool dry_run)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct gd_ck_test *t = rs->v[i].t;

		if (t->pairs == GD_CK_NIC_GPU_MATRIX ||
		    (!dry_run && t->kind == GD_KIND_BW && t->sweep_min))
			return true;
	}
	return false;
}

/* The matrix's table, and its plot; a plot that fails does not lose the report: it is
 * printed, then exit 3. */
static void show_matrix(const struct gd_ck_opts *o, struct gd_ck_report *r)
{
	if (!r->matrix || !r->matrix->n)
		return;
	if (o->out)
		gd_ck_matrix_print(r->matrix, o->out);
	if (o->plot && gd_ck_matrix_plot(r->matrix, o->plot))
		r->output_failed = true;
}

/* A --topology of another machine names devices that are not here: a plan, not a run. */
static int foreign_runs(const struct gd_ck_runs *rs, const struct gd_ck_machine *m,
			const char *xml)
{
	for (size_t i = 0; i < rs->n; i++)
		if (!gd_ck_hca(m, rs->v[i].dev)) {
			gd_error("--topology %s names %s, which is not an RDMA device of this "
				 "machine: a topology of another machine gives a plan (add --dry-run), "
				 "not runs", gd_excerpt(xml), rs->v[i].dev);
			return GD_EXIT_USAGE;
		}
	return 0;
}

/* Rung by rung: gd_doctor's checks of the rung, the devices and the manifest (2), the
 * topology (3), the tests of the rung, between hosts (7). An item made above a failed rung is SKIP (judge.c). */
static int ladder(struct runner *x, const struct gd_ck_machine *m, struct gd_ck_runs *rs)
{
	const struct gd_ck_spec *s = x->s;
	int ret = 0;

	for (int k = GD_CK_RUNG_STACK; k < GD_CK_NRUNG && !ret && !gd_ck_stop; k++) {
		gd_ck_ladder_enter(x->r, k);
		ret = gd_ck_doctor(s, x->o->m, x->r, k);
		if (k == GD_CK_RUNG_DEVICES) {
			gd_ck_devices(s, m, x->r);
			gd_ck_manifest(s, m, x->r);
		}
		if (k == GD_CK_RUNG_TOPOLOGY && s->topo.given)
			gd_ck_topology(s, m, x->r);
		announce(x, rs, k);
		for (size_t i = 0; i < s->ntests && !ret; i++)
			if (gd_ck_test_rung(&s->tests[i]) == k)
				ret = run_test(x, m, &s->tests[i], rs);
		if (k == GD_CK_RUNG_NODES && !ret && !gd_ck_stop && gd_launch()->size < 2)
			ret = gd_ck_mpi_tests(s, m, x->o, x->r); /* launched: after the gather */
		gd_ck_ladder_leave(x->r, k);
	}
	if (gd_ck_stop)
		x->r->runs_left = x->total - x->done;
	return ret;
}

/* The plan of the tests, checked (--topology of another machine, --plot), then a dry run's
 * listing, or the ladder. */
static int run_tests(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		     const struct gd_ck_opts *o, struct gd_ck_report *r)
{
	struct gd_ck_runs rs = { 0 };
	struct runner x = { .s = s, .o = o, .r = r, .port = o->base_port };
	int ret = plan(s, m, &rs);

	if (!ret && !o->dry_run && o->xml)
		ret = foreign_runs(&rs, m, o->xml);
	if (!ret && o->plot && !plottable(&rs, o->dry_run)) {
		gd_error("--plot: nothing to plot: no bandwidth test with 'pairs: nic-gpu-matrix' "
			 "or a sweep%s runs here", o->dry_run ? " (a dry run plots the matrix)" : "");
		ret = GD_EXIT_USAGE;
	}
	if (ret)
		goto out;
	for (size_t i = 0; i < rs.n; i++)
		rs.v[i].tcp_port = (uint16_t)(o->base_port + i % 1000);
	if (o->dry_run) {
		if (o->json)
			ret = dry_run_json(&rs, stdout);
		else
			dry_run(s, &rs, stdout);
		if (o->plot)
			ret = plot_plan(&rs, o->plot);
		goto out;
	}
	for (size_t i = 0; i < rs.n; i++)
		x.est_left += gd_ck_estimate(rs.v[i].t);
	x.total = rs.n;
	x.mx = gd_ck_matrix_new(m);
	gd_progress_init(&x.pr, o->progress);
	ret = ladder(&x, m, &rs);
	gd_progress_done(&x.pr);
	if (s->baseline.given && !gd_ck_stop)
		gd_ck_bl_unmeasured(r, &s->baseline);
	if (x.mx && x.mx->n && !r->matrix)
		r->matrix = x.mx; /* --json prints it after the checks */
	else
		gd_ck_matrix_free(x.mx);
	if (gd_launch()->size < 2) /* launched: every node's, once gathered */
		show_matrix(o, r);
out:
	free(rs.v);
	return ret;
}

/* Under mpirun/srun: each host's lowest rank checks its node (rungs 1 to 6), rank 0 gathers
 * every node's items (check_nodes.c), then every rank runs the tests between ranks (rung 7),
 * unless a node's lower rung failed (then they are SKIP on every rank: not run). */
static int launched(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		    const struct gd_ck_opts *o, struct gd_ck_report *r)
{
	struct gd_ck_runs rs = { 0 };
	struct gd_ck_opts on = *o;
	struct gd_ck_nodes nd;
	double est = 0;
	int ret = plan(s, m, &rs);

	for (size_t i = 0; i < rs.n; i++)
		est += gd_ck_estimate(rs.v[i].t);
	free(rs.v);
	if (gd_ck_nodes_start(&nd, r->host.hostname, est))
		return GD_EXIT_ENV;
	/* hosts that share one network stack (containers on the host's network, the guest
	 * test's UTS namespaces) run their loopbacks at once: each host its own ports */
	if (o->base_port < 64000) /* --port's range: [1024, 64000] */
		on.base_port = (uint16_t)(o->base_port +
					  256u * (unsigned)nd.host_index % (64000u - o->base_port));
	if (!ret && nd.leader)
		ret = run_tests(s, m, &on, r);
	if (gd_ck_nodes_gather(&nd, r, ret))
		return GD_EXIT_ENV;
	if (gd_launch()->rank == 0) /* every node's matrix, each under its host */
		show_matrix(o, r);
	if (ret || nd.failed || gd_ck_stop) /* a node that could not be checked: no rung 7 */
		return ret;
	gd_ck_ladder_enter(r, GD_CK_RUNG_NODES);
	ret = gd_ck_mpi_tests(s, m, o, r);
	gd_ck_ladder_leave(r, GD_CK_RUNG_NODES);
	return ret;
}

int gd_ck_run_spec(const struct gd_ck_spec *s, const struct gd_ck_opts *o,
		   struct gd_ck_report *r)
{
	struct gd_ck_machine m;
	uint64_t t0 = gd_clock_mono_ns();
	int ret;

	r->last_add_ns = t0; /* the first item's time counts from here */
	snprintf(r->spec_path, sizeof(r->spec_path), "%s", s->path);
	snprintf(r->spec_sha256, sizeof(r->spec_sha256), "%s", s->sha256);
	if (gd_ck_doctor_ids(s))
		return GD_EXIT_USAGE;
	gd_ck_host_facts(o->m, &r->host);
	if (gd_ck_machine_load(&m, o->m, o->xml)) {
		gd_ck_machine_free(&m);
		return GD_EXIT_USAGE;
	}
	gd_ck_sku_read(&m, &r->host, &r->sku);
	r->keep_going = o->keep_going;
	ret = gd_launch()->size > 1 ? launched(s, &m, o, r) : run_tests(s, &m, o, r);
	r->interrupted = gd_ck_stop;
	gd_ck_machine_free(&m);
	r->seconds = (double)(gd_clock_mono_ns() - t0) / 1e9;
	return ret;
}
