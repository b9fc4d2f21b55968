/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_check across ranks of mpirun/srun: pair patterns, addresses and results over MPI. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "check_fleet.h"
#include "check_mpi.h"
#include "choose.h"
#include "judge.h"
#include "log.h"

/* Deadlines of the collectives: a step every rank reaches at once, and a pair's run. */
#define STEP_MS (120 * 1000)

/* A pair's deadline: its work's (from duration or iterations and size), plus a step. */
static int pair_ms(const struct gd_ck_test *t)
{
	uint64_t v[32];
	size_t n = gd_ck_test_sizes(t, v, 32);
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += gd_ck_deadline_s(t, v[i]);
	return s * 1000.0 + STEP_MS > INT32_MAX ? INT32_MAX : (int)(s * 1000.0) + STEP_MS;
}

size_t gd_ck_pairs(enum gd_ck_pattern p, int n, int (*pairs)[2], size_t max)
{
	size_t k = 0;

	if (n < 2)
		return 0;
	if (p == GD_CK_PAT_PAIRWISE) {
		for (int i = 0; i < n / 2 && k < max; i++, k++) {
			pairs[k][0] = i;
			pairs[k][1] = i + n / 2;
		}
	} else if (p == GD_CK_PAT_RING) {
		for (int i = 0; i < (n == 2 ? 1 : n) && k < max; i++, k++) {
			pairs[k][0] = i;
			pairs[k][1] = (i + 1) % n;
		}
	} else {
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n && k < max; j++, k++) {
				pairs[k][0] = i;
				pairs[k][1] = j;
			}
	}
	return k;
}

/* A test between hosts that did not measure: judged as a whole. */
static struct gd_ck_item *hosts_item(struct gd_ck_report *r, const struct gd_ck_test *t)
{
	return gd_ck_add(r, GD_CK_SEC_TESTS, "%s: runs", t->name);
}

struct addr {
	char host[64];
	char dev[64];
	char ip[64];
	char mem[32];		/* "host", "GPU3": the run's memory, for the fleet view */
	double line_gbps;
};

/* This rank's device for test t: its `device`, else the first RDMA device. */
static int my_addr(const struct gd_ck_machine *m, const struct gd_ck_test *t, struct addr *a,
		   struct gd_ck_run *run)
{
	struct gd_ck_test one = *t;
	struct gd_ck_runs rs = { 0 };

	one.pairs = GD_CK_EACH_NIC_LOOPBACK;
	one.memory = GD_CK_MEM_HOST;
	if (!one.device[0]) { /* the device rule every tool asks: the first ACTIVE one */
		struct gd_hca hca;
		if (gd_dev_choose(m->mach, NULL, 1, &hca))
			return -1; /* without -d nothing is held on failure */
		snprintf(one.device, sizeof(one.device), "%s", hca.name);
		gd_rdma_free_hca(&hca);
	}
	memset(a, 0, sizeof(*a));
	gethostname(a->host, sizeof(a->host) - 1);
	if (gd_ck_expand(m, &one, &rs) || !rs.n) {
		free(rs.v);
		return -1;
	}
	*run = rs.v[0];
	run->t = t;
	free(rs.v);
	snprintf(a->dev, sizeof(a->dev), "%s", run->dev);
	snprintf(a->ip, sizeof(a->ip), "%s", run->peer_ip);
	if (run->gpu < 0)
		snprintf(a->mem, sizeof(a->mem), "host");
	else
		snprintf(a->mem, sizeof(a->mem), "GPU%d", run->gpu);
	a->line_gbps = run->line_gbps;
	return 0;
}

