/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Many nodes: gd_check under mpirun/mpiexec (Open MPI) or srun (Slurm). The
 * rank and size are launch.h's (the launcher's environment); MPI
 * (--with-mpi) only exchanges addresses and gathers results, the data path
 * is RDMA. Pair patterns: pairwise (rank i with i + N/2), ring (i with
 * i + 1), all-pairs (the round-robin schedule), run in rounds of disjoint pairs at
 * once (check_sched.h; --concurrency caps a round), with --rails all each node pair on every
 * NIC at once (check_rails.h); rank 0 prints the per-pair table and the worst pair.
 */
#ifndef GD_CHECK_MPI_H
#define GD_CHECK_MPI_H

#include "check_machine.h"
#include "check_sched.h"
#include "launch.h"

/* Under a launcher, the first collective: every rank loaded the spec, the same one (its
 * SHA-256). 0, or GD_EXIT_USAGE on every rank, rank 0 naming the rank and the cause. */
int gd_ck_mpi_agree_spec(bool loaded, const char *sha256, const char *err);
/* The spec's hosts tests (GD_CK_HOSTS). 0, or an exit code. */
int gd_ck_mpi_tests(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		    const struct gd_ck_opts *o, struct gd_ck_report *r);

#endif
