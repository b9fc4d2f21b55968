/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * pairs: all-nics: every NIC at once, each a loopback from its nearest GPU (memory: gpu) or
 * host memory on its NUMA node (check_machine.c expands the runs). Each run is
 * gd_ck_loopback (the engine's server forked, its client) in a child of its own; the children
 * start together and share one deadline; each sends its measurement back through a pipe.
 * One pair at a time never shows a shared PCIe switch, a saturated root complex or a CPU
 * that cannot feed every port: this test does. Items: each NIC's run (ran, its bandwidth
 * and share of the aggregate) and the aggregate against the test's min_bw ("70% line": of
 * the summed line rates of the NICs; or Gb/s). An aggregate that missed a min_bw while every
 * NIC ran is retried as any test's threshold (check_attempt.c): the whole run again, every
 * NIC together; the items are the last attempt's, the aggregate's with every attempt.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "check_allnics.h"
#include "check_counters.h"
#include "gd.h"
#include "judge.h"

struct child {
	pid_t pid;
	int fd;			/* the read end of its pipe, -1 once read */
	size_t got;		/* bytes of m read */
	struct gd_ck_measure m;
};

/* Fork one run: its own process group (its server is its child), the result on a pipe. */
static int start(const struct gd_ck_run *run, uint64_t size, struct child *c)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (c->pid == 0) {
		struct gd_ck_measure m = { 0 };
		ssize_t w;

		setpgid(0, 0);
		close(p[0]);
		gd_ck_loopback(run, size, &m);
		w = write(p[1], &m, sizeof(m));
		_exit(w == (ssize_t)sizeof(m) ? 0 : GD_EXIT_ENV);
	}
	setpgid(c->pid, c->pid);
	close(p[1]);
	c->fd = p[0];
	return 0;
}

/* Read what the children send until each has sent all or the deadline passed. */
static void collect(struct child *c, size_t n, uint64_t deadline_ns)
{
	struct pollfd *pf = calloc(n, sizeof(*pf));
	size_t open = n;

	while (pf && open && gd_clock_mono_ns() < deadline_ns && !gd_ck_stop) {
		for (size_t i = 0; i < n; i++)
			pf[i] = (struct pollfd){ .fd = c[i].fd, .events = POLLIN };
		if (poll(pf, n, 200) < 0 && errno != EINTR)
			break;
		for (size_t i = 0; i < n; i++) {
			ssize_t r;

			if (c[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			r = read(c[i].fd, (char *)&c[i].m + c[i].got, sizeof(c[i].m) - c[i].got);
			if (r > 0)
				c[i].got += (size_t)r;
			if (r <= 0 || c[i].got == sizeof(c[i].m)) {
				close(c[i].fd);
				c[i].fd = -1;
				open--;
			}
		}
	}
	free(pf);
}

/* End the children (and their servers) that are left; reap every one. */
static void finish(struct child *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (c[i].fd >= 0) {
			close(c[i].fd);
			c[i].fd = -1;
		}
		if (c[i].pid > 0 && waitpid(c[i].pid, NULL, WNOHANG) == 0) {
			kill(-c[i].pid, SIGKILL);
			waitpid(c[i].pid, NULL, 0);
		}
		if (c[i].got != sizeof(c[i].m)) {
			memset(&c[i].m, 0, sizeof(c[i].m));
			c[i].m.exit_code = gd_ck_stop ? 128 + gd_ck_stop : GD_EXIT_ENV;
			snprintf(c[i].m.error, sizeof(c[i].m.error), "%s", gd_ck_stop ?
				 "interrupted by a signal" : c[i].pid <= 0 ? "could not start "
				 "(fork, pipe or no free port)" : "no result before the test's "
				 "deadline");
		}
	}
}

static bool ran(const struct gd_ck_measure *m)
{
	return !m->exit_code && m->nsizes;
}

static double bw_of(const struct gd_ck_measure *m)
{
	return ran(m) ? m->bw_avg_gbps[m->nsizes - 1] : 0;
}

/* Each NIC's item: it ran alongside the others, its bandwidth and share. */
static void nic_item(struct gd_ck_report *r, const struct gd_ck_run *run,
		     const struct gd_ck_measure *m, double total, uint64_t size, double secs)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s %s: runs", run->t->name,
					  run->label);
	char ev[320];

	if (!it)
		return;
	it->seconds = secs;
	snprintf(it->path_class, sizeof(it->path_class), "%s", run->cls);
	snprintf(it->expected, sizeof(it->expected), "completes with the other NICs");
	gd_ck_command(run, size, it->command, sizeof(it->command));
	gd_ck_where_set(it, run, m);
	if (!ran(m)) {
		snprintf(ev, sizeof(ev), "%s", m->error[0] ? m->error : "no result");
		if (gd_ck_engine_not_run(m->exit_code))
			gd_ck_judge_not_run(it, ev);
		else
			gd_ck_judge_holds(it, false, ev);
		return;
	}
	snprintf(it->measured, sizeof(it->measured), "%.3g Gb/s", bw_of(m));
	gd_ck_item_value(it, bw_of(m), "Gb/s");
	snprintf(ev, sizeof(ev), "%.1f %% of the aggregate%s", total > 0 ? bw_of(m) / total * 100 :
		 0, run->line_gbps > 0 ? "" : "; line rate not known");
	if (run->line_gbps > 0)
		snprintf(ev + strlen(ev), sizeof(ev) - strlen(ev), "; %.1f %% of its %g Gb/s line",
			 bw_of(m) / run->line_gbps * 100, run->line_gbps);
	gd_ck_judge_holds(it, true, ev);
}

