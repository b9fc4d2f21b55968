/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The CPU proxy threads (see proxy.h). */
#include "config.h"

#include "proxy.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "gd.h"
#include "log.h"

#define CACHE_LINE GD_PROXY_LINE
#define POLL_MAX 32
/* a pass (one chain per QP) carries at most this many
 * bytes, so that large messages complete, and free the ring, steadily */
#define PASS_BYTES (1u << 20)

/* One QP's bookkeeping. done_id may be written by any thread that polls a
 * shared CQ; everything else only by the owner. */
struct qp_state {
	uint64_t done_id;  /* atomic: id of the last completed chain */
	uint64_t sig_id;   /* id of the last signalled chain posted */
	uint64_t inflight; /* WRs posted and not known complete */
	uint64_t *fifo_id; /* chains in flight, oldest first */
	uint32_t *fifo_n;
	uint32_t cap, h, t;
	uint32_t unsig;    /* WRs posted since the last signalled chain */
	char pad[CACHE_LINE - 56];
};

struct proxy_thread {
	struct gd_proxy *px;
	uint32_t index;
	pthread_t tid;
	bool started;
	uint64_t cons;        /* next slot to read */
	uint64_t credit_sent; /* last credit published */
	uint64_t done_pub;    /* last done published */
	uint64_t last_progress;
	uint32_t nmine;
	uint32_t *mine;       /* my QP indices */
	struct gd_req *reqs;  /* nmine x batch */
	uint32_t *nreq;       /* per my QP in this pass */
	uint8_t *ahead;       /* per my QP: a written request of its follows (look_ahead) */
	struct gd_proxy_stats st; /* atomics (read by gd_proxy_get_stats) */
};

struct gd_proxy {
	struct gd_proxy_cfg cfg;
	struct gd_ring_mem mem;
	uint32_t log2;
	uint8_t *shared, *shared_dev; /* slots + credit/done per ring, error, stop */
	uint8_t *prod, *prod_dev;     /* head per ring */
	size_t shared_bytes, prod_bytes;
	struct gd_ring_set set;       /* device view */
	struct gd_ring_view host[GD_RING_MAX]; /* proxy view */
	uint64_t *error, *stop;       /* proxy view */
	int quit;                     /* atomic */
	bool stuck;                   /* a thread did not stop: never joined nor freed */
	struct qp_state *qs;
	struct proxy_thread *th;
};

static const char *const op_names[] = {
	[GD_DESC_NOP] = "nop", [GD_DESC_WRITE] = "RDMA write",
	[GD_DESC_WRITE_IMM] = "RDMA write with immediate", [GD_DESC_READ] = "RDMA read",
	[GD_DESC_FADD] = "atomic fetch-and-add", [GD_DESC_CAS] = "atomic compare-and-swap",
	[GD_DESC_SEND] = "send", [GD_DESC_SEND_IMM] = "send with immediate",
};

const char *gd_desc_op_name(uint32_t op)
{
	return op < GD_DESC_OP_COUNT ? op_names[op] : "?";
}

/* ---- memory ---- */

static void *host_alloc(void *ctx, size_t bytes, enum gd_ring_where where, void **dev)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, bytes))
		return *dev = NULL;
	memset(p, 0, bytes);
	*dev = p;
	return p;
}

static void host_free(void *ctx, void *host, void *dev, enum gd_ring_where where)
{
	free(host);
}

static const struct gd_ring_mem host_mem = { host_alloc, host_free, NULL };

static uint32_t ilog2(uint32_t v)
{
	uint32_t l = 0;

	while ((1u << l) < v)
		l++;
	return l;
}

