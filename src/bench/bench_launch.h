/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The --mpi launch of a benchmark pair (bench_launch.c), which gd_bench_main
 * (bench.c) calls around the one side it runs. */
#ifndef GD_BENCH_LAUNCH_H
#define GD_BENCH_LAUNCH_H

#include <stdbool.h>

#include "bench_params.h"

/*
 * --mpi (bench_launch.c): under mpirun/srun with 2 ranks, set p->role (rank 0
 * the side that reports: the server of a bandwidth test, the client of a
 * latency test), and the client's p->peer from the server rank's address,
 * passed over MPI; *prints: this rank prints the report (rank 0). 0, or the
 * exit code (3 when built without MPI: configure --with-mpi; 2 when not
 * launched or not 2 ranks). Then run the side and give its code to
 * gd_bench_launch_end(), which returns the job's one code.
 */
int gd_bench_launch_start(struct gd_bench_params *p, bool *prints);
int gd_bench_launch_end(int code);

#endif