/* A NIC whose run has no result: the aggregate is not a measurement of every NIC. */
static bool aggregate_incomplete(struct gd_ck_item *it, const struct gd_ck_run *runs,
				 const struct child *c, size_t n)
{
	char ev[400];

	for (size_t i = 0; i < n; i++) {
		if (ran(&c[i].m))
			continue;
		snprintf(ev, sizeof(ev), "%s did not finish: %s", runs[i].label,
			 c[i].m.error[0] ? c[i].m.error : "no result");
		if (gd_ck_engine_not_run(c[i].m.exit_code))
			gd_ck_judge_not_run(it, ev);
		else
			gd_ck_judge_holds(it, false, ev);
		return true;
	}
	return false;
}

/* The aggregate against one threshold (min_bw): of the summed line rates, or absolute. */
static void aggregate(struct gd_ck_report *r, const struct gd_ck_run *runs, const struct child *c,
		      size_t n, const struct gd_ck_threshold *th)
{
	const struct gd_ck_test *t = runs[0].t;
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s: aggregate of %zu NICs%s%s",
					  t->name, n, th ? ": " : "", th ? th->text : "");
	struct gd_ck_meas m = { .cmp = GD_CK_GE };
	double total = 0, line = 0;
	char ev[200];

	if (!it)
		return;
	for (size_t i = 0; i < n; i++) {
		total += bw_of(&c[i].m);
		line = line >= 0 && runs[i].line_gbps > 0 ? line + runs[i].line_gbps : -1;
	}
	/* a sum of every NIC's, never of some: not even as text */
	snprintf(it->measured, sizeof(it->measured), "incomplete");
	if (aggregate_incomplete(it, runs, c, n))
		return;
	snprintf(it->measured, sizeof(it->measured), "%.3g Gb/s", total);
	gd_ck_item_value(it, total, "Gb/s"); /* a sum of every NIC's, never of some */
	if (!th) {
		gd_ck_judge_holds(it, true, NULL);
		return;
	}
	m.value = total;
	m.expect = th->kind == GD_CK_LINE ? th->value / 100 * line : th->value;
	if (th->kind == GD_CK_LINE && line > 0)
		snprintf(it->expected, sizeof(it->expected), ">= %.3g Gb/s (%g%% of %g Gb/s summed "
			 "line rates)", m.expect, th->value, line);
	else
		snprintf(it->expected, sizeof(it->expected), ">= %.4g Gb/s", m.expect);
	if (th->kind == GD_CK_LINE && line <= 0)
		m.skip = GD_CK_SKIP_NO_LINE;
	snprintf(ev, sizeof(ev), "%zu NICs at once", n);
	m.evidence = ev;
	gd_ck_judge(it, &m);
}

/* The aggregate's items: one per min_bw, or one without thresholds. */
static void aggregates(struct gd_ck_report *r, const struct gd_ck_run *runs, const struct child *c,
		       size_t n)
{
	const struct gd_ck_test *t = runs[0].t;

	for (size_t k = 0; k < t->nth; k++)
		aggregate(r, runs, c, n, &t->th[k]);
	if (!t->nth)
		aggregate(r, runs, c, n, NULL);
}

