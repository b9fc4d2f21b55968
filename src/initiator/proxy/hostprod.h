/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Host producer threads: the GPU producer's stand-in where there is no GPU
 * ("host producer (no GPU)" in every header and JSON record). They run the
 * same shared code as the CUDA kernel (prod.h, ring.h, desc.h compiled as C).
 */
#ifndef GD_HOSTPROD_H
#define GD_HOSTPROD_H

#include <stdbool.h>
#include <stdint.h>

#include "prod.h"

/* their name in reports: GD_HOST_PRODUCER_LABEL (init_opts.h) */

/*
 * Run a->ngroups groups on nthreads host threads (group g on thread
 * g % nthreads, its requests in order), then quiet. *ns is the time from the
 * start to the end of the quiet. Returns a gd_ring_code (the failure in
 * a->fail), or -errno when a thread cannot start.
 */
int gd_host_prod_run(const struct gd_prod_args *a, uint32_t nthreads, const int *cores,
		     uint32_t ncores, uint64_t *ns);

/* The same in steps, for a caller that watches a side channel meanwhile:
 * start, poll gd_host_prod_done(), then finish (join, quiet). */
struct gd_host_prod;
int gd_host_prod_start(const struct gd_prod_args *a, uint32_t nthreads, const int *cores,
		       uint32_t ncores, struct gd_host_prod **h);
bool gd_host_prod_done(const struct gd_host_prod *h);
int gd_host_prod_finish(struct gd_host_prod *h, uint64_t *ns);
/* One thread running gd_host_prod_lat, in steps as above. */
int gd_host_prod_start_lat(const struct gd_prod_args *a, uint64_t n, uint64_t *samples_ns,
			   struct gd_host_prod **h);

/*
 * Put + quiet round trips from one host thread: n requests of group 0, each
 * followed by a quiet; samples_ns[i] is the i-th round trip. Returns a
 * gd_ring_code.
 */
int gd_host_prod_lat(const struct gd_prod_args *a, uint64_t n, uint64_t *samples_ns);

#endif
