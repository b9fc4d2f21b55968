/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_read_lat: perftest-compatible RDMA read latency test (see gd_bench(1)). */
#include "bench_tool.h"

int main(int argc, char **argv)
{
	return gd_bench_tool(argc, argv, GD_OP_READ, GD_KIND_LAT);
}
