/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The per-operation hooks of the engine: how a write, read, atomic or send
 * work request is built and posted for one QP, receives, and what a failed
 * completion most likely means.
 */
#ifndef GD_OPS_H
#define GD_OPS_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "bench_params.h"

#define GD_MAX_POST_LIST 1024

/* One QP's state during a run. */
struct gd_qp_run {
	uint32_t index;
	struct ibv_qp *qp;
	uint64_t local_addr;	/* my SGE: source of writes/sends, sink of reads/atomics */
	uint32_t lkey;
	uint64_t remote_addr;	/* the peer's target region */
	uint32_t rkey;
	uint64_t recv_addr;	/* receives land here */
	uint32_t size;		/* message size of this run */
	bool inl;		/* post inline */
	enum gd_bench_op op;
	enum gd_atomic_type atype;
	bool with_imm;		/* write_with_imm / send_with_imm */

	uint64_t posted;	/* send WRs posted */
	uint64_t completed;	/* send WRs known complete */
	uint64_t since_signal;	/* posted since the last signalled WR */
	uint64_t recv_posted;
	uint64_t recv_done;
	uint64_t atomic_next;	/* CMP_AND_SWAP: the value the next op compares with */

	struct ibv_send_wr wr[GD_MAX_POST_LIST];
	struct ibv_sge sge[GD_MAX_POST_LIST];
	struct ibv_recv_wr rwr;
	struct ibv_sge rsge;
};

/* wr_id of a signalled WR: the QP index and how many WRs it completes. */
static inline uint64_t gd_wr_id(uint32_t qp, uint32_t count)
{
	return ((uint64_t)qp << 32) | count;
}
static inline uint32_t gd_wr_id_qp(uint64_t id) { return (uint32_t)(id >> 32); }
static inline uint32_t gd_wr_id_count(uint64_t id) { return (uint32_t)id; }

/* Build the WR templates (post_list chained WRs) for this op and size. */
void gd_ops_prepare(struct gd_qp_run *q, uint32_t post_list);
/*
 * Post n chained WRs (n <= post_list); the last one is signalled when
 * `signal` is set, with wr_id covering `covered` WRs. imm is used by the
 * _with_imm variants. Returns 0 or -errno (message printed).
 */
int gd_ops_post(struct gd_qp_run *q, uint32_t n, bool signal, uint32_t covered, uint32_t imm);
/* Post n receives (one SGE of size bytes at recv_addr; none for write_with_imm). */
int gd_ops_post_recv(struct gd_qp_run *q, uint32_t n);

/* "RDMA_WRITE", "RECV"... for a completion's opcode. */
const char *gd_wc_opcode_str(enum ibv_wc_opcode op);
/* The most likely cause of a failed completion, for the user. */
const char *gd_wc_hint(enum ibv_wc_status s);
/* Print "completion error on QP 0x.. (op): status (n): hint" (the proxy's receiver). */
void gd_wc_report(const struct ibv_wc *wc, const char *dev, const char *side);

#endif