/* One attempt: every NIC's run started at once, each on a free side-channel port, with one
 * deadline for all (the run's own from duration or iterations and size, the server's
 * side-channel timeout, and the time to collect); their measurements in c. GD_EXIT_ENV when
 * no free port was left (the runs are not started). */
static int attempt(const struct gd_ck_report *r, struct gd_ck_run *runs, size_t n,
		   uint64_t size, uint16_t base, uint16_t *port, struct child *c)
{
	uint64_t t0 = gd_clock_mono_ns();
	size_t started = 0;
	int ret = 0;

	memset(c, 0, n * sizeof(*c));
	for (size_t i = 0; i < n; i++)
		c[i].fd = -1;
	for (size_t i = 0; i < n; i++) {
		if (gd_ck_free_port(base, port)) {
			ret = GD_EXIT_ENV;
			break;
		}
		runs[i].tcp_port = *port;
		*port = gd_ck_next_port(base, *port);
	}
	for (size_t i = 0; !ret && !gd_ck_ladder_blocked(r) && i < n &&
			   start(&runs[i], size, &c[i]) == 0; i++)
		started++;
	collect(c, started, t0 + (uint64_t)(gd_ck_deadline_s(runs[0].t, size) + 30) *
		1000000000ull);
	finish(c, n);
	return ret;
}

/* Keep the attempt's aggregate verdicts (check_attempt.c: the rule of every test); true when
 * every NIC ran and the aggregate missed a min_bw: all of them run again, together. */
static bool keep(struct gd_ck_tries *tr, const struct gd_ck_run *runs, const struct child *c,
		 size_t n, double seconds)
{
	struct gd_ck_report tmp = { 0 };
	bool all_ran = true, retry;

	for (size_t i = 0; i < n; i++)
		all_ran &= ran(&c[i].m);
	aggregates(&tmp, runs, c, n);
	retry = gd_ck_tries_keep(tr, runs[0].t, &tmp, seconds, all_ran);
	gd_ck_report_free(&tmp);
	return retry;
}

int gd_ck_all_nics(const struct gd_machine *m, const struct gd_ck_spec *s, struct gd_ck_report *r,
		   struct gd_ck_run *runs, size_t n, uint16_t base, uint16_t *port)
{
	const struct gd_ck_test *t = runs[0].t;
	uint64_t sizes[32], t0 = gd_clock_mono_ns(), ta;
	size_t ns = gd_ck_test_sizes(t, sizes, 32), first;
	uint64_t size = ns ? sizes[ns - 1] : t->size;
	struct child *c = calloc(n, sizeof(*c));
	struct gd_ck_ctr_run *ctr = calloc(n, sizeof(*ctr));
	struct gd_ck_tries tr = { 0 };
	double total = 0, secs;
	int ret = 0;

	if (!c || !ctr) {
		free(c), free(ctr);
		return GD_EXIT_ENV;
	}
	for (size_t i = 0; i < n && !gd_ck_ladder_blocked(r); i++) /* every NIC's port */
		gd_ck_counters_before(m, &runs[i], &ctr[i]);
	/* the first attempt even above a failed rung: none of its runs starts (SKIP "not run") */
	do {
		ta = gd_clock_mono_ns();
		ret = attempt(r, runs, n, size, base, port, c);
		keep(&tr, runs, c, n, (double)(gd_clock_mono_ns() - ta) / 1e9);
	} while (!ret && gd_ck_tries_again(s, t, r, &tr));
	secs = (double)(gd_clock_mono_ns() - t0) / 1e9;
	for (size_t i = 0; i < n; i++)
		total += bw_of(&c[i].m);
	for (size_t i = 0; i < n; i++) {
		nic_item(r, &runs[i], &c[i].m, total, size, secs);
		gd_ck_expect_item(r, &runs[i], &c[i].m, secs);
		gd_ck_counters_item(r, m, &runs[i], &c[i].m, secs, &ctr[i]);
	}
	first = r->n;
	aggregates(r, runs, c, n);
	gd_ck_tries_attach(r, first, &tr);
	free(c);
	free(ctr);
	return ret;
}
