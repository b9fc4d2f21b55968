/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the RoCE bring-up options hold (struct gd_roce_opts, a part of the
 * bench parameters) and the rate limit's arithmetic (roce_rate.c). The
 * options themselves, their table, parsing and checks against the whole
 * parameter set, are roce_opts.h's: the parameters include this header, not
 * that one.
 */
#ifndef GD_BENCH_ROCE_RATE_H
#define GD_BENCH_ROCE_RATE_H

#include <stdbool.h>
#include <stdint.h>

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

const char *gd_rate_type_name(enum gd_rate_type t);	/* "HW", "SW", "PP", "none" */
const char *gd_rate_units_name(enum gd_rate_units u);	/* "Gbps", "MiBps", "pps" */
/* The limit in bytes per second for messages of size bytes (pps: size x rate). */
double gd_rate_bytes_per_s(const struct gd_roce_opts *o, uint64_t size);
/* The limit in messages per second for messages of size bytes. */
double gd_rate_msgs_per_s(const struct gd_roce_opts *o, uint64_t size);

#endif
