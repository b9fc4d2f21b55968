/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The verbs transport of the proxy (see transport_verbs.h). */
#include "config.h"

#include "transport_verbs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define QP_SHIFT 56
#define ID_MASK ((1ull << QP_SHIFT) - 1)

struct tv_thread {
	struct ibv_send_wr *wr;
	struct ibv_sge *sge;
};

struct gd_tv {
	struct gd_tv_qp *qps;
	uint32_t nqps, nthreads, max_chain, max_inline;
	uint64_t signal_above; /* a request larger than this signals itself; 0 = none */
	uint32_t *last_op; /* per QP: the op of its last chain (error attribution) */
	struct ibv_cq *cq;
	struct tv_thread *th;
};

struct gd_tv *gd_tv_create(const struct gd_tv_qp *qps, uint32_t nqps, struct ibv_cq *send_cq,
			   uint32_t nthreads, uint32_t max_chain, uint32_t max_inline)
{
	struct gd_tv *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->nqps = nqps;
	t->nthreads = nthreads;
	t->max_chain = max_chain;
	t->max_inline = max_inline;
	t->cq = send_cq;
	t->qps = calloc(nqps, sizeof(*t->qps));
	t->last_op = calloc(nqps, sizeof(*t->last_op));
	t->th = calloc(nthreads, sizeof(*t->th));
	if (!t->qps || !t->th || !t->last_op) {
		gd_tv_destroy(t);
		return NULL;
	}
	memcpy(t->qps, qps, nqps * sizeof(*qps));
	for (uint32_t i = 0; i < nthreads; i++) {
		t->th[i].wr = calloc(max_chain, sizeof(*t->th[i].wr));
		t->th[i].sge = calloc(max_chain, sizeof(*t->th[i].sge));
		if (!t->th[i].wr || !t->th[i].sge) {
			gd_tv_destroy(t);
			return NULL;
		}
	}
	return t;
}

void gd_tv_destroy(struct gd_tv *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; t->th && i < t->nthreads; i++) {
		free(t->th[i].wr);
		free(t->th[i].sge);
	}
	free(t->th);
	free(t->qps);
	free(t->last_op);
	free(t);
}

static enum ibv_wr_opcode wr_opcode(uint32_t op)
{
	switch (op) {
	case GD_DESC_WRITE_IMM: return IBV_WR_RDMA_WRITE_WITH_IMM;
	case GD_DESC_READ: return IBV_WR_RDMA_READ;
	case GD_DESC_FADD: return IBV_WR_ATOMIC_FETCH_AND_ADD;
	case GD_DESC_CAS: return IBV_WR_ATOMIC_CMP_AND_SWP;
	case GD_DESC_SEND: return IBV_WR_SEND;
	case GD_DESC_SEND_IMM: return IBV_WR_SEND_WITH_IMM;
	default: return IBV_WR_RDMA_WRITE;
	}
}

static void build_wr(const struct gd_tv *t, const struct gd_tv_qp *q, const struct gd_req *r,
		     struct ibv_send_wr *wr, struct ibv_sge *sge, uint64_t wr_id)
{
	bool atomic = r->op == GD_DESC_FADD || r->op == GD_DESC_CAS;

