/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the proxy threads post to: a transport executes chains of requests on
 * QPs and reports completions. One transport, transport.c (no table of its
 * own: the fabric's is the one table): the chains
 * become work requests posted through the run's fabric table (fabric.h
 * post_wrs, poll, qp_num), whichever it is:
 *   gd_fabric_verbs        RC QPs through libibverbs (real NICs, Soft-RoCE)
 *   gd_fabric_ofi          libfabric endpoints (HAVE_LIBFABRIC)
 *   gd_fabric_test_double  the SOFTWARE FABRIC TEST DOUBLE (fabric_double.h):
 *                          memcpy/atomics on a peer buffer in this process,
 *                          for machines without an RDMA device (the GPU
 *                          machine, CI). Never a measurement of a NIC.
 * gd_sw_transport (transport_sw.c) assembles the proxy's transport on the
 * test double for the tests.
 *
 * Threading: post and poll are called by proxy threads without locks;
 * a QP is posted to by one thread only (its owner, QP q on thread
 * q % nthreads), poll of a thread reads the send CQ of that thread's QPs (the
 * fabric's: verbs shares one among the threads, ofi and the test double give
 * each thread its own) and may return completions of any QP, which the proxy
 * routes by qp index.
 */
#ifndef GD_TRANSPORT_H
#define GD_TRANSPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "desc.h"

struct gd_tp_comp {
	uint32_t qp;      /* index of the QP (0 .. nqps-1) */
	uint32_t qp_num;  /* the QP's number for messages */
	uint64_t id;      /* signal_id of the chain's signalled request */
	int status;       /* 0 = success, else the transport's status code */
	uint32_t op;      /* enum gd_desc_op of the failed request (when known) */
};

/* ---- the transport (transport.c) ---- */

struct gd_fabric_ops;
struct gd_qp_run;
struct gd_transport;

/* fab: the run's fabric table; q: its nqps QPs (their regions, fab_* fields;
 * q[k].fab_cq is thread k's send CQ), alive as long as the transport;
 * max_chain: the longest chain one post may carry (the proxy's batch); a
 * write or send up to max_inline bytes is posted inline. NULL: no memory, or
 * more threads than QPs. */
struct gd_transport *gd_transport_create(const struct gd_fabric_ops *fab, struct gd_qp_run *q,
					 uint32_t nqps, uint32_t nthreads, uint32_t max_chain,
					 uint32_t max_inline);
void gd_transport_destroy(struct gd_transport *t);
/* Post reqs[0..n) on qp as one chain (one doorbell); request i's id is
 * signal_id - (n - 1 - i); the last is signalled when signal says so (and
 * each above the fabric's chain_signal_above). Returns 0 or -errno (nothing
 * posted). */
int gd_transport_post(struct gd_transport *t, uint32_t thread, uint32_t qp,
		      const struct gd_req *reqs, uint32_t n, uint64_t signal_id, bool signal);
/* Up to max completions of thread's QPs' CQ. Returns the count, or -errno. */
int gd_transport_poll(struct gd_transport *t, uint32_t thread, struct gd_tp_comp *c, int max);
/* The status as text ("remote access error"), as the fabric says it. */
const char *gd_transport_status_str(const struct gd_transport *t, int status);
/* The status's most likely cause, as the fabric says it (fabric.h hint): a
 * verbs status and a libfabric FI_E* number are not the same list. */
const char *gd_transport_hint(const struct gd_transport *t, int status);
/* QP qp's number for messages (the fabric's qp_num). */
uint32_t gd_transport_qp_num(const struct gd_transport *t, uint32_t qp);

/* ---- the proxy's transport on the software fabric test double (transport_sw.c) ---- */

struct gd_sw_transport;

/*
 * local and peer: the two buffers (bytes each); requests' offsets index them.
 * nthreads: proxy threads (each gets its own completion queue of cq_depth).
 * fail_after: 0, or fail the request with this 1-based global number with
 * status GD_SW_STATUS_FAULT (fault injection for the error-word path).
 */
#define GD_SW_STATUS_FAULT 10 /* GD_FAB_DOUBLE_FAULT, as IBV_WC_REM_ACCESS_ERR */
#define GD_SW_STATUS_BOUNDS 11 /* GD_FAB_DOUBLE_BOUNDS: a request outside the buffers */
struct gd_sw_transport *gd_sw_transport_create(void *local, void *peer, uint64_t bytes,
					       uint32_t nqps, uint32_t nthreads, uint32_t cq_depth,
					       uint64_t fail_after);
void gd_sw_transport_destroy(struct gd_sw_transport *t);
/* The transport over the test double (owned by t). */
struct gd_transport *gd_sw_transport_tp(struct gd_sw_transport *t);
/* Make every request take at least ns nanoseconds (a slow link), 0 = none. */
void gd_sw_transport_set_delay(struct gd_sw_transport *t, uint64_t ns);
/* Requests executed so far (all threads). */
uint64_t gd_sw_transport_executed(const struct gd_sw_transport *t);

#endif
