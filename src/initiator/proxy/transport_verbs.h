/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The verbs transport of the proxy (transport.h): requests become RC work
 * requests on connected QPs. Offsets are relative to each QP's own local
 * and remote regions (the benchmark's per-QP layout). One chain per post
 * call, only its last WR signalled; every WR's wr_id names its QP and chain
 * so that an error completion of an unsignalled WR is still attributed.
 */
#ifndef GD_TRANSPORT_VERBS_H
#define GD_TRANSPORT_VERBS_H

#include <stdint.h>
#include <infiniband/verbs.h>

#include "transport.h"

/* One QP as the transport sees it. */
struct gd_tv_qp {
	struct ibv_qp *qp;
	uint64_t local_addr;  /* base of the local region (atomics: the result slot) */
	uint32_t lkey;
	uint64_t remote_addr; /* base of the peer's region */
	uint32_t rkey;
};

struct gd_tv;

/* max_chain: the longest chain one post may carry (the proxy's batch). */
struct gd_tv *gd_tv_create(const struct gd_tv_qp *qps, uint32_t nqps, struct ibv_cq *send_cq,
			   uint32_t nthreads, uint32_t max_chain, uint32_t max_inline);
void gd_tv_destroy(struct gd_tv *t);
void gd_tv_ops(struct gd_tv *t, struct gd_transport *tp);
/* The chain of n requests on qp as work requests (the last signalled with
 * signal_id, request i's id signal_id - (n - 1 - i)), in thread's own array,
 * without posting: tv_post posts it with ibv_post_send, the libfabric
 * transport (transport_ofi.c) through the fabric seam. NULL when n or qp is
 * out of range. */
struct ibv_send_wr *gd_tv_build(struct gd_tv *t, uint32_t thread, uint32_t qp,
				const struct gd_req *reqs, uint32_t n, uint64_t signal_id);
/* Requests larger than bytes ask each their own completion (0, the default:
 * only a chain's last); the libfabric transport's rule (transport_ofi.c). */
void gd_tv_signal_each_above(struct gd_tv *t, uint64_t bytes);
/* The op of qp's last chain (error attribution), 0 when out of range. */
uint32_t gd_tv_last_op(const struct gd_tv *t, uint32_t qp);

#endif
