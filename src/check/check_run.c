/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Running a spec: the sections in order, then the tests one run at a time
 * (a run = a test on one device and one memory), with a time estimate up
 * front and a progress line on a terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "check_machine.h"
#include "check_matrix.h"
#include "check_mpi.h"
#include "check_sections.h"
#include "jsonout.h"
#include "log.h"
#include "progress.h"

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
	const struct gd_ck_opts *o;
	struct gd_ck_report *r;
	struct gd_progress pr;
	size_t done, total;
	double est_left;
	uint16_t port;
	struct gd_ck_matrix *mx;
};

static void one_run(struct runner *x, struct gd_ck_run *run)
{
	const struct gd_ck_test *t = run->t;
	struct gd_ck_bond_sample b0, b1;
	struct gd_ck_measure m;
	uint64_t sizes[32];
	size_t ns = gd_ck_test_sizes(t, sizes, 32);
	bool bonded = t->kind == GD_KIND_BW && !gd_ck_bond_sample(x->o->m, run->dev, run->port, &b0);
	uint64_t t0 = gd_clock_mono_ns();

	memset(&m, 0, sizeof(m));
	for (size_t i = 0; i < ns; i++) {
		run->tcp_port = x->port;
		x->port = (uint16_t)(x->port + 1 < 65000 ? x->port + 1 : x->o->base_port);
		gd_progress_update(&x->pr, gd_clock_mono_ns(), "gd_check: run %zu/%zu %s %s, %llu "
				   "bytes (about %.0f s left)", x->done + 1, x->total, t->name,
				   run->label, (unsigned long long)sizes[i], x->est_left);
		if (gd_ck_loopback(run, sizes[i], &m))
			break;
	}
	x->est_left -= gd_ck_estimate(t);
	x->done++;
	gd_ck_evaluate(x->r, run, &m, (double)(gd_clock_mono_ns() - t0) / 1e9);
	if (bonded && !gd_ck_bond_sample(x->o->m, run->dev, run->port, &b1))
		bond_items(x->r, run, &m, &b0, &b1);
	else if (t->bond_balance) {
		struct gd_ck_item *it = gd_ck_add(x->r, GD_CK_SEC_TESTS, "%s %s: bond-balance",
						  t->name, run->label);
		if (it) {
			it->status = GD_CK_SKIP;
			snprintf(it->message, sizeof(it->message), "%s is not on a bond", run->dev);
		}
	}
	if (x->mx)
		gd_ck_matrix_add(x->mx, run, &m);
}

static void dry_run_json(const struct gd_ck_runs *rs, FILE *out)
{
	char cmd[600];

	for (size_t i = 0; i < rs->n; i++) {
		const struct gd_ck_run *r = &rs->v[i];
		json_object *rec = gd_json_record("check_plan");

		gd_ck_command(r, r->t->sweep_min ? r->t->sweep_min : r->t->size, cmd, sizeof(cmd));
		gd_json_add_str(rec, "test", r->t->name);
		gd_json_add_str(rec, "run", r->label);
		gd_json_add_str(rec, "device", r->dev);
		gd_json_add_str(rec, "memory", r->gpu >= 0 ? "gpu" : "host");
		gd_json_add_str(rec, "path_class", r->cls);
		gd_json_add_int_or_null(rec, "line_gbps", (int64_t)r->line_gbps, r->line_gbps > 0);
		gd_json_add_int_or_null(rec, "pcie_gbps", (int64_t)r->pcie_gbps, r->pcie_gbps > 0);
		gd_json_add_str(rec, "command", cmd);
		gd_json_emit(rec, out);
	}
}

static void dry_run(const struct gd_ck_runs *rs, FILE *out)
{
	char cmd[600], line[16], pcie[16];

	fprintf(out, "%-20s %-28s %-5s %-10s %-10s %s\n", "TEST", "RUN", "CLASS", "LINE", "PCIE",
		"COMMAND");
	for (size_t i = 0; i < rs->n; i++) {
		const struct gd_ck_run *r = &rs->v[i];

		gd_ck_command(r, r->t->sweep_min ? r->t->sweep_min : r->t->size, cmd, sizeof(cmd));
		snprintf(line, sizeof(line), r->line_gbps > 0 ? "%.0fG" : "?", r->line_gbps);
		snprintf(pcie, sizeof(pcie), r->pcie_gbps > 0 ? "%.0fG" : "?", r->pcie_gbps);
		fprintf(out, "%-20s %-28s %-5s %-10s %-10s %s\n", r->t->name, r->label, r->cls, line,
			pcie, cmd);
	}
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

static void skip_test(struct gd_ck_report *r, const struct gd_ck_test *t, const char *why)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s", t->name);

	if (it) {
		it->status = GD_CK_SKIP;
		snprintf(it->message, sizeof(it->message), "%s", why);
	}
}

