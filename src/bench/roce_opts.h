/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * RoCE bring-up options of the benchmark tools, with perftest 4.5's spellings
 * and meaning:
 *
 *   -S, --sl N              service level of the QPs' address vector (0-15)
 *   --tclass N              traffic class of the GRH (0-255: DSCP << 2 | ECN)
 *   -T, --tos N             type of service of rdma_cm's QPs (0-255, with -R)
 *   -e, --events            sleep on completion events instead of polling
 *                           (not the write tools, as perftest)
 *   --cpu_util              the CPU utilisation over the run (with -D)
 *   --rate_limit R          the most a sender sends, in --rate_units
 *   --rate_units M|g|p      MiB/s, Gb/s (default) or messages per second
 *   --rate_limit_type HW|SW how: the QP's packet pacing (ibv_modify_qp_rate_limit,
 *                           default) or a software pacer in the posting loop
 *   --burst_size N          messages one burst may hold (SW: the pacer's
 *                           bucket; HW: max_burst_sz in messages)
 *
 * -S, --tclass and -T are parameters both sides must agree on (the list in
 * bench_params.c: HELLO carries them, a difference is refused); the others
 * are this side's. What a fabric cannot do is refused (exit 2) naming why.
 */
#ifndef GD_BENCH_ROCE_OPTS_H
#define GD_BENCH_ROCE_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "opts.h"
#include "roce_rate.h"

#define GD_ROCE_OPT_BASE 850
/* -S, --tclass, -T, --cpu_util: every tool */
extern const struct gd_opt gd_roce_opts[];
/* --rate_limit and its companions: the bandwidth tools */
extern const struct gd_opt gd_rate_opts[];
/* -e: every tool but gd_write_bw and gd_write_lat (as perftest) */
extern const struct gd_opt gd_events_opts[];

struct gd_bench_params;
/* 0 handled, -EINVAL bad value (printed), 1 not one of these options. */
int gd_roce_opts_handle(struct gd_bench_params *p, int id, const char *arg);
/* The combinations, after the fabric is resolved: 0 or -EINVAL after a message. */
int gd_roce_opts_check(struct gd_bench_params *p);

#endif
