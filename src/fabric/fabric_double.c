/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The software fabric test double (see fabric_double.h). */
#include "config.h"

#include "fabric_double.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CLOCK_MONOTONIC, as the proxy's own deadlines (gd_hd.h): no clock state */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct dbl_cq {
	struct gd_fab_double *d;
	struct gd_fab_cqe *e;
	uint32_t cap, head, tail; /* tail - head entries */
	uint64_t executed;        /* this thread's requests (atomic: read by others) */
	char pad[32];
};

struct gd_fab_double {
	uint8_t *local, *peer;
	uint64_t bytes;
	uint32_t nthreads;
	uint64_t fail_after;
	uint64_t delay_ns;
	uint64_t executed; /* atomic, all threads: kept only with fail_after */
	struct dbl_cq *cq; /* per thread */
};

struct gd_fab_double *gd_fab_double_create(void *local, void *peer, uint64_t bytes,
					   uint32_t nthreads, uint32_t cq_depth,
					   uint64_t fail_after)
{
	struct gd_fab_double *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->local = local;
	d->peer = peer;
	d->bytes = bytes;
	d->nthreads = nthreads;
	d->fail_after = fail_after;
	d->cq = calloc(nthreads, sizeof(*d->cq));
	if (!d->cq) {
		free(d);
		return NULL;
	}
	for (uint32_t i = 0; i < nthreads; i++) {
		d->cq[i].d = d;
		d->cq[i].cap = cq_depth;
		d->cq[i].e = calloc(cq_depth, sizeof(*d->cq[i].e));
		if (!d->cq[i].e) {
			gd_fab_double_destroy(d);
			return NULL;
		}
	}
	return d;
}

void gd_fab_double_destroy(struct gd_fab_double *d)
{
	if (!d)
		return;
	for (uint32_t i = 0; i < d->nthreads && d->cq; i++)
		free(d->cq[i].e);
	free(d->cq);
	free(d);
}

void gd_fab_double_qp_run(struct gd_fab_double *d, uint32_t i, struct gd_qp_run *q)
{
	q->index = i;
	q->local_addr = (uintptr_t)d->local;
	q->remote_addr = (uintptr_t)d->peer;
	q->fab_cq = &d->cq[i % d->nthreads];
}

void gd_fab_double_set_delay(struct gd_fab_double *d, uint64_t ns)
{
	d->delay_ns = ns;
}

uint64_t gd_fab_double_executed(const struct gd_fab_double *d)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < d->nthreads; i++)
		n += __atomic_load_n(&d->cq[i].executed, __ATOMIC_RELAXED);
	return n;
}

/* [addr, addr + len) inside the buffer at base: its offset, else -1 */
static int64_t inside(const uint8_t *base, uint64_t bytes, uint64_t addr, uint64_t len)
{
	uint64_t off = addr - (uintptr_t)base;

	return addr >= (uintptr_t)base && len <= bytes && off <= bytes - len ? (int64_t)off : -1;
}

