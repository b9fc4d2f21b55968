/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_check across ranks of mpirun/srun: pair patterns, addresses and results over MPI. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "check_fan.h"
#include "check_fleet.h"
#include "check_mpi.h"
#include "check_counters.h"
#include "check_rails.h"
#include "ofi_info.h" /* GD_OFI_BUILD_FIX */
#include "fabric.h"
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
/* A rank's rails (one without --rails all): rail i pairs with rail i of the other rank. */
struct node {
	int n;
	struct addr a[GD_CK_MAX_RAILS];
};
#define AT(all, rank, rail) (&(all)[rank].a[rail])

/*
 * A libfabric pair's side-channel address: this host's first IPv4 address that is up and
 * not loopback (the peers of a launch on several hosts reach it), else 127.0.0.1 (every
 * rank on this host). libfabric's own addresses cross the side channel (fabric_ofi_cm.c).
 */
static void ofi_addr(char *ip, size_t len)
{
	struct ifaddrs *ifs = NULL;

	snprintf(ip, len, "127.0.0.1");
	if (getifaddrs(&ifs))
		return;
	for (const struct ifaddrs *i = ifs; i; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET && (i->ifa_flags & IFF_UP) &&
		    !(i->ifa_flags & IFF_LOOPBACK)) {
			const struct sockaddr_in *in = (const struct sockaddr_in *)i->ifa_addr;

			if (inet_ntop(AF_INET, &in->sin_addr, ip, (socklen_t)len))
				break;
			snprintf(ip, len, "127.0.0.1");
		}
	freeifaddrs(ifs);
}

/* This rank's device for test t: the rail named (a device, or a libfabric domain when
 * domain: a fabric without a port), else its `device`, else the first RDMA device. */
static int my_addr(const struct gd_ck_machine *m, const struct gd_ck_test *t, const char *rail,
		   bool domain, struct addr *a, struct gd_ck_run *run)
{
	struct gd_ck_test one = *t;
	struct gd_ck_runs rs = { 0 };

	one.pairs = GD_CK_EACH_NIC_LOOPBACK;
	one.memory = GD_CK_MEM_HOST;
	if (rail[0] && domain)
		snprintf(one.fab.domain, sizeof(one.fab.domain), "%s", rail);
	else if (rail[0])
		snprintf(one.device, sizeof(one.device), "%s", rail);
	if (!one.device[0] && gd_ck_run_device(m, &one, one.device, sizeof(one.device)))
		return -1;
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
	if (!gd_fabric_traits_of(run->fab.fabric)->port) { /* libfabric: the side channel's address */
		snprintf(a->dev, sizeof(a->dev), "ofi:%s%s%s", run->fab.provider,
			 rail[0] ? "@" : "", rail);
		ofi_addr(a->ip, sizeof(a->ip));
	}
	if (run->gpu < 0)
		snprintf(a->mem, sizeof(a->mem), "host");
	else
		snprintf(a->mem, sizeof(a->mem), "GPU%d", run->gpu);
	a->line_gbps = run->line_gbps;
	return 0;
}

/*
 * This rank's rails for test t into me and runs (one without --rails all, and for a fan): 0, or
 * -1 with why (a device or domain the test needs is missing).
 */
static int my_rails(const struct gd_ck_machine *m, const struct gd_ck_test *t, bool rails,
		    struct node *me, struct gd_ck_run *runs, char *why, size_t wlen)
{
	char names[GD_CK_MAX_RAILS][GD_CK_RAIL_NAME];
	bool domains;
	int n;

	memset(me, 0, sizeof(*me));
	if (gd_ck_ofi_missing(m, t)) { /* as one node says it (check_run.c) */
		snprintf(why, wlen, "fabric ofi: a rank's gd_check was built without libfabric (%s)",
			 GD_OFI_BUILD_FIX);
		return -1;
	}
	snprintf(why, wlen, "a rank has no RDMA device for this test ('gd_devinfo' on each node "
		 "lists them)");
	if (my_addr(m, t, "", false, &me->a[0], &runs[0]))
		return -1;
	me->n = 1;
	if (!rails || GD_CK_PAT_FAN(t->pattern))
		return 0;
	domains = !gd_fabric_traits_of(runs[0].fab.fabric)->port; /* rails are domains */
	n = gd_ck_rails(m, t, &runs[0].fab, names, GD_CK_MAX_RAILS, why, wlen);
	for (int i = 0; i < n; i++)
		if (my_addr(m, t, names[i], domains, &me->a[i], &runs[i])) {
			snprintf(why, wlen, "rail %s of a rank could not be set up for this test",
				 names[i]);
			return -1;
		}
	me->n = n > 0 ? n : 0;
	return n > 0 ? 0 : -1;
}

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

