/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --mpi: a benchmark pair started by mpirun/mpiexec or srun with 2 ranks.
 * Rank 0 is the side that reports, rank 1 the other: for the bandwidth tools
 * rank 0 is the server (it prints the client's numbers, as without --mpi),
 * for the latency tools the client (it times the round trips; the server of a
 * read or atomic test measures nothing). MPI carries one message, the server
 * rank's address (the IP of the GID the device rule and GID rule choose, else
 * its host name); then the ordinary TCP side channel connects and the data
 * path is RDMA. At the end the ranks agree on one exit code.
 */
#include "bench_launch.h"

#include <string.h>
#include <unistd.h>

#include "choose.h"
#include "gd.h"
#include "launch.h"
#include "log.h"

#define STEP_MS (120 * 1000) /* deadline of the address exchange and of the exit codes */

struct server_addr {
	char host[GD_BENCH_HOST_MAX];
};

/* The address the client rank connects to: the IP of -x or of the GID rule's choice, else the host name. */
static void server_addr(const struct gd_bench_params *p, struct server_addr *a)
{
	struct gd_hca hca;
	const struct gd_port *port;
	int want;

	memset(a, 0, sizeof(*a));
	if (!gd_dev_choose(&p->machine, p->dev[0] ? p->dev : NULL, p->ib_port, &hca)) {
		port = gd_hca_port(&hca, p->ib_port);
		want = !port ? -1 : (p->given & GD_GIVEN_GID) ? p->gid_index :
		       p->ipv6 ? port->default_gid6 : port->default_gid;
		for (size_t g = 0; port && want >= 0 && g < port->ngids; g++)
			if (port->gids[g].index == want && port->gids[g].ip[0])
				snprintf(a->host, sizeof(a->host), "%s", port->gids[g].ip);
		gd_rdma_free_hca(&hca);
	}
	/* no device or no IP (InfiniBand): the engine names a device error itself */
	if (!a->host[0] && gethostname(a->host, sizeof(a->host) - 1))
		snprintf(a->host, sizeof(a->host), "localhost");
}

int gd_bench_launch_start(struct gd_bench_params *p, bool *prints)
{
	const struct gd_launch *l;
	struct server_addr a;
	struct gd_launch env;
	int server, ret;

	if ((ret = gd_launch_need_mpi("--mpi", NULL)))
		return ret;
	gd_launch_env(&env);
	if (!env.source) {
		gd_error("--mpi: not started by mpirun, mpiexec or srun (%s); run "
			 "'mpirun -np 2 %s --mpi ...' or 'srun -n 2 %s --mpi ...'", env.slurm_batch ?
			 "SLURM_PROCID without SLURM_STEP_ID: an sbatch script that did not use srun" :
			 "none of OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, SLURM_PROCID is set",
			 gd_progname(), gd_progname());
		return GD_EXIT_USAGE;
	}
	if (env.size != 2) {
		gd_error("--mpi takes 2 ranks (a server and a client); this job has "
			 "%d (%s): start it with mpirun -np 2 or srun -n 2", env.size, env.source);
		return GD_EXIT_USAGE;
	}
	if ((ret = gd_launch_init()))
		return ret;
	l = gd_launch();
	server = p->kind == GD_KIND_BW ? 0 : 1;
	p->role = l->rank == server ? GD_ROLE_SERVER : GD_ROLE_CLIENT;
	*prints = l->rank == 0;
	if (l->rank == server)
		server_addr(p, &a);
	if (gd_launch_bcast(&a, sizeof(a), server, STEP_MS, "the server rank's address")) {
		gd_launch_fini(GD_EXIT_ENV);
		return GD_EXIT_ENV;
	}
	a.host[sizeof(a.host) - 1] = '\0';
	if (l->rank != server)
		snprintf(p->peer, sizeof(p->peer), "%s", a.host);
	return 0;
}

int gd_bench_launch_end(int code)
{
	code = gd_launch_agree_exit(code, STEP_MS);
	gd_launch_fini(code);
	return code;
}
