/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "ops.h"

#include <errno.h>
#include <string.h>

#include "gd.h"
#include "log.h"

#define RW IBV_ACCESS_REMOTE_WRITE
#define RR IBV_ACCESS_REMOTE_READ
#define RA IBV_ACCESS_REMOTE_ATOMIC

static const struct gd_op_desc op_table[GD_OP_COUNT] = {
	[GD_OP_WRITE] = { .op = GD_OP_WRITE, .name = "write", .opcode = IBV_WR_RDMA_WRITE,
			  .opcode_alt = IBV_WR_RDMA_WRITE_WITH_IMM, .wr_name = "RDMA_WRITE",
			  .wr_name_alt = "RDMA_WRITE_WITH_IMM", .target_access = RW, .remote = true,
			  .recv_alt = true, .rotate = true, .inline_ok = true, .fill = GD_DATA_INITIATOR,
			  .check = GD_DATA_TARGET },
	[GD_OP_READ] = { .op = GD_OP_READ, .name = "read", .opcode = IBV_WR_RDMA_READ, .opcode_alt = IBV_WR_RDMA_READ,
			 .wr_name = "RDMA_READ", .wr_name_alt = "RDMA_READ", .target_access = RR,
			 .initiator_written = true, .remote = true, .rotate = true,
			 .fill = GD_DATA_TARGET, .check = GD_DATA_INITIATOR },
	[GD_OP_ATOMIC] = { .op = GD_OP_ATOMIC, .name = "atomic", .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
			   .opcode_alt = IBV_WR_ATOMIC_CMP_AND_SWP, .wr_name = "ATOMIC_FETCH_AND_ADD",
			   .wr_name_alt = "ATOMIC_CMP_AND_SWAP", .target_access = RA,
			   .initiator_written = true, .remote = true, .rotate = true, .fixed_size = 8,
			   .check_counter = true },
	[GD_OP_SEND] = { .op = GD_OP_SEND, .name = "send", .opcode = IBV_WR_SEND, .opcode_alt = IBV_WR_SEND_WITH_IMM,
			 .wr_name = "SEND", .wr_name_alt = "SEND_WITH_IMM", .recv = true, .inline_ok = true,
			 .fill = GD_DATA_INITIATOR, .check = GD_DATA_TARGET },
};

const struct gd_op_desc *gd_op_desc(enum gd_bench_op op)
{
	return (unsigned)op < GD_OP_COUNT ? &op_table[op] : NULL;
}

static void prepare_wr(struct gd_qp_run *q, uint32_t i, uint32_t post_list)
{
	const struct gd_op_desc *d = q->desc;
	struct ibv_send_wr *wr = &q->wr[i];
	struct ibv_sge *sge = &q->sge[i];

	memset(wr, 0, sizeof(*wr));
	sge->addr = q->local_addr;
	sge->length = d->fixed_size ? d->fixed_size : q->size;
	sge->lkey = q->lkey;
	wr->sg_list = sge;
	wr->num_sge = 1;
	wr->opcode = q->alt ? d->opcode_alt : d->opcode;
	wr->next = i + 1 < post_list ? &q->wr[i + 1] : NULL;
	wr->send_flags = q->inl ? IBV_SEND_INLINE : 0;
	if (d->fixed_size) { /* atomic */
		wr->wr.atomic.remote_addr = q->remote_addr;
		wr->wr.atomic.rkey = q->rkey;
		wr->wr.atomic.compare_add = 1;
		wr->wr.atomic.swap = 0;
	} else if (d->remote) {
		wr->wr.rdma.remote_addr = q->remote_addr;
		wr->wr.rdma.rkey = q->rkey;
	}
}

void gd_ops_prepare(struct gd_qp_run *q, uint32_t post_list, bool rotate)
{
	uint32_t len = q->desc->fixed_size ? q->desc->fixed_size : q->size;

	if (post_list > GD_MAX_POST_LIST)
		post_list = GD_MAX_POST_LIST;
	for (uint32_t i = 0; i < post_list; i++)
		prepare_wr(q, i, post_list);
	/* perftest: with one WR per post and at most half the cycle per message */
	q->cycle_step = 0;
	q->cycle_off = 0;
	if (rotate && q->desc->rotate && post_list == 1 && len <= GD_CYCLE_BYTES / 2)
		q->cycle_step = (len + GD_CYCLE_STEP - 1) / GD_CYCLE_STEP * GD_CYCLE_STEP;
}

