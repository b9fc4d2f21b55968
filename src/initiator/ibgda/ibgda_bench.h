/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --initiator=ibgda|ibgda-cpudb in the benchmark tools: probe/plan, queue
 * backend create (ibgda_nic.h), exchange and connect, the IBGDA kernels
 * (ibgda_gpu.h) on the buffers, results into the engine's result model and
 * report (text and --json, as the proxy mode), --validate, --dump_wqes.
 *
 * The measurement: bw = -n x -q RDMA WRITEs (or READs) of -s bytes posted
 * by the --ctas x --threads grid at --scope, then one quiet per QP; the time
 * from the launch to the end of the quiet gives bandwidth and message rate
 * (the proxy mode's definition). lat = one GPU thread, one WQE at a time,
 * each waited for: reserve to completion.
 *
 * Two backends:
 *   software NIC test double (GDPERF_IBGDA_NIC=software-test-double): the
 *     whole test in this process, no RDMA device, no peer: the test double
 *     executes the WQEs on two local buffers (a loopback); gd_ibgda_bench_swnic.
 *   ConnectX (DEVX, REAL-CONNECTX-ONLY, never run here): the engine's
 *     two-sided run with gd_loop_ibgda; the peer is a plain verbs target.
 */
#ifndef GD_IBGDA_BENCH_H
#define GD_IBGDA_BENCH_H

#include <stdio.h>

struct gd_bench_params;
struct gd_bench_result;
struct gd_loop_ops;

/* The engine's loop for the IBGDA initiators on a ConnectX (ibgda_loop.c,
 * REAL-CONNECTX-ONLY): the plan picks it; it brings its own DEVX queues
 * through the loop seam's attach/connect/detach. */
extern const struct gd_loop_ops gd_loop_ibgda;

/* Conflicts of the IBGDA initiators with other options: 0 or -EINVAL
 * after a message naming the fix. */
int gd_ibgda_bench_check(const struct gd_bench_params *p);

/* The whole test on the software NIC test double; returns the exit code
 * (res->exit_code too). */
int gd_ibgda_bench_swnic(const struct gd_bench_params *p, FILE *out, struct gd_bench_result *res);

#endif
