/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The proxy's transport over the fabric seam (see transport.h). */
#include "config.h"

#include "transport.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"

#define QP_SHIFT 56
#define ID_MASK ((1ull << QP_SHIFT) - 1)
#define TP_POLL_MAX 32

struct tp_thread {
	struct ibv_send_wr *wr;
	struct ibv_sge *sge;
	void *cq; /* the send CQ of this thread's QPs */
};

struct gd_transport {
	const struct gd_fabric_ops *fab;
	struct gd_qp_run *q;
	uint32_t nqps, nthreads, max_chain, max_inline;
	uint32_t *last_op; /* per QP: the op of its last chain (error attribution) */
	struct tp_thread *th;
};

struct gd_transport *gd_transport_create(const struct gd_fabric_ops *fab, struct gd_qp_run *q,
				   uint32_t nqps, uint32_t nthreads, uint32_t max_chain,
				   uint32_t max_inline)
{
	struct gd_transport *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	*t = (struct gd_transport){ fab, q, nqps, nthreads, max_chain, max_inline, NULL, NULL };
	t->last_op = calloc(nqps, sizeof(*t->last_op));
	t->th = calloc(nthreads, sizeof(*t->th));
	if (!t->th || !t->last_op || nthreads > nqps) {
		gd_transport_destroy(t);
		return NULL;
	}
	for (uint32_t i = 0; i < nthreads; i++) {
		t->th[i].wr = calloc(max_chain, sizeof(*t->th[i].wr));
		t->th[i].sge = calloc(max_chain, sizeof(*t->th[i].sge));
		/* thread i posts QPs i, i + nthreads, ... (proxy.c): QP i's CQ is theirs */
		t->th[i].cq = q[i].fab_cq;
		if (!t->th[i].wr || !t->th[i].sge) {
			gd_transport_destroy(t);
			return NULL;
		}
	}
	return t;
}

void gd_transport_destroy(struct gd_transport *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; t->th && i < t->nthreads; i++) {
		free(t->th[i].wr);
		free(t->th[i].sge);
	}
	free(t->th);
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

/* Request r on q as a work request. A send's place in the peer's region rides
 * in rdma.remote_addr, which a NIC ignores for sends: the test double, which
 * has no receiver, copies it there. */
static void build_wr(const struct gd_transport *t, const struct gd_qp_run *q, const struct gd_req *r,
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
	wr->wr.rdma.remote_addr = q->remote_addr + r->remote;
	wr->wr.rdma.rkey = q->rkey;
	if ((r->op == GD_DESC_WRITE || r->op == GD_DESC_WRITE_IMM || r->op == GD_DESC_SEND ||
	     r->op == GD_DESC_SEND_IMM) && r->size <= t->max_inline)
		wr->send_flags = IBV_SEND_INLINE;
}

/* The chain of n requests on qp as work requests in thread's own array
 * (request i's id signal_id - (n - 1 - i); the last signalled when signal
 * says so, each larger than the fabric's chain_signal_above too). */
static struct ibv_send_wr *build(struct gd_transport *t, uint32_t thread, uint32_t qp,
				 const struct gd_req *reqs, uint32_t n, uint64_t signal_id,
				 bool signal)
{
	struct tp_thread *th = &t->th[thread];
	uint64_t above = t->fab->chain_signal_above;

	for (uint32_t i = 0; i < n; i++) {
		/* the ring index request i ends at: a completion retires up to it */
		uint64_t id = (uint64_t)qp << QP_SHIFT | ((signal_id - (n - 1 - i)) & ID_MASK);

		build_wr(t, &t->q[qp], &reqs[i], &th->wr[i], &th->sge[i], id);
		th->wr[i].next = i + 1 < n ? &th->wr[i + 1] : NULL;
		if ((signal && i + 1 == n) || (above && reqs[i].size > above))
			th->wr[i].send_flags |= IBV_SEND_SIGNALED;
	}
	__atomic_store_n(&t->last_op[qp], reqs[n - 1].op, __ATOMIC_RELAXED);
	return th->wr;
}

static uint32_t last_op(const struct gd_transport *t, uint32_t qp)
{
	return qp < t->nqps ? __atomic_load_n(&t->last_op[qp], __ATOMIC_RELAXED) : 0;
}

int gd_transport_post(struct gd_transport *t, uint32_t thread, uint32_t qp,
		      const struct gd_req *reqs, uint32_t n, uint64_t signal_id, bool signal)
{
	if (!n || n > t->max_chain || qp >= t->nqps || thread >= t->nthreads)
		return -EINVAL;
	return t->fab->post_wrs(&t->q[qp], build(t, thread, qp, reqs, n, signal_id, signal), n);
}

int gd_transport_poll(struct gd_transport *t, uint32_t thread, struct gd_tp_comp *c, int max)
{
	struct gd_fab_cqe e[TP_POLL_MAX];
	int n = t->fab->poll(t->th[thread].cq, e, max < TP_POLL_MAX ? max : TP_POLL_MAX);

	for (int i = 0; i < n; i++) {
		uint32_t qp = (uint32_t)(e[i].id >> QP_SHIFT);

		c[i].qp = qp;
		c[i].qp_num = qp < t->nqps ? t->fab->qp_num(&t->q[qp]) : 0;
		c[i].id = e[i].id & ID_MASK;
		c[i].status = e[i].status;
		c[i].op = last_op(t, qp);
	}
	return n;
}

/* No CQ: the fabric's generic text of the status */
const char *gd_transport_status_str(const struct gd_transport *t, int status)
{
	return t->fab->status_str(NULL, status);
}

const char *gd_transport_hint(const struct gd_transport *t, int status)
{
	return t->fab->hint(status);
}

uint32_t gd_transport_qp_num(const struct gd_transport *t, uint32_t qp)
{
	return qp < t->nqps ? t->fab->qp_num(&t->q[qp]) : 0;
}