/* One pair: server rank s, client rank c; every rank gets the client's measurement. */
/* The sender's bond shares over its run (bandwidth tests on a bonded device). */
static void bond_after(const struct gd_machine *mach, const struct gd_ck_run *run,
		       const struct gd_ck_bond_sample *b0, struct gd_ck_measure *m)
{
	struct gd_ck_bond_sample b1;

	if (gd_ck_bond_sample(mach, run->dev, run->port, &b1))
		return;
	m->bonded = true;
	m->bond_min = gd_ck_bond_shares(b0, &b1, m->bond_msg, sizeof(m->bond_msg));
	for (size_t i = 0; i < b1.n && i < b0->n; i++)
		m->bond_total += (double)(b1.bytes[i] - b0->bytes[i]);
	snprintf(m->bond_name, sizeof(m->bond_name), "%s", b1.bond);
}

static int one_pair(const struct gd_machine *mach, const struct gd_ck_run *mine,
		    const struct addr *all, int s, int c, uint16_t port, struct gd_ck_measure *m)
{
	const struct gd_launch *launch = gd_launch();
	struct gd_ck_measure sm;
	struct gd_bench_result *res = calloc(1, sizeof(*res));
	struct gd_bench_params p;
	struct gd_ck_run run = *mine;
	struct gd_ck_bond_sample b0;
	bool bonded = false;

	memset(m, 0, sizeof(*m));
	run.tcp_port = port;
	snprintf(run.peer_ip, sizeof(run.peer_ip), "%s", all[s].ip);
	if (res && (launch->rank == s || launch->rank == c)) {
		gd_ck_params(&run, run.t->sweep_min ? run.t->sweep_min : run.t->size,
			     launch->rank == s ? GD_ROLE_SERVER : GD_ROLE_CLIENT, &p);
		bonded = launch->rank == c && run.t->kind == GD_KIND_BW &&
			 !gd_ck_bond_sample(mach, run.dev, run.port, &b0);
		m->exit_code = gd_bench_run_side(&p, NULL, res);
		if (bonded)
			bond_after(mach, &run, &b0, m);
		if (!m->exit_code)
			gd_ck_take(res, m);
		else
			snprintf(m->error, sizeof(m->error), "rank %d (%s side) ended with exit "
				 "code %d", launch->rank, launch->rank == s ? "server" : "client",
				 m->exit_code);
	}
	free(res);
	/* the client's numbers, or the server's error when the client has none */
	sm = *m;
	if (gd_launch_bcast(&sm, sizeof(sm), s, pair_ms(run.t), "the server's result of a pair") ||
	    gd_launch_bcast(m, sizeof(*m), c, STEP_MS, "the client's result of a pair"))
		return -ETIMEDOUT;
	if (!m->exit_code && sm.exit_code)
		*m = sm;
	return 0;
}

/* a is worse than b: it failed, or it is slower. */
static bool worse(const struct gd_ck_test *t, const struct gd_ck_measure *a,
		  const struct gd_ck_measure *b)
{
	bool fa = a->exit_code || !a->nsizes, fb = b->exit_code || !b->nsizes;

	if (fa || fb)
		return fa && !fb;
	return t->kind == GD_KIND_BW ? a->bw_avg_gbps[0] < b->bw_avg_gbps[0] :
				       a->lat_avg_us[0] > b->lat_avg_us[0];
}