/* What a rank ran in a round: the pair (-1: none), its side, its measurement, the verdict
 * of its port's counters (judged here, where the port is). */
struct side_out {
	long k;
	int server;
	struct gd_ck_measure m;
	struct gd_ck_ctr_side ctr;
};

/* This rank's side of a pair on port over its rail's run (mine), the server at srv: the engine
 * run, its measurement in m. */
static void run_side(const struct gd_machine *mach, const struct gd_ck_run *mine,
		     const struct addr *srv, bool server, uint16_t port, struct gd_ck_measure *m,
		     struct gd_ck_ctr_side *cs)
{
	const struct gd_launch *launch = gd_launch();
	struct gd_bench_result *res = calloc(1, sizeof(*res));
	struct gd_bench_params p;
	struct gd_ck_run run = *mine;
	struct gd_ck_bond_sample b0;
	struct gd_ck_ctr_run ctr;
	char who[48];
	bool bonded;

	memset(m, 0, sizeof(*m));
	memset(cs, 0, sizeof(*cs));
	if (!res) {
		m->exit_code = GD_EXIT_ENV;
		snprintf(m->error, sizeof(m->error), "rank %d: out of memory", launch->rank);
		return;
	}
	run.tcp_port = port;
	snprintf(run.peer_ip, sizeof(run.peer_ip), "%s", srv->ip);
	gd_ck_params(&run, run.t->sweep_min ? run.t->sweep_min : run.t->size,
		     server ? GD_ROLE_SERVER : GD_ROLE_CLIENT, &p);
	bonded = !server && run.t->kind == GD_KIND_BW &&
		 !gd_ck_bond_sample(mach, run.dev, run.port, &b0);
	gd_ck_counters_before(mach, &run, &ctr);
	m->exit_code = gd_bench_run_side(&p, NULL, res);
	snprintf(who, sizeof(who), "rank%d (%s)", launch->rank, server ? "server" : "client");
	gd_ck_counters_side(mach, &run, &ctr, who, cs);
	if (bonded)
		bond_after(mach, &run, &b0, m);
	if (!m->exit_code)
		gd_ck_take(res, m);
	else
		snprintf(m->error, sizeof(m->error), "rank %d (%s side) ended with exit code %d",
			 launch->rank, server ? "server" : "client", m->exit_code);
	free(res);
}

/* The pairs of round r that this rank is in (ks, at most max); their count. */
static size_t my_pairs(const struct gd_ck_sched *sc, size_t r, int rank, size_t *ks, size_t max)
{
	size_t n = 0;

	for (size_t k = sc->start[r]; k < sc->start[r + 1] && n < max; k++)
		if (sc->pairs[k][0] == rank || sc->pairs[k][1] == rank)
			ks[n++] = k;
	return n;
}

/* The most pairs one rank is in, in round r: 1, but for a fan's round at once. */
static size_t per_rank(const struct gd_ck_sched *sc, size_t r, int n)
{
	size_t *c = calloc((size_t)n, sizeof(*c)), most = 1;

	for (size_t k = sc->start[r]; c && k < sc->start[r + 1]; k++)
		for (int e = 0; e < 2; e++)
			if (++c[sc->pairs[k][e]] > most)
				most = c[sc->pairs[k][e]];
	free(c);
	return most;
}

