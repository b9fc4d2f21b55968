/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The CPU bandwidth loop: post with the send window (tx depth), CQ
 * moderation, post lists and selective signalling; poll in batches; re-post
 * receives in batches; counted (-n), timed (-D, --run_infinitely, with
 * warm-up and cool-down margins) or adaptive (-a with --precision).
 *
 * The hot path posts, polls and counts; it reads the clock once per
 * completion batch (a raw tick, converted after the run) and once per post
 * only when perftest's peak is measured. Everything else (phases of a timed
 * run, the deadline and the side channel, progress) is the slow path, run
 * every SLOW_EVERY turns of the loop, and on the first completion batch a
 * millisecond after its last visit (a device that sends while it posts makes
 * a turn slow: -q 8 on rxe took seconds for 64 turns, past a -D 2 window).
 *
 * Adaptive: the completions are cut into windows of about tx_depth
 * messages (at most WINDOW_BYTES, a multiple of the signalling interval);
 * each window's rate feeds the stop rule of sweep.h (first window dropped);
 * when it is met (or the cap: -n messages, -D seconds, the size's time
 * limit) the loop stops on a signalled boundary and drains.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gd.h"
#include "log.h"
#include "loop_int.h"
#include "oob.h"
#include "progress.h"
#include "sweep.h"

#define SLOW_EVERY 64		     /* loop turns between slow-path visits */
#define SIGNAL_BYTES (1u << 20)	     /* a completion at least every MiB (or message) */
#define WINDOW_BYTES (1u << 20)	     /* adaptive windows: at most this much payload ... */
#define SWEEP_MIN_SECONDS 0.1	     /* ... and a size runs at least this long */
#define SWEEP_INFLIGHT_BYTES (2u << 20) /* adaptive: in flight per QP, at least 2 messages */
#define SWEEP_WINDOW_MIN_S 0.005     /* adaptive: a window lasts at least this long ... */
#define SWEEP_CAP_STRETCH 3	     /* the default cap per size stretches to this many times
				      * itself until the rule has its minimum of windows */
#define PEER_POLL_NS 1000000ull	     /* a receiver looks for the peer's results every ms */

/* Raw stamps for perftest's peak: one per post, one per completion. */
struct stamps {
	uint64_t *tp, *tc, *tn;
	uint64_t ntp, ntc, cap_tp, cap_tc;
};

/* The phases of a timed run, in ticks: warm-up, sample, cool-down. */
struct phases {
	uint64_t t0, t_sample, t_stop, t_end, period, next_print;
	bool in_sample, sampled;
	uint64_t c_start, c_end, ts, te, c_print;
};

struct window {
	struct gd_sweep sw;
	uint64_t msgs, next, c0, t0; /* size, boundary, start count and tick */
	uint64_t kept_msgs, kept_ticks;
	uint64_t fed_ticks;	     /* ticks of all windows fed */
	uint64_t floor, floor_min;   /* a window's least length, in ticks */
	uint64_t t_cap;		     /* the size stops here once it has the minimum windows */
	uint64_t t_hard;	     /* ... and here at the latest */
	double epsilon;		     /* this size's relative half-width to reach */
	bool converged;
};

struct bw_run {
	struct gd_loop *l;
	uint64_t size, iters, total;
	bool init, recv, timed, adaptive, peak;
	bool stopping, init_done, recv_done;
	uint32_t sig_every, rbatch;
	uint32_t depth;			/* send window per QP at this size */
	uint64_t peer_poll, next_peer_poll; /* ticks */
	uint64_t next_slow;		/* ticks: a completion after it runs the slow path */
	uint64_t posted, completed, received, seen;
	uint64_t t_first, t_last, r_first, r_last;
	struct stamps st;
	struct phases ph, rph;
	struct window win;
	struct gd_watch w;
	unsigned spin;
	double pace;			/* SW --rate_limit: messages per second per QP, 0 none */
	uint64_t pace_t0;		/* tick of the pacer's start */
};

static double ticks_s(uint64_t t)
{
	return (double)t * gd_tick_ns() / 1e9;
}