static void print_pairs(FILE *out, const struct gd_ck_test *t, const struct addr *all,
			int (*pairs)[2], const struct gd_ck_measure *ms, size_t np)
{
	size_t worst = np;

	fprintf(out, "\n%s: %zu pair(s), pattern %s\n%-6s %-6s %-30s %-30s %12s\n", t->name, np,
		gd_ck_pattern_name(t->pattern), "SERVER", "CLIENT", "SERVER HOST/DEV",
		"CLIENT HOST/DEV", t->kind == GD_KIND_BW ? "AVG Gb/s" : "AVG us");
	for (size_t k = 0; k < np; k++) {
		const struct gd_ck_measure *m = &ms[k];
		double v = t->kind == GD_KIND_BW ? m->bw_avg_gbps[0] : m->lat_avg_us[0];
		char a[40], b[40], val[24];

		snprintf(a, sizeof(a), "%s/%s", all[pairs[k][0]].host, all[pairs[k][0]].dev);
		snprintf(b, sizeof(b), "%s/%s", all[pairs[k][1]].host, all[pairs[k][1]].dev);
		snprintf(val, sizeof(val), m->exit_code || !m->nsizes ? "failed" : "%.2f", v);
		fprintf(out, "%-6d %-6d %-30s %-30s %12s\n", pairs[k][0], pairs[k][1], a, b, val);
		if (worst == np || worse(t, m, &ms[worst]))
			worst = k;
	}
	if (worst < np)
		fprintf(out, "worst pair: rank %d -> rank %d (%s -> %s)\n", pairs[worst][0],
			pairs[worst][1], all[pairs[worst][0]].host, all[pairs[worst][1]].host);
}

/* The pairs' results to the fleet view (rank 0): distribution, outliers, their items. */
static void fleet_view(struct gd_ck_report *r, const struct gd_ck_test *t, double pct,
		       const struct addr *all, int (*pairs)[2], const struct gd_ck_measure *ms,
		       size_t np, FILE *out)
{
	struct gd_ck_fleet_pair *fp = calloc(np ? np : 1, sizeof(*fp));

	if (!fp)
		return;
	for (size_t k = 0; k < np; k++) {
		for (int e = 0; e < 2; e++) {
			const struct addr *a = &all[pairs[k][e]];
			struct gd_ck_fleet_end *fe = &fp[k].end[e];

			fe->rank = pairs[k][e];
			snprintf(fe->host, sizeof(fe->host), "%s", a->host);
			snprintf(fe->nic, sizeof(fe->nic), "%s", a->dev);
			snprintf(fe->mem, sizeof(fe->mem), "%s", a->mem);
		}
		fp[k].ok = !ms[k].exit_code && ms[k].nsizes;
		fp[k].value = t->kind == GD_KIND_BW ? ms[k].bw_avg_gbps[0] : ms[k].lat_avg_us[0];
	}
	gd_ck_fleet_judge(r, t, pct, fp, np, out);
	free(fp);
}

/* Say which ranks a pattern leaves out: an odd rank of pairwise, pairs past the cap. */
static void left_out(const struct gd_ck_test *t, int n, size_t np)
{
	size_t all = t->pattern == GD_CK_PAT_ALL_PAIRS ? (size_t)n * (size_t)(n - 1) / 2 : 0;

	if (t->pattern == GD_CK_PAT_PAIRWISE && n % 2)
		gd_warn("%s: pairwise over %d ranks: rank %d is in no pair and is not measured (use "
			"an even number of ranks, or pairs: ring)", t->name, n, n - 1);
	if (all > np)
		gd_warn("%s: all-pairs over %d ranks makes %zu pairs: only the first %zu run",
			t->name, n, all, np);
}

/* One pair's measurement to the judge (rank 0). */
static void judge_pair(struct gd_ck_report *r, const struct gd_ck_run *run, const struct addr *all,
		       const int pair[2], uint16_t port, const struct gd_ck_measure *m, uint64_t t0)
{
	struct gd_ck_run x = *run;

	x.tcp_port = port;
	snprintf(x.label, sizeof(x.label), "rank%d(%s)->rank%d(%s)", pair[0], all[pair[0]].dev,
		 pair[1], all[pair[1]].dev);
	snprintf(x.peer_ip, sizeof(x.peer_ip), "%s", all[pair[0]].ip);
	snprintf(x.cls, sizeof(x.cls), "net");
	x.line_gbps = all[pair[0]].line_gbps;
	gd_ck_evaluate(r, &x, m, (double)(gd_clock_mono_ns() - t0) / 1e9);
	if (m->bonded)
		gd_ck_bond_verdict(r, &x, m, m->bond_msg, m->bond_min, m->bond_total, m->bond_name);
}

