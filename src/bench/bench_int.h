/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The lifecycle's state of one benchmark side, shared by bench.c (setup,
 * run, teardown), bench_size.c (one size: the loop, the results exchange,
 * the result model, the report) and bench_data.c (payload pattern and
 * --validate). The loops (loop.h) and the report (bench_report.h) do not
 * see it.
 */
#ifndef GD_BENCH_INT_H
#define GD_BENCH_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "bench_params.h"
#include "bench_report.h"
#include "cm.h"
#include "conn.h"
#include "loop.h"
#include "mem.h"
#include "plan.h"
#include "progress.h"
#include "trust.h"

struct gd_oob;
struct gd_ofi;

struct gd_bench {
	struct gd_bench_params p;
	struct gd_bench_plan plan;
	struct gd_oob *oob;
	struct gd_conn conn;
	struct gd_cm cm;
	struct gd_buf buf;
	struct gd_qp_run *q;		/* p.num_qps */
	struct gd_wire_conn *local;	/* my connection data per QP */
	bool numa_pinned;		/* pinned to the NIC's NUMA node numa_node (pin_numa) */
	int numa_node;
	struct gd_wire_conn *remote;	/* the peer's */
	struct gd_loop loop;
	struct gd_report rep;
	char host[256];
	char peer[300];
	int exit_code;			/* set where a failure is detected */
	struct gd_progress progress;
	FILE *out;			/* NULL: print nothing */
	struct gd_bench_result *res;	/* the result model being filled */
	void *ini_state;		/* the initiator's own queues (loop.h attach), or NULL */
	const struct gd_fabric_ops *fab; /* the fabric seam (fabric.h): verbs or ofi */
	struct gd_ofi *ofi;		/* --fabric ofi: the libfabric side (fabric_ofi.h), else NULL */
	struct gd_bench *left_next;	/* runs left open for the process's exit (bench.c) */
	/* the noise guard (trust.h): the CPU each side is pinned to (-1: not one),
	 * and whether the side channel's two ends share one address */
	int my_cpu, peer_cpu;
	bool same_host;
	struct gd_trust_sample t0, t1;	/* the measuring thread around a size's loop */
	struct gd_cpu_stat cpu0;	/* --cpu_util: /proc/stat at the size's start */
};

/* bench.c: the region of QP i, my local half and my target half. */
static inline uint8_t *gd_bench_local(struct gd_bench *b, uint32_t i)
{
	return (uint8_t *)b->buf.addr + (size_t)i * 2 * b->plan.slot;
}

static inline uint8_t *gd_bench_target(struct gd_bench *b, uint32_t i)
{
	return gd_bench_local(b, i) + b->plan.slot;
}

/* bench_size.c: one size of a bandwidth or latency test; *ops_total adds the
 * operations the peer completed (atomic --validate). 0 or -errno, exit_code set. */
int gd_bench_bw_size(struct gd_bench *b, uint64_t size, uint64_t *ops_total);
int gd_bench_lat_size(struct gd_bench *b, uint64_t size, uint64_t *ops_total);
/* The loop's hooks (struct gd_loop): results to the peer, an interval's line. */
int gd_bench_measured(void *bench, const struct gd_bw_result *res);
void gd_bench_interval(void *bench, const struct gd_bw_result *res);

/* bench_data.c: the pattern before the run, --validate after it. */
int gd_bench_fill(struct gd_bench *b);
/* --validate: 0 or -EBADMSG (printed). *checked: bytes compared, or atomics counted
 * (*atomics set), 0 when the peer is the side that checks. */
int gd_bench_validate(struct gd_bench *b, uint64_t last_size, uint64_t peer_ops,
		      uint64_t *checked, bool *atomics);

#endif
