/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Many nodes: gd_check under mpirun/mpiexec (Open MPI) or srun (Slurm). The
 * rank and size come from the launcher's environment (OMPI_COMM_WORLD_RANK,
 * PMIX_RANK, PMI_RANK, SLURM_PROCID and their sizes); MPI (--with-mpi) only
 * exchanges addresses and gathers results, the data path is RDMA. Pair
 * patterns: pairwise (rank i with i + N/2), ring (i with i + 1), all-pairs,
 * one pair at a time; rank 0 prints the per-pair table and the worst pair.
 */
#ifndef GD_CHECK_MPI_H
#define GD_CHECK_MPI_H

#include "check_machine.h"

struct gd_ck_launch {
	int rank, size;		/* 0 / 1 when not launched */
	const char *source;	/* the variable that gave the rank, NULL when none */
	bool mpi;		/* MPI initialised (built --with-mpi) */
};

/* The launcher's environment only (no MPI): rank, size and the variable read. */
void gd_ck_launch_env(struct gd_ck_launch *l);
/* Read the launcher's environment; under a launcher and --with-mpi, MPI_Init. */
void gd_ck_launch_init(struct gd_ck_launch *l, int *argc, char ***argv);
void gd_ck_launch_fini(struct gd_ck_launch *l);
/* The process-wide launch (set by gd_ck_launch_init). */
const struct gd_ck_launch *gd_ck_launch(void);
/* Pairs (server, client) of a pattern over n ranks; returns the count (<= max). */
size_t gd_ck_pairs(enum gd_ck_pattern p, int n, int (*pairs)[2], size_t max);
/* The spec's hosts tests (GD_CK_HOSTS). 0, or an exit code. */
int gd_ck_mpi_tests(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		    const struct gd_ck_opts *o, struct gd_ck_report *r);
/* Everyone agrees on the exit code of rank 0. */
int gd_ck_launch_exit(int code);

#endif