/* The same host: equal names, or equal up to the first dot of either (node-a, node-a.example). */
static bool same_host(const char *a, const char *b)
{
	size_t la = strcspn(a, "."), lb = strcspn(b, ".");

	return !strcmp(a, b) || (la == lb && !strncmp(a, b, la) && (!a[la] || !b[lb]));
}

/*
 * The pairs of a test: its pattern over the ranks, or with 'hosts: [A, B]' the one pair of
 * the first rank on A (server) and the first other rank on B. A host the launch does not
 * reach fails the test (every rank adds the item: one exit code): it is never measured, so
 * it never passes.
 */
static size_t plan_pairs(const struct gd_ck_test *t, const struct addr *all, int n,
			 int (*pairs)[2], size_t max, struct gd_ck_report *r)
{
	char ev[320];
	size_t np, len = 0;
	int at[2] = { -1, -1 };

	if (!t->nhosts) {
		np = gd_ck_pairs(t->pattern, n, pairs, max);
		if (gd_launch()->rank == 0)
			left_out(t, n, np);
		return np;
	}
	for (int h = 0; h < 2; h++)
		for (int i = 0; i < n && at[h] < 0; i++)
			if (same_host(all[i].host, t->hosts[h]) && (h == 0 || i != at[0]))
				at[h] = i;
	if (at[0] >= 0 && at[1] >= 0) {
		pairs[0][0] = at[0];
		pairs[0][1] = at[1];
		return 1;
	}
	len += (size_t)snprintf(ev, sizeof(ev), "host %s is not in this launch (its ranks run "
				"on", t->hosts[at[0] < 0 ? 0 : 1]);
	for (int i = 0; i < n && len < sizeof(ev) - 1; i++)
		len += (size_t)snprintf(ev + len, sizeof(ev) - len, "%s%s", i ? ", " : " ",
					all[i].host);
	if (len < sizeof(ev) - 1)
		snprintf(ev + len, sizeof(ev) - len, "): start a rank on each named host");
	struct gd_ck_item *it = hosts_item(r, t);

	if (it)
		gd_ck_judge_holds(it, false, ev);
	return 0;
}

static int hosts_test(const struct gd_ck_test *t, double pct, const struct gd_ck_machine *m,
		      const struct gd_ck_opts *o, struct gd_ck_report *r, uint16_t *port)
{
	const struct gd_launch *launch = gd_launch();
	struct addr me, *all = calloc((size_t)launch->size, sizeof(*all));
	int (*pairs)[2] = calloc(4096, sizeof(*pairs));
	struct gd_ck_measure *ms = calloc(4096, sizeof(*ms));
	struct gd_ck_run run;
	size_t np = 0;
	int ok, go;

	if (!all || !pairs || !ms) {
		free(all), free(pairs), free(ms);
		return GD_EXIT_ENV;
	}
	ok = !my_addr(m, t, &me, &run);
	if (!ok)
		memset(&run, 0, sizeof(run));
	if (gd_launch_allgather(&me, all, sizeof(me), STEP_MS, "the ranks' addresses") ||
	    gd_launch_min(&ok, STEP_MS, "the ranks' device check")) {
		free(all), free(pairs), free(ms);
		return GD_EXIT_ENV;
	}
	if (!ok) { /* a device the test needs is missing on a node: the gate fails */
		struct gd_ck_item *it = hosts_item(r, t);

		if (it)
			gd_ck_judge_holds(it, false, "a rank has no RDMA device for this test "
					  "('gd_devinfo' on each node lists them)");
		free(all), free(pairs), free(ms);
		return 0;
	}
	np = plan_pairs(t, all, launch->size, pairs, 4096, r);
	for (size_t k = 0; k < np; k++) {
		uint64_t t0 = gd_clock_mono_ns();
		uint16_t pp = *port;

		*port = gd_ck_next_port(o->base_port, *port); /* wraps inside the range, never to 0 */
		if (one_pair(m->mach, &run, all, pairs[k][0], pairs[k][1], pp, &ms[k]))
			break;
		if (launch->rank == 0)
			judge_pair(r, &run, all, pairs[k], pp, &ms[k], t0);
		/* every rank goes on, or all stop: a signal on one rank (a Slurm time limit)
		 * ends the test on all */
		go = !gd_ck_stop;
		if (gd_launch_min(&go, STEP_MS, "the end of a pair") || !go) {
			gd_ck_stop = gd_ck_stop ? gd_ck_stop : SIGTERM;
			break;
		}
	}
	ok = !gd_launch_barrier(STEP_MS, "the end of a test"); /* fails at once if broken */
	if (ok && launch->rank == 0 && o->out)
		print_pairs(o->out, t, all, pairs, ms, np);
	if (ok && launch->rank == 0)
		fleet_view(r, t, pct, all, pairs, ms, np, o->out);
	free(all), free(pairs), free(ms);
	return ok ? 0 : GD_EXIT_ENV;
}

