/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The measurement loops: bandwidth (posting with tx depth, CQ moderation,
 * post lists, selective signalling, duration with warm-up, run_infinitely,
 * bidirectional) and latency (write ping-pong on the last byte, send/recv
 * ping-pong, one outstanding read or atomic).
 *
 * Every wait has a deadline: a loop that sees no progress for --timeout
 * checks the side channel; a dead peer or a silent link ends the run.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "bench_int.h"
#include "gd.h"
#include "log.h"
#include "oob.h"
#include "proxy_bench.h"

#define POLL_BATCH 16
#define PEER_CHECK_NS 100000000ull /* 100 ms */

uint8_t *gd_bench_local(struct gd_bench *b, uint32_t i)
{
	return (uint8_t *)b->buf.addr + (size_t)i * 2 * b->slot;
}

uint8_t *gd_bench_target(struct gd_bench *b, uint32_t i)
{
	return gd_bench_local(b, i) + b->slot;
}

/* Deadline and liveness checks for spin loops. */
struct watch {
	uint64_t last_progress;
	uint64_t last_check;
	uint64_t timeout_ns;
	const char *what;
	bool stop_on_peer; /* a timed receiver: the peer's results end the wait */
	bool timed;        /* ^C ends a timed run cleanly (the loop handles it) */
};

static void watch_init(struct watch *w, struct gd_bench *b, const char *what)
{
	uint64_t now = gd_now_ns();

	w->last_progress = now;
	w->last_check = now;
	w->timeout_ns = (uint64_t)b->p.timeout_ms * 1000000ull;
	w->what = what;
	w->stop_on_peer = false;
	w->timed = b->p.duration_s > 0 || b->p.run_infinitely;
}

static bool peer_readable(struct gd_bench *b);

/* Returns 0 to go on, or -errno with b->exit_code set. */
static int watch_check(struct gd_bench *b, struct watch *w, uint64_t now)
{
	int ret;

	if (gd_bench_stop && (!w->timed || !b->roles.initiator)) {
		gd_error("interrupted");
		gd_oob_send_error(b->oob, GD_EXIT_FAIL, "the peer was interrupted");
		b->exit_code = GD_EXIT_FAIL;
		return -EINTR;
	}
	if (now - w->last_check < PEER_CHECK_NS)
		return 0;
	w->last_check = now;
	if (w->stop_on_peer && peer_readable(b))
		return 1;
	ret = gd_oob_check_peer(b->oob);
	if (ret == -ECONNABORTED) { /* the peer sent an error; already printed */
		b->exit_code = GD_EXIT_FAIL;
		return ret;
	}
	if (ret < 0) { /* the side channel said why (closed, reset) */
		b->exit_code = GD_EXIT_FAIL;
		return ret;
	}
	if (now - w->last_progress > w->timeout_ns) {
		gd_error("no %s for %u s (--timeout): the link is down or the peer stopped "
			 "sending; giving up", w->what, b->p.timeout_ms / 1000);
		b->exit_code = GD_EXIT_FAIL;
		return -ETIMEDOUT;
	}
	return 0;
}

static const char *op_wr_name(const struct gd_bench *b)
{
	switch (b->p.op) {
	case GD_OP_WRITE: return b->p.write_with_imm ? "RDMA_WRITE_WITH_IMM" : "RDMA_WRITE";
	case GD_OP_READ: return "RDMA_READ";
	case GD_OP_ATOMIC: return b->p.atomic_type == GD_ATOMIC_CMP_AND_SWAP ?
				  "ATOMIC_CMP_AND_SWAP" : "ATOMIC_FETCH_AND_ADD";
	default: return b->p.send_with_imm ? "SEND_WITH_IMM" : "SEND";
	}
}

static int wc_failed(struct gd_bench *b, const struct ibv_wc *wc, bool recv)
{
	gd_error("completion error on %s QP 0x%06x (%s, %s): %s (%d): %s", b->conn.dev_name,
		 wc->qp_num, recv ? "RECV" : op_wr_name(b), b->p.role == GD_ROLE_CLIENT ?
		 "client" : "server", ibv_wc_status_str(wc->status), wc->status,
		 gd_wc_hint(wc->status));
	b->exit_code = GD_EXIT_FAIL;
	gd_oob_send_error(b->oob, GD_EXIT_FAIL, "completion error on its QP 0x%06x: %s",
			  wc->qp_num, ibv_wc_status_str(wc->status));
	return -EIO;
}

