/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * SOFTWARE NIC — A TEST DOUBLE, NOT A NIC. It stands in for a ConnectX where
 * none exists (this workplace has none): one CPU thread that watches each
 * send queue's doorbell record, consumes the mlx5 WQEs the producers wrote,
 * executes them on host-visible buffers (RDMA WRITE/READ, inline WRITE,
 * 8-byte FETCH_ADD/CMP_SWAP, 4-byte masked FA/CS, NOP), checks keys against
 * its "memory regions", and writes CQEs in the mlx5 layout (collapsed or
 * normal, owner bit, REQ_ERR with a syndrome). Every message it prints says
 * "software NIC (test double)".
 *
 * Faults for tests: a bad key gives REMOTE_ACCESS_ERR / LOCAL_PROT_ERR as a
 * real NIC would; inject_err_at gives an error CQE at that WQE index;
 * stall_at stops consuming at that index (the producers' deadline must
 * fire). consume_only skips execution and only advances the consumer index
 * (the rate benchmark). flush_after_error completes every WQE posted after
 * an error with WR_FLUSH_ERR, as a QP in the error state does (a collapsed
 * CQ then shows the flush, not the cause: F8 of the desk review).
 *
 * Atomics act on the target word in host order (the responder is a host
 * too); the 8-byte fetched result lands in the requester's buffer in host
 * order, or big-endian with atomic_be: the PRM's
 * atomic_req_8B_endianness_mode 1 (host, what mlx5_core sets where the
 * device offers it) or 0 (big-endian). 4-byte masked results are always
 * big-endian. gd_mlx5_fetched64() decodes either.
 *
 * Buffers in GPU memory: with copy set, every byte the test double moves
 * goes through it (the tools pass cuMemcpy over unified addresses), and
 * thread_init runs first in the NIC thread (the CUDA context).
 */
#ifndef GD_IBGDA_SWNIC_H
#define GD_IBGDA_SWNIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibgda_poller.h"

#define GD_SWNIC_MAX_QPS 512
#define GD_SWNIC_MAX_MRS 8
#define GD_SWNIC_NONE UINT64_MAX

struct gd_swnic_mr {
	void *addr;
	size_t len;
	uint32_t key;
};

struct gd_swnic_qp {
	const uint8_t *sq;
	uint32_t nwqe;
	uint32_t qpn;
	const uint32_t *dbrec;   /* the producers' doorbell record (BE) */
	const uint64_t *db;      /* the doorbell register, checked for our QPN */
	uint8_t *cq;
	uint32_t ncqe;
	bool collapsed;
	/* the NIC's own state */
	uint64_t ci;             /* next WQEBB to execute */
	uint32_t cq_pi;          /* next CQE (normal CQ) */
	bool errored;
};

struct gd_swnic {
	struct gd_swnic_qp qps[GD_SWNIC_MAX_QPS];
	uint32_t nqps;
	struct gd_swnic_mr mrs[GD_SWNIC_MAX_MRS];
	uint32_t nmrs;
	bool consume_only;
	uint64_t inject_err_at;  /* WQE index, or GD_SWNIC_NONE */
	uint8_t inject_syndrome;
	uint64_t stall_at;       /* WQE index, or GD_SWNIC_NONE */
	uint64_t max_idle_ns;    /* the thread ends after this long with nothing to do */
	bool flush_after_error;
	bool atomic_be;          /* fetched 8-byte atomic results big-endian */
	int (*copy)(void *ctx, void *dst, const void *src, size_t len); /* NULL: memcpy */
	int (*thread_init)(void *ctx);
	void *copy_ctx;
	/* results */
	uint64_t wqes, cqes;
	char problem[256];       /* a protocol violation seen by the NIC, "" none */
	struct gd_poller thread; /* gd_swnic_start's */
};

/* One pass over every QP; returns the WQEs executed (tests may drive the
 * NIC without a thread). */
uint64_t gd_swnic_pass(struct gd_swnic *nic);
int gd_swnic_start(struct gd_swnic *nic);
void gd_swnic_stop(struct gd_swnic *nic);

#endif