/* Lay out the rings in the two regions. */
static void layout(struct gd_proxy *px, size_t slot_bytes)
{
	for (uint32_t i = 0; i < px->cfg.nthreads; i++) {
		size_t o = (size_t)i * (slot_bytes + 2 * CACHE_LINE);
		struct gd_ring_view *h = &px->host[i], *d = &px->set.ring[i];

		h->slots = (uint64_t *)(void *)(px->shared + o);
		h->credit = (uint64_t *)(void *)(px->shared + o + slot_bytes);
		h->done = (uint64_t *)(void *)(px->shared + o + slot_bytes + CACHE_LINE);
		h->head = px->prod ? (uint64_t *)(void *)(px->prod + (size_t)i * CACHE_LINE) : NULL;
		h->log2 = d->log2 = px->log2;
		d->slots = (uint64_t *)(void *)(px->shared_dev + o);
		d->credit = (uint64_t *)(void *)(px->shared_dev + o + slot_bytes);
		d->done = (uint64_t *)(void *)(px->shared_dev + o + slot_bytes + CACHE_LINE);
		d->head = (uint64_t *)(void *)(px->prod_dev + (size_t)i * CACHE_LINE);
	}
	size_t tail = (size_t)px->cfg.nthreads * (slot_bytes + 2 * CACHE_LINE);
	px->error = (uint64_t *)(void *)(px->shared + tail);
	px->stop = (uint64_t *)(void *)(px->shared + tail + CACHE_LINE);
	px->set.error = (uint64_t *)(void *)(px->shared_dev + tail);
	px->set.stop = (uint64_t *)(void *)(px->shared_dev + tail + CACHE_LINE);
	px->set.nrings = px->cfg.nthreads;
	px->set.nqps = px->cfg.nqps;
	px->set.timeout_ns = px->cfg.timeout_ns;
}

static int alloc_rings(struct gd_proxy *px)
{
	size_t slot_bytes = (size_t)GD_DESC_BYTES << px->log2;
	void *dev = NULL;

	px->shared_bytes = (size_t)gd_proxy_shared_bytes(px->cfg.nthreads, px->cfg.ring_slots);
	px->prod_bytes = (size_t)px->cfg.nthreads * CACHE_LINE;
	px->shared = px->mem.alloc(px->mem.ctx, px->shared_bytes, GD_RING_SHARED, &dev);
	px->shared_dev = dev;
	if (!px->shared || !dev) {
		gd_error("cannot allocate %zu bytes of pinned memory for the proxy rings",
			 px->shared_bytes);
		return -ENOMEM;
	}
	px->prod = px->mem.alloc(px->mem.ctx, px->prod_bytes, GD_RING_PRODUCER, &dev);
	px->prod_dev = dev;
	if (!dev) {
		gd_error("cannot allocate the producers' ring counters");
		return -ENOMEM;
	}
	layout(px, slot_bytes);
	return 0;
}

static int check_cfg(const struct gd_proxy_cfg *c)
{
	if (!c->nthreads || c->nthreads > GD_RING_MAX) {
		gd_error("--proxy_threads %u: expected 1 to %u", c->nthreads, GD_RING_MAX);
		return -EINVAL;
	}
	if (c->nqps > GD_PROXY_MAX_QPS) {
		gd_error("%u QPs: a proxy drives at most %u (lower -q to %u)", c->nqps,
			 GD_PROXY_MAX_QPS, GD_PROXY_MAX_QPS);
		return -EINVAL;
	}
	if (c->nqps < c->nthreads) {
		gd_error("%u QPs for %u proxy threads: every proxy thread needs at least one QP "
			 "(raise -q to at least --proxy_threads)", c->nqps, c->nthreads);
		return -EINVAL;
	}
	if (c->ring_slots < 2 || c->ring_slots > (1u << 24) || (c->ring_slots & (c->ring_slots - 1))) {
		gd_error("--ring_slots %u: expected a power of two from 2 to 16M", c->ring_slots);
		return -EINVAL;
	}
	if (!c->sq_depth || !c->tp) {
		gd_error("proxy: no transport or a zero send-queue depth");
		return -EINVAL;
	}
	return 0;
}

static int alloc_qps(struct gd_proxy *px)
{
	uint32_t nq = px->cfg.nqps;

	px->qs = calloc(nq, sizeof(*px->qs));
	if (!px->qs)
		return -ENOMEM;
	for (uint32_t q = 0; q < nq; q++) {
		struct qp_state *s = &px->qs[q];

		s->cap = px->cfg.sq_depth + 1; /* a chain holds at least one WR */
		s->fifo_id = calloc(s->cap, sizeof(*s->fifo_id));
		s->fifo_n = calloc(s->cap, sizeof(*s->fifo_n));
		if (!s->fifo_id || !s->fifo_n)
			return -ENOMEM;
	}
	return 0;
}

