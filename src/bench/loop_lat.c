/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The CPU latency loop: write ping-pong on the last byte of the message (or
 * on receives with --write_with_imm), send/recv ping-pong, one outstanding
 * read or atomic. Stamps are raw ticks, converted to microseconds after
 * the run; a ping-pong's sample is half its round trip.
 *
 * A sample is the time between the same point of two cycles. In a
 * ping-pong, what a cycle does besides the exchange stays off its critical
 * path (the time from the peer's message to my next post): the clock is
 * read just after the post, while the message travels, and a receive
 * consumed is posted again after my send when another one is still posted
 * (-r 2 and up); over shm at 0.35 us a way, the clock read before the post
 * cost 10 %. The last reply has no post after it to close its sample, so n
 * exchanges give n - 1 samples, as perftest's. A one-sided read or atomic
 * reads the clock before its post instead: the post may be the whole
 * transfer (shm's one-sided read copies inside the call), and the last
 * completion closes the last sample at that same point.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gd.h"
#include "log.h"
#include "loop_int.h"
#include "mem.h"
#include "progress.h"

struct lat_run {
	struct gd_loop *l;
	struct gd_qp_run *q;
	uint64_t size, iters;
	bool client, pingpong, by_recv, timed, byte_poll;
	uint64_t warm;		/* untimed first exchanges (cfg.warm_exchange) */
	volatile uint8_t *last;	/* my target's last byte (write ping-pong) */
	uint8_t *mine;		/* my source's last byte */
	uint64_t *ts;
	size_t n, cap;
	bool repost_due;	/* a receive to post again after my send */
	uint64_t t_end, t0;
	struct gd_watch w;
};

/* Spin for one completion on the send or the receive CQ of QP 0; a receive
 * is re-posted at once. Checks the deadline every 256 empty polls. */
static int wait_completion(struct lat_run *r, bool recv)
{
	struct gd_loop *l = r->l;
	void *cq = recv ? l->rcq : l->scq;
	struct gd_fab_cqe wc;
	unsigned spin = 0;

	for (;;) {
		int ne = gd_loop_poll_some(l, cq, &wc, 1);

		if (ne > 0) {
			if (wc.status)
				return gd_loop_wc_failed(l, &wc, recv);
			if (!recv) {
				r->q->completed++;
				return 0;
			}
			r->q->recv_done++;
			/* my reply first when another receive is posted */
			if (r->q->recv_posted - r->q->recv_done > 0) {
				r->repost_due = true;
				return 0;
			}
			return gd_loop_repost(l, r->q, 1);
		}
		if (ne < 0)
			return gd_loop_fab_failed(l, -EIO);
		if (++spin % 256 == 0) {
			int ret = gd_watch_check(l, &r->w, gd_ticks());

			if (ret)
				return ret;
		}
	}
}

/* Spin until the last byte of my target region holds v (write ping-pong). */
static int wait_byte(struct lat_run *r, uint8_t v)
{
	void (*progress)(void *cq) = r->l->fab->progress; /* NULL for verbs */
	unsigned spin = 0;

	while (*r->last != v) {
		if (progress) /* a provider with manual progress moves the peer's write now */
			progress(r->l->scq);
		if (++spin % 1024 == 0) {
			int ret = gd_watch_check(r->l, &r->w, gd_ticks());

			if (ret)
				return ret;
		}
	}
	return 0;
}

static int wait_peer(struct lat_run *r, uint8_t v)
{
	return r->by_recv ? wait_completion(r, true) : wait_byte(r, v);
}

static void gap(uint64_t us)
{
	if (us) {
		uint64_t until = gd_now_ns() + us * 1000ull;

		while (gd_now_ns() < until)
			;
	}
}

static int stamp(struct lat_run *r, uint64_t t)
{
	if (r->n >= r->cap) {
		uint64_t *nt = realloc(r->ts, 2 * r->cap * sizeof(*nt));

		if (!nt)
			return -ENOMEM;
		r->ts = nt;
		r->cap *= 2;
	}
	r->ts[r->n++] = t;
	return 0;
}

/* A timed run: 1 when it is over (the last stamp closes the last round
 * trip). In a ping-pong only the client decides when to stop: a server that
 * stopped on its own clock (or its ^C) would leave the client waiting for a
 * reply; it ends when the client's results arrive, and a ^C there is an
 * interrupt the client is told of. */
static int timed_over(struct lat_run *r, uint64_t now)
{
	if (r->client && (now >= r->t_end || gd_bench_stop)) {
		gd_bench_stop = 0;
		return (r->pingpong ? 0 : stamp(r, gd_ticks())) ?: 1;
	}
	gd_progress_update(r->l->progress, gd_now_ns(), "%s: %.0f/%u s", gd_progname(),
			   (double)(now - r->t0) * gd_tick_ns() / 1e9, r->l->cfg.duration_s);
	return 0;
}

/* After my post, off the critical path: a ping-pong's stamp, then a
 * deferred receive. */
static int after_post(struct lat_run *r, uint64_t i)
{
	uint64_t now = gd_ticks();
	int ret;

	r->w.last_progress = now; /* the watch's no-progress clock: one read per exchange */
	ret = r->pingpong && i >= r->warm ? stamp(r, now) : 0;
	if (!ret && r->repost_due) {
		r->repost_due = false;
		ret = gd_loop_repost(r->l, r->q, 1);
	}
	return ret;
}

/* One exchange i: wait for the peer, post, stamp, wait for my completion
 * (one-sided: stamp, post, wait). A timed run checks its end on the last
 * stamp (one cycle old). */
static int one(struct lat_run *r, uint64_t i)
{
	uint8_t v = (uint8_t)(i % 255 + 1);
	int ret;

	/* the watch runs only after 256 empty polls, which a busy ping-pong may
	 * never reach: its ^C rule once per exchange */
	if ((ret = gd_watch_stop(r->l, &r->w)))
		return ret;
	if (r->pingpong && (!r->client || i > 0)) {
		/* the peer's message i (server) or reply i-1 (client) */
		ret = wait_peer(r, r->client ? (uint8_t)((i - 1) % 255 + 1) : v);
		if (ret)
			return ret;
	}
	if (r->timed && (ret = timed_over(r, r->n ? r->ts[r->n - 1] : r->t0)))
		return ret;
	if (!r->pingpong && i >= r->warm && (ret = stamp(r, gd_ticks())))
		return ret;
	if (r->byte_poll)
		*r->mine = v;
	ret = r->l->fab->post(r->q, 1, true, 1, (uint32_t)i);
	if (ret)
		return gd_loop_fab_failed(r->l, ret);
	ret = after_post(r, i) ?: wait_completion(r, false);
	if (ret || i + 1 != r->iters || (r->pingpong && !r->client))
		return ret;
	/* the last completion closes the last one-sided sample; the last reply
	 * is awaited (the next size must not find it) and closes none */
	if (r->client && r->pingpong)
		return wait_peer(r, v);
	return stamp(r, gd_ticks());
}

static int samples_of(struct lat_run *r, double **samples, size_t *nsamples)
{
	double k = gd_tick_ns() / 1000.0 / (r->pingpong ? 2.0 : 1.0);
	double *s;

	if (r->n < 2)
		return 0;
	s = malloc((r->n - 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i + 1 < r->n; i++)
		s[i] = (double)(r->ts[i + 1] - r->ts[i]) * k;
	*samples = s;
	*nsamples = r->n - 1;
	return 0;
}

static void lat_setup(struct lat_run *r, struct gd_loop *l, uint64_t size)
{
	const struct gd_loop_cfg *c = &l->cfg;

	memset(r, 0, sizeof(*r));
	r->l = l;
	r->q = &l->q[0];
	r->size = size;
	r->client = c->client;
	r->pingpong = c->op->target_access == IBV_ACCESS_REMOTE_WRITE || c->op->recv;
	r->by_recv = c->op->recv || (c->alt && c->op->recv_alt); /* send, write_with_imm */
	r->byte_poll = r->pingpong && !r->by_recv;
	r->timed = c->duration_s > 0;
	r->warm = c->warm_exchange && !r->timed ? 1 : 0;
	r->iters = r->timed ? UINT64_MAX : c->iters + r->warm;
	r->last = l->lat_target + size - 1;
	r->mine = l->lat_local + size - 1;
	r->cap = r->timed ? 4096 : c->iters + 2;
}

int gd_loop_cpu_lat(struct gd_loop *l, uint64_t size, double **samples, size_t *nsamples)
{
	struct lat_run r;
	int ret = 0;

	*samples = NULL;
	*nsamples = 0;
	gd_loop_prepare(l, size);
	lat_setup(&r, l, size);
	l->untimed_ops = r.warm;
	if (!r.pingpong && !r.client)
		return 0; /* read/atomic server: passive */
	r.ts = calloc(r.cap, sizeof(*r.ts)); /* touched now: no page faults in the samples */
	if (!r.ts)
		return -ENOMEM;
	gd_watch_init(&r.w, l, r.pingpong ? "reply from the peer" : "completion");
	r.w.stop_on_peer = r.timed && !r.client;
	r.w.stop_clean = r.timed && r.client; /* only the client ends a ping-pong */
	r.t0 = gd_ticks();
	r.t_end = r.t0 + gd_loop_ns_to_ticks((uint64_t)l->cfg.duration_s * 1000000000ull);
	for (uint64_t i = 0; i < r.iters && !ret; i++) {
		ret = one(&r, i);
		if (!ret)
			gap(l->cfg.latency_gap_us);
	}
	if (ret > 0) /* the timed run is over, or (server) the client finished */
		ret = 0;
	if (!ret && r.repost_due) /* the client's last reply */
		ret = gd_loop_repost(l, r.q, 1);
	gd_progress_done(l->progress);
	if (r.byte_poll)
		*r.mine = gd_pattern_byte(size - 1); /* the next size sends the pattern there */
	if (!ret)
		ret = samples_of(&r, samples, nsamples);
	free(r.ts);
	return ret;
}
