/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The IBGDA queue backend: who provides the send queues, CQs, doorbell
 * records and doorbell targets the IBGDA kernels drive. Three steps, the
 * same for every backend:
 *
 *   create   nqps RC QPs with their collapsed CQs; fills the host images of
 *            struct gd_ibgda_qp (sq, nwqe, qpn, dbrec, db, cq, ncqe, flags)
 *   connect  QP i to the peer's QP (the bench's out-of-band exchange gives
 *            its QPN, GID/LID, PSN; rkey and address travel beside it)
 *   destroy  in the order the NIC needs
 * plus start/stop for the threads a backend runs beside the kernels (the
 * CPU doorbell of ibgda-cpudb; the test double's NIC thread).
 *
 * Backends:
 *   devx   a ConnectX through mlx5 DEVX (ibgda_nic_devx.c over
 *          ibgda_devx_qp.c): REAL-CONNECTX-ONLY, never run on this workplace
 *   swnic  the SOFTWARE NIC TEST DOUBLE (ibgda_nic_swnic.c over
 *          ibgda_swnic.c): a CPU thread executes the WQEs on local buffers
 *          (a loopback, no peer), for machines without a ConnectX. Chosen
 *          only by the option --ibgda_nic=software-test-double (the
 *          parameter p->init.ibgda_nic, init_opts.h; the tools default it
 *          from the environment); every header, JSON record and message
 *          says "software NIC (test double)".
 *
 * The common part (ibgda_nic.c) owns what the kernels need beside the
 * queues: the per-QP counters and run control in GPU memory, the failure
 * record in mapped host memory, and the device copy of the QP images.
 */
#ifndef GD_IBGDA_NIC_H
#define GD_IBGDA_NIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibgda_cpudb.h"
#include "ibgda_dev.h"
#include "init_opts.h"

struct gd_ibgda_gpu;
struct gd_ibgda_plan;
struct ibv_context;
struct ibv_pd;

#define GD_IBGDA_NIC_SWNIC_LABEL "software NIC (test double)"
/* test-double-only faults: an error CQE (REMOTE_ACCESS_ERR) at WQE index N,
 * or a NIC that stops consuming at WQE index N */
#define GD_IBGDA_SWNIC_ERR_ENV "GDPERF_IBGDA_SWNIC_ERR_AT"
#define GD_IBGDA_SWNIC_STALL_ENV "GDPERF_IBGDA_SWNIC_STALL_AT"
/* test-double configuration: 1 = fetched 8-byte atomic results big-endian */
#define GD_IBGDA_SWNIC_ATOMIC_BE_ENV "GDPERF_IBGDA_SWNIC_ATOMIC_BE"
#define GD_IBGDA_NIC_MAX_QPS 512

struct gd_ibgda_nic_cfg {
	struct gd_ibgda_gpu *gpu;
	uint32_t nqps, nwqe, ring_every;
	uint32_t flags;	     /* GD_IBGDA_CPUDB, GD_IBGDA_SHARED (collapsed CQ always) */
	uint64_t timeout_ns; /* one wait without progress */
	uint64_t budget_ns;  /* the whole run, on the GPU's clock */
	uint8_t qp_timeout;  /* devx: ACK timeout exponent, -u (4.096 us x 2^N) */
	/* devx: the live device and the probe's plan (memory, doorbell) */
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	const struct gd_ibgda_plan *plan;
	/* swnic: faults (UINT64_MAX: none); data buffers in GPU memory (the
	 * test double copies through the driver); 8-byte fetched atomic results
	 * big-endian (a device in atomic_req_8B_endianness_mode 0) */
	uint64_t err_at, stall_at;
	bool data_on_gpu, atomic_be;
};

/* What connect needs for QP i: the peer's QP (qpn, psn, lid, gid) and
 * this side's path (its PSN, source GID index, port, link layer, MTU as the
 * IB enum 1..5 = 256..4096 bytes). */
struct gd_ibgda_peer {
	uint32_t qpn, psn, lid, mtu, my_psn;
	uint32_t out_reads; /* READs/atomics both sides take: min of the two records' (0 unknown) */
	bool roce;
	uint8_t gid[16], gid_index, port;
};

struct gd_ibgda_nic;

struct gd_ibgda_nic_ops {
	const char *name;  /* "devx", "swnic" */
	const char *label; /* for headers and JSON */
	int (*create)(struct gd_ibgda_nic *n, const struct gd_ibgda_nic_cfg *c);
	int (*connect)(struct gd_ibgda_nic *n, uint32_t i, const struct gd_ibgda_peer *peer);
	/* a memory region the WQEs may name (the test double checks keys; a
	 * ConnectX uses the bench's own ibv MR): 0 and the key, or -errno */
	int (*add_mr)(struct gd_ibgda_nic *n, void *addr, size_t len, uint32_t *key);
	int (*start)(struct gd_ibgda_nic *n);
	void (*stop)(struct gd_ibgda_nic *n);
	/* WQEs the NIC executed so far (the test double counts them; NULL:
	 * unknown) */
	uint64_t (*executed)(const struct gd_ibgda_nic *n);
	/* "" or what the NIC saw wrong (the test double's protocol checks) */
	const char *(*problem)(const struct gd_ibgda_nic *n);
	void (*destroy)(struct gd_ibgda_nic *n);
};

struct gd_ibgda_nic {
	const struct gd_ibgda_nic_ops *ops;
	struct gd_ibgda_nic_cfg cfg;
	struct gd_ibgda_qp *hqps; /* host images, cfg.nqps */
	struct gd_ibgda_qp *dqps; /* GPU copy the kernels read */
	struct gd_ibgda_ctr *ctr; /* GPU memory */
	struct gd_ibgda_ctl *ctl; /* GPU memory */
	struct gd_ibgda_err *err; /* mapped host memory */
	uint64_t *snap;		  /* GPU memory, 2 words per QP */
	/* ibgda-cpudb: the GPU bumps prod[8 * i] (mapped host memory), this
	 * thread rings; create fills each cpudb.qps[i].dbrec, .db, .qpn with
	 * addresses the CPU may write */
	uint64_t *prod;
	struct gd_cpudb *cpudb;
	/* 8-byte fetched atomic results arrive big-endian (the device's
	 * atomic_req_8B_endianness_mode is 0), else in host order; create sets it */
	bool atomic_be;
	void *priv; /* the backend's */
};

/* The backend --ibgda_nic names (enum gd_ibgda_nic_kind, init_opts.h). */
const struct gd_ibgda_nic_ops *gd_ibgda_nic_backend(enum gd_ibgda_nic_kind kind);

/* create (the backend, then the counters, control, failure record and the
 * device copy of the QP images); 0 or -errno after a message. On failure
 * call gd_ibgda_nic_destroy. */
int gd_ibgda_nic_create(struct gd_ibgda_nic *n, const struct gd_ibgda_nic_ops *ops,
			const struct gd_ibgda_nic_cfg *c);
/* Before each run (each size): the failure record, the stop flag and the
 * run deadline cleared. The counters go on: they never wrap, and the NIC
 * (real or test double) keeps its own indices, as a real QP does. */
int gd_ibgda_nic_rearm(struct gd_ibgda_nic *n);
/* The backend's threads (and, for ibgda-cpudb, the CPU doorbell thread). */
int gd_ibgda_nic_start(struct gd_ibgda_nic *n);
void gd_ibgda_nic_stop(struct gd_ibgda_nic *n);
void gd_ibgda_nic_destroy(struct gd_ibgda_nic *n);
/* The failure record (and the test double's problem) as one line to f;
 * returns 1 when there was one, else 0. */
int gd_ibgda_nic_report(const struct gd_ibgda_nic *n, FILE *f);

extern const struct gd_ibgda_nic_ops gd_ibgda_nic_swnic;
extern const struct gd_ibgda_nic_ops gd_ibgda_nic_devx;

#endif