static bool peer_readable(struct gd_bench *b)
{
	struct pollfd pfd = { .fd = gd_oob_fd(b->oob), .events = POLLIN };

	return poll(&pfd, 1, 0) > 0;
}

static void prepare_qps(struct gd_bench *b, uint64_t size)
{
	for (uint32_t i = 0; i < b->p.num_qps; i++) {
		struct gd_qp_run *q = &b->q[i];

		q->size = (uint32_t)size;
		q->inl = (b->p.op == GD_OP_WRITE || b->p.op == GD_OP_SEND) &&
			 size <= b->conn.max_inline && b->conn.max_inline > 0;
		q->posted = q->completed = q->since_signal = 0;
		q->recv_done = 0;
		q->atomic_next = 0;
		gd_ops_prepare(q, b->p.post_list);
	}
}

double gd_bw_peak_rate(const uint64_t *tp, const uint64_t *tc, uint64_t n, uint32_t post_list,
		       uint32_t cq_mod)
{
	double best = 0;

	if (!n || !post_list || !cq_mod)
		return 0;
	for (uint64_t i = 0; i < n; i += post_list) {
		uint64_t j = (i + 1 + cq_mod - 1) / cq_mod * cq_mod - 1;

		for (; j < n; j += cq_mod) {
			uint64_t dt = tc[j] > tp[i] ? tc[j] - tp[i] : 1;
			double per = (double)dt / (double)(j - i + 1);

			if (best == 0 || per < best)
				best = per;
		}
		/* the last completion may not sit on a cq_mod boundary */
		if ((n - 1) % cq_mod) {
			uint64_t dt = tc[n - 1] > tp[i] ? tc[n - 1] - tp[i] : 1;
			double per = (double)dt / (double)(n - i);
			if (best == 0 || per < best)
				best = per;
		}
	}
	return best > 0 ? 1e9 / best : 0;
}

/* State of the duration phases: warm-up, sample, cool-down. */
struct phases {
	bool timed;
	uint64_t t0, t_sample, t_stop, t_end;
	bool in_sample, sampled;
	uint64_t c_start, c_end, ts, te;
	uint64_t next_print, c_print;
};

