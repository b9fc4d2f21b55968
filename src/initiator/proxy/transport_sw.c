/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The SOFTWARE TRANSPORT TEST DOUBLE (see transport.h): it stands in for a
 * NIC where none exists. Writes and sends copy local -> peer, reads copy
 * peer -> local, FADD and CAS are 64-bit atomics on the peer word with the
 * old value stored locally. A signalled request queues one completion on
 * the posting thread's own queue (no lock: only that thread posts and polls
 * it). Bounds are checked as an NIC's memory region would.
 */
#include "transport.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ring.h"

struct sw_cq {
	struct gd_tp_comp *e;
	uint32_t cap, head, tail; /* tail - head entries */
	uint64_t executed;        /* this thread's requests (atomic: read by others) */
	char pad[32];
};

struct gd_sw_transport {
	uint8_t *local, *peer;
	uint64_t bytes;
	uint32_t nqps, nthreads;
	uint64_t fail_after;
	uint64_t delay_ns;
	uint64_t executed; /* atomic, all threads: kept only with fail_after */
	struct sw_cq *cq;  /* per thread */
};

struct gd_sw_transport *gd_sw_transport_create(void *local, void *peer, uint64_t bytes,
					       uint32_t nqps, uint32_t nthreads, uint32_t cq_depth,
					       uint64_t fail_after)
{
	struct gd_sw_transport *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->local = local;
	t->peer = peer;
	t->bytes = bytes;
	t->nqps = nqps;
	t->nthreads = nthreads;
	t->fail_after = fail_after;
	t->cq = calloc(nthreads, sizeof(*t->cq));
	if (!t->cq) {
		free(t);
		return NULL;
	}
	for (uint32_t i = 0; i < nthreads; i++) {
		t->cq[i].cap = cq_depth;
		t->cq[i].e = calloc(cq_depth, sizeof(*t->cq[i].e));
		if (!t->cq[i].e) {
			gd_sw_transport_destroy(t);
			return NULL;
		}
	}
	return t;
}

void gd_sw_transport_destroy(struct gd_sw_transport *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->nthreads && t->cq; i++)
		free(t->cq[i].e);
	free(t->cq);
	free(t);
}

void gd_sw_transport_set_delay(struct gd_sw_transport *t, uint64_t ns)
{
	t->delay_ns = ns;
}

uint64_t gd_sw_transport_executed(const struct gd_sw_transport *t)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < t->nthreads; i++)
		n += __atomic_load_n(&t->cq[i].executed, __ATOMIC_RELAXED);
	return n;
}

/* Execute one request; returns 0 or a GD_SW_STATUS_*. */
static int execute(struct gd_sw_transport *t, struct sw_cq *cq, const struct gd_req *r)
{
	__atomic_store_n(&cq->executed, cq->executed + 1, __ATOMIC_RELAXED);
	/* one shared counter only when a fault is to be injected (no contention otherwise) */
	if (t->fail_after && __atomic_add_fetch(&t->executed, 1, __ATOMIC_RELAXED) == t->fail_after)
		return GD_SW_STATUS_FAULT;
	if (t->delay_ns) {
		uint64_t until = gd_hd_now_ns() + t->delay_ns;

		while (gd_hd_now_ns() < until)
			;
	}
	if (r->size > t->bytes || r->local > t->bytes - r->size || r->remote > t->bytes - r->size)
		return GD_SW_STATUS_BOUNDS;
	switch (r->op) {
	case GD_DESC_WRITE:
	case GD_DESC_WRITE_IMM:
	case GD_DESC_SEND:
	case GD_DESC_SEND_IMM:
		memcpy(t->peer + r->remote, t->local + r->local, r->size);
		return 0;
	case GD_DESC_READ:
		memcpy(t->local + r->local, t->peer + r->remote, r->size);
		return 0;
	case GD_DESC_FADD:
	case GD_DESC_CAS: {
		uint64_t *w = (uint64_t *)(void *)(t->peer + r->remote), old;

		if (r->remote % 8 || r->local % 8)
			return GD_SW_STATUS_BOUNDS;
		if (r->op == GD_DESC_FADD) {
			old = __atomic_fetch_add(w, r->operand, __ATOMIC_RELAXED);
		} else {
			old = r->compare;
			__atomic_compare_exchange_n(w, &old, r->operand, 0, __ATOMIC_RELAXED,
						    __ATOMIC_RELAXED);
		}
		__atomic_store_n((uint64_t *)(void *)(t->local + r->local), old, __ATOMIC_RELAXED);
		return 0;
	}
	default:
		return GD_SW_STATUS_FAULT;
	}
}

static int sw_post(void *ctx, uint32_t thread, uint32_t qp, const struct gd_req *reqs, uint32_t n,
		   uint64_t signal_id)
{
	struct gd_sw_transport *t = ctx;
	struct sw_cq *cq = &t->cq[thread];
	struct gd_tp_comp c = { .qp = qp, .qp_num = 0x100 + qp, .id = signal_id };

	if (cq->tail - cq->head >= cq->cap)
		return -ENOSPC;
	for (uint32_t i = 0; i < n; i++) {
		int st = execute(t, cq, &reqs[i]);

		if (st) {
			/* as a NIC: the failed WR completes with its error, signalled or not */
			c.status = st;
			c.op = reqs[i].op;
			break;
		}
	}
	cq->e[cq->tail++ % cq->cap] = c;
	return 0;
}

static int sw_poll(void *ctx, uint32_t thread, struct gd_tp_comp *c, int max)
{
	struct gd_sw_transport *t = ctx;
	struct sw_cq *cq = &t->cq[thread];
	int n = 0;

	while (n < max && cq->head != cq->tail)
		c[n++] = cq->e[cq->head++ % cq->cap];
	return n;
}

static const char *sw_status_str(int status)
{
	switch (status) {
	case 0: return "success";
	case GD_SW_STATUS_FAULT: return "injected fault (test double)";
	case GD_SW_STATUS_BOUNDS: return "request outside the registered buffer (test double)";
	default: return "unknown status (test double)";
	}
}

static uint32_t sw_qp_num(void *ctx, uint32_t qp)
{
	return 0x100 + qp;
}

void gd_sw_transport_ops(struct gd_sw_transport *t, struct gd_transport *tp)
{
	tp->name = "software transport (test double)";
	tp->ctx = t;
	tp->post = sw_post;
	tp->poll = sw_poll;
	tp->status_str = sw_status_str;
	tp->qp_num = sw_qp_num;
}
