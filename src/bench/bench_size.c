/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One message size: run the loop (the initiator's choice of gd_loop_ops),
 * exchange the results with the peer over the side channel, record them in
 * the result model, report them, check the limits (-w, -y).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench_fabric.h"
#include "bench_int.h"
#include "gd.h"
#include "log.h"
#include "oob.h"

int gd_bench_measured(void *bench, const struct gd_bw_result *res)
{
	struct gd_bench *b = bench;
	struct gd_wire_results r;

	memset(&r, 0, sizeof(r));
	r.status = 0;
	r.kind = GD_KIND_BW;
	r.bw.size = res->size;
	r.bw.iters = res->iters;
	r.bw.ops = res->ops;
	r.bw.bw_peak = res->peak_Bps;
	r.bw.bw_avg = res->avg_Bps;
	r.bw.msgrate = res->msg_rate;
	return gd_oob_send_results(b->oob, &r);
}

void gd_bench_interval(void *bench, const struct gd_bw_result *res)
{
	struct gd_bench *b = bench;

	gd_report_bw_interval(&b->rep, res);
}

static int recv_results(struct gd_bench *b, struct gd_bw_result *peer, int timeout_ms)
{
	struct gd_wire_results r;
	int ret = gd_oob_recv_results(b->oob, &r, timeout_ms);

	if (ret) {
		if (ret == -ECONNABORTED)
			b->exit_code = gd_oob_peer_exit_code(b->oob) ?: GD_EXIT_FAIL;
		else if (!b->exit_code)
			b->exit_code = GD_EXIT_FAIL;
		return ret;
	}
	memset(peer, 0, sizeof(*peer));
	if (r.kind != GD_KIND_BW) {
		gd_error("the peer sent latency results to a bandwidth test");
		b->exit_code = GD_EXIT_USAGE;
		return -EPROTO;
	}
	peer->size = r.bw.size;
	peer->iters = r.bw.iters;
	peer->ops = r.bw.ops;
	peer->peak_Bps = r.bw.bw_peak;
	peer->avg_Bps = r.bw.bw_avg;
	peer->msg_rate = r.bw.msgrate;
	return 0;
}

/* How long a passive side waits for its peer's results. */
static int passive_timeout_ms(const struct gd_bench_params *p)
{
	if (p->run_infinitely)
		return -1;
	if (p->duration_s)
		return (int)(p->duration_s * 1000 + p->timeout_ms);
	return -1; /* an iteration run has no known length: a dead peer ends it (EOF) */
}

static bool check_limits(const struct gd_bench_params *p, const struct gd_bench_size_result *s)
{
	double bw = gd_report_bw_value(p, s->bw_avg_Bps);
	double mr = s->msg_rate / 1e6;
	bool fail = false;

	if (p->limit_bw > 0 && bw < p->limit_bw) {
		gd_error("average bandwidth %.2f %s is below the limit %.2f (--limit_bw)", bw,
			 p->report_gbits ? "Gb/s" : "MiB/s", p->limit_bw);
		fail = true;
	}
	if (p->limit_msgrate > 0 && mr < p->limit_msgrate) {
		gd_error("message rate %.6f Mpps is below the limit %.6f (--limit_msgrate)", mr,
			 p->limit_msgrate);
		fail = true;
	}
	return fail;
}

/* A new entry of the result model (a scratch one when full). */
static struct gd_bench_size_result *next_result(struct gd_bench *b, uint64_t size)
{
	static struct gd_bench_size_result scratch;
	struct gd_bench_size_result *r = &scratch;

	if (b->res->nsizes < GD_BENCH_MAX_SIZES)
		r = &b->res->sizes[b->res->nsizes++];
	memset(r, 0, sizeof(*r));
	r->size = size;
	return r;
}

/* The reported numbers: mine when I measured, the peer's on a passive side,
 * both directions summed with -b (limits check mine, or the peer's). */
static struct gd_bench_size_result *record_bw(struct gd_bench *b, uint64_t size,
					      const struct gd_bw_result *mine,
					      const struct gd_bw_result *peer, bool active)
{
	struct gd_bench_size_result *r = next_result(b, size);
	const struct gd_bw_result *shown = active ? mine : peer;

	r->has_local = active;
	r->local = *mine;
	r->has_peer = true;
	r->peer = *peer;
	r->iters = shown->iters;
	r->bw_avg_Bps = shown->avg_Bps;
	r->bw_peak_Bps = shown->peak_Bps;
	r->msg_rate = shown->msg_rate;
	r->windows = shown->windows;
	r->ci95_rel = shown->ci95_rel;
	r->converged = shown->converged;
	r->epsilon = shown->epsilon;
	return r;
}

/* The measuring thread's CPU time around a loop: only the CPU initiator's
 * loop runs (and busy-polls) in this thread. */
static void sample_cpu(struct gd_bench *b, struct gd_trust_sample *s)
{
	if (b->p.init.initiator == GD_INIT_CPU && !b->p.roce.events) /* -e sleeps */
		gd_trust_sample(s);
	else
		memset(s, 0, sizeof(*s));
}

/* --cpu_util: the host's CPU time at the start of a size. */
static void cpu_start(struct gd_bench *b)
{
	if (b->p.roce.cpu_util && gd_cpu_stat_read(&b->p.machine, &b->cpu0))
		memset(&b->cpu0, 0, sizeof(b->cpu0));
}

/* The noise guard's verdict on a result about to be reported (trust.h), and
 * --cpu_util's figure since cpu_start. */
static void assess(struct gd_bench *b, struct gd_bench_size_result *r)
{
	struct gd_cpu_stat now;

	r->cpu_util_pct = -1;
	if (b->p.roce.cpu_util && b->cpu0.total && !gd_cpu_stat_read(&b->p.machine, &now))
		r->cpu_util_pct = gd_cpu_util_pct(&b->cpu0, &now);
	struct gd_trust_in in = { .windows = r->windows, .converged = r->converged,
				  .ci95_rel = r->ci95_rel, .lat = r->has_lat ? &r->lat : NULL,
				  .t0 = b->t0, .t1 = b->t1, .my_cpu = b->my_cpu,
				  .peer_cpu = b->peer_cpu, .same_host = b->same_host };

	gd_trust_host_load(&b->p.machine, &in.loadavg, &in.ncpus);
	gd_trust_assess(&in, &r->trust);
}

/* A passive side about to wait out a bandwidth test of this size: how often
 * it drives the fabric's progress (bench_fabric.h pace; verbs has nothing to drive). */
static void pace_passive(struct gd_bench *b, uint64_t size)
{
	if (b->fs->pace)
		b->fs->pace(b, size);
}

static int exchange_bw(struct gd_bench *b, uint64_t size, struct gd_bw_result *mine,
		       struct gd_bw_result *peer, bool active)
{
	bool sent = false;
	int ret;

	memset(&b->t0, 0, sizeof(b->t0));
	b->t1 = b->t0;
	cpu_start(b);
	if (!active) {
		pace_passive(b, size);
		ret = recv_results(b, peer, passive_timeout_ms(&b->p));
		memset(mine, 0, sizeof(*mine));
		mine->size = size;
		return ret ?: gd_bench_measured(b, mine);
	}
	sample_cpu(b, &b->t0);
	ret = b->plan.loop_ops->run_bw(&b->loop, size, mine, &sent);
	sample_cpu(b, &b->t1);
	if (ret) {
		b->exit_code = b->exit_code ?: b->loop.exit_code;
		return ret;
	}
	if (!sent && (ret = gd_bench_measured(b, mine)))
		return ret;
	return recv_results(b, peer, (int)b->p.timeout_ms);
}

int gd_bench_bw_size(struct gd_bench *b, uint64_t size, uint64_t *ops_total)
{
	struct gd_bw_result mine, peer;
	bool active = b->plan.roles.initiator || b->plan.roles.receiver;
	struct gd_bench_size_result *r;
	int ret = exchange_bw(b, size, &mine, &peer, active);

	if (ret)
		return ret;
	*ops_total += peer.ops;
	r = record_bw(b, size, &mine, &peer, active);
	if (b->p.bidirectional) {
		struct gd_bench_size_result lim = *r;

		r->bw_avg_Bps += peer.avg_Bps;
		r->msg_rate += peer.msg_rate;
		r->bw_peak_Bps = mine.peak_Bps > 0 && peer.peak_Bps > 0 ?
				 mine.peak_Bps + peer.peak_Bps : 0;
		assess(b, r);
		gd_report_bw(&b->rep, r);
		if (check_limits(&b->p, &lim) && !b->exit_code)
			b->exit_code = GD_EXIT_FAIL;
		return 0;
	}
	assess(b, r);
	gd_report_bw(&b->rep, r);
	/* a passive side judges the numbers it reports (its peer's), as -y always did on
	 * both sides of a pair: a standalone server exits 1 too (hostile D18) */
	if (check_limits(&b->p, r) && !b->exit_code)
		b->exit_code = GD_EXIT_FAIL;
	return 0;
}

/* The latency loop's samples to the result model and the report. */
static void record_lat(struct gd_bench *b, uint64_t size, double *samples, size_t n)
{
	struct gd_bench_size_result *r;
	double *copy = NULL;

	if (!n)
		return; /* the passive side of a read/atomic test: the client reports */
	r = next_result(b, size);
	if (b->p.unsorted) {
		copy = malloc(n * sizeof(*copy));
		if (copy)
			memcpy(copy, samples, n * sizeof(*copy));
	}
	if (gd_lat_stats_compute(samples, n, &r->lat) == 0) { /* sorts the samples */
		r->has_lat = true;
		r->iters = b->p.duration_s ? n : b->p.iters;
	}
	assess(b, r);
	gd_report_lat(&b->rep, r, samples, copy, n);
	free(copy);
}

int gd_bench_lat_size(struct gd_bench *b, uint64_t size, uint64_t *ops_total)
{
	double *samples = NULL;
	size_t n = 0;
	struct gd_bw_result peer, none;
	bool active = b->plan.roles.initiator || b->plan.op->recv ||
		      b->plan.op->target_access == IBV_ACCESS_REMOTE_WRITE;
	int ret = 0;

	memset(&b->t0, 0, sizeof(b->t0));
	b->t1 = b->t0;
	cpu_start(b);
	if (active)
		sample_cpu(b, &b->t0);
	if (active && (ret = b->plan.loop_ops->run_lat(&b->loop, size, &samples, &n))) {
		b->exit_code = b->exit_code ?: b->loop.exit_code;
		return ret;
	}
	if (active)
		sample_cpu(b, &b->t1);
	memset(&none, 0, sizeof(none));
	none.size = size;
	none.ops = n + (n ? b->loop.untimed_ops : 0); /* --validate counts every atomic */
	if (active) {
		ret = gd_bench_measured(b, &none);
		ret = ret ?: recv_results(b, &peer, (int)b->p.timeout_ms);
	} else {
		ret = recv_results(b, &peer, passive_timeout_ms(&b->p));
		ret = ret ?: gd_bench_measured(b, &none);
	}
	if (!ret) {
		*ops_total += peer.ops;
		record_lat(b, size, samples, n);
	}
	free(samples);
	return ret;
}
