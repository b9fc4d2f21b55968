/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The prologue of the benchmark tools (gd_{write,read,atomic,send}_{bw,lat}):
 * the initiator table goes to the engine, then the engine's main.
 */
#ifndef GD_TOOLS_BENCH_TOOL_H
#define GD_TOOLS_BENCH_TOOL_H

#include "bench.h"
#include "initiator.h"

static inline int gd_bench_tool(int argc, char **argv, enum gd_bench_op op, enum gd_bench_kind kind)
{
	gd_initiator_tool_prologue();
	return gd_bench_main(argc, argv, op, kind);
}

#endif