void gd_ops_prepare_recv(struct gd_qp_run *q, uint32_t length)
{
	bool data = q->desc->recv; /* write_with_imm consumes a receive without data */

	q->rsge.addr = q->recv_addr;
	q->rsge.length = length;
	q->rsge.lkey = q->lkey;
	for (uint32_t i = 0; i < GD_RECV_BATCH; i++) {
		struct ibv_recv_wr *r = &q->rwr[i];

		memset(r, 0, sizeof(*r));
		r->wr_id = gd_wr_id(q->index, 1);
		r->sg_list = data ? &q->rsge : NULL;
		r->num_sge = data ? 1 : 0;
		r->next = i + 1 < GD_RECV_BATCH ? &q->rwr[i + 1] : NULL;
	}
}

/* The next post's addresses within the cycle; CMP_AND_SWAP compares the
 * count of operations its word has seen (op k of a QP hits word k mod W
 * for the m = k / W-th time: compare m, swap m+1), so the words still sum
 * to the number of operations. */
static void rotate_one(struct gd_qp_run *q, struct ibv_send_wr *wr)
{
	uint32_t off = gd_ops_cycle_next(q);

	q->sge[0].addr = q->local_addr + off;
	if (q->desc->fixed_size) {
		wr->wr.atomic.remote_addr = q->remote_addr + off;
		if (q->alt) {
			uint64_t m = q->atomic_next / (GD_CYCLE_BYTES / q->cycle_step);

			wr->wr.atomic.compare_add = m;
			wr->wr.atomic.swap = m + 1;
		}
	} else {
		wr->wr.rdma.remote_addr = q->remote_addr + off;
	}
}

/* Per-post fields of n chained WRs: immediate data, CMP_AND_SWAP values. */
void gd_ops_stamp(struct gd_qp_run *q, uint32_t n, uint32_t imm)
{
	bool cas = q->desc->fixed_size && q->alt;

	for (uint32_t i = 0; i < n; i++) {
		struct ibv_send_wr *wr = &q->wr[i];

		wr->send_flags = q->inl ? IBV_SEND_INLINE : 0;
		wr->wr_id = 0;
		if (q->alt && !q->desc->fixed_size)
			wr->imm_data = htobe32(imm);
		if (cas && !q->cycle_step) {
			/* op k compares k and swaps k+1: the final value counts the ops */
			wr->wr.atomic.compare_add = q->atomic_next + i;
			wr->wr.atomic.swap = q->atomic_next + i + 1;
		}
	}
	if (q->cycle_step)
		rotate_one(q, &q->wr[0]);
}

int gd_ops_post(struct gd_qp_run *q, uint32_t n, bool signal, uint32_t covered, uint32_t imm)
{
	struct ibv_send_wr *bad = NULL;
	struct ibv_send_wr *last = &q->wr[n - 1];
	struct ibv_send_wr *saved_next = last->next;
	int ret;

	gd_ops_stamp(q, n, imm);
	if (signal) {
		last->send_flags |= IBV_SEND_SIGNALED;
		last->wr_id = gd_wr_id(q->index, covered);
	}
	last->next = NULL;
	ret = ibv_post_send(q->qp, q->wr, &bad); /* returns an errno value */
	last->next = saved_next;
	if (ret) {
		gd_error("cannot post %u %s work request(s) on QP 0x%06x: %s%s", n, q->desc->wr_name,
			 q->qp->qp_num, strerror(ret),
			 ret == ENOMEM ? " (send queue full: lower -t or -l)" : "");
		return -ret;
	}
	if (q->desc->fixed_size)
		q->atomic_next += n;
	q->posted += n;
	return 0;
}

int gd_ops_post_recv(struct gd_qp_run *q, uint32_t n)
{
	while (n) {
		uint32_t k = n < GD_RECV_BATCH ? n : GD_RECV_BATCH;
		struct ibv_recv_wr *bad, *last = &q->rwr[k - 1], *saved = last->next;
		int ret;

		last->next = NULL;
		ret = ibv_post_recv(q->qp, q->rwr, &bad);
		last->next = saved;
		if (ret) {
			gd_error("cannot post %u receive(s) on QP 0x%06x: %s%s", k, q->qp->qp_num,
				 strerror(ret), ret == ENOMEM ? " (receive queue full: lower -r)" : "");
			return -ret;
		}
		q->recv_posted += k;
		n -= k;
	}
	return 0;
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