/*
 * Messages between two signalled WRs at this size: the moderation, but at
 * most SIGNAL_BYTES of payload, so that a completion is due after at most
 * max(size, 1 MiB) bytes and the deadline measures a lack of progress, not
 * a slow link (100 x 4 MiB per signal took 16 s on the TCG guest's rxe).
 * A multiple of the post list.
 */
static uint32_t signal_every(const struct gd_loop_cfg *c, uint64_t size)
{
	uint64_t n = SIGNAL_BYTES / (size ? size : 1);
	uint32_t pl = c->post_list ? c->post_list : 1, m = c->cq_mod;

	if (n < m)
		m = n < pl ? pl : (uint32_t)(n / pl * pl);
	return m ? m : 1;
}

/* Send window per QP at this size: -t; an adaptive size keeps at most
 * SWEEP_INFLIGHT_BYTES (at least 2 messages) in flight, so that a size that
 * converged drains quickly and the windows stay small: where the device
 * completes the whole in-flight window at once (rxe under TCG completed 16 MiB
 * per CQ poll), a window cannot be smaller than that, and only ~9 windows of
 * 16 MiB fit in the 4 s cap at 30 MiB/s; with 2 MiB the rate was the same
 * (doc/perf-data/history.md). A multiple of the post list. */
static uint32_t depth_for(const struct gd_loop_cfg *c, uint64_t size, bool adaptive)
{
	uint32_t pl = c->post_list ? c->post_list : 1;
	uint64_t d;

	if (!adaptive)
		return c->tx_depth;
	d = GD_MAX(SWEEP_INFLIGHT_BYTES / (size ? size : 1), 2ull);
	d = d / pl * pl;
	return (uint32_t)GD_MAX(GD_MIN(d, (uint64_t)c->tx_depth), (uint64_t)pl);
}

/* Messages per adaptive window: about the send window, at most WINDOW_BYTES,
 * whole signalling intervals (windows end on completions). */
static uint64_t window_msgs(uint64_t size, uint32_t depth, uint32_t sig_every)
{
	uint64_t m = GD_MIN(WINDOW_BYTES / (size ? size : 1), (uint64_t)depth);

	m = m / sig_every * sig_every;
	return m ? m : sig_every;
}

void gd_loop_bw_shape(const struct gd_loop_cfg *c, uint64_t size, struct gd_loop_bw_shape *s)
{
	s->sig_every = signal_every(c, size);
	s->depth = depth_for(c, size, c->precision > 0);
	s->window = window_msgs(size, s->depth, s->sig_every);
}

static void phases_init(struct phases *ph, const struct gd_loop_cfg *c, uint64_t now)
{
	uint64_t d = gd_loop_ns_to_ticks((uint64_t)c->duration_s * 1000000000ull);
	uint64_t m = gd_loop_ns_to_ticks((uint64_t)c->margin_s * 1000000000ull);

	memset(ph, 0, sizeof(*ph));
	ph->t0 = now;
	ph->period = d;
	if (c->run_infinitely) {
		ph->t_sample = now;
		ph->t_stop = ph->t_end = UINT64_MAX;
		ph->next_print = now + d;
	} else {
		ph->t_sample = now + m;
		ph->t_stop = now + d - m;
		ph->t_end = now + d;
	}
}

/* Advance the phases; count is the running number of messages. */
static void phases_tick(struct phases *ph, uint64_t now, uint64_t count)
{
	if (!ph->in_sample && !ph->sampled && now >= ph->t_sample) {
		ph->in_sample = true;
		ph->c_start = count;
		ph->ts = now;
		ph->c_print = count;
	}
	if (ph->in_sample && now >= ph->t_stop) {
		ph->in_sample = false;
		ph->sampled = true;
		ph->c_end = count;
		ph->te = now;
	}
}

