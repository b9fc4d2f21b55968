/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * THE rule for "started by a launcher": mpirun/mpiexec (Open MPI) or srun
 * (Slurm). The rank and size come from the launcher's environment
 * (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, SLURM_PROCID and their sizes);
 * MPI (configure --with-mpi) only carries small messages between the ranks
 * (addresses, results, exit codes), the data path stays RDMA. Asked by
 * gd_check (pair patterns) and by the bench tools' --mpi.
 *
 * Every collective below is entered by every rank, waits without spinning
 * (ranks that share cores with a running pair leave the CPU to it; Open MPI
 * busy-polls in blocking collectives) and has a deadline: past it the call
 * prints which step did not complete and returns -ETIMEDOUT, and the launch
 * is broken: gd_launch_fini() then aborts the whole job (MPI_Abort with the
 * code given) instead of waiting in MPI_Finalize for ranks that are gone.
 * Without MPI (not built, or not launched) the collectives are local copies.
 */
#ifndef GD_LAUNCH_H
#define GD_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>

struct gd_launch {
	int rank, size;		/* 0 / 1 when not launched */
	const char *source;	/* the variable that gave the rank, NULL when none */
	bool mpi;		/* MPI initialised (built --with-mpi and launched) */
	bool slurm_batch;	/* SLURM_PROCID without a step id: an sbatch batch
				 * script, not srun (not a launch) */
};

/* The launcher's environment only (no MPI): rank, size and the variable read. */
void gd_launch_env(struct gd_launch *l);
/*
 * WHAT needs MPI: 0 in a build with it; else an error naming the fix (WHAT, then
 * rebuild --with-mpi, then OTHERWISE when not NULL), said by rank 0 of the launch
 * only (every process before gd_launch_init), and GD_EXIT_ENV.
 */
int gd_launch_need_mpi(const char *what, const char *otherwise);
/*
 * Read the launcher's environment; under a launcher and --with-mpi, MPI_Init.
 * 0, or GD_EXIT_ENV after an error when MPI's size is not the launcher's
 * (MPI started alone: not an MPI launch); the launch is then "none".
 */
int gd_launch_init(void);
/* MPI_Finalize, or MPI_Abort(code) when a collective missed its deadline. */
void gd_launch_fini(int code);
/* The process-wide launch (set by gd_launch_init; 0 / 1 before). */
const struct gd_launch *gd_launch(void);

/* Collectives over every rank; timeout_ms > 0. 0 or -ETIMEDOUT. */
int gd_launch_bcast(void *buf, size_t len, int root, int timeout_ms, const char *what);
int gd_launch_allgather(const void *mine, void *all, size_t len, int timeout_ms,
			const char *what);
int gd_launch_min(int *v, int timeout_ms, const char *what); /* *v = the smallest */
int gd_launch_barrier(int timeout_ms, const char *what);
/* The job's exit code: rank 0's, else the first non-zero of the others'. */
int gd_launch_agree_exit(int code, int timeout_ms);

#endif
