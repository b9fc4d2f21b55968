/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The SOFTWARE FABRIC TEST DOUBLE: a third table of the fabric seam
 * (fabric.h) that stands in for a NIC where none exists (the GPU machine,
 * CI), for the proxy initiator's tests (tests/initiator/test_ring.c, the GPU
 * tier's gd_proxy_gpu). Never a measurement of a NIC. It executes posted
 * chains (post_wrs) in the caller's thread: writes and sends copy local ->
 * peer (a send's place is the WR's rdma.remote_addr, which a NIC ignores),
 * reads copy peer -> local, fetch-add and compare-and-swap are 64-bit atomics
 * on the peer word with the old value stored locally. A signalled request,
 * or a failed one (as a NIC: signalled or not, and the chain stops there),
 * queues one completion on its QP's CQ: one CQ per posting thread (QP i on
 * CQ i % nthreads), no lock. Addresses are checked against the two buffers
 * as a NIC's memory region would be. The engine's loops never run on it (no
 * option names it): post and post_recv are NULL.
 */
#ifndef GD_FABRIC_DOUBLE_H
#define GD_FABRIC_DOUBLE_H

#include <stdint.h>

#include "fabric.h"

#define GD_FAB_DOUBLE_FAULT 10	/* an injected fault, as IBV_WC_REM_ACCESS_ERR */
#define GD_FAB_DOUBLE_BOUNDS 11	/* a request outside the buffers */

extern const struct gd_fabric_ops gd_fabric_test_double;

struct gd_fab_double;

/* local and peer: the two buffers (bytes each). nthreads: posting threads,
 * each a CQ of cq_depth. fail_after: 0, or fail the request with this 1-based
 * global number with GD_FAB_DOUBLE_FAULT (the error-word path). NULL: no memory. */
struct gd_fab_double *gd_fab_double_create(void *local, void *peer, uint64_t bytes,
					   uint32_t nthreads, uint32_t cq_depth,
					   uint64_t fail_after);
void gd_fab_double_destroy(struct gd_fab_double *d);
/* QP i of the double in q: the whole buffers as its regions, CQ i % nthreads. */
void gd_fab_double_qp_run(struct gd_fab_double *d, uint32_t i, struct gd_qp_run *q);
/* Make every request take at least ns nanoseconds (a slow link), 0 = none. */
void gd_fab_double_set_delay(struct gd_fab_double *d, uint64_t ns);
/* Requests executed so far (all threads). */
uint64_t gd_fab_double_executed(const struct gd_fab_double *d);

#endif