static void window_init(struct bw_run *r)
{
	const struct gd_loop_cfg *c = &r->l->cfg;
	struct window *w = &r->win;

	memset(w, 0, sizeof(*w));
	w->epsilon = c->precision_by_size ? gd_sweep_default_epsilon(r->size) : c->precision;
	gd_sweep_init(&w->sw, w->epsilon, GD_SWEEP_MIN_WINDOWS, SWEEP_MIN_SECONDS);
	w->msgs = window_msgs(r->size, r->depth, r->sig_every);
	w->next = w->msgs;
	w->floor = w->floor_min = gd_loop_ns_to_ticks((uint64_t)(SWEEP_WINDOW_MIN_S * 1e9));
	w->t_cap = w->t_hard = UINT64_MAX;
	if (c->duration_s) {
		w->t_cap = w->t_hard = gd_loop_ns_to_ticks((uint64_t)c->duration_s * 1000000000ull);
	} else if (c->max_size_s > 0) {
		w->t_cap = gd_loop_ns_to_ticks((uint64_t)(c->max_size_s * 1e9));
		w->t_hard = w->t_cap * SWEEP_CAP_STRETCH;
	}
}

/* The size's time is up: -D is a hard cap; the default cap waits for the
 * rule's minimum of windows (a window of 8 MiB took 0.4 s on the guest's rxe)
 * up to SWEEP_CAP_STRETCH times itself. */
static bool window_time_up(const struct bw_run *r, uint64_t now)
{
	const struct window *w = &r->win;
	uint64_t ran = now - r->t_first;

	return ran >= w->t_hard || (ran >= w->t_cap && w->sw.fed > w->sw.min_windows);
}

/*
 * One window ended at tick t: feed the stop rule; stop when it is met.
 * The next window lasts at least half the mean window so far (and
 * SWEEP_WINDOW_MIN_S): where completions arrive in bursts split over two
 * polls, a window of the burst's tail alone (0.6 ms among windows of 60-90
 * ms at 2 MiB on the guest's rxe) gave one rate 100 times the others and an
 * interval of 137 %, wider than any epsilon.
 */
static void window_close(struct bw_run *r, uint64_t t)
{
	struct window *w = &r->win;
	uint64_t msgs = r->completed - w->c0;
	double s = ticks_s(t - w->t0);

	if (s > 0 && gd_sweep_add(&w->sw, (double)msgs / s, s) == 0) {
		w->fed_ticks += t - w->t0;
		w->floor = GD_MAX(w->floor_min, w->fed_ticks / w->sw.fed / 2);
		if (w->sw.fed > 1) {
			w->kept_msgs += msgs;
			w->kept_ticks += t - w->t0;
		}
	}
	w->c0 = r->completed;
	w->t0 = t;
	w->next = r->completed + w->msgs;
	if (gd_sweep_done(&w->sw)) {
		w->converged = true;
		r->stopping = true;
	} else if (window_time_up(r, t)) {
		r->stopping = true;
	}
}

static int stamps_alloc(struct bw_run *r)
{
	struct stamps *s = &r->st;

	memset(s, 0, sizeof(*s));
	if (!r->peak)
		return 0;
	s->cap_tp = r->total / r->l->cfg.post_list + 1;
	s->cap_tc = r->total + 1;
	s->tp = malloc(s->cap_tp * sizeof(*s->tp));
	s->tc = malloc(s->cap_tc * sizeof(*s->tc));
	s->tn = malloc(s->cap_tc * sizeof(*s->tn));
	if (!s->tp || !s->tc || !s->tn)
		r->peak = false; /* no peak rather than no run */
	return 0;
}

static void stamps_free(struct stamps *s)
{
	free(s->tp);
	free(s->tc);
	free(s->tn);
}

/* SW --rate_limit: a token bucket per QP, filled at r->pace messages per
 * second from the first post, holding pace_burst messages. */
static bool pace_allows(struct bw_run *r, const struct gd_qp_run *q, uint32_t n)
{
	uint64_t now = gd_ticks();

	if (!r->pace_t0)
		r->pace_t0 = now;
	return (double)(q->posted + n) <= ticks_s(now - r->pace_t0) * r->pace + r->l->cfg.pace_burst;
}

bool gd_loop_bw_moderates(struct gd_loop_bw_post p)
{
	return p.signal && !p.last && !p.stopping && !p.adaptive && !p.endless && !p.peak;
}

