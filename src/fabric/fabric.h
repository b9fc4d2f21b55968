/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The fabric seam: what the engine's loops (loop_bw.c, loop_lat.c) and the
 * lifecycle (bench.c) need from a fabric, as one table per fabric.
 *
 *   verbs  fabric_verbs.c: today's verbs code (conn.c, cm.c, ops.c); the
 *          data path is gd_ops_post / gd_ops_post_recv / ibv_poll_cq.
 *   ofi    fabric_ofi.c, fabric_ofi_ep.c (HAVE_LIBFABRIC only): libfabric,
 *          FI_EP_RDM or FI_EP_MSG, fi_writemsg/fi_readmsg/fi_sendmsg/
 *          fi_writedata/fi_fetch_atomic, fi_cq_read.
 *
 * The data path costs one indirect call per post batch and per poll batch,
 * never per work request: post() takes the n chained requests of one post
 * (ops.h built them: addresses, rotation, CAS values, immediate data are the
 * per-op table's, shared by every fabric) and poll() fills up to max common
 * completions.
 *
 * Setup (device/domain, memory registration, endpoints, the blob the peer
 * needs, connection from the peer's blob over the side channel) is the
 * fabric's own: verbs keeps conn.h/cm.h; ofi is struct gd_ofi (fabric_ofi.h).
 * The engine reaches both through one setup table on its own floor
 * (src/bench/bench_fabric.h), whose ops field is this table.
 * The proxy initiator posts through this table too (post_wrs, qp_num,
 * chain_signal_above): its transport (src/initiator/proxy/transport.c) turns
 * a chain of ring requests into work requests and hands them to the fabric
 * of the run, whatever it is; fabric_double.h is the third table, the
 * software fabric TEST DOUBLE that the proxy's tests run on.
 */
#ifndef GD_FABRIC_H
#define GD_FABRIC_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric_opts.h"
#include "ops.h"

/* One completion, whatever the fabric. */
struct gd_fab_cqe {
	uint64_t id;		/* the wr_id of the signalled request / receive (ops.h gd_wr_id) */
	int status;		/* 0 = success, else the fabric's status (ibv_wc_status, FI_E*) */
	uint32_t qp_num;	/* the QP's number (verbs) or endpoint index (ofi), for messages */
	uint32_t imm;		/* immediate / remote CQ data (receives) */
};

/*
 * What a fabric takes and what it reports: each fabric has its own (false,
 * NULL: it does not), its table points at them. Asked by the option checks
 * (roce_opts.c, bench_params.c) before anything is opened, by the plan
 * (plan.c), the report (bench_report.c) and gd_check's planner, from the
 * decided kind (gd_fabric_traits_of): plain data, known in a build without
 * libfabric too (a spec's fabric: ofi is planned there): fabric_traits.c.
 */
struct gd_fabric_traits {
	/* The device is an RDMA port, reported as perftest does: the device block
	 * (Device, transport IB/IW, SRQ...), each QP's LID/QPN/PSN, MTU and link
	 * layer, the address vector read back, outstanding reads or max inline
	 * data, the rdma_cm line; the JSON's port, link_layer, mtu_bytes, av_*.
	 * false: a domain (provider, domain, endpoint type, each endpoint's MR
	 * key, the inject size) */
	bool port;
	bool service_level;	/* -S/--sl: the QPs' service level */
	bool tclass_ecn;	/* --tclass: the whole byte, ECN bits too (false: DSCP only) */
	bool qp_rate_limit;	/* --rate_limit_type HW: the QP's own rate limit */
	bool cq_events;		/* -e/--events: the table's arm (a completion channel) */
	bool providers;		/* --provider and --ep name what runs: compared with
				 * the peer's, written to the JSON */
	/* A large write keeps the CQ moderation instead of signalling every
	 * message (bench_opts.c's default_moderation). Over libfabric a signalled
	 * write may ask FI_DELIVERY_COMPLETE (fabric_ofi.c, gd_ofi_post_flags, says
	 * why: always on tcp; on shm up to its inject size and in GPU memory),
	 * which tcp answers with an acknowledgement the target's progress sends
	 * (strace -c, 4000 writes of 64 KiB -b: 4029/4115 sendto on the two sides
	 * with -Q 1, 300/304 with -Q 16, the default's effective moderation at
	 * 64 KiB; sendmsg 4000 each); on shm the moderation only saves completion
	 * entries. Verbs' completion comes with the ACK the wire sends anyway. */
	bool moderates_writes;
	/* Whether endpoints of these options connect on their first data message
	 * in each direction (NULL: never): libfabric RDM (shm maps the peer's
	 * region, rxm/tcp opens a socket). fabric_ofi_cm.c's warm-up write
	 * connects only the client's direction, and only for endpoints with
	 * FI_RMA: a write ping-pong's first reply from the server took 33 ms over
	 * tcp;ofi_rxm, a send's first exchange 40-120 us over shm. A latency run
	 * leaves its first exchange untimed (plan.c, loop_lat.c). */
	bool (*connects_on_first_op)(const struct gd_fabric_opts *o);
};

struct gd_fabric_ops {
	const char *name;	/* "verbs", "ofi" */
	const struct gd_fabric_traits *traits;
	/* Post n chained requests of q (n <= post_list); the last signalled when
	 * signal, its id covering `covered`. 0 or -errno (message printed). */
	int (*post)(struct gd_qp_run *q, uint32_t n, bool signal, uint32_t covered, uint32_t imm);
	/* Post n receives of q. 0 or -errno (message printed). */
	int (*post_recv)(struct gd_qp_run *q, uint32_t n);
	/* Up to max completions from cq (the fabric's own CQ handle): the count,
	 * 0 when none, -errno when the CQ itself failed. */
	int (*poll)(void *cq, struct gd_fab_cqe *c, int max);
	/* A failed completion's status as text, and its most likely cause. The
	 * ofi fabric gives the provider's own error string (fi_cq_strerror). */
	const char *(*status_str)(void *cq, int status);
	const char *(*hint)(int status);
	/* Drive the provider without taking completions, while a loop waits on
	 * memory (the write latency ping-pong); NULL when the NIC needs no help. */
	void (*progress)(void *cq);
	/* -e: ask for an event at the next completion of cq, and sleep until one
	 * came or timeout_ms passed (0 either way, -errno when the channel
	 * failed); NULL when the fabric has no completion events (-e is refused). */
	int (*arm)(void *cq);
	int (*wait)(void *cq, int timeout_ms);
	/* Post n work requests built elsewhere (the proxy's chains, chained by
	 * wr[i].next) on q's QP or endpoint: the IBV_SEND_SIGNALED ones complete
	 * on q->fab_cq with their wr_id. 0 or -errno, nothing printed (the
	 * caller reports: the proxy's error word). */
	int (*post_wrs)(struct gd_qp_run *q, struct ibv_send_wr *wr, uint32_t n);
	/* q's number in messages: the verbs QP number, ofi's endpoint index + 1. */
	uint32_t (*qp_num)(const struct gd_qp_run *q);
	/* In a posted chain, a request longer than this asks its own completion;
	 * 0: only the chain's last (the proxy's chains, gd_transport_create). */
	uint64_t chain_signal_above;
};

extern const struct gd_fabric_ops gd_fabric_verbs;
#ifdef HAVE_LIBFABRIC
extern const struct gd_fabric_ops gd_fabric_ofi;
#endif

extern const struct gd_fabric_traits gd_fabric_verbs_traits, gd_fabric_ofi_traits;

/* The table of a decided fabric (gd_fabric_decide, fabric_opts.h): ofi's for
 * GD_FABRIC_OFI (in a build with libfabric: the options refuse it without),
 * else verbs' (AUTO, not yet decided, reads as verbs). */
const struct gd_fabric_ops *gd_fabric_table(enum gd_fabric_kind kind);
/* What that fabric takes and reports, the same way (ofi's in every build). */
const struct gd_fabric_traits *gd_fabric_traits_of(enum gd_fabric_kind kind);

#endif