static void phases_init(struct phases *ph, const struct gd_bench_params *p, uint64_t now)
{
	uint64_t d = (uint64_t)p->duration_s * 1000000000ull;
	uint64_t m = (uint64_t)p->margin_s * 1000000000ull;

	memset(ph, 0, sizeof(*ph));
	ph->timed = p->duration_s > 0 || p->run_infinitely;
	ph->t0 = now;
	if (p->run_infinitely) {
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
	if (!ph->timed)
		return;
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

static void print_interval(struct gd_bench *b, struct phases *ph, uint64_t now, uint64_t count,
			   uint64_t size)
{
	struct gd_bw_result r = { .size = size };
	double s = (double)(now - (ph->next_print - (uint64_t)b->p.duration_s * 1000000000ull)) / 1e9;

	r.iters = count - ph->c_print;
	r.seconds = s;
	r.avg_Bps = s > 0 ? (double)r.iters * (double)size / s : 0;
	r.msg_rate = s > 0 ? (double)r.iters / s : 0;
	gd_bench_report_bw_line(b, &r, NULL);
	ph->c_print = count;
	ph->next_print = now + (uint64_t)b->p.duration_s * 1000000000ull;
}

/* Post what the window allows on one QP. */

/* Up to POLL_BATCH completions from cq; a failed poll ends the run. */
static int poll_batch(struct gd_bench *b, struct ibv_cq *cq, struct ibv_wc *wc, const char *which)
{
	int ne = ibv_poll_cq(cq, POLL_BATCH, wc);

	if (ne < 0) {
		gd_error("cannot poll the %s completion queue of %s", which, b->conn.dev_name);
		b->exit_code = GD_EXIT_FAIL;
		return -EIO;
	}
	return ne;
}

static int post_qp(struct gd_bench *b, struct gd_qp_run *q, uint64_t iters, bool stopping,
		   uint64_t *tp, uint64_t *tot_posted)
{
	uint32_t pl = b->p.post_list;

	for (;;) {
		uint64_t left = iters - q->posted;
		uint32_t n = (uint32_t)GD_MIN((uint64_t)pl, left);
		bool signal;
		int ret;

		if (!left)
			return 0;
		if (stopping && q->since_signal == 0)
			return 0; /* duration over: stop on a signalled boundary */
		if (q->posted - q->completed + n > b->tx_depth)
			return 0;
		signal = q->since_signal + n >= b->cq_mod || n == left || stopping;
		if (tp) {
			uint64_t now = gd_now_ns();
			for (uint32_t k = 0; k < n; k++)
				tp[*tot_posted + k] = now;
		}
		ret = gd_ops_post(q, n, signal, (uint32_t)(q->since_signal + n), (uint32_t)q->posted);
		if (ret) {
			b->exit_code = GD_EXIT_FAIL;
			return ret;
		}
		q->since_signal = signal ? 0 : q->since_signal + n;
		*tot_posted += n;
	}
}

int gd_bench_run_bw(struct gd_bench *b, uint64_t size, struct gd_bw_result *res, bool *sent)
{
	const struct gd_bench_params *p = &b->p;
	uint32_t nq = p->num_qps;
	bool init = b->roles.initiator, recv = b->roles.receiver;
	bool timed = p->duration_s > 0 || p->run_infinitely;
	uint64_t iters = timed ? UINT64_MAX : p->iters;
	uint64_t total = timed ? 0 : iters * nq;
	bool peak = init && !p->no_peak && !timed;
	uint64_t *tp = NULL, *tc = NULL;
	uint64_t tot_posted = 0, tot_completed = 0, tot_recv = 0;
	uint64_t t_first = 0, t_last = 0, r_first = 0, r_last = 0, last_peer_poll = 0;
	bool init_done = !init, recv_done = !recv, stopping = false;
	struct ibv_wc wc[POLL_BATCH];
	struct phases ph, rph;
	struct watch w;
	int ret = 0;
	unsigned spin = 0;

	if (p->init.initiator == GD_INIT_PROXY && init)
		return gd_proxy_bench_bw(b, size, res, sent);
	memset(res, 0, sizeof(*res));
	res->size = size;
	*sent = false;
	prepare_qps(b, size);
	if (peak) {
		tp = calloc(total, sizeof(*tp));
		tc = calloc(total, sizeof(*tc));
		if (!tp || !tc) {
			free(tp);
			free(tc);
			tp = tc = NULL;
			peak = false;
		}
	}
	watch_init(&w, b, init ? "completion" : "message received");
	phases_init(&ph, p, gd_now_ns());
	rph = ph;

	if (init && p->perform_warm_up && p->op != GD_OP_SEND && !p->write_with_imm) {
		/* one window of WRs per QP, not measured */
		for (uint32_t i = 0; i < nq && !ret; i++) {
			struct gd_qp_run *q = &b->q[i];
			uint64_t dummy = 0;
			ret = post_qp(b, q, GD_MIN((uint64_t)b->tx_depth, iters), false, NULL, &dummy);
		}
		while (!ret) {
			bool all = true;
			int ne = ibv_poll_cq(b->conn.send_cq, POLL_BATCH, wc);

			for (int k = 0; k < ne; k++) {
				if (wc[k].status != IBV_WC_SUCCESS)
					return wc_failed(b, &wc[k], false);
				b->q[gd_wr_id_qp(wc[k].wr_id)].completed += gd_wr_id_count(wc[k].wr_id);
			}
			for (uint32_t i = 0; i < nq; i++)
				all = all && b->q[i].completed == b->q[i].posted;
			if (all)
				break;
			ret = watch_check(b, &w, gd_now_ns());
		}
		for (uint32_t i = 0; i < nq; i++)
			b->q[i].posted = b->q[i].completed = b->q[i].since_signal = 0;
		if (ret)
			goto out;
	}

	t_first = gd_now_ns();
	while (!init_done || !recv_done) {
		bool progress = false;
		uint64_t now;

		if (init && !init_done) {
			for (uint32_t i = 0; i < nq; i++) {
				ret = post_qp(b, &b->q[i], iters, stopping, tp, &tot_posted);
				if (ret)
					goto out;
			}
			int ne = poll_batch(b, b->conn.send_cq, wc, "send");
			if (ne < 0) {
				ret = ne;
				goto out;
			}
			if (ne > 0) {
				uint64_t t = gd_now_ns();
				for (int k = 0; k < ne; k++) {
					uint32_t cnt;
					if (wc[k].status != IBV_WC_SUCCESS) {
						ret = wc_failed(b, &wc[k], false);
						goto out;
					}
					cnt = gd_wr_id_count(wc[k].wr_id);
					b->q[gd_wr_id_qp(wc[k].wr_id)].completed += cnt;
					if (tc)
						for (uint32_t c = 0; c < cnt && tot_completed + c < total; c++)
							tc[tot_completed + c] = t;
					tot_completed += cnt;
				}
				t_last = t;
				progress = true;
			}
		}
		if (recv && !recv_done) {
			int ne = poll_batch(b, b->conn.recv_cq, wc, "receive");
			if (ne < 0) {
				ret = ne;
				goto out;
			}
			if (ne > 0) {
				uint64_t t = gd_now_ns();
				for (int k = 0; k < ne; k++) {
					struct gd_qp_run *q;
					if (wc[k].status != IBV_WC_SUCCESS) {
						ret = wc_failed(b, &wc[k], true);
						goto out;
					}
					q = &b->q[gd_wr_id_qp(wc[k].wr_id)];
					q->recv_done++;
					ret = gd_ops_post_recv(q, 1);
					if (ret) {
						b->exit_code = GD_EXIT_FAIL;
						goto out;
					}
				}
				if (!tot_recv)
					r_first = t;
				tot_recv += (uint64_t)ne;
				r_last = t;
				progress = true;
			}
		}
		if (++spin % 64 && !progress)
			continue;
		now = gd_now_ns();
		if (progress)
			w.last_progress = now;
		phases_tick(&ph, now, tot_completed);
		phases_tick(&rph, now, tot_recv);
		if (init && !init_done) {
			if (timed && !stopping && (now >= ph.t_end || gd_bench_stop)) {
				stopping = true;
				/* ^C ended the run: consumed, so that the results still travel
				 * (a second ^C then aborts the side-channel waits) */
				gd_bench_stop = 0;
				if (!ph.sampled) { /* interrupted before the window closed */
					ph.sampled = true;
					ph.c_end = tot_completed;
					ph.te = now;
					if (!ph.ts) {
						ph.ts = ph.t0;
						ph.c_start = 0;
					}
				}
			}
			if (p->run_infinitely && now >= ph.next_print && !stopping)
				print_interval(b, &ph, now, tot_completed, size);
			bool all = true;
			for (uint32_t i = 0; i < nq && all; i++) {
				struct gd_qp_run *q = &b->q[i];
				all = timed ? (stopping && q->since_signal == 0 && q->completed == q->posted)
					    : q->completed == iters;
			}
			if (all) {
				init_done = true;
				/* my measurement is final: tell the peer now so it can stop
				 * draining its receives */
				if (timed) {
					uint64_t n = ph.c_end - ph.c_start;
					double s = (double)(ph.te - ph.ts) / 1e9;
					res->iters = n;
					res->seconds = s;
				} else {
					double s = (double)(t_last - t_first) / 1e9;
					res->iters = tot_completed;
					res->seconds = s;
				}
				res->ops = tot_completed;
				res->avg_Bps = res->seconds > 0 ? (double)res->iters * (double)size / res->seconds : 0;
				res->msg_rate = res->seconds > 0 ? (double)res->iters / res->seconds : 0;
				if (peak)
					res->peak_Bps = gd_bw_peak_rate(tp, tc, total, p->post_list,
									 b->cq_mod) * (double)size;
				ret = gd_bench_send_bw_results(b, res);
				if (ret)
					goto out;
				*sent = true;
			}
		}
		if (recv && !recv_done) {
			if (!timed) {
				recv_done = tot_recv >= total;
			} else if (now - last_peer_poll > 1000000ull) {
				/* drain until the peer's results say it stopped sending */
				last_peer_poll = now;
				recv_done = peer_readable(b);
			}
		}
		if (!init && timed && recv && !recv_done)
			gd_progress_update(&b->progress, now, "%s: receiving, %.0f s",
					   gd_progname(), (double)(now - ph.t0) / 1e9);
		if (init && timed && !init_done && !p->run_infinitely)
			gd_progress_update(&b->progress, now, "%s: %.0f/%u s", gd_progname(),
					   (double)(now - ph.t0) / 1e9, p->duration_s);
		ret = watch_check(b, &w, now);
		if (ret)
			goto out;
	}
	if (!init) {
		/* a receiver only (send server): report what it received */
		if (timed) {
			res->iters = rph.sampled ? rph.c_end - rph.c_start : tot_recv;
			res->seconds = rph.sampled ? (double)(rph.te - rph.ts) / 1e9 :
						     (double)(r_last - r_first) / 1e9;
		} else {
			res->iters = tot_recv;
			res->seconds = (double)(r_last - r_first) / 1e9;
			/* the first message's own time is not in the window */
			if (tot_recv > 1)
				res->seconds = res->seconds * (double)tot_recv / (double)(tot_recv - 1);
		}
		res->ops = tot_recv;
		res->avg_Bps = res->seconds > 0 ? (double)res->iters * (double)size / res->seconds : 0;
		res->msg_rate = res->seconds > 0 ? (double)res->iters / res->seconds : 0;
	}
out:
	gd_progress_done(&b->progress);
	free(tp);
	free(tc);
	return ret;
}

/* ---- latency ---- */

/* Spin for one completion on the send or the receive CQ of QP 0; a receive is
 * re-posted at once. Polls the deadline every 256 empty polls. */
static int wait_completion(struct gd_bench *b, struct watch *w, bool recv)
{
	struct ibv_cq *cq = recv ? b->conn.recv_cq : b->conn.send_cq;
	struct ibv_wc wc;
	unsigned spin = 0;

	for (;;) {
		int ne = ibv_poll_cq(cq, 1, &wc);
		if (ne > 0) {
			if (wc.status != IBV_WC_SUCCESS)
				return wc_failed(b, &wc, recv);
			w->last_progress = gd_now_ns();
			if (!recv) {
				b->q[0].completed++;
				return 0;
			}
			b->q[0].recv_done++;
			return gd_ops_post_recv(&b->q[0], 1);
		}
		if (ne < 0) {
			b->exit_code = GD_EXIT_FAIL;
			return -EIO;
		}
		if (++spin % 256 == 0) {
			int ret = watch_check(b, w, gd_now_ns());
			if (ret)
				return ret;
		}
	}
}

/* Spin until the last byte of my target region holds v (write ping-pong). */
static int wait_byte(struct gd_bench *b, struct watch *w, volatile uint8_t *at, uint8_t v)
{
	unsigned spin = 0;

	while (*at != v) {
		if (++spin % 1024 == 0) {
			int ret = watch_check(b, w, gd_now_ns());
			if (ret)
				return ret;
		}
	}
	w->last_progress = gd_now_ns();
	return 0;
}

static void gap(const struct gd_bench_params *p)
{
	if (p->latency_gap) {
		uint64_t until = gd_now_ns() + p->latency_gap * 1000ull;
		while (gd_now_ns() < until)
			;
	}
}

int gd_bench_run_lat(struct gd_bench *b, uint64_t size, double **samples, size_t *nsamples)
{
	const struct gd_bench_params *p = &b->p;
	struct gd_qp_run *q = &b->q[0];
	bool client = p->role == GD_ROLE_CLIENT;
	bool pingpong = p->op == GD_OP_WRITE || p->op == GD_OP_SEND;
	bool by_recv = p->op == GD_OP_SEND || p->write_with_imm;
	bool timed = p->duration_s > 0;
	uint64_t iters = timed ? UINT64_MAX : p->iters;
	volatile uint8_t *last = gd_bench_target(b, 0) + size - 1;
	uint8_t *mine = gd_bench_local(b, 0) + size - 1;
	size_t cap = timed ? 4096 : p->iters, n = 0;
	uint64_t *ts;
	double rtt_factor = pingpong ? 2.0 : 1.0;
	struct phases ph;
	struct watch w;
	int ret = 0;

	if (p->init.initiator == GD_INIT_PROXY)
		return gd_proxy_bench_lat(b, size, samples, nsamples);
	*samples = NULL;
	*nsamples = 0;
	prepare_qps(b, size);
	if (!pingpong && !client)
		return 0; /* read/atomic server: passive */
	ts = malloc(cap * sizeof(*ts));
	if (!ts)
		return -ENOMEM;
	watch_init(&w, b, pingpong ? "reply from the peer" : "completion");
	w.stop_on_peer = timed && !client;
	phases_init(&ph, p, gd_now_ns());
	for (uint64_t i = 0; i < iters; i++) {
		uint8_t v = (uint8_t)(i % 255 + 1);
		uint64_t now;

		if (pingpong && (!client || i > 0)) {
			/* wait for the peer's message i (server) or reply i-1 (client) */
			uint8_t want = client ? (uint8_t)((i - 1) % 255 + 1) : v;
			ret = by_recv ? wait_completion(b, &w, true) : wait_byte(b, &w, last, want);
			if (ret)
				break;
		}
		now = gd_now_ns();
		if (timed) {
			if (n + 1 >= cap) {
				uint64_t *nt = realloc(ts, 2 * cap * sizeof(*ts));
				if (!nt) {
					ret = -ENOMEM;
					break;
				}
				ts = nt;
				cap *= 2;
			}
			/* in a ping-pong only the client decides when to stop: a server
			 * that stopped on its own clock would leave the client waiting
			 * for a reply; it ends when the client's results arrive */
			if ((client && now >= ph.t_end) || gd_bench_stop) {
				gd_bench_stop = 0;
				ts[n++] = now; /* closes the last round trip */
				break;
			}
			gd_progress_update(&b->progress, now, "%s: %.0f/%u s", gd_progname(),
					   (double)(now - ph.t0) / 1e9, p->duration_s);
		}
		ts[n++] = now;
		if (p->op == GD_OP_WRITE && !p->write_with_imm)
			*mine = v;
		ret = gd_ops_post(q, 1, true, 1, (uint32_t)i);
		if (ret) {
			b->exit_code = GD_EXIT_FAIL;
			break;
		}
		ret = wait_completion(b, &w, false);
		if (ret)
			break;
		if (client && pingpong && i + 1 == iters) {
			/* the last reply closes the last sample */
			ret = by_recv ? wait_completion(b, &w, true) : wait_byte(b, &w, last, v);
			if (ret)
				break;
			ts[n++] = gd_now_ns();
		} else if (!pingpong && i + 1 == iters) {
			ts[n++] = gd_now_ns();
		}
		gap(p);
	}
	if (ret > 0) /* timed server: the client finished */
		ret = 0;
	gd_progress_done(&b->progress);
	if (p->op == GD_OP_WRITE && !p->write_with_imm)
		*mine = gd_pattern_byte(size - 1); /* the next size sends the pattern there */
	if (ret) {
		free(ts);
		return ret;
	}
	if (n > 1) {
		double *s = malloc((n - 1) * sizeof(*s));
		if (!s) {
			free(ts);
			return -ENOMEM;
		}
		for (size_t k = 0; k + 1 < n; k++)
			s[k] = (double)(ts[k + 1] - ts[k]) / 1000.0 / rtt_factor;
		*samples = s;
		*nsamples = n - 1;
	}
	free(ts);
	return 0;
}