/* Post what the window (and the pacer) allows on one QP. */
static int post_qp(struct bw_run *r, struct gd_qp_run *q)
{
	const struct gd_loop_cfg *c = &r->l->cfg;

	for (;;) {
		uint64_t left = r->iters - q->posted;
		uint32_t n = (uint32_t)GD_MIN((uint64_t)c->post_list, left);
		bool signal;
		int ret;

		if (!left || (r->stopping && q->since_signal == 0))
			return 0; /* done, or stopping on a signalled boundary */
		if (q->posted - q->completed + n > r->depth)
			return 0;
		if (r->pace > 0 && !pace_allows(r, q, n))
			return 0;
		signal = q->since_signal + n >= r->sig_every || n == left || r->stopping;
		/* a run of a set count: only the last signalled post of the size
		 * asks that the bytes are placed, covering this QP's earlier ones */
		q->moderating = gd_loop_bw_moderates((struct gd_loop_bw_post){
			.signal = signal, .last = n == left, .stopping = r->stopping,
			.adaptive = r->adaptive, .endless = r->iters == UINT64_MAX, .peak = r->peak });
		if (r->peak && r->st.ntp < r->st.cap_tp)
			r->st.tp[r->st.ntp++] = gd_ticks();
		ret = r->l->fab->post(q, n, signal, (uint32_t)(q->since_signal + n), (uint32_t)q->posted);
		if (ret)
			return gd_loop_fab_failed(r->l, ret);
		q->since_signal = signal ? 0 : q->since_signal + n;
		r->posted += n;
	}
}

static int post_all(struct bw_run *r)
{
	for (uint32_t i = 0; i < r->l->cfg.nqp; i++) {
		int ret = post_qp(r, &r->l->q[i]);

		if (ret)
			return ret;
	}
	return 0;
}

static int poll_send(struct bw_run *r)
{
	struct gd_fab_cqe wc[GD_POLL_BATCH];
	int ne = gd_loop_poll(r->l, r->l->scq, wc, "send");
	uint64_t t;

	if (ne <= 0)
		return ne;
	t = gd_ticks();
	for (int k = 0; k < ne; k++) {
		uint32_t cnt;

		if (wc[k].status)
			return gd_loop_wc_failed(r->l, &wc[k], false);
		cnt = gd_wr_id_count(wc[k].id);
		r->l->q[gd_wr_id_qp(wc[k].id)].completed += cnt;
		r->completed += cnt;
		if (r->peak && r->st.ntc < r->st.cap_tc) {
			r->st.tc[r->st.ntc] = t;
			r->st.tn[r->st.ntc++] = r->completed;
		}
	}
	r->t_last = t;
	if (r->adaptive && r->completed >= r->win.next && !r->stopping &&
	    t - r->win.t0 >= r->win.floor)
		window_close(r, t);
	return ne;
}

static int poll_recv(struct bw_run *r)
{
	struct gd_fab_cqe wc[GD_POLL_BATCH];
	int ne = gd_loop_poll(r->l, r->l->rcq, wc, "receive");
	uint64_t t;

	if (ne <= 0)
		return ne;
	t = gd_ticks();
	for (int k = 0; k < ne; k++) {
		struct gd_qp_run *q;
		int ret;

		if (wc[k].status)
			return gd_loop_wc_failed(r->l, &wc[k], true);
		q = &r->l->q[gd_wr_id_qp(wc[k].id)];
		q->recv_done++;
		ret = gd_loop_repost(r->l, q, r->rbatch);
		if (ret)
			return ret;
	}
	if (!r->received)
		r->r_first = t;
	r->received += (uint64_t)ne;
	r->r_last = t;
	return ne;
}

/* After a stop: are all QPs drained on a signalled boundary? */
static bool all_drained(const struct bw_run *r)
{
	if (r->completed != r->posted)
		return false;
	for (uint32_t i = 0; i < r->l->cfg.nqp; i++)
		if (r->l->q[i].since_signal)
			return false;
	return true;
}

bool gd_bw_timed_span(const struct gd_bw_span *sample, const struct gd_bw_span *run,
		      struct gd_bw_span *out)
{
	if (sample->msgs && sample->ticks)
		*out = *sample;
	else
		*out = *run;
	return out->msgs && out->ticks;
}

static void fill_rates(struct gd_bw_result *res, uint64_t size)
{
	res->avg_Bps = res->seconds > 0 ? (double)res->iters * (double)size / res->seconds : 0;
	res->msg_rate = res->seconds > 0 ? (double)res->iters / res->seconds : 0;
}