static int alloc_threads(struct gd_proxy *px)
{
	uint32_t nt = px->cfg.nthreads, batch = px->cfg.batch;

	px->th = calloc(nt, sizeof(*px->th));
	if (!px->th)
		return -ENOMEM;
	for (uint32_t i = 0; i < nt; i++) {
		struct proxy_thread *t = &px->th[i];

		t->px = px;
		t->index = i;
		t->nmine = (px->cfg.nqps - i + nt - 1) / nt;
		t->mine = calloc(t->nmine, sizeof(*t->mine));
		t->nreq = calloc(t->nmine, sizeof(*t->nreq));
		t->reqs = calloc((size_t)t->nmine * batch, sizeof(*t->reqs));
		t->ahead = calloc(t->nmine, sizeof(*t->ahead));
		if (!t->mine || !t->nreq || !t->reqs || !t->ahead)
			return -ENOMEM;
		for (uint32_t k = 0; k < t->nmine; k++)
			t->mine[k] = i + k * nt;
	}
	return 0;
}

struct gd_proxy *gd_proxy_create(const struct gd_proxy_cfg *cfg)
{
	struct gd_proxy *px;

	if (check_cfg(cfg))
		return NULL;
	px = calloc(1, sizeof(*px));
	if (!px)
		return NULL;
	px->cfg = *cfg;
	if (!px->cfg.batch)
		px->cfg.batch = 64;
	/* a moderation no longer than a chain signals every chain (as without
	 * one): never more completions than chains, and -Q 1 above 8 KiB
	 * (verbs) keeps its chains (chain_signalled) */
	if (px->cfg.sig_every <= px->cfg.batch)
		px->cfg.sig_every = 0;
	if (!px->cfg.credit_batch)
		px->cfg.credit_batch = GD_MAX(1u, cfg->ring_slots / 8);
	if (!px->cfg.timeout_ns)
		px->cfg.timeout_ns = 10000000000ull;
	px->mem = cfg->mem ? *cfg->mem : host_mem;
	px->log2 = ilog2(cfg->ring_slots);
	if (alloc_rings(px) || alloc_qps(px) || alloc_threads(px)) {
		gd_error("cannot allocate the proxy's state");
		gd_proxy_destroy(px);
		return NULL;
	}
	return px;
}

void gd_proxy_destroy(struct gd_proxy *px)
{
	if (!px || gd_proxy_join(px))
		return; /* a stuck thread still reads px (gd_proxy_join) */
	for (uint32_t i = 0; px->th && i < px->cfg.nthreads; i++) {
		free(px->th[i].mine);
		free(px->th[i].nreq);
		free(px->th[i].reqs);
		free(px->th[i].ahead);
	}
	for (uint32_t q = 0; px->qs && q < px->cfg.nqps; q++) {
		free(px->qs[q].fifo_id);
		free(px->qs[q].fifo_n);
	}
	free(px->th);
	free(px->qs);
	if (px->shared_dev)
		px->mem.free(px->mem.ctx, px->shared, px->shared_dev, GD_RING_SHARED);
	if (px->prod_dev)
		px->mem.free(px->mem.ctx, px->prod, px->prod_dev, GD_RING_PRODUCER);
	free(px);
}

/* ---- the hot path ---- */

