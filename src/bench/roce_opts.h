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

enum gd_rate_units { GD_RATE_GBPS = 0, GD_RATE_MIBPS, GD_RATE_PPS, GD_RATE_UNITS_COUNT };
enum gd_rate_type { GD_RATE_NONE = 0, GD_RATE_HW, GD_RATE_SW, GD_RATE_PP, GD_RATE_TYPE_COUNT };

struct gd_roce_opts {
	uint32_t sl;			/* -S: 0-15, default 0 */
	uint32_t tclass;		/* --tclass: 0-255, default 0 */
	uint32_t tos;			/* -T/--tos: 0-255, applied when tos_given */
	bool sl_given, tclass_given, tos_given;
	bool events;			/* -e */
	bool cpu_util;			/* --cpu_util */
	double rate_limit;		/* --rate_limit in rate_units, 0 = none */
	enum gd_rate_units rate_units;	/* --rate_units */
	enum gd_rate_type rate_type;	/* --rate_limit_type; HW when a limit is given without it */
	uint32_t burst_size;		/* --burst_size, messages; 0 = one message */
	bool units_given, type_given;
};

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

const char *gd_rate_type_name(enum gd_rate_type t);	/* "HW", "SW", "PP", "none" */
const char *gd_rate_units_name(enum gd_rate_units u);	/* "Gbps", "MiBps", "pps" */
/* The limit in bytes per second for messages of size bytes (pps: size x rate). */
double gd_rate_bytes_per_s(const struct gd_roce_opts *o, uint64_t size);
/* The limit in messages per second for messages of size bytes. */
double gd_rate_msgs_per_s(const struct gd_roce_opts *o, uint64_t size);

#endif
