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

#include "fabric_op.h"

#define GD_MAX_POST_LIST 1024
#define GD_RECV_BATCH 64	/* receives re-posted in one chained call, at most */
#define GD_CYCLE_STEP 64	/* ... in steps of at least a cache line */
/* A bandwidth request larger than this asks its own completion: perftest's
 * default moderation for large messages (-Q 1), the CPU loop's default
 * (bench_opts.c), and the proxy's libfabric chains (chain_signal_above, fabric.h: over shm a
 * chain of 64 KiB writes with one signalled ran at 0.74-0.86 of the CPU
 * initiator, each signalled at 0.95-0.97; doc/proxy.md) */
#define GD_SIGNAL_EACH_ABOVE 8192

/* Where the engine writes the payload pattern before a run, and where
 * --validate compares it after. */
enum gd_op_data { GD_DATA_NONE = 0, GD_DATA_INITIATOR, GD_DATA_TARGET };

/*
 * The per-operation table: everything that differs between write, read,
 * atomic and send, in one place. "alt" is the variant: _with_imm for write
 * and send, CMP_AND_SWAP for atomic.
 */
struct gd_op_desc {
	enum gd_bench_op op;
	const char *name;		/* "write" */
	enum ibv_wr_opcode opcode, opcode_alt;
	const char *wr_name, *wr_name_alt; /* "RDMA_WRITE", ... for messages */
	int target_access;		/* remote access the target's MR and QP need */
	bool initiator_written;		/* the NIC writes the initiator's buffer (read, atomic) */
	bool remote;			/* addresses the peer's memory (all but send) */
	bool recv_alt;			/* the variant consumes a receive (write_with_imm) */
	bool recv;			/* always consumes a receive (send) */
	bool rotate;			/* small messages rotate through GD_CYCLE_BYTES */
	bool inline_ok;			/* the payload may be posted inline (write, send) */
	uint32_t fixed_size;		/* atomic: 8; 0 = the message size */
	enum gd_op_data fill;		/* the pattern's source before the run */
	enum gd_op_data check;		/* where --validate compares it */
	bool check_counter;		/* atomic: the target's counters sum to the peer's ops */
};

/* The entry of op (GD_OP_WRITE..GD_OP_SEND); NULL out of range. */
const struct gd_op_desc *gd_op_desc(enum gd_bench_op op);
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
	const struct gd_op_desc *desc;
	bool alt;		/* with_imm / CMP_AND_SWAP */
	uint32_t cycle_step;	/* address rotation per post, 0 = none (ops.c) */
	uint32_t cycle_off;	/* current offset within GD_CYCLE_BYTES */

	uint64_t posted;	/* send WRs posted */
	uint64_t completed;	/* send WRs known complete */
	uint64_t since_signal;	/* posted since the last signalled WR */
	/* the next signalled post only frees the loop's window: a later signalled
	 * post of this QP (its last of the size) asks what a completion means
	 * (over libfabric: inject completion, not delivery; fabric_ofi.c
	 * gd_ofi_post_flags, loop_bw.c post_qp) */
	bool moderating;
	uint64_t recv_posted;
	uint64_t recv_done;
	uint64_t atomic_next;	/* CMP_AND_SWAP: the value the next op compares with */

	/* the fabric's own (src/fabric/fabric_ofi.c); verbs sets fab_cq alone */
	void *fab_ep;		/* struct fid_ep * */
	void *fab_cq;		/* its send CQ: struct gd_ofi_cq * (fabric_ofi.h), verbs'
				 * struct ibv_cq *, the test double's own (fabric_double.c) */
	void *fab_desc;		/* fi_mr_desc of the local region (FI_MR_LOCAL) */
	uint64_t fab_dest;	/* fi_addr_t of the peer (FI_EP_RDM) */
	uint64_t fab_key;	/* the peer's key */

	struct ibv_send_wr wr[GD_MAX_POST_LIST];
	struct ibv_sge sge[GD_MAX_POST_LIST];
	struct ibv_recv_wr rwr[GD_RECV_BATCH];
	struct ibv_sge rsge;
};

/* wr_id of a signalled WR: the QP index and how many WRs it completes. */
static inline uint64_t gd_wr_id(uint32_t qp, uint32_t count)
{
	return ((uint64_t)qp << 32) | count;
}
static inline uint32_t gd_wr_id_qp(uint64_t id) { return (uint32_t)(id >> 32); }
static inline uint32_t gd_wr_id_count(uint64_t id) { return (uint32_t)id; }

/*
 * Build the send WR templates (post_list chained WRs) for this op and size.
 * rotate: move the local and remote addresses by the size (rounded up to
 * GD_CYCLE_STEP) per post within GD_CYCLE_BYTES, as perftest does for
 * small messages (atomics to one word serialise on real adapters); the
 * caller makes sure both regions hold GD_CYCLE_BYTES.
 */
void gd_ops_prepare(struct gd_qp_run *q, uint32_t post_list, bool rotate);
/*
 * Build the receive WR: one SGE of `length` bytes at recv_addr. Receives
 * posted for one message size are still queued when the next size starts:
 * give the slot size (the largest message of the run), never the size.
 */
void gd_ops_prepare_recv(struct gd_qp_run *q, uint32_t length);
/*
 * Post n chained WRs (n <= post_list); the last one is signalled when
 * `signal` is set, with wr_id covering `covered` WRs. imm is used by the
 * _with_imm variants. Returns 0 or -errno (message printed).
 */
/* The per-post fields of the n WR templates (immediate data, CAS values,
 * rotation): every fabric's post starts with it. */
void gd_ops_stamp(struct gd_qp_run *q, uint32_t n, uint32_t imm);
/* This post's offset within the rotation cycle (0 without rotation), and the
 * cycle moved on to the next: rotate_one (ops.c) and a fabric's lean post
 * that leaves the templates as they are both take the rotation from here. */
static inline uint32_t gd_ops_cycle_next(struct gd_qp_run *q)
{
	uint32_t off = q->cycle_off, next = off + q->cycle_step;

	q->cycle_off = next + q->cycle_step > GD_CYCLE_BYTES ? 0 : next;
	return off;
}
int gd_ops_post(struct gd_qp_run *q, uint32_t n, bool signal, uint32_t covered, uint32_t imm);
/* Post n receives (one SGE of the prepared length at recv_addr; none for
 * write_with_imm), chained GD_RECV_BATCH at a time. */
int gd_ops_post_recv(struct gd_qp_run *q, uint32_t n);

/* The most likely cause of a failed completion, for the user. */
const char *gd_wc_hint(enum ibv_wc_status s);

#endif