/* Read a child's side_out until the deadline; reap it (killed when late). true: got all. */
static bool reap_side(pid_t pid, int fd, struct side_out *o, uint64_t deadline_ns)
{
	size_t got = 0;

	while (got < sizeof(*o) && !gd_ck_stop) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		uint64_t now = gd_clock_mono_ns();
		ssize_t n;

		if (now >= deadline_ns || poll(&pf, 1, (int)((deadline_ns - now) / 1000000 + 1)) < 0)
			break;
		n = read(fd, (char *)o + got, sizeof(*o) - got);
		if (n <= 0 && !(n < 0 && errno == EINTR))
			break;
		got += n > 0 ? (size_t)n : 0;
	}
	close(fd);
	if (got < sizeof(*o))
		kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return got == sizeof(*o);
}

/* This rank's sides ks[0 .. n) of round r at once, each in a child of its own (the engine runs
 * one side a process), their results in out; a side without a result by the deadline is an
 * error naming it. */
static void run_sides(const struct gd_machine *mach, const struct gd_ck_run *mine,
		      const struct node *all, const struct gd_ck_sched *sc, const size_t *ks,
		      size_t n, const uint16_t *ports, size_t r, struct side_out *out)
{
	const int rank = gd_launch()->rank;
	uint64_t deadline = gd_clock_mono_ns() + (uint64_t)pair_ms(mine->t) * 1000000ull;
	pid_t pid[GD_CK_FAN_MAX_ONCE];
	int fd[GD_CK_FAN_MAX_ONCE];

	for (size_t j = 0; j < n; j++) {
		const int *pr = sc->pairs[ks[j]];
		int p[2];

		out[j] = (struct side_out){ .k = (long)ks[j], .server = pr[0] == rank };
		pid[j] = -1;
		fflush(NULL);
		if (!pipe2(p, O_CLOEXEC) && (pid[j] = fork()) < 0) {
			int e = errno;

			close(p[0]);
			close(p[1]);
			errno = e;
		}
		if (pid[j] < 0) {
			out[j].m.exit_code = GD_EXIT_ENV;
			snprintf(out[j].m.error, sizeof(out[j].m.error), "rank %d: fork or pipe: %s",
				 rank, strerror(errno));
			continue;
		}
		if (pid[j] == 0) {
			setpgid(0, 0);
			close(p[0]);
			int rail = gd_ck_sched_rail(sc, ks[j]);

			run_side(mach, &mine[rail], AT(all, pr[0], rail), pr[0] == rank,
				 ports[ks[j] - sc->start[r]], &out[j].m, &out[j].ctr);
			_exit(write(p[1], &out[j], sizeof(out[j])) == (ssize_t)sizeof(out[j]) ? 0 :
			      GD_EXIT_ENV);
		}
		setpgid(pid[j], pid[j]);
		close(p[1]);
		fd[j] = p[0];
	}
	for (size_t j = 0; j < n; j++)
		if (pid[j] > 0 && !reap_side(pid[j], fd[j], &out[j], deadline)) {
			memset(&out[j].m, 0, sizeof(out[j].m));
			out[j].k = (long)ks[j];
			out[j].m.exit_code = GD_EXIT_ENV;
			snprintf(out[j].m.error, sizeof(out[j].m.error), "rank %d (%s side): no result "
				 "before the pair's deadline", rank, out[j].server ? "server" : "client");
		}
}

/*
 * One round of the schedule: every rank in a pair of the round runs its side at once (pair
 * j of the round on port ports[j]; a rank in several pairs, a fan's root, runs each side in
 * a child of its own); then every rank gets every side's result, and ms[k] is pair k's
 * client measurement, or its server's error when the client has none. -ETIMEDOUT when a
 * rank did not report within the pair's deadline.
 */
