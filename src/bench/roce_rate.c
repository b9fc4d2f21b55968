/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The rate limit's names and arithmetic (roce_opts.h): apart from the option handler in
 * roce_opts.c, so that the parameter list (bench_params.c) can name them without the two
 * files including each other. */
#include "roce_rate.h"

#include "gd.h"

const char *gd_rate_type_name(enum gd_rate_type t)
{
	static const char *const n[] = { "none", "HW", "SW", "PP" };
	return (unsigned)t < GD_ARRAY_SIZE(n) ? n[t] : "?";
}

const char *gd_rate_units_name(enum gd_rate_units u)
{
	static const char *const n[] = { "Gbps", "MiBps", "pps" };
	return (unsigned)u < GD_ARRAY_SIZE(n) ? n[u] : "?";
}

double gd_rate_bytes_per_s(const struct gd_roce_opts *o, uint64_t size)
{
	switch (o->rate_units) {
	case GD_RATE_GBPS: return o->rate_limit * 1e9 / 8;
	case GD_RATE_MIBPS: return o->rate_limit * 1048576.0;
	default: return o->rate_limit * (double)size;
	}
}

double gd_rate_msgs_per_s(const struct gd_roce_opts *o, uint64_t size)
{
	if (o->rate_units == GD_RATE_PPS)
		return o->rate_limit;
	return size ? gd_rate_bytes_per_s(o, size) / (double)size : 0;
}
