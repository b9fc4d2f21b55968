/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Deadlines, liveness, completion errors and per-size preparation of the CPU loops. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gd.h"
#include "log.h"
#include "loop_int.h"
#include "oob.h"

#define PEER_CHECK_NS 100000000ull /* 100 ms */
/* A side with no progress for IDLE_AFTER_NS (its peer stopped: SIGSTOP, a hung host; or one
 * message that takes that long) stops spinning flat out until --timeout: each watch check
 * then sleeps IDLE_SLEEP_NS, never past the deadline. A run that progresses never sleeps
 * (every completion or exchange resets the clock); the first completion after a silence is
 * seen at most IDLE_SLEEP_NS late, on a wait already 400 times as long. */
#define IDLE_AFTER_NS 200000000ull /* 200 ms */
#define IDLE_SLEEP_NS 500000ull	   /* 0.5 ms */

uint64_t gd_loop_ns_to_ticks(uint64_t ns)
{
	return (uint64_t)((double)ns / gd_tick_ns());
}

void gd_watch_init(struct gd_watch *w, const struct gd_loop *l, const char *what)
{
	uint64_t now = gd_ticks();

	w->last_progress = now;
	w->last_check = now;
	w->timeout = gd_loop_ns_to_ticks((uint64_t)l->cfg.timeout_ms * 1000000ull);
	w->check_every = gd_loop_ns_to_ticks(PEER_CHECK_NS);
	/* never on a fabric the host drives (fab->progress): see idle_pause */
	w->idle_after = l->fab && l->fab->progress ? UINT64_MAX : gd_loop_ns_to_ticks(IDLE_AFTER_NS);
	w->what = what;
	w->stop_on_peer = false;
	w->stop_clean = (l->cfg.duration_s > 0 || l->cfg.run_infinitely) && l->cfg.initiator;
}

int gd_loop_interrupted(struct gd_loop *l)
{
	gd_error("interrupted");
	gd_oob_tell_interrupted(l->oob);
	l->exit_code = GD_EXIT_FAIL;
	return -EINTR;
}

int gd_watch_stop(struct gd_loop *l, const struct gd_watch *w)
{
	return gd_bench_stop && !w->stop_clean ? gd_loop_interrupted(l) : 0;
}

bool gd_loop_peer_readable(struct gd_loop *l)
{
	return gd_oob_readable(l->oob);
}

/* A large message may simply take longer than --timeout on a slow path (hostile D22: one
 * 1 GiB message over tcp on a loaded host): the deadline's message says so. */
static const char *slow_hint(const struct gd_loop *l)
{
	static __thread char buf[160];
	uint64_t size = l->cfg.nqp && l->q ? l->q[0].size : 0;

	if (size < (64ull << 20))
		return "";
	snprintf(buf, sizeof(buf), ", or one %llu MiB message (-s) takes longer than that on "
		 "this path: give a longer --timeout", (unsigned long long)(size >> 20));
	return buf;
}

/* No progress for w->idle_after: sleep a little, not past the deadline (IDLE_AFTER_NS).
 * Never on a fabric the host drives (fab->progress: libfabric's tcp, shm, rxm): there a
 * message that takes longer than idle_after (hostile D22: 1 GiB over tcp) moves only while
 * the loop polls, and a sleep every SLOW_EVERY polls would slow the transfer it measures. */
static void idle_pause(const struct gd_watch *w, uint64_t now)
{
	uint64_t idle = now - w->last_progress, left_ns, ns = IDLE_SLEEP_NS;

	if (idle <= w->idle_after || idle >= w->timeout)
		return;
	left_ns = (uint64_t)((double)(w->timeout - idle) * gd_tick_ns());
	if (left_ns < ns)
		ns = left_ns;
	nanosleep(&(struct timespec){ .tv_sec = 0, .tv_nsec = (long)ns }, NULL);
}

int gd_watch_check(struct gd_loop *l, struct gd_watch *w, uint64_t now)
{
	int ret;

	if ((ret = gd_watch_stop(l, w)))
		return ret;
	idle_pause(w, now);
	if (now - w->last_check < w->check_every)
		return 0;
	w->last_check = now;
	if (w->stop_on_peer && gd_loop_peer_readable(l))
		return 1;
	ret = gd_oob_check_peer(l->oob);
	if (ret < 0) { /* closed, reset, or an ERROR from the peer: already printed */
		l->exit_code = GD_EXIT_FAIL;
		return ret;
	}
	if (now - w->last_progress > w->timeout) {
		gd_error("no %s for %u s (--timeout) with the %s (%s): the link is down or the "
			 "peer stopped sending%s; giving up", w->what, l->cfg.timeout_ms / 1000,
			 gd_oob_peer_role(l->oob), gd_oob_peer_name(l->oob), slow_hint(l));
		gd_oob_send_error(l->oob, GD_EXIT_FAIL, "no %s on its side for %u s (--timeout)",
				  w->what, l->cfg.timeout_ms / 1000);
		gd_oob_give_up(l->oob);
		l->exit_code = GD_EXIT_FAIL;
		return -ETIMEDOUT;
	}
	return 0;
}

