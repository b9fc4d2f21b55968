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
 *   software NIC test double (--ibgda_nic=software-test-double): the
 *     engine's run over its loopback fabric (bench_fabric.h), no RDMA
 *     device, no peer: the test double executes the WQEs on this side's
 *     buffer (a loopback), with gd_loop_ibgda.
 *   ConnectX (DEVX, REAL-CONNECTX-ONLY, never run here): the engine's
 *     two-sided run with gd_loop_ibgda; the peer is a plain verbs target.
 */
#ifndef GD_IBGDA_BENCH_H
#define GD_IBGDA_BENCH_H

#include <stdio.h>

struct gd_bench_params;
struct gd_bench_result;
struct gd_loop_ops;
struct gd_loopback_nic;

/* The engine's loop for the IBGDA initiators on a ConnectX (ibgda_loop.c,
 * REAL-CONNECTX-ONLY): the initiator table's ibgda entries (initiator.c)
 * hand it to the plan; it brings its own DEVX queues through the loop
 * seam's attach/connect/detach. */
extern const struct gd_loop_ops gd_loop_ibgda;

/* Conflicts of the IBGDA initiators with other options: 0 or -EINVAL
 * after a message naming the fix. */
int gd_ibgda_bench_check(const struct gd_bench_params *p);
/* IBGDA over --fabric ofi: always refused (the reason; *option names it). */
const char *gd_ibgda_ofi_conflict(const struct gd_bench_params *p, const char **option);

/*
 * The IBGDA initiators' preparation (ibgda_hook.c), asked by the engine
 * through the table before anything is opened: with
 * --ibgda_nic=software-test-double it says what runs and returns -1 (the
 * engine's run, over the loopback fabric); otherwise it runs the
 * probe chain on the device the test would use (gd_dev_choose), prints every
 * step with its reason to out, and returns the exit code (3) after a message
 * naming the cause, the fix and the gd_doctor check (a non-mlx5 device names
 * --initiator=proxy), or -1 when the engine's own device rule should speak.
 * --ibgda_fallback lets ibgda become ibgda-cpudb (said so, never silently).
 */
int gd_ibgda_hook(const struct gd_bench_params *p, FILE *out, struct gd_bench_result *res);

/* The table entry's loopback (loop.h): the test double's device name with
 * --ibgda_nic=software-test-double, NULL for a ConnectX (a run with a peer). */
const struct gd_loopback_nic *gd_ibgda_loopback(const struct gd_bench_params *p);

#endif