static void set_error(struct gd_proxy *px, uint64_t e)
{
	uint64_t zero = 0;

	__atomic_compare_exchange_n(px->error, &zero, e, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static void add_stat(uint64_t *s, uint64_t n)
{
	__atomic_store_n(s, __atomic_load_n(s, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

/* Read one slot; 1 when ready (req filled), 0 when not yet written, -1 invalid. */
static int read_slot(const struct gd_ring_view *r, uint64_t idx, struct gd_req *req)
{
	const uint64_t *s = r->slots + (idx & ((1ull << r->log2) - 1)) * GD_DESC_WORDS;
	uint64_t w[GD_DESC_WORDS];

	for (int k = 0; k < GD_DESC_WORDS; k++)
		w[k] = __atomic_load_n(&s[k], __ATOMIC_ACQUIRE);
	if (!gd_desc_ready(w, gd_desc_lap(idx, r->log2)))
		return 0;
	return gd_desc_decode(w, req) ? -1 : 1;
}

/* Take up to batch descriptors into per-QP groups; returns how many. */
static uint32_t take(struct proxy_thread *t)
{
	struct gd_proxy *px = t->px;
	const struct gd_ring_view *r = &px->host[t->index];
	uint32_t nt = px->cfg.nthreads, batch = px->cfg.batch, k = 0;
	uint64_t bytes = 0;
	struct gd_req req;

	while (k < batch && bytes < PASS_BYTES) {
		int ok = read_slot(r, t->cons, &req);
		uint32_t qp, li;

		if (ok == 0)
			break;
		qp = req.channel % px->cfg.nqps;
		if (ok < 0 || qp % nt != t->index) {
			set_error(px, gd_err_make(GD_ERR_DESC, 0, req.op, qp, 0));
			break;
		}
		li = qp / nt;
		if (px->qs[qp].inflight + t->nreq[li] + 1 > px->cfg.sq_depth)
			break; /* send queue full: post what we have, completions free it */
		t->reqs[(size_t)li * batch + t->nreq[li]++] = req;
		bytes += req.size;
		t->cons++;
		k++;
		if (px->cfg.sig_every && px->qs[qp].unsig + t->nreq[li] >= px->cfg.sig_every)
			break; /* this chain ends at the moderation's signalled request */
	}
	return k;
}

/* Mark in t->ahead (by local QP index) the QPs with a request among the next
 * batch ring slots already written: the proxy will post a chain of theirs. */
static void look_ahead(struct proxy_thread *t)
{
	const struct gd_proxy *px = t->px;
	uint32_t nt = px->cfg.nthreads, seen = 0;
	struct gd_req req;

	memset(t->ahead, 0, t->nmine);
	for (uint64_t i = t->cons; i < t->cons + px->cfg.batch && seen < t->nmine; i++) {
		uint32_t qp;

		if (read_slot(&px->host[t->index], i, &req) != 1)
			break;
		qp = req.channel % px->cfg.nqps;
		if (qp % nt != t->index)
			break; /* take() reports it */
		seen += !t->ahead[qp / nt];
		t->ahead[qp / nt] = 1;
	}
}

/*
 * Whether qp's chain of n requests asks a completion (its last WR
 * signalled). Every chain does without moderation (sig_every 0). With it,
 * as the CPU loop's -Q: one chain in sig_every requests, and always
 *  - the last before the ring holds no written request for qp (follows:
 *    look_ahead): a quiet waits for done, which only a completion moves, so
 *    a chain is left unsignalled only where a later one of its QP is sure;
 *  - one that fills the send queue while no signalled WR is in flight: else
 *    no completion would ever free it.
 * A completion retires every chain of the QP up to it (publish).
 */
static bool chain_signalled(const struct gd_proxy *px, uint32_t qp, uint32_t n, bool follows)
{
	const struct qp_state *s = &px->qs[qp];
	bool sig_in_flight = s->sig_id > __atomic_load_n(&s->done_id, __ATOMIC_ACQUIRE);

	if (!px->cfg.sig_every || s->unsig + n >= px->cfg.sig_every || !follows)
		return true;
	return s->inflight + n >= px->cfg.sq_depth && !sig_in_flight;
}

/* Post each QP's group as one chain with id cons, its last WR signalled as
 * chain_signalled says. */
static int post_groups(struct proxy_thread *t)
{
	struct gd_proxy *px = t->px;

	if (px->cfg.sig_every)
		look_ahead(t);

	for (uint32_t li = 0; li < t->nmine; li++) {
		uint32_t n = t->nreq[li], qp = t->mine[li];
		struct qp_state *s = &px->qs[qp];
		bool sig;
		int ret;

		if (!n)
			continue;
		t->nreq[li] = 0;
		sig = chain_signalled(px, qp, n, t->ahead[li]);
		ret = gd_transport_post(px->cfg.tp, t->index, qp,
					&t->reqs[(size_t)li * px->cfg.batch], n, t->cons, sig);
		if (ret) {
			set_error(px, gd_err_make(GD_ERR_POST, (uint32_t)-ret, t->reqs[0].op, qp,
						  gd_transport_qp_num(px->cfg.tp, qp)));
			return ret;
		}
		s->inflight += n;
		s->unsig = sig ? 0 : s->unsig + n;
		if (sig)
			s->sig_id = t->cons;
		s->fifo_id[s->t % s->cap] = t->cons;
		s->fifo_n[s->t % s->cap] = n;
		s->t++;
		add_stat(&t->st.chains, 1);
	}
	return 0;
}

/* done_id only grows: completions of one QP may be polled out of order
 * (threads sharing a CQ; a transport that signals inside a chain) */
static void done_max(uint64_t *p, uint64_t id)
{
	uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (id > cur && !__atomic_compare_exchange_n(p, &cur, id, true, __ATOMIC_RELEASE,
							 __ATOMIC_RELAXED))
		;
}

/* Poll one batch of completions; returns how many, or -1 on a fault. */
static int poll_completions(struct proxy_thread *t)
{
	struct gd_proxy *px = t->px;
	struct gd_tp_comp c[POLL_MAX];
	int n = gd_transport_poll(px->cfg.tp, t->index, c, POLL_MAX);

	if (n < 0) {
		set_error(px, gd_err_make(GD_ERR_POST, (uint32_t)-n, 0, 0, 0));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (c[i].status) {
			set_error(px, gd_err_make(GD_ERR_COMPLETION, (uint32_t)c[i].status, c[i].op,
						  c[i].qp, c[i].qp_num));
			return -1;
		}
		if (c[i].qp < px->cfg.nqps)
			done_max(&px->qs[c[i].qp].done_id, c[i].id);
	}
	if (n) {
		add_stat(&t->st.completions, (uint64_t)n);
		add_stat(&t->st.polls, 1);
	}
	return n;
}

/* Retire completed chains of my QPs; publish done (ring order) and credits. */
static bool publish(struct proxy_thread *t, uint32_t took)
{
	struct gd_proxy *px = t->px;
	const struct gd_ring_view *r = &px->host[t->index];
	uint64_t done = t->cons;
	bool progress = false;

	for (uint32_t li = 0; li < t->nmine; li++) {
		struct qp_state *s = &px->qs[t->mine[li]];
		uint64_t d = __atomic_load_n(&s->done_id, __ATOMIC_ACQUIRE);

		while (s->h != s->t && s->fifo_id[s->h % s->cap] <= d) {
			s->inflight -= s->fifo_n[s->h % s->cap];
			s->h++;
			progress = true;
		}
		if (s->inflight && d < done)
			done = d;
	}
	if (done > t->done_pub) {
		t->done_pub = done;
		__atomic_store_n(r->done, done, __ATOMIC_RELEASE);
	}
	if (t->cons - t->credit_sent >= px->cfg.credit_batch ||
	    (took < px->cfg.batch && t->cons != t->credit_sent)) {
		t->credit_sent = t->cons;
		__atomic_store_n(r->credit, t->cons, __ATOMIC_RELEASE);
	}
	return progress;
}

static uint64_t inflight(const struct proxy_thread *t)
{
	uint64_t n = 0;

	for (uint32_t li = 0; li < t->nmine; li++)
		n += t->px->qs[t->mine[li]].inflight;
	return n;
}

/* No completion for the deadline while WRs are in flight: a fault. */
static void check_deadline(struct proxy_thread *t, uint64_t now)
{
	struct gd_proxy *px = t->px;

	if (now - t->last_progress <= px->cfg.timeout_ns)
		return;
	for (uint32_t li = 0; li < t->nmine; li++) {
		uint32_t qp = t->mine[li];

		if (px->qs[qp].inflight) {
			set_error(px, gd_err_make(GD_ERR_TIMEOUT, 0, 0, qp,
						  gd_transport_qp_num(px->cfg.tp, qp)));
			return;
		}
	}
}

static void pin(struct proxy_thread *t)
{
	const struct gd_proxy_cfg *c = &t->px->cfg;
	cpu_set_t set;

	if (!c->cores || !c->ncores)
		return;
	CPU_ZERO(&set);
	CPU_SET(c->cores[t->index % c->ncores], &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		gd_warn("cannot pin proxy thread %u to CPU %d", t->index,
			c->cores[t->index % c->ncores]);
}

static void *proxy_main(void *arg)
{
	struct proxy_thread *t = arg;
	struct gd_proxy *px = t->px;
	unsigned idle = 0;

	pin(t);
	t->last_progress = gd_hd_now_ns();
	while (!__atomic_load_n(&px->quit, __ATOMIC_ACQUIRE)) {
		bool faulted = __atomic_load_n(px->error, __ATOMIC_ACQUIRE) != 0;
		uint32_t took = faulted ? 0 : take(t);
		int polled;

		if (took && post_groups(t))
			faulted = true;
		polled = faulted ? 0 : poll_completions(t);
		if (publish(t, took) || took || polled > 0) {
			idle = 0;
			t->last_progress = gd_hd_now_ns();
			add_stat(&t->st.requests, took);
			continue;
		}
		if (++idle % 256)
			continue;
		if (!faulted && inflight(t))
			check_deadline(t, gd_hd_now_ns());
		else
			t->last_progress = gd_hd_now_ns();
		gd_hd_pause(idle / 256);
	}
	return NULL;
}

int gd_proxy_start(struct gd_proxy *px)
{
	for (uint32_t i = 0; i < px->cfg.nthreads; i++) {
		int ret = pthread_create(&px->th[i].tid, NULL, proxy_main, &px->th[i]);

		if (ret) {
			gd_error("cannot start proxy thread %u: %s", i, strerror(ret));
			gd_proxy_join(px);
			return -ret;
		}
		px->th[i].started = true;
	}
	return 0;
}

void gd_proxy_ring_set(const struct gd_proxy *px, struct gd_ring_set *set)
{
	*set = px->set;
}

void gd_proxy_stop_producers(struct gd_proxy *px)
{
	__atomic_store_n(px->stop, 1, __ATOMIC_RELEASE);
}

/*
 * Every thread ends within the deadline (--timeout, at least 2 s) of being
 * told to quit. One that does not is stuck inside its transport call, and
 * no deadline of ours can reach it there: a libfabric shm peer killed while
 * it held its queue's lock leaves our writer spinning on it for ever (seen
 * in the GPU tier's "server killed" cell, about 1 run in 10 under load).
 * Then the thread is left running and px is never freed (it reads it); the
 * caller leaves the transport open too (proxy_bench.c: gd_bench_abandon),
 * and the tool exits 1 with this message instead of hanging in the join.
 */
int gd_proxy_join(struct gd_proxy *px)
{
	uint64_t wait_ns = px->cfg.timeout_ns > 2000000000ull ? px->cfg.timeout_ns : 2000000000ull;
	struct timespec until;

	__atomic_store_n(&px->quit, 1, __ATOMIC_RELEASE);
	if (px->stuck)
		return -ETIMEDOUT;
	until = gd_realtime_in_ms(wait_ns / 1000000ull);
	for (uint32_t i = 0; px->th && i < px->cfg.nthreads; i++) {
		if (!px->th[i].started)
			continue;
		if (pthread_timedjoin_np(px->th[i].tid, NULL, &until)) {
			gd_error("proxy thread %u did not stop within %.0f s of being told to: it is stuck "
				 "inside the transport's post call (a libfabric shm peer killed while it held "
				 "its queue lock leaves its writers spinning); the transport is left open "
				 "and the tool exits", i, (double)wait_ns / 1e9);
			px->stuck = true;
			return -ETIMEDOUT;
		}
		px->th[i].started = false;
	}
	return 0;
}

uint64_t gd_proxy_error(const struct gd_proxy *px)
{
	return __atomic_load_n(px->error, __ATOMIC_ACQUIRE);
}

void gd_proxy_get_stats(const struct gd_proxy *px, struct gd_proxy_stats *s)
{
	memset(s, 0, sizeof(*s));
	for (uint32_t i = 0; i < px->cfg.nthreads; i++) {
		const struct gd_proxy_stats *t = &px->th[i].st;

		s->requests += __atomic_load_n(&t->requests, __ATOMIC_RELAXED);
		s->chains += __atomic_load_n(&t->chains, __ATOMIC_RELAXED);
		s->completions += __atomic_load_n(&t->completions, __ATOMIC_RELAXED);
		s->polls += __atomic_load_n(&t->polls, __ATOMIC_RELAXED);
	}
}

const char *gd_proxy_hint(const struct gd_proxy *px, uint64_t e)
{
	if (gd_err_kind(e) != GD_ERR_COMPLETION)
		return NULL;
	return gd_transport_hint(px->cfg.tp, (int)gd_err_status(e));
}

void gd_proxy_describe(const struct gd_proxy *px, uint64_t e, char *buf, size_t len)
{
	uint32_t st = gd_err_status(e), qp = gd_err_qp_index(e);

	switch (gd_err_kind(e)) {
	case GD_ERR_COMPLETION:
		snprintf(buf, len, "completion error on QP 0x%06x (index %u, %s): %s (status %u)",
			 gd_err_qp_num(e), qp, gd_desc_op_name(gd_err_op(e)),
			 gd_transport_status_str(px->cfg.tp, (int)st), st);
		break;
	case GD_ERR_POST:
		snprintf(buf, len, "cannot post %s on QP 0x%06x (index %u): %s",
			 gd_desc_op_name(gd_err_op(e)), gd_err_qp_num(e), qp, strerror((int)st));
		break;
	case GD_ERR_DESC:
		snprintf(buf, len, "invalid descriptor (opcode %u, QP index %u) in a proxy ring: "
			 "a producer wrote a bad request or used the wrong ring", gd_err_op(e), qp);
		break;
	case GD_ERR_TIMEOUT:
		snprintf(buf, len, "no completion on QP 0x%06x (index %u) within the deadline "
			 "(--timeout): the link is down or the peer stopped", gd_err_qp_num(e), qp);
		break;
	default:
		snprintf(buf, len, "no error");
	}
}

void gd_proxy_dump(const struct gd_proxy *px, FILE *f)
{
	for (uint32_t i = 0; i < px->cfg.nthreads; i++) {
		const struct proxy_thread *t = &px->th[i];
		const struct gd_ring_view *r = &px->host[i];

		fprintf(f, "  proxy thread %u: ring consumed %" PRIu64 ", credit %" PRIu64
			", done %" PRIu64 ", head %s", i, t->cons,
			__atomic_load_n(r->credit, __ATOMIC_ACQUIRE),
			__atomic_load_n(r->done, __ATOMIC_ACQUIRE), r->head ? "" : "(in GPU memory)");
		if (r->head)
			fprintf(f, "%" PRIu64, __atomic_load_n(r->head, __ATOMIC_ACQUIRE));
		for (uint32_t li = 0; li < t->nmine; li++)
			fprintf(f, "; QP %u: %" PRIu64 " WRs in flight", t->mine[li],
				px->qs[t->mine[li]].inflight);
		fputc('\n', f);
	}
}

void gd_proxy_describe_fail(const struct gd_ring_fail *f, char *buf, size_t len)
{
	static const char *const what[] = {
		"ok", "no free ring slot within the deadline (back-pressure: the proxy stopped "
		"consuming)", "quiet: completions did not reach the target within the deadline",
		"the proxy reported a fault", "stopped by the host",
	};

	snprintf(buf, len, "%s: ring %" PRIu64 ", waited for index %" PRIu64 ", head %" PRIu64
		 ", credit %" PRIu64 ", done %" PRIu64 " (%" PRIu64 " outstanding)",
		 f->code < 5 ? what[f->code] : "?", f->ring, f->idx, f->head, f->credit, f->done,
		 f->head - f->done);
}
