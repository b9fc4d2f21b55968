/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The prologue of the benchmark tools (gd_{write,read,atomic,send}_{bw,lat}):
 * the initiator table and the environment's --ibgda_nic default go to the
 * engine, then the engine's main.
 */
#ifndef GD_TOOLS_BENCH_TOOL_H
#define GD_TOOLS_BENCH_TOOL_H

#include <stdlib.h>

#include "bench.h"
#include "init_opts.h"
#include "initiator.h"

static inline int gd_bench_tool(int argc, char **argv, enum gd_bench_op op, enum gd_bench_kind kind)
{
	gd_initiator_tool_prologue();
	/* the one reader of GDPERF_IBGDA_NIC: --ibgda_nic's default (gd_bench(1)) */
	gd_init_opts_set_nic_default(getenv(GD_IBGDA_NIC_ENV), GD_IBGDA_NIC_ENV);
	return gd_bench_main(argc, argv, op, kind);
}

#endif