static int plan(const struct gd_ck_spec *s, const struct gd_ck_machine *m, struct gd_ck_runs *rs,
		struct gd_ck_report *r)
{
	for (size_t i = 0; i < s->ntests; i++) {
		const struct gd_ck_test *t = &s->tests[i];
		size_t before = rs->n;

		if (t->pairs == GD_CK_HOSTS)
			continue; /* check_mpi.c */
		if (strcmp(t->initiator, "cpu")) {
			skip_test(r, t, "only initiator: cpu runs in this build of gd_check");
			continue;
		}
		if (gd_ck_expand(m, t, rs))
			return GD_EXIT_ENV;
		if (rs->n == before)
			skip_test(r, t, gd_ck_no_run_why(m, t));
	}
	return 0;
}

static int run_tests(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		     const struct gd_ck_opts *o, struct gd_ck_report *r)
{
	struct gd_ck_runs rs = { 0 };
	struct runner x = { .o = o, .r = r, .port = o->base_port };
	int ret = plan(s, m, &rs, r);

	if (ret)
		goto out;
	for (size_t i = 0; i < rs.n; i++)
		rs.v[i].tcp_port = (uint16_t)(o->base_port + i % 1000);
	if (o->dry_run) {
		if (o->json)
			dry_run_json(&rs, stdout);
		else
			dry_run(&rs, stdout);
		if (o->plot)
			ret = plot_plan(&rs, o->plot);
		goto out;
	}
	for (size_t i = 0; i < rs.n; i++)
		x.est_left += gd_ck_estimate(rs.v[i].t);
	x.total = rs.n;
	if (rs.n && o->out)
		fprintf(o->out, "%zu test run(s), about %.0f s\n", rs.n, x.est_left);
	if (rs.n && !o->out)
		gd_info("%zu test run(s), about %.0f s", rs.n, x.est_left);
	x.mx = gd_ck_matrix_new(m);
	gd_progress_init(&x.pr, o->progress);
	for (size_t i = 0; i < rs.n; i++)
		one_run(&x, &rs.v[i]);
	gd_progress_done(&x.pr);
	if (x.mx && x.mx->n && o->out)
		gd_ck_matrix_print(x.mx, o->out);
	if (x.mx && x.mx->n && o->plot && gd_ck_matrix_plot(x.mx, o->plot))
		ret = GD_EXIT_ENV;
	if (x.mx && x.mx->n && !r->matrix)
		r->matrix = x.mx; /* --json prints it after the checks */
	else
		gd_ck_matrix_free(x.mx);
out:
	free(rs.v);
	return ret;
}

int gd_ck_run_spec(const struct gd_ck_spec *s, const struct gd_ck_opts *o,
		   struct gd_ck_report *r)
{
	struct gd_ck_machine m;
	uint64_t t0 = gd_clock_mono_ns();
	int ret;

	snprintf(r->spec_path, sizeof(r->spec_path), "%s", s->path);
	snprintf(r->spec_sha256, sizeof(r->spec_sha256), "%s", s->sha256);
	gd_ck_host_facts(o->m, &r->host);
	gd_ck_machine_load(&m, o->m, o->xml);
	if (gd_launch()->size > 1) {
		/* under mpirun/srun only the tests between ranks run: check each node alone */
		ret = gd_ck_mpi_tests(s, &m, o, r);
		goto out;
	}
	if (s->topo.given)
		gd_ck_topology(s, &m, r);
	gd_ck_devices(s, &m, r);
	ret = o->dry_run ? 0 : gd_ck_doctor(s, o->m, r);
	if (!ret)
		ret = run_tests(s, &m, o, r);
	if (!ret && !o->dry_run)
		ret = gd_ck_mpi_tests(s, &m, o, r);
out:
	gd_ck_machine_free(&m);
	r->seconds = (double)(gd_clock_mono_ns() - t0) / 1e9;
	return ret;
}
