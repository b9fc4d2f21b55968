/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One IBGDA measurement, the part both backends share (ibgda_loop.c: the
 * software NIC test double over the engine's loopback fabric, a ConnectX in
 * the two-sided run): the GPU, the queue backend, the queue shape, and one
 * size of a bandwidth or latency test (kernels, deadline, failure record,
 * the count check). It prints no table: it returns figures.
 */
#ifndef GD_IBGDA_RUN_H
#define GD_IBGDA_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "bench_params.h"
#include "bench_report.h"
#include "ibgda_gpu.h"
#include "ibgda_nic.h"
#include "init_opts.h"

#define GD_IBGDA_RING_EVERY 32 /* doorbell batching, WQEBBs (NVSHMEM's default) */
#define GD_IBGDA_SIG_EVERY 64  /* selective signalling */

/* What to run, from the parameters (or the loop's configuration). */
struct gd_ibgda_spec {
	enum gd_bench_op op; /* GD_OP_WRITE, GD_OP_READ or GD_OP_ATOMIC */
	bool cas;            /* atomics: CMP_AND_SWAP, else FETCH_AND_ADD */
	enum gd_bench_kind kind;
	struct gd_init_opts init;
	uint32_t nqps, tx_depth, timeout_ms;
	uint64_t iters;	   /* bw: messages per QP; lat: samples */
	uint64_t max_size; /* the largest message of the run */
	int cuda_index;
};

struct gd_loop_cfg;

/* The spec from the engine's loop configuration (plan.h: the op and its
 * variant, kind, initiator shape, QPs, send depth, deadline, iterations),
 * the run's largest message and the GPU that runs the kernels: the one
 * rule for both backends (ibgda_loop.c's attach). */
void gd_ibgda_spec_of(struct gd_ibgda_spec *s, const struct gd_loop_cfg *c, uint64_t max_size,
		      int cuda_index);

/* Where the data is: QP q's local and remote regions are q * qp_stride on
 * from local and remote; rotate: a message of size s uses slot i % (region
 * / s) (the loopback), else every message offset 0 (the engine's
 * --validate checks the first bytes of each QP's region). */
struct gd_ibgda_data {
	uint64_t local, remote, region, qp_stride;
	uint32_t lkey, rkey;
	bool rotate;
};

struct gd_ibgda_run {
	struct gd_ibgda_spec spec;
	struct gd_ibgda_data data;
	struct gd_ibgda_gpu *gpu;
	struct gd_ibgda_nic nic;
	uint32_t nwqe;
	uint64_t executed; /* the backend's count before this size */
	struct gd_report_initiator ini;
};

/* GPU, then the backend's queues (extra: its own fields of the NIC
 * configuration: ctx, pd, plan for DEVX; faults for the test double).
 * 0 or -errno after a message; gd_ibgda_run_close in every case. */
int gd_ibgda_run_open(struct gd_ibgda_run *r, const struct gd_ibgda_spec *s,
		      const struct gd_ibgda_nic_ops *ops, const struct gd_ibgda_nic_cfg *extra);
void gd_ibgda_run_close(struct gd_ibgda_run *r);

/* One size: -n x -q messages from the grid, one quiet per QP; res filled
 * (window = launch to the end of the quiet). 0 or -errno (the failure
 * record printed). */
int gd_ibgda_run_bw(struct gd_ibgda_run *r, uint64_t size, struct gd_bw_result *res);
/* One size: spec.iters single WQEs, each waited for; samples (usec,
 * malloc'ed, reserve to completion) and *n. */
int gd_ibgda_run_lat(struct gd_ibgda_run *r, uint64_t size, double **samples, size_t *n);

/* --dump_wqes: QP 0's first n WQEBB slots as the run left them. */
void gd_ibgda_run_dump(struct gd_ibgda_run *r, uint32_t n, FILE *f);

#endif