int gd_ck_mpi_agree_spec(bool loaded, const char *sha256, const char *err)
{
	struct spec_state {
		int ok;
		char sha[65];
		char err[186];
	} mine, *all = calloc((size_t)gd_launch()->size, sizeof(*all));
	int bad = -1;

	memset(&mine, 0, sizeof(mine));
	mine.ok = loaded;
	snprintf(mine.sha, sizeof(mine.sha), "%s", loaded ? sha256 : "");
	snprintf(mine.err, sizeof(mine.err), "%s", loaded ? "" : err);
	if (!all || gd_launch_allgather(&mine, all, sizeof(mine), STEP_MS, "the ranks' spec")) {
		free(all);
		return GD_EXIT_ENV;
	}
	for (int i = 0; i < gd_launch()->size && bad < 0; i++)
		if (!all[i].ok || strcmp(all[i].sha, all[0].sha))
			bad = i;
	if (bad >= 0 && gd_launch()->rank == 0) {
		all[bad].err[sizeof(all[bad].err) - 1] = 0;
		all[bad].sha[sizeof(all[bad].sha) - 1] = 0;
		if (!all[bad].ok)
			gd_error("rank %d could not load the spec: %s", bad, gd_excerpt(all[bad].err));
		else
			gd_error("rank %d loaded another spec than rank 0 (sha256 %.16s..., rank 0's "
				 "%.16s...): give every rank the same file", bad, all[bad].sha,
				 all[0].sha);
	}
	free(all);
	return bad >= 0 ? GD_EXIT_USAGE : 0;
}

int gd_ck_mpi_tests(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		    const struct gd_ck_opts *o, struct gd_ck_report *r)
{
	const struct gd_launch *launch = gd_launch();
	uint16_t port = (uint16_t)(o->base_port + 500);
	int ret = 0;

	for (size_t i = 0; i < s->ntests && !ret && !gd_ck_stop; i++) {
		const struct gd_ck_test *t = &s->tests[i];

		if (t->pairs != GD_CK_HOSTS)
			continue;
		if (gd_ck_ladder_blocked(r)) { /* every rank agreed on it (check_nodes.c) */
			struct gd_ck_item *it = hosts_item(r, t);

			if (it)
				gd_ck_judge_skip(it, GD_CK_SKIP_RUNG, NULL);
			continue;
		}
		if (launch->mpi && launch->size > 1) {
			ret = hosts_test(t, s->fleet_outlier_pct, m, o, r, &port);
			continue;
		}
		/* a launch without MPI stops in gd_check's main (exit 3) */
		struct gd_ck_item *it = hosts_item(r, t);

		if (it)
			gd_ck_judge_skip(it, GD_CK_SKIP_NO_LAUNCH, NULL);
	}
	return ret;
}