static int run_round(const struct gd_machine *mach, const struct gd_ck_run *mine,
		     const struct node *all, const struct gd_ck_sched *sc, size_t r,
		     const uint16_t *ports, struct gd_ck_measure *ms, struct gd_ck_ctr_side (*cs)[2])
{
	const struct gd_launch *launch = gd_launch();
	size_t per = per_rank(sc, r, launch->size), ks[GD_CK_FAN_MAX_ONCE], nk, total;
	struct side_out *me = calloc(per, sizeof(*me)), *outs;
	int ret = 0;

	if (!me || per > GD_CK_FAN_MAX_ONCE || !(outs = calloc((size_t)launch->size * per, sizeof(*outs)))) {
		free(me);
		return -ENOMEM;
	}
	total = (size_t)launch->size * per;
	for (size_t j = 0; j < per; j++)
		me[j].k = -1;
	nk = my_pairs(sc, r, launch->rank, ks, per);
	if (nk == 1) {
		me[0].k = (long)ks[0];
		me[0].server = sc->pairs[ks[0]][0] == launch->rank;
		int rail = gd_ck_sched_rail(sc, ks[0]);

		run_side(mach, &mine[rail], AT(all, sc->pairs[ks[0]][0], rail), me[0].server,
			 ports[ks[0] - sc->start[r]], &me[0].m, &me[0].ctr);
	} else if (nk > 1) {
		run_sides(mach, mine, all, sc, ks, nk, ports, r, me);
	}
	if (gd_launch_allgather(me, outs, per * sizeof(*me), pair_ms(mine->t),
				"the results of a round"))
		ret = -ETIMEDOUT;
	for (int pass = 0; pass < 2 && !ret; pass++) /* the client's, then a server's error */
		for (size_t i = 0; i < total; i++) {
			const struct side_out *o = &outs[i];

			if (o->k < (long)sc->start[r] || o->k >= (long)sc->start[r + 1] ||
			    o->server != pass)
				continue; /* in no pair this round (or a garbled entry) */
			if (!pass || (!ms[o->k].exit_code && o->m.exit_code))
				ms[o->k] = o->m;
			cs[o->k - (long)sc->start[r]][!o->server] = o->ctr; /* server 0, client 1 */
		}
	free(me);
	free(outs);
	return ret;
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

static void print_pairs(FILE *out, const struct gd_ck_test *t, const struct node *all,
			int (*pairs)[2], const int *rail, const struct gd_ck_measure *ms, size_t np)
{
	size_t worst = np;

	fprintf(out, "\n%s: %zu pair(s), pattern %s\n%-6s %-6s %-30s %-30s %12s\n", t->name, np,
		gd_ck_pattern_name(t->pattern), "SERVER", "CLIENT", "SERVER HOST/DEV",
		"CLIENT HOST/DEV", t->kind == GD_KIND_BW ? "AVG Gb/s" : "AVG us");
	for (size_t k = 0; k < np; k++) {
		const struct gd_ck_measure *m = &ms[k];
		double v = t->kind == GD_KIND_BW ? m->bw_avg_gbps[0] : m->lat_avg_us[0];
		char a[40], b[40], val[24];

		const struct addr *x = AT(all, pairs[k][0], rail[k]), *y = AT(all, pairs[k][1], rail[k]);

		snprintf(a, sizeof(a), "%s/%s", x->host, x->dev);
		snprintf(b, sizeof(b), "%s/%s", y->host, y->dev);
		snprintf(val, sizeof(val), m->exit_code || !m->nsizes ? "failed" : "%.2f", v);
		fprintf(out, "%-6d %-6d %-30s %-30s %12s\n", pairs[k][0], pairs[k][1], a, b, val);
		if (worst == np || worse(t, m, &ms[worst]))
			worst = k;
	}
	if (worst < np)
		fprintf(out, "worst pair: rank %d -> rank %d (%s/%s -> %s/%s)\n", pairs[worst][0],
			pairs[worst][1], AT(all, pairs[worst][0], rail[worst])->host,
			AT(all, pairs[worst][0], rail[worst])->dev,
			AT(all, pairs[worst][1], rail[worst])->host,
			AT(all, pairs[worst][1], rail[worst])->dev);
}

/* The pairs' results to the fleet view (rank 0): distribution, outliers, their items. */
static void fleet_view(struct gd_ck_report *r, const struct gd_ck_test *t, double pct,
		       const struct node *all, int (*pairs)[2], const int *rail,
		       const struct gd_ck_measure *ms, size_t np, FILE *out)
{
	struct gd_ck_fleet_pair *fp = calloc(np ? np : 1, sizeof(*fp));

	if (!fp)
		return;
	for (size_t k = 0; k < np; k++) {
		for (int e = 0; e < 2; e++) {
			const struct addr *a = AT(all, pairs[k][e], rail[k]);
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

/* A fan's congestion (check_fan.h): pairs[0 .. n) alone, pairs[n + j] pair j at once. */
static void fan_view(struct gd_ck_report *r, const struct gd_ck_test *t, const struct node *all,
		     int (*pairs)[2], const struct gd_ck_measure *ms, size_t n, FILE *out,
		     uint64_t t0)
{
	struct gd_ck_fan_pair *fp = calloc(n, sizeof(*fp));

	if (!fp)
		return;
	for (size_t k = 0; k < n; k++) {
		for (int e = 0; e < 2; e++) {
			fp[k].rank[e] = pairs[k][e];
			snprintf(fp[k].end[e], sizeof(fp[k].end[e]), "%s/%s",
				 AT(all, pairs[k][e], 0)->host, AT(all, pairs[k][e], 0)->dev);
		}
		fp[k].alone = &ms[k];
		fp[k].once = &ms[n + k];
	}
	if (out)
		gd_ck_fan_print(out, t, fp, n);
	gd_ck_fan_items(r, t, fp, n, (double)(gd_clock_mono_ns() - t0) / 1e9);
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
static void judge_pair(struct gd_ck_report *r, const struct gd_ck_run *run, const struct node *all,
		       const int pair[2], int rail, uint16_t port, const struct gd_ck_measure *m, uint64_t t0,
		       const struct gd_ck_ctr_side cs[2], bool once)
{
	struct gd_ck_run x = *run;
	struct gd_ck_test bare;

	x.tcp_port = port;
	snprintf(x.label, sizeof(x.label), "rank%d(%s)->rank%d(%s)%s", pair[0],
		 AT(all, pair[0], rail)->dev, pair[1], AT(all, pair[1], rail)->dev,
		 once ? " at once" : "");
	if (once) { /* a fan's pair beside the others: its thresholds are for the pair alone */
		bare = *run->t;
		bare.nth = 0;
		x.t = &bare;
	}
	snprintf(x.peer_ip, sizeof(x.peer_ip), "%s", AT(all, pair[0], rail)->ip);
	snprintf(x.cls, sizeof(x.cls), "net");
	x.line_gbps = AT(all, pair[0], rail)->line_gbps;
	gd_ck_evaluate(r, &x, m, (double)(gd_clock_mono_ns() - t0) / 1e9);
	for (int e = 0; e < 2; e++) { /* each side's port, judged on its rank */
		char who[48];

		snprintf(who, sizeof(who), "rank%d", pair[e]);
		gd_ck_counters_side_item(r, &x, m, (double)(gd_clock_mono_ns() - t0) / 1e9, who,
					 &cs[e]);
	}
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
static size_t plan_pairs(const struct gd_ck_test *t, const struct node *all, int n,
			 int (*pairs)[2], size_t max, struct gd_ck_report *r)
{
	char ev[320];
	size_t np, len = 0;
	int at[2] = { -1, -1 };

	if (!t->nhosts) {
		if (GD_CK_PAT_FAN(t->pattern) && t->root >= n) {
			struct gd_ck_item *it = hosts_item(r, t);

			snprintf(ev, sizeof(ev), "root %d is not a rank of this launch of %d ranks: "
				 "set root below %d, or start more ranks", t->root, n, n);
			if (it)
				gd_ck_judge_holds(it, false, ev);
			return 0;
		}
		np = gd_ck_pairs_root(t->pattern, n, t->root, pairs, GD_CK_PAT_FAN(t->pattern) ?
				      max / 2 : max); /* a fan runs each pair twice */
		if (gd_launch()->rank == 0)
			left_out(t, n, np);
		return np;
	}
	for (int h = 0; h < 2; h++)
		for (int i = 0; i < n && at[h] < 0; i++)
			if (same_host(AT(all, i, 0)->host, t->hosts[h]) && (h == 0 || i != at[0]))
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
					AT(all, i, 0)->host);
	if (len < sizeof(ev) - 1)
		snprintf(ev + len, sizeof(ev) - len, "): start a rank on each named host");
	struct gd_ck_item *it = hosts_item(r, t);

	if (it)
		gd_ck_judge_holds(it, false, ev);
	return 0;
}

/* The schedule's shape, on rank 0; with rails, each node pair's NIC pairs and the rails. */
static void announce(FILE *out, const struct gd_ck_test *t, const struct gd_ck_sched *sc,
		     size_t cap, const struct node *all, size_t rails)
{
	size_t widest = 0;

	if (gd_launch()->rank || !out || !sc->np)
		return;
	for (size_t r = 0; r < sc->nrounds; r++)
		if (sc->start[r + 1] - sc->start[r] > widest)
			widest = sc->start[r + 1] - sc->start[r];
	if (sc->nalone)
		fprintf(out, "%s: %zu pair(s) alone, then at once in %zu round(s) of at most %zu\n",
			t->name, sc->nalone, sc->nrounds - sc->nalone, sc->start[sc->nalone + 1] -
			sc->start[sc->nalone]);
	else if (rails < 2)
		fprintf(out, "%s: %zu pair(s) in %zu round(s) of at most %zu at once\n", t->name,
			sc->np, sc->nrounds, cap ? cap : (size_t)gd_launch()->size / 2);
	else {
		fprintf(out, "%s: %zu NIC pair(s) (%zu node pair(s) x %zu rails:", t->name, sc->np,
			sc->np / rails, rails);
		for (size_t i = 0; i < rails; i++)
			fprintf(out, " %s", AT(all, 0, i)->dev);
		fprintf(out, ") in %zu round(s) of at most %zu at once\n", sc->nrounds, widest);
	}
}

/*
 * The pairs in rounds of disjoint pairs (check_sched.h), every pair of a round at once on
 * its own port, a node pair's rails (runs[i], rail i) together; rank 0 judges each pair when
 * its round is over. The pairs come back in round order (pairs, rail and ms). Every rank goes
 * on, or all stop: a signal on one rank (a Slurm time limit) ends the test on all.
 */
static size_t run_rounds(const struct gd_machine *mach, const struct gd_ck_run *runs,
			 const struct node *all, int (*pairs)[2], int *rail, size_t np,
			 size_t rails, const struct gd_ck_opts *o, uint16_t *port,
			 struct gd_ck_report *r, struct gd_ck_measure *ms, size_t *nalone)
{
	const struct gd_launch *launch = gd_launch();
	struct gd_ck_sched sc;
	uint16_t ports[4096];
	struct gd_ck_ctr_side (*cs)[2];
	int go;

	*nalone = 0;
	if (gd_ck_schedule_test_rails(runs->t->pattern, (const int (*)[2])pairs, np, launch->size,
				      rails, o->concurrency, &sc))
		return 0;
	if (!(cs = calloc(sc.np ? sc.np : 1, sizeof(*cs)))) {
		gd_ck_sched_free(&sc);
		return 0;
	}
	memcpy(pairs, sc.pairs, sc.np * sizeof(*pairs));
	for (size_t k = 0; k < sc.np; k++)
		rail[k] = gd_ck_sched_rail(&sc, k);
	*nalone = sc.nalone;
	announce(o->out, runs->t, &sc, o->concurrency, all, rails);
	for (size_t rd = 0; rd < sc.nrounds; rd++) {
		uint64_t t0 = gd_clock_mono_ns();

		for (size_t j = 0; j < sc.start[rd + 1] - sc.start[rd]; j++) {
			ports[j] = *port; /* wraps inside the range, never to 0 */
			*port = gd_ck_next_port(o->base_port, *port);
		}
		memset(cs, 0, (sc.np ? sc.np : 1) * sizeof(*cs));
		if (run_round(mach, runs, all, &sc, rd, ports, ms, cs))
			break;
		for (size_t k = sc.start[rd]; k < sc.start[rd + 1] && launch->rank == 0; k++)
			judge_pair(r, &runs[rail[k]], all, sc.pairs[k], rail[k],
				   ports[k - sc.start[rd]], &ms[k], t0, cs[k - sc.start[rd]],
				   sc.nalone && k >= sc.nalone);
		go = !gd_ck_stop;
		if (gd_launch_min(&go, STEP_MS, "the end of a round") || !go) {
			gd_ck_stop = gd_ck_stop ? gd_ck_stop : SIGTERM;
			break;
		}
	}
	np = sc.np;
	gd_ck_sched_free(&sc);
	free(cs);
	return np;
}

/* The rails every rank runs: the fewest any rank has. Ranks with other counts (a node that
 * lost a NIC) FAIL the test's rails item, naming them; every rank adds it (one exit code). */
static size_t rails_agree(const struct gd_ck_test *t, const struct node *all, int n,
			  struct gd_ck_report *r)
{
	int lo = 0, hi = 0;
	char ev[256];
	struct gd_ck_item *it;

	for (int i = 1; i < n; i++) {
		lo = all[i].n < all[lo].n ? i : lo;
		hi = all[i].n > all[hi].n ? i : hi;
	}
	if (all[lo].n == all[hi].n)
		return (size_t)all[0].n;
	snprintf(ev, sizeof(ev), "rank %d (%s) has %d rail(s), rank %d (%s) %d: every node of "
		 "a rails test needs the same NICs ('gd_devinfo' on each); the first %d run",
		 lo, AT(all, lo, 0)->host, all[lo].n, hi, AT(all, hi, 0)->host, all[hi].n,
		 all[lo].n);
	it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s: rails", t->name);
	if (it)
		gd_ck_judge_holds(it, false, ev);
	return (size_t)all[lo].n;
}

/* The ranks' rails gathered into all; 0, or an exit code (ok false: a rank lacks a device). */
static int gather_rails(const struct gd_ck_test *t, const struct gd_ck_machine *m,
			const struct gd_ck_opts *o, struct node *all, struct gd_ck_run *runs,
			int *ok, char *why, size_t wlen)
{
	struct node me;

	*ok = !my_rails(m, t, o->rails, &me, runs, why, wlen);
	if (!*ok)
		memset(runs, 0, GD_CK_MAX_RAILS * sizeof(*runs));
	if (gd_launch_allgather(&me, all, sizeof(me), STEP_MS, "the ranks' addresses") ||
	    gd_launch_min(ok, STEP_MS, "the ranks' device check"))
		return GD_EXIT_ENV;
	return 0;
}

static int hosts_test(const struct gd_ck_test *t, double pct, const struct gd_ck_machine *m,
		      const struct gd_ck_opts *o, struct gd_ck_report *r, uint16_t *port)
{
	const struct gd_launch *launch = gd_launch();
	struct node *all = calloc((size_t)launch->size, sizeof(*all));
	int (*pairs)[2] = calloc(4096, sizeof(*pairs)), *rail = calloc(4096, sizeof(*rail));
	struct gd_ck_measure *ms = calloc(4096, sizeof(*ms));
	struct gd_ck_run *runs = calloc(GD_CK_MAX_RAILS, sizeof(*runs));
	size_t np = 0, nalone, rails;
	uint64_t t0 = gd_clock_mono_ns();
	char why[256];
	int ok, ret = GD_EXIT_ENV;

	if (!all || !pairs || !rail || !ms || !runs ||
	    (ret = gather_rails(t, m, o, all, runs, &ok, why, sizeof(why))))
		goto out;
	if (!ok) { /* a device the test needs is missing on a node: the gate fails */
		struct gd_ck_item *it = hosts_item(r, t);

		if (it)
			gd_ck_judge_holds(it, false, why);
		goto out;
	}
	rails = rails_agree(t, all, launch->size, r);
	np = plan_pairs(t, all, launch->size, pairs, 4096 / rails, r);
	np = run_rounds(m->mach, runs, all, pairs, rail, np, rails, o, port, r, ms, &nalone);
	ok = !gd_launch_barrier(STEP_MS, "the end of a test"); /* fails at once if broken */
	ret = ok ? 0 : GD_EXIT_ENV;
	if (ok && launch->rank == 0 && nalone) /* a fan: the pairs alone are its pairs */
		fan_view(r, t, all, pairs, ms, nalone, o->out, t0);
	np = nalone ? nalone : np;
	if (ok && launch->rank == 0 && o->out && !nalone)
		print_pairs(o->out, t, all, pairs, rail, ms, np);
	if (ok && launch->rank == 0)
		fleet_view(r, t, pct, all, pairs, rail, ms, np, o->out);
out:
	free(all), free(pairs), free(rail), free(ms), free(runs);
	return ret;
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
