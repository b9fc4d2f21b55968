/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "ops.h"

#include <errno.h>
#include <string.h>

#include "gd.h"
#include "log.h"

static enum ibv_wr_opcode wr_opcode(const struct gd_qp_run *q)
{
	switch (q->op) {
	case GD_OP_WRITE:
		return q->with_imm ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
	case GD_OP_READ:
		return IBV_WR_RDMA_READ;
	case GD_OP_ATOMIC:
		return q->atype == GD_ATOMIC_CMP_AND_SWAP ? IBV_WR_ATOMIC_CMP_AND_SWP :
							    IBV_WR_ATOMIC_FETCH_AND_ADD;
	case GD_OP_SEND:
	default:
		return q->with_imm ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
	}
}

void gd_ops_prepare(struct gd_qp_run *q, uint32_t post_list)
{
	if (post_list > GD_MAX_POST_LIST)
		post_list = GD_MAX_POST_LIST;
	for (uint32_t i = 0; i < post_list; i++) {
		struct ibv_send_wr *wr = &q->wr[i];
		struct ibv_sge *sge = &q->sge[i];

		memset(wr, 0, sizeof(*wr));
		sge->addr = q->local_addr;
		sge->length = q->op == GD_OP_ATOMIC ? 8 : q->size;
		sge->lkey = q->lkey;
		wr->sg_list = sge;
		wr->num_sge = 1;
		wr->opcode = wr_opcode(q);
		wr->next = i + 1 < post_list ? &q->wr[i + 1] : NULL;
		if (q->op == GD_OP_ATOMIC) {
			wr->wr.atomic.remote_addr = q->remote_addr;
			wr->wr.atomic.rkey = q->rkey;
			wr->wr.atomic.compare_add = 1;
			wr->wr.atomic.swap = 0;
		} else if (q->op != GD_OP_SEND) {
			wr->wr.rdma.remote_addr = q->remote_addr;
			wr->wr.rdma.rkey = q->rkey;
		}
	}
	memset(&q->rwr, 0, sizeof(q->rwr));
	q->rsge.addr = q->recv_addr;
	q->rsge.length = q->size;
	q->rsge.lkey = q->lkey;
	q->rwr.wr_id = gd_wr_id(q->index, 1);
	/* write_with_imm consumes a receive without data: no SGE */
	q->rwr.sg_list = q->op == GD_OP_SEND ? &q->rsge : NULL;
	q->rwr.num_sge = q->op == GD_OP_SEND ? 1 : 0;
}

int gd_ops_post(struct gd_qp_run *q, uint32_t n, bool signal, uint32_t covered, uint32_t imm)
{
	struct ibv_send_wr *bad = NULL;
	struct ibv_send_wr *last = &q->wr[n - 1];
	struct ibv_send_wr *saved_next = last->next;
	int ret;

	for (uint32_t i = 0; i < n; i++) {
		struct ibv_send_wr *wr = &q->wr[i];

		wr->send_flags = q->inl ? IBV_SEND_INLINE : 0;
		wr->wr_id = 0;
		if (q->with_imm)
			wr->imm_data = htobe32(imm);
		if (q->op == GD_OP_ATOMIC && q->atype == GD_ATOMIC_CMP_AND_SWAP) {
			/* op k compares k and swaps k+1: the final value counts the ops */
			wr->wr.atomic.compare_add = q->atomic_next + i;
			wr->wr.atomic.swap = q->atomic_next + i + 1;
		}
	}
	if (signal) {
		last->send_flags |= IBV_SEND_SIGNALED;
		last->wr_id = gd_wr_id(q->index, covered);
	}
	last->next = NULL;
	ret = ibv_post_send(q->qp, q->wr, &bad); /* returns an errno value */
	last->next = saved_next;
	if (ret) {
		gd_error("cannot post %u %s work request(s) on QP 0x%06x: %s%s", n,
			 q->op == GD_OP_SEND ? "send" : "RDMA", q->qp->qp_num, strerror(ret),
			 ret == ENOMEM ? " (send queue full: lower -t or -l)" : "");
		return -ret;
	}
	if (q->op == GD_OP_ATOMIC)
		q->atomic_next += n;
	q->posted += n;
	return 0;
}

int gd_ops_post_recv(struct gd_qp_run *q, uint32_t n)
{
	struct ibv_recv_wr *bad;

	for (uint32_t i = 0; i < n; i++) {
		int ret = ibv_post_recv(q->qp, &q->rwr, &bad);
		if (ret) {
			gd_error("cannot post a receive on QP 0x%06x: %s%s", q->qp->qp_num,
				 strerror(ret), ret == ENOMEM ? " (receive queue full: lower -r)" : "");
			return -ret;
		}
		q->recv_posted++;
	}
	return 0;
}

const char *gd_wc_opcode_str(enum ibv_wc_opcode op)
{
	switch (op) {
	case IBV_WC_SEND: return "SEND";
	case IBV_WC_RDMA_WRITE: return "RDMA_WRITE";
	case IBV_WC_RDMA_READ: return "RDMA_READ";
	case IBV_WC_COMP_SWAP: return "ATOMIC_CMP_AND_SWAP";
	case IBV_WC_FETCH_ADD: return "ATOMIC_FETCH_AND_ADD";
	case IBV_WC_RECV: return "RECV";
	case IBV_WC_RECV_RDMA_WITH_IMM: return "RECV_RDMA_WITH_IMM";
	default: return "UNKNOWN";
	}
}

const char *gd_wc_hint(enum ibv_wc_status s)
{
	switch (s) {
	case IBV_WC_REM_ACCESS_ERR:
		return "remote access error: the peer's buffer or rkey is wrong, or its memory "
		       "region lacks the access this operation needs";
	case IBV_WC_REM_INV_REQ_ERR:
		return "the peer rejected the request: message larger than its receive buffer or "
		       "operation not enabled on its QP";
	case IBV_WC_RETRY_EXC_ERR:
		return "transport retry counter exceeded: the peer did not acknowledge - the link "
		       "is down, the peer process died or its QP was destroyed, or the GIDs do not "
		       "route to each other";
	case IBV_WC_RNR_RETRY_EXC_ERR:
		return "receiver not ready: the peer had no receive posted (raise -r on the peer)";
	case IBV_WC_LOC_PROT_ERR:
		return "local protection error: the local buffer is not covered by its memory "
		       "region or lacks LOCAL_WRITE";
	case IBV_WC_LOC_LEN_ERR:
		return "local length error: the message does not fit the receive buffer";
	case IBV_WC_WR_FLUSH_ERR:
		return "flushed: the QP had already failed (an earlier error is the cause)";
	case IBV_WC_REM_OP_ERR:
		return "the peer could not complete the operation (remote operation error)";
	case IBV_WC_LOC_QP_OP_ERR:
		return "the QP could not send the request: on Soft-RoCE this is what a link "
		       "that went down gives (check 'ip link' and 'rdma link'); otherwise an "
		       "inline size or opcode the QP does not take";
	default:
		return "see the device's documentation of this completion status";
	}
}

void gd_wc_report(const struct ibv_wc *wc, const char *dev, const char *side)
{
	gd_error("completion error on %s QP 0x%06x (%s, %s): %s (%d): %s", dev, wc->qp_num,
		 side, wc->status == IBV_WC_WR_FLUSH_ERR ? "flushed WR" :
		 gd_wc_opcode_str(wc->opcode), ibv_wc_status_str(wc->status), wc->status,
		 gd_wc_hint(wc->status));
}