/* how long a side whose fabric failed waits for the peer's reason: a peer that
 * stopped (a signal, its own fault) sends it just before its endpoint goes, and
 * the two sockets race; on loopback it is there in microseconds */
#define GD_PEER_CAUSE_MS 300

bool gd_loop_peer_gone(struct gd_loop *l)
{
	return l->oob && gd_oob_await_peer(l->oob, GD_PEER_CAUSE_MS) < 0;
}

int gd_loop_fab_failed(struct gd_loop *l, int ret)
{
	l->exit_code = GD_EXIT_FAIL;
	(void)gd_oob_await_peer(l->oob, GD_PEER_CAUSE_MS);
	return ret;
}

int gd_loop_wc_failed(struct gd_loop *l, const struct gd_fab_cqe *wc, bool recv)
{
	const struct gd_op_desc *d = l->cfg.op;
	void *cq = recv ? l->rcq : l->scq;
	const char *st = l->fab->status_str(cq, wc->status);

	/* a peer that stopped (a signal, its own fault) says why on the side channel
	 * before its endpoint goes: that is the cause, this completion its effect */
	if (gd_oob_await_peer(l->oob, GD_PEER_CAUSE_MS) == -ECONNABORTED) {
		gd_info("then a completion error on %s QP 0x%06x: %s (%d)", l->cfg.dev_name,
			wc->qp_num, st, wc->status);
		l->exit_code = GD_EXIT_FAIL;
		return -EIO;
	}
	gd_error("completion error on %s QP 0x%06x (%s, %s): %s (%d): %s", l->cfg.dev_name,
		 wc->qp_num, recv ? "RECV" : l->cfg.alt ? d->wr_name_alt : d->wr_name,
		 l->cfg.client ? "client" : "server", st, wc->status, l->fab->hint(wc->status));
	l->exit_code = GD_EXIT_FAIL;
	gd_oob_send_error(l->oob, GD_EXIT_FAIL, "completion error on its QP 0x%06x: %s",
			  wc->qp_num, st);
	return -EIO;
}

int gd_loop_poll_some(struct gd_loop *l, void *cq, struct gd_fab_cqe *wc, int max)
{
	int ne = l->fab->poll(cq, wc, max);

	if (ne || !l->cfg.events || !l->fab->wait)
		return ne;
	/* -e: arm, look once more (a completion before the arm raises no event),
	 * then sleep; the bound keeps the deadline and the side channel watched */
	if (l->fab->arm(cq))
		return -EIO;
	ne = l->fab->poll(cq, wc, max);
	if (ne)
		return ne;
	if (l->fab->wait(cq, GD_EVENT_WAIT_MS))
		return -EIO;
	return l->fab->poll(cq, wc, max);
}

int gd_loop_poll(struct gd_loop *l, void *cq, struct gd_fab_cqe *wc, const char *which)
{
	int ne = gd_loop_poll_some(l, cq, wc, GD_POLL_BATCH);

	if (ne < 0) {
		gd_error("cannot poll the %s completion queue of %s", which, l->cfg.dev_name);
		return gd_loop_fab_failed(l, -EIO);
	}
	return ne;
}

void gd_loop_prepare(struct gd_loop *l, uint64_t size)
{
	for (uint32_t i = 0; i < l->cfg.nqp; i++) {
		struct gd_qp_run *q = &l->q[i];

		q->size = (uint32_t)size;
		q->inl = l->cfg.op->inline_ok && size <= l->cfg.max_inline && l->cfg.max_inline > 0;
		q->posted = q->completed = q->since_signal = 0;
		q->atomic_next = 0;
		/* latency tests keep one address: write ping-pongs on its last byte */
		gd_ops_prepare(q, l->cfg.post_list, l->cfg.rotate && l->cfg.kind == GD_KIND_BW);
	}
}

int gd_loop_repost(struct gd_loop *l, struct gd_qp_run *q, uint32_t batch)
{
	uint64_t out = q->recv_posted - q->recv_done;
	uint32_t missing = out < l->cfg.rx_depth ? (uint32_t)(l->cfg.rx_depth - out) : 0;
	int ret;

	if (missing < batch)
		return 0;
	ret = l->fab->post_recv(q, missing);
	return ret ? gd_loop_fab_failed(l, ret) : 0;
}
