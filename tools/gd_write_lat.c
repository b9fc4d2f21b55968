/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_write_lat: perftest-compatible RDMA write latency test (see gd_bench(1)). */
#include "bench_tool.h"

int main(int argc, char **argv)
{
	return gd_bench_tool(argc, argv, GD_OP_WRITE, GD_KIND_LAT);
}