/* A run that measured nothing fails (exit 1), on both sides: never a rate of 0. A peer that
 * died before the first completion is the cause, named as such, not a slow link. */
static int measured_nothing(struct gd_loop *l, const struct gd_bw_result *res)
{
	if (gd_loop_peer_gone(l)) {
		l->exit_code = GD_EXIT_FAIL;
		return -EIO;
	}
	gd_error("size %llu: the run measured nothing (%llu messages in %.3f s): no completion "
		 "in the sample window; the link or the device is too slow for this run, raise "
		 "-D/--duration", (unsigned long long)res->size, (unsigned long long)res->iters,
		 res->seconds);
	gd_oob_send_error(l->oob, GD_EXIT_FAIL, "the run measured nothing at size %llu",
			  (unsigned long long)res->size);
	l->exit_code = GD_EXIT_FAIL;
	return -EIO;
}

/* A timed initiator: the sample window, or the whole run when the window
 * holds nothing (gd_bw_timed_span). Non-zero when nothing was measured. */
static int timed_result(const struct bw_run *r, struct gd_bw_result *res)
{
	struct gd_bw_span sample = { r->ph.c_end - r->ph.c_start, r->ph.te - r->ph.ts };
	struct gd_bw_span run = { r->completed, r->t_last - r->t_first }, got;
	bool ok = gd_bw_timed_span(&sample, &run, &got);

	if (ok && got.msgs != sample.msgs)
		gd_warn("size %llu: no completion seen inside the sample window of -D %u s; "
			"the whole run is reported", (unsigned long long)r->size,
			r->l->cfg.duration_s);
	res->iters = got.msgs;
	res->seconds = ticks_s(got.ticks);
	return !ok;
}

/* The initiator's measurement, final: computed, then sent to the peer. */
static int init_finish(struct bw_run *r, struct gd_bw_result *res, bool *sent)
{
	const struct gd_loop_cfg *c = &r->l->cfg;
	struct gd_sweep_result sr;

	r->init_done = true;
	res->ops = r->completed;
	res->iters = r->completed;
	res->seconds = ticks_s(r->t_last - r->t_first);
	if (r->timed && timed_result(r, res))
		return measured_nothing(r->l, res);
	fill_rates(res, r->size);
	if (res->avg_Bps <= 0)
		return measured_nothing(r->l, res);
	if (r->adaptive && r->win.kept_ticks) {
		gd_sweep_get(&r->win.sw, &sr);
		res->msg_rate = (double)r->win.kept_msgs / ticks_s(r->win.kept_ticks);
		res->avg_Bps = res->msg_rate * (double)r->size;
		res->windows = (uint32_t)sr.n;
		res->ci95_rel = sr.n >= 2 ? sr.rel : 0;
		res->converged = r->win.converged;
		res->epsilon = r->win.epsilon;
	}
	if (r->peak)
		res->peak_Bps = gd_bw_peak_rate(r->st.tp, r->st.ntp, c->post_list, r->st.tc, r->st.tn,
						r->st.ntc, gd_tick_ns()) * (double)r->size;
	/* tell the peer now so that it can stop draining its receives */
	*sent = true;
	return r->l->measured(r->l->owner, res);
}

/* A receiver only (send server): what it received. */
static int recv_finish(const struct bw_run *r, struct gd_bw_result *res)
{
	const struct phases *ph = &r->rph;

	res->ops = r->received;
	res->iters = r->received;
	res->seconds = ticks_s(r->r_last - r->r_first);
	if (r->timed) {
		struct gd_bw_span sample = { ph->c_end - ph->c_start, ph->te - ph->ts };
		struct gd_bw_span run = { r->received, r->r_last - r->r_first }, got;

		if (!ph->sampled)
			sample.msgs = sample.ticks = 0;
		gd_bw_timed_span(&sample, &run, &got);
		res->iters = got.msgs;
		res->seconds = ticks_s(got.ticks);
	} else if (r->received > 1) {
		/* the first message's own time is not in the window */
		res->seconds = res->seconds * (double)r->received / (double)(r->received - 1);
	}
	fill_rates(res, r->size);
	return res->avg_Bps > 0 ? 0 : measured_nothing(r->l, res);
}

