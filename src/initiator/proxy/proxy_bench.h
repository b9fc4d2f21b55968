/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --initiator=proxy in the benchmark tools: the measurement of the side that
 * issues the operations runs through the proxy ring (producers -> rings ->
 * proxy threads -> the bench's own connected QPs, verbs transport).
 *
 * Producers: host producer threads ("host producer (no GPU)"), one per CTA
 * of --ctas, each CTA's --threads split into --scope groups; group g issues
 * on channel g, i.e. QP g % -q. The GPU producer kernel drives the same ring
 * in the GPU tier (tests/gpu/proxy-gpu.sh); in the tools it awaits a machine
 * with both a GPU and an RDMA NIC.
 *
 * bw: all iters x QPs requests, then one quiet; the time from the first
 * reservation to the end of the quiet gives bandwidth and message rate.
 * lat: put + quiet round trips from one producer, one sample each.
 * The passive side of a latency test (send and write-with-immediate: the
 * receiver) only drains its receives.
 */
#ifndef GD_PROXY_BENCH_H
#define GD_PROXY_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gd_bench_params;
struct gd_loop_ops;

/* The engine's loop for --initiator=proxy (loop.h): the initiator table's
 * proxy entry (initiator.c) hands it to the plan. */
extern const struct gd_loop_ops gd_loop_proxy;
/* Conflicts of --initiator=proxy with other options: 0 or -EINVAL after a message. */
int gd_proxy_bench_check(const struct gd_bench_params *p);

#endif
