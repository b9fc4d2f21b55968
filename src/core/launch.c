/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Launched by mpirun/srun: rank and size, and small collectives over MPI. */
#include "config.h"

#include "launch.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef HAVE_MPI
#include <mpi.h>
#endif

#include "gd.h"
#include "log.h"

static struct gd_launch launch = { 0, 1, NULL, false, false };
static bool broken; /* a collective missed its deadline: abort, do not finalize */

const struct gd_launch *gd_launch(void)
{
	return &launch;
}

int gd_launch_need_mpi(const char *what, const char *otherwise)
{
#ifdef HAVE_MPI
	(void)what, (void)otherwise;
	return 0;
#else
	if (launch.rank == 0)
		gd_error("%s: this %s was built without MPI; rebuild gdperf with ./configure "
			 "--with-mpi (Debian: apt-get install libopenmpi-dev openmpi-bin)%s%s", what,
			 gd_progname(), otherwise ? "; " : "", otherwise ? otherwise : "");
	return GD_EXIT_ENV;
#endif
}

static bool env_int(const char *name, int *v)
{
	const char *s = getenv(name);
	char *end;
	long x;

	if (!s || !*s)
		return false;
	x = strtol(s, &end, 10);
	if (*end || x < 0 || x > 1000000)
		return false;
	*v = (int)x;
	return true;
}

void gd_launch_env(struct gd_launch *l)
{
	static const char *const vars[][2] = {
		{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE" }, { "PMIX_RANK", "PMIX_SIZE" },
		{ "PMI_RANK", "PMI_SIZE" }, { "SLURM_PROCID", "SLURM_NTASKS" },
	};

	int step;

	*l = (struct gd_launch){ 0, 1, NULL, false, false };
	for (size_t i = 0; i < GD_ARRAY_SIZE(vars) && !l->source; i++)
		if (env_int(vars[i][0], &l->rank)) {
			/* an sbatch batch script has SLURM_PROCID and SLURM_NTASKS too,
			 * but no step: only srun's tasks are a launch */
			if (!strcmp(vars[i][0], "SLURM_PROCID") && !env_int("SLURM_STEP_ID", &step) &&
			    !env_int("SLURM_STEPID", &step)) {
				l->rank = 0;
				l->slurm_batch = true;
				break;
			}
			l->source = vars[i][0];
			/* its own size, else another launcher's: srun's PMIx sets
			 * PMIX_RANK without PMIX_SIZE (Slurm 22.05), next to SLURM_NTASKS */
			l->size = 0;
			if (!env_int(vars[i][1], &l->size))
				for (size_t j = 0; j < GD_ARRAY_SIZE(vars); j++)
					if (env_int(vars[j][1], &l->size))
						break;
			if (l->size < 1)
				l->size = 1;
		}
	if (l->rank >= l->size)
		l->rank = 0, l->size = 1, l->source = NULL;
}

int gd_launch_init(void)
{
	gd_launch_env(&launch);
#ifdef HAVE_MPI
	int size = launch.size;

	if (launch.source) {
		MPI_Init(NULL, NULL);
		MPI_Comm_rank(MPI_COMM_WORLD, &launch.rank);
		MPI_Comm_size(MPI_COMM_WORLD, &launch.size);
		launch.mpi = true;
	}
	if (launch.mpi && launch.size != size) {
		/* the variables say a job of `size`, MPI started alone: no launch
		 * joined the ranks (srun --mpi=none, a copied environment) */
		gd_error("%s says a job of %d processes, MPI sees %d: this is not an MPI launch; "
			 "start it with srun --mpi=pmix or mpirun", launch.source, size, launch.size);
		MPI_Finalize();
		launch = (struct gd_launch){ 0, 1, NULL, false, false };
		return GD_EXIT_ENV;
	}
#endif
	return 0;
}

void gd_launch_fini(int code)
{
#ifdef HAVE_MPI
	if (launch.mpi && broken)
		MPI_Abort(MPI_COMM_WORLD, code ? code : GD_EXIT_ENV);
	if (launch.mpi)
		MPI_Finalize();
#endif
	(void)code;
	launch.mpi = false;
}

#ifdef HAVE_MPI
/* Test without spinning (1 ms naps) until done or the deadline. */
static int wait_req(MPI_Request *rq, int timeout_ms, const char *what)
{
	struct timespec ts = { 0, 1000 * 1000 };
	struct timespec t0, now;
	int done = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		MPI_Test(rq, &done, MPI_STATUS_IGNORE);
		if (done)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 >=
		    timeout_ms) {
			gd_error("rank %d of %d: %s did not complete within %d s: another rank "
				 "stopped or hangs; aborting the job", launch.rank, launch.size,
				 what, timeout_ms / 1000);
			broken = true;
			return -ETIMEDOUT;
		}
		nanosleep(&ts, NULL);
	}
}
#endif

int gd_launch_bcast(void *buf, size_t len, int root, int timeout_ms, const char *what)
{
#ifdef HAVE_MPI
	MPI_Request rq;

	if (launch.mpi && !broken) {
		MPI_Ibcast(buf, (int)len, MPI_BYTE, root, MPI_COMM_WORLD, &rq);
		return wait_req(&rq, timeout_ms, what);
	}
#endif
	(void)buf, (void)len, (void)root, (void)timeout_ms, (void)what;
	return broken ? -ETIMEDOUT : 0;
}

int gd_launch_allgather(const void *mine, void *all, size_t len, int timeout_ms,
			const char *what)
{
#ifdef HAVE_MPI
	MPI_Request rq;

	if (launch.mpi && !broken) {
		MPI_Iallgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, MPI_COMM_WORLD,
			       &rq);
		return wait_req(&rq, timeout_ms, what);
	}
#endif
	(void)timeout_ms, (void)what;
	memmove(all, mine, len);
	return broken ? -ETIMEDOUT : 0;
}

int gd_launch_min(int *v, int timeout_ms, const char *what)
{
#ifdef HAVE_MPI
	MPI_Request rq;

	if (launch.mpi && !broken) {
		MPI_Iallreduce(MPI_IN_PLACE, v, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &rq);
		return wait_req(&rq, timeout_ms, what);
	}
#endif
	(void)v, (void)timeout_ms, (void)what;
	return broken ? -ETIMEDOUT : 0;
}

int gd_launch_barrier(int timeout_ms, const char *what)
{
#ifdef HAVE_MPI
	MPI_Request rq;

	if (launch.mpi && !broken) {
		MPI_Ibarrier(MPI_COMM_WORLD, &rq);
		return wait_req(&rq, timeout_ms, what);
	}
#endif
	(void)timeout_ms, (void)what;
	return broken ? -ETIMEDOUT : 0;
}

int gd_launch_agree_exit(int code, int timeout_ms)
{
	int *all;

	if (launch.size < 2 || !launch.mpi)
		return code;
	all = calloc((size_t)launch.size, sizeof(*all));
	if (!all)
		return code ? code : GD_EXIT_ENV;
	if (!gd_launch_allgather(&code, all, sizeof(code), timeout_ms, "the exit codes")) {
		code = all[0];
		for (int i = 1; i < launch.size && !code; i++)
			code = all[i];
	} else if (!code) {
		code = GD_EXIT_ENV;
	}
	free(all);
	return code;
}