/* Timed initiator: the end of the run (or ^C) starts the stop. */
static void timed_stop(struct bw_run *r, uint64_t now)
{
	struct phases *ph = &r->ph;

	if (r->stopping || (now < ph->t_end && !gd_bench_stop))
		return;
	r->stopping = true;
	/* ^C ended the run: consumed, so that the results still travel (a
	 * second ^C then aborts the side-channel waits) */
	gd_bench_stop = 0;
	if (!ph->sampled) { /* interrupted before the window closed */
		ph->sampled = true;
		ph->c_end = r->completed;
		ph->te = now;
		if (!ph->ts) {
			ph->ts = ph->t0;
			ph->c_start = 0;
		}
	}
}

static void print_interval(struct bw_run *r, uint64_t now)
{
	struct phases *ph = &r->ph;
	struct gd_bw_result res = { .size = r->size };

	res.iters = r->completed - ph->c_print;
	res.seconds = ticks_s(now - (ph->next_print - ph->period));
	fill_rates(&res, r->size);
	if (r->l->interval)
		r->l->interval(r->l->owner, &res);
	ph->c_print = r->completed;
	ph->next_print = now + ph->period;
}

/* A receiver: drain until the peer's results say it stopped sending (a
 * timed or adaptive run cannot know the count), then take what is left in
 * the CQ. Looks at the socket once a millisecond. */
static int recv_until_peer(struct bw_run *r, uint64_t now)
{
	int ne;

	if (now < r->next_peer_poll)
		return 0;
	r->next_peer_poll = now + r->peer_poll;
	if (!gd_loop_peer_readable(r->l))
		return 0;
	do
		ne = poll_recv(r);
	while (ne > 0);
	r->recv_done = ne == 0;
	return ne < 0 ? ne : 0;
}

static void progress(struct bw_run *r, uint64_t now)
{
	const struct gd_loop_cfg *c = &r->l->cfg;
	double s = ticks_s(now - r->ph.t0);

	if (!r->init && r->timed)
		gd_progress_update(r->l->progress, gd_now_ns(), "%s: receiving, %.0f s",
				   gd_progname(), s);
	else if (r->timed && !c->run_infinitely)
		gd_progress_update(r->l->progress, gd_now_ns(), "%s: %.0f/%u s", gd_progname(), s,
				   c->duration_s);
}

/* Everything that is not posting or polling, every SLOW_EVERY turns. */
static int slow_path(struct bw_run *r)
{
	uint64_t now = gd_ticks(), seen = r->completed + r->received;
	int ret = 0;

	r->next_slow = now + r->peer_poll;

	if (seen != r->seen) {
		r->seen = seen;
		r->w.last_progress = now;
	}
	if (r->timed) {
		phases_tick(&r->ph, now, r->completed);
		phases_tick(&r->rph, now, r->received);
		if (r->init && !r->init_done) {
			timed_stop(r, now);
			if (r->l->cfg.run_infinitely && now >= r->ph.next_print && !r->stopping)
				print_interval(r, now);
		}
		progress(r, now);
	} else if (r->adaptive && !r->stopping && window_time_up(r, now)) {
		r->stopping = true; /* the size's time is up between two windows */
	}
	/* a receiver ends when the peer's results arrive (timed, adaptive: it
	 * cannot know the count) or when it has the count */
	if (r->recv && !r->recv_done)
		ret = recv_until_peer(r, now);
	return ret ? ret : gd_watch_check(r->l, &r->w, now);
}