static int atomic_op(struct gd_fab_double *d, const struct ibv_send_wr *wr, int64_t loff)
{
	int64_t roff = inside(d->peer, d->bytes, wr->wr.atomic.remote_addr, 8);
	uint64_t *w, old;

	if (roff < 0 || roff % 8 || loff % 8)
		return GD_FAB_DOUBLE_BOUNDS;
	w = (uint64_t *)(void *)(d->peer + roff);
	if (wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
		old = __atomic_fetch_add(w, wr->wr.atomic.compare_add, __ATOMIC_RELAXED);
	} else {
		old = wr->wr.atomic.compare_add;
		__atomic_compare_exchange_n(w, &old, wr->wr.atomic.swap, 0, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
	}
	__atomic_store_n((uint64_t *)(void *)(d->local + loff), old, __ATOMIC_RELAXED);
	return 0;
}

/* Move one request's bytes; 0 or a GD_FAB_DOUBLE_* status. */
static int move(struct gd_fab_double *d, const struct ibv_send_wr *wr)
{
	uint64_t len = wr->sg_list[0].length;
	int64_t loff = inside(d->local, d->bytes, wr->sg_list[0].addr, len), roff;

	if (loff < 0)
		return GD_FAB_DOUBLE_BOUNDS;
	switch (wr->opcode) {
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		return atomic_op(d, wr, loff);
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
	case IBV_WR_RDMA_READ:
		break;
	default:
		return GD_FAB_DOUBLE_FAULT;
	}
	roff = inside(d->peer, d->bytes, wr->wr.rdma.remote_addr, len);
	if (roff < 0)
		return GD_FAB_DOUBLE_BOUNDS;
	if (wr->opcode == IBV_WR_RDMA_READ)
		memcpy(d->local + loff, d->peer + roff, len);
	else
		memcpy(d->peer + roff, d->local + loff, len);
	return 0;
}

/* Execute one request; returns 0 or a GD_FAB_DOUBLE_* status. */
static int execute(struct gd_fab_double *d, struct dbl_cq *cq, const struct ibv_send_wr *wr)
{
	__atomic_store_n(&cq->executed, cq->executed + 1, __ATOMIC_RELAXED);
	/* one shared counter only when a fault is to be injected (no contention otherwise) */
	if (d->fail_after && __atomic_add_fetch(&d->executed, 1, __ATOMIC_RELAXED) == d->fail_after)
		return GD_FAB_DOUBLE_FAULT;
	if (d->delay_ns) {
		uint64_t until = now_ns() + d->delay_ns;

		while (now_ns() < until)
			;
	}
	return move(d, wr);
}

static void queue(struct dbl_cq *cq, const struct gd_qp_run *q, uint64_t id, int status)
{
	cq->e[cq->tail++ % cq->cap] = (struct gd_fab_cqe){ .id = id, .status = status,
							   .qp_num = 0x100 + q->index };
}

static int dbl_post_wrs(struct gd_qp_run *q, struct ibv_send_wr *wr, uint32_t n)
{
	struct dbl_cq *cq = q->fab_cq;
	uint32_t sig = 0;

	for (uint32_t i = 0; i < n; i++)
		sig += (wr[i].send_flags & IBV_SEND_SIGNALED) != 0;
	if (cq->tail - cq->head + (sig ? sig : 1) > cq->cap)
		return -ENOSPC;
	for (uint32_t i = 0; i < n; i++) {
		int st = execute(cq->d, cq, &wr[i]);

		if (st || wr[i].send_flags & IBV_SEND_SIGNALED)
			queue(cq, q, wr[i].wr_id, st);
		if (st)
			break; /* as a NIC: the failed WR completes with its error, signalled or not */
	}
	return 0;
}

static int dbl_poll(void *cqv, struct gd_fab_cqe *c, int max)
{
	struct dbl_cq *cq = cqv;
	int n = 0;

	while (n < max && cq->head != cq->tail)
		c[n++] = cq->e[cq->head++ % cq->cap];
	return n;
}

static const char *dbl_status_str(void *cq, int status)
{
	(void)cq;
	switch (status) {
	case 0: return "success";
	case GD_FAB_DOUBLE_FAULT: return "injected fault (test double)";
	case GD_FAB_DOUBLE_BOUNDS: return "request outside the registered buffer (test double)";
	default: return "unknown status (test double)";
	}
}

static const char *dbl_hint(int status)
{
	return status == GD_FAB_DOUBLE_FAULT ? "the test asked for this fault (fail_after)"
					     : "a request outside the test double's buffers";
}

static uint32_t dbl_qp_num(const struct gd_qp_run *q)
{
	return 0x100 + q->index;
}

/* it takes none of the options: the proxy's tests build its runs */
static const struct gd_fabric_traits double_traits = { .port = false };

const struct gd_fabric_ops gd_fabric_test_double = {
	.name = "software fabric test double",
	.traits = &double_traits,
	.poll = dbl_poll,
	.status_str = dbl_status_str,
	.hint = dbl_hint,
	.post_wrs = dbl_post_wrs,
	.qp_num = dbl_qp_num,
};