	memset(wr, 0, sizeof(*wr));
	sge->addr = q->local_addr + r->local;
	sge->length = atomic ? 8 : (uint32_t)r->size;
	sge->lkey = q->lkey;
	wr->wr_id = wr_id;
	wr->sg_list = sge;
	wr->num_sge = 1;
	wr->opcode = wr_opcode(r->op);
	if (atomic) {
		wr->wr.atomic.remote_addr = q->remote_addr + r->remote;
		wr->wr.atomic.rkey = q->rkey;
		wr->wr.atomic.compare_add = r->op == GD_DESC_CAS ? r->compare : r->operand;
		wr->wr.atomic.swap = r->op == GD_DESC_CAS ? r->operand : 0;
		return;
	}
	if (r->op == GD_DESC_WRITE_IMM || r->op == GD_DESC_SEND_IMM)
		wr->imm_data = htobe32((uint32_t)r->operand);
	if (r->op != GD_DESC_SEND && r->op != GD_DESC_SEND_IMM) {
		wr->wr.rdma.remote_addr = q->remote_addr + r->remote;
		wr->wr.rdma.rkey = q->rkey;
	}
	if ((r->op == GD_DESC_WRITE || r->op == GD_DESC_WRITE_IMM || r->op == GD_DESC_SEND ||
	     r->op == GD_DESC_SEND_IMM) && r->size <= t->max_inline)
		wr->send_flags = IBV_SEND_INLINE;
}

struct ibv_send_wr *gd_tv_build(struct gd_tv *t, uint32_t thread, uint32_t qp,
				const struct gd_req *reqs, uint32_t n, uint64_t signal_id)
{
	struct tv_thread *th = &t->th[thread];

	if (!n || n > t->max_chain || qp >= t->nqps)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		/* the ring index request i ends at: a completion retires up to it */
		uint64_t id = (uint64_t)qp << QP_SHIFT | ((signal_id - (n - 1 - i)) & ID_MASK);

		build_wr(t, &t->qps[qp], &reqs[i], &th->wr[i], &th->sge[i], id);
		th->wr[i].next = i + 1 < n ? &th->wr[i + 1] : NULL;
		if (i + 1 == n || (t->signal_above && reqs[i].size > t->signal_above))
			th->wr[i].send_flags |= IBV_SEND_SIGNALED;
	}
	__atomic_store_n(&t->last_op[qp], reqs[n - 1].op, __ATOMIC_RELAXED);
	return th->wr;
}

void gd_tv_signal_each_above(struct gd_tv *t, uint64_t bytes)
{
	t->signal_above = bytes;
}

uint32_t gd_tv_last_op(const struct gd_tv *t, uint32_t qp)
{
	return qp < t->nqps ? __atomic_load_n(&t->last_op[qp], __ATOMIC_RELAXED) : 0;
}

static int tv_post(void *ctx, uint32_t thread, uint32_t qp, const struct gd_req *reqs, uint32_t n,
		   uint64_t signal_id)
{
	struct gd_tv *t = ctx;
	struct ibv_send_wr *bad = NULL, *wr = gd_tv_build(t, thread, qp, reqs, n, signal_id);

	return wr ? -ibv_post_send(t->qps[qp].qp, wr, &bad) : -EINVAL;
}

static int tv_poll(void *ctx, uint32_t thread, struct gd_tp_comp *c, int max)
{
	struct gd_tv *t = ctx;
	struct ibv_wc wc[32];
	int n = ibv_poll_cq(t->cq, max < 32 ? max : 32, wc);

	if (n < 0)
		return -EIO;
	for (int i = 0; i < n; i++) {
		uint32_t qp = (uint32_t)(wc[i].wr_id >> QP_SHIFT);

		c[i].qp = qp;
		c[i].qp_num = wc[i].qp_num;
		c[i].id = wc[i].wr_id & ID_MASK;
		c[i].status = wc[i].status;
		c[i].op = gd_tv_last_op(t, qp);
	}
	return n;
}

static const char *tv_status_str(int status)
{
	return ibv_wc_status_str((enum ibv_wc_status)status);
}

static uint32_t tv_qp_num(void *ctx, uint32_t qp)
{
	struct gd_tv *t = ctx;

	return qp < t->nqps && t->qps[qp].qp ? t->qps[qp].qp->qp_num : 0;
}

void gd_tv_ops(struct gd_tv *t, struct gd_transport *tp)
{
	tp->name = "verbs";
	tp->ctx = t;
	tp->post = tv_post;
	tp->poll = tv_poll;
	tp->status_str = tv_status_str;
	tp->qp_num = tv_qp_num;
}
