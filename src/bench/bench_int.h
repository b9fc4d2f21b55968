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

#include "bench_result.h"
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
struct gd_bench_fabric;

struct gd_bench {
	struct gd_bench_params p;
	struct gd_bench_plan plan;
	struct gd_oob *oob;
	struct gd_conn conn;		/* verbs' (bench_verbs.c) */
	struct gd_plan_dev dev;		/* the device or domain, as the fabric's setup says it */
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
	const struct gd_bench_fabric *fs; /* the fabric's setup (bench_fabric.h): verbs or ofi */
	const struct gd_fabric_ops *fab; /* its data path (fabric.h), fs->ops */
	struct gd_ofi *ofi;		/* --fabric ofi: the libfabric side (bench_ofi.c), else NULL */
	/* the noise guard (trust.h): the CPU each side is pinned to (-1: not one),
	 * and whether the side channel's two ends share one address */
	int my_cpu, peer_cpu;
	bool same_host;
	struct gd_trust_sample t0, t1;	/* the measuring thread around a size's loop */
	struct gd_cpu_stat cpu0;	/* --cpu_util: /proc/stat at the size's start */
	bool ran;			/* setup ended: the data phase began (bench.c) */
	struct gd_bench *left_next;	/* runs left open for the exit (bench.c keep_for_exit) */
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

/* bench.c: a setup failure's exit code (gd.h); pin to --pin_cores' list (0 or
 * -EINVAL, printed). */
int gd_bench_setup_exit_code(int err);
int gd_bench_pin_cores(const char *list);
/* bench_setup.c: the engine's steps each fabric's setup (bench_fabric.h) calls:
 * the plan completed for the device and the run's buffer taken (2 x slot per QP);
 * the per-QP arrays; each QP's blob to the peer and the peer's back (with the
 * initiator's own queues attached first); the QPs' run state, the loop and the
 * initial receives; the last two in one. 0 or -errno. */
int gd_bench_take_buffer(struct gd_bench *b);
int gd_bench_alloc_qps(struct gd_bench *b);
int gd_bench_exchange_blobs(struct gd_bench *b);
int gd_bench_finish_qps(struct gd_bench *b);
int gd_bench_exchange_buffers(struct gd_bench *b);

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
