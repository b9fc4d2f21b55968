/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the proxy threads post to: a transport executes chains of requests on
 * QPs and reports completions. Two implementations:
 *   transport_verbs.c  RC QPs through libibverbs (real NICs, Soft-RoCE)
 *   transport_sw.c     the SOFTWARE TRANSPORT TEST DOUBLE: executes puts,
 *                      gets and atomics with memcpy/atomics on a peer buffer
 *                      in this process, for machines without an RDMA device
 *                      (the GPU machine, CI). Never a measurement of a NIC.
 *
 * Threading: post() and poll() are called by proxy threads without locks;
 * a QP is posted to by one thread only (its owner), poll(thread) may return
 * completions of any QP (a shared CQ), which the proxy routes by qp index.
 */
#ifndef GD_TRANSPORT_H
#define GD_TRANSPORT_H

#include <stdint.h>

#include "desc.h"

struct gd_tp_comp {
	uint32_t qp;      /* index of the QP (0 .. nqps-1) */
	uint32_t qp_num;  /* the QP's number for messages */
	uint64_t id;      /* signal_id of the chain's signalled request */
	int status;       /* 0 = success, else the transport's status code */
	uint32_t op;      /* enum gd_desc_op of the failed request (when known) */
};

struct gd_transport {
	const char *name;  /* "verbs", "software transport (test double)" */
	void *ctx;
	/* Post reqs[0..n) on qp as one chain (one doorbell); only the last is
	 * signalled, with id signal_id. Returns 0 or -errno (nothing posted). */
	int (*post)(void *ctx, uint32_t thread, uint32_t qp, const struct gd_req *reqs, uint32_t n,
		    uint64_t signal_id);
	/* Up to max completions. Returns the count, or -errno. */
	int (*poll)(void *ctx, uint32_t thread, struct gd_tp_comp *c, int max);
	/* The status as text ("remote access error"). */
	const char *(*status_str)(int status);
	uint32_t (*qp_num)(void *ctx, uint32_t qp);
};

/* ---- the software transport test double (transport_sw.c) ---- */

struct gd_sw_transport;

/*
 * local and peer: the two buffers (bytes each); requests' offsets index them.
 * nthreads: proxy threads (each gets its own completion queue of cq_depth).
 * fail_after: 0, or fail the request with this 1-based global number with
 * status GD_SW_STATUS_FAULT (fault injection for the error-word path).
 */
#define GD_SW_STATUS_FAULT 10 /* as IBV_WC_REM_ACCESS_ERR */
#define GD_SW_STATUS_BOUNDS 11 /* a request outside the buffers */
struct gd_sw_transport *gd_sw_transport_create(void *local, void *peer, uint64_t bytes,
					       uint32_t nqps, uint32_t nthreads, uint32_t cq_depth,
					       uint64_t fail_after);
void gd_sw_transport_destroy(struct gd_sw_transport *t);
/* Fill tp with the test double's operations. */
void gd_sw_transport_ops(struct gd_sw_transport *t, struct gd_transport *tp);
/* Make every request take at least ns nanoseconds (a slow link), 0 = none. */
void gd_sw_transport_set_delay(struct gd_sw_transport *t, uint64_t ns);
/* Requests executed so far (all threads). */
uint64_t gd_sw_transport_executed(const struct gd_sw_transport *t);

#endif