static int run_setup(struct bw_run *r, struct gd_loop *l, uint64_t size)
{
	const struct gd_loop_cfg *c = &l->cfg;

	memset(r, 0, sizeof(*r));
	r->l = l;
	r->size = size;
	r->init = c->initiator;
	r->recv = c->receiver;
	r->timed = !c->precision && (c->duration_s > 0 || c->run_infinitely);
	r->adaptive = c->precision > 0;
	r->iters = r->timed || (r->adaptive && c->duration_s) ? UINT64_MAX : c->iters;
	r->total = r->iters == UINT64_MAX ? UINT64_MAX : r->iters * c->nqp;
	r->peak = r->init && c->peak && !r->timed && !r->adaptive;
	r->init_done = !r->init;
	r->recv_done = !r->recv;
	r->sig_every = signal_every(c, size);
	r->depth = depth_for(c, size, r->adaptive);
	r->peer_poll = gd_loop_ns_to_ticks(PEER_POLL_NS);
	r->rbatch = GD_MIN(GD_MAX(c->rx_depth / 8, 1u), (uint32_t)GD_RECV_BATCH);
	r->pace = c->pace_pps > 0 ? c->pace_pps : c->pace_Bps / (double)size;
	gd_loop_prepare(l, size);
	gd_watch_init(&r->w, l, r->init ? "completion" : "message received");
	return stamps_alloc(r);
}

/* --perform_warm_up: one window of WRs per QP, not measured. */
static int warm_up(struct bw_run *r)
{
	struct gd_loop *l = r->l;
	uint64_t iters = r->iters;
	bool peak = r->peak, adaptive = r->adaptive;
	int ret = 0;

	r->peak = r->adaptive = false; /* neither stamps nor windows */
	r->iters = GD_MIN((uint64_t)l->cfg.tx_depth, iters);
	ret = post_all(r);
	while (!ret && r->completed < r->posted) {
		uint64_t done = r->completed, now;

		ret = poll_send(r);
		now = gd_ticks();
		if (r->completed != done) /* the watch's no-progress clock, as slow_path keeps it */
			r->w.last_progress = now;
		ret = ret < 0 ? ret : gd_watch_check(l, &r->w, now);
	}
	for (uint32_t i = 0; i < l->cfg.nqp; i++)
		l->q[i].posted = l->q[i].completed = l->q[i].since_signal = 0;
	r->pace_t0 = 0; /* the pacer starts with the measurement */
	r->iters = iters;
	r->peak = peak;
	r->adaptive = adaptive;
	r->posted = r->completed = 0;
	return ret;
}

static int spin(struct bw_run *r, struct gd_bw_result *res, bool *sent)
{
	int ret = 0;

	while (!ret && (!r->init_done || !r->recv_done)) {
		if (!r->init_done) {
			ret = post_all(r);
			if (!ret)
				ret = poll_send(r);
			if (ret >= 0 && (r->completed == r->total || (r->stopping && all_drained(r))))
				ret = init_finish(r, res, sent);
		}
		if (ret >= 0 && !r->recv_done) {
			ret = poll_recv(r);
			if (!r->timed && !r->adaptive && r->received >= r->total)
				r->recv_done = true;
		}
		ret = ret < 0 ? ret : 0;
		if (!ret && (++r->spin % SLOW_EVERY == 0 || r->stopping || r->t_last >= r->next_slow))
			ret = slow_path(r);
	}
	return ret > 0 ? 0 : ret;
}

static int cpu_run_bw(struct gd_loop *l, uint64_t size, struct gd_bw_result *res, bool *sent)
{
	const struct gd_loop_cfg *c = &l->cfg;
	struct bw_run *r = malloc(sizeof(*r));
	int ret;

	memset(res, 0, sizeof(*res));
	res->size = size;
	*sent = false;
	if (!r)
		return -ENOMEM;
	ret = run_setup(r, l, size);
	if (!ret && r->init && c->warm_up && !c->op->recv && !(c->alt && c->op->recv_alt))
		ret = warm_up(r);
	if (!ret) {
		r->t_first = gd_ticks();
		phases_init(&r->ph, c, r->t_first);
		r->rph = r->ph;
		if (r->adaptive)
			window_init(r);
		r->win.t0 = r->t_first;
		r->next_slow = r->t_first + r->peer_poll;
		ret = spin(r, res, sent);
	}
	if (!ret && !r->init)
		ret = recv_finish(r, res);
	gd_progress_done(l->progress);
	stamps_free(&r->st);
	free(r);
	return ret;
}

const struct gd_loop_ops gd_loop_cpu = {
	.name = "cpu",
	.run_bw = cpu_run_bw,
	.run_lat = gd_loop_cpu_lat,
};

const struct gd_initiator_ops gd_initiator_cpu = {.loop = &gd_loop_cpu, .lat_polls_buffer = true};
