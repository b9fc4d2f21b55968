/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Internal state of one benchmark run, shared by bench.c, bench_run.c and bench_report.c. */
#ifndef GD_BENCH_INT_H
#define GD_BENCH_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "bench_params.h"
#include "cm.h"
#include "conn.h"
#include "mem.h"
#include "ops.h"
#include "bench_report.h"
#include "progress.h"

struct gd_oob;

struct gd_bench {
	struct gd_bench_params p;
	struct gd_oob *oob;
	struct gd_conn conn;
	struct gd_cm cm;
	struct gd_buf buf;
	struct gd_mem_roles roles;
	struct gd_qp_run *q;		/* p.num_qps */
	struct gd_wire_conn *local;	/* my connection data per QP */
	struct gd_wire_conn *remote;	/* the peer's */
	size_t slot;			/* bytes of each half of a QP's region */
	uint32_t tx_depth;		/* effective (clamped) values */
	uint32_t cq_mod;
	char host[256];
	char peer[300];
	int exit_code;			/* set where a failure is detected */
	struct gd_progress progress;
	FILE *out;			/* NULL: print nothing */
	struct gd_bench_result *res;	/* the result model being filled */
};

/* bench_run.c: the measurement loops. Return 0 or -errno; b->exit_code set. */
int gd_bench_run_bw(struct gd_bench *b, uint64_t size, struct gd_bw_result *res, bool *sent);
int gd_bench_run_lat(struct gd_bench *b, uint64_t size, double **samples, size_t *n);
/* The region of QP i: my local half and my target half. */
uint8_t *gd_bench_local(struct gd_bench *b, uint32_t i);
uint8_t *gd_bench_target(struct gd_bench *b, uint32_t i);
/* Fill *res for the side channel's RESULTS message and send it. */
int gd_bench_send_bw_results(struct gd_bench *b, const struct gd_bw_result *res);

#endif
