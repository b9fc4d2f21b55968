/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The resolved plan of one benchmark side: the parameters turned into what
 * the engine does. Resolved in two steps:
 *   gd_plan_from_params  what the parameters alone decide: the per-op table
 *                        entry, the roles, the memory backend and what it
 *                        needs, the regions' size, the sizes to run, the
 *                        loop's configuration (depths, moderation, length,
 *                        adaptive sweep), the loop per initiator
 *   gd_plan_device       what the opened device decides: the effective
 *                        depths, inline size, outstanding reads, the NIC
 *                        the GPU is chosen for
 * The modules below the lifecycle take the plan's parts (a loop takes
 * struct gd_loop_cfg, a buffer backend struct gd_buf_spec), not the
 * parameters.
 */
#ifndef GD_PLAN_H
#define GD_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_params.h"
#include "conn.h"
#include "loop.h"
#include "mem.h"
#include "ops.h"

struct gd_conn;

#define GD_SWEEP_MAX_SIZE_S 4.0 /* -a without -n/-D: a size stops after this long */

/* Which side plays which part for these parameters. */
struct gd_mem_roles {
	bool initiator; /* posts the test's operations */
	bool target;    /* the peer's operations land in / read from my buffer */
	bool receiver;  /* posts receive WRs (send, write_with_imm) */
};
void gd_mem_roles(const struct gd_bench_params *p, struct gd_mem_roles *r);
/*
 * The MR access flags for this side (from the per-op table, ops.h): only
 * the remote access the test needs and only when this side is a target;
 * LOCAL_WRITE when the NIC writes into the buffer (read/atomic initiator,
 * receiver, any remote write/atomic target).
 */
int gd_mem_access(const struct gd_bench_params *p);
/* Does this test use the op's variant (with_imm, CMP_AND_SWAP)? */
bool gd_op_alt(const struct gd_bench_params *p);
/* "RDMA_WRITE_WITH_IMM", "ATOMIC_FETCH_AND_ADD" ... of this test. */
const char *gd_op_wr_name(const struct gd_bench_params *p);

struct gd_bench_plan {
	const struct gd_op_desc *op;
	bool alt;			/* with_imm / CMP_AND_SWAP */
	struct gd_mem_roles roles;
	const struct gd_buf_ops *mem;	/* the memory backend */
	struct gd_buf_spec mem_spec;
	int access;			/* MR access flags of this side */
	size_t slot;			/* bytes of each half of a QP's region */
	uint64_t first_size, last_size;	/* the sizes run: first, doubling to last */
	bool adaptive;			/* -a with --precision > 0 */
	struct gd_loop_cfg loop;
	struct gd_link_cfg link;	/* what conn.c and cm.c need */
	const struct gd_loop_ops *loop_ops; /* the initiator table entry's loop (loop.h) */
	/* this side initiates and its initiator's loop runs on threads of its own
	 * (gd_initiator_ops.own_threads: the proxy's): the one rule of "the side
	 * channel's waits leave the fabric alone while the loops run" */
	bool own_threads;
};

void gd_plan_from_params(struct gd_bench_plan *pl, const struct gd_bench_params *p);
/* The buffer is device memory a fabric registers as CUDA memory (libfabric FI_HMEM):
 * the memory backend says so (its cuda_device, mem.h), however the GPU was chosen;
 * the staging buffer (--gpu_staging) is host memory. */
static inline bool gd_plan_hmem(const struct gd_bench_plan *pl)
{
	return pl->mem && pl->mem->cuda_device;
}
/* What the device or domain a fabric opened tells the engine (each fabric's
 * setup fills it: bench_fabric.h). */
struct gd_plan_dev {
	char name[64];		/* the RDMA device, or libfabric's domain */
	uint32_t max_inline;	/* verbs: what the QPs take (set at connect); ofi: the inject size */
};

void gd_plan_device(struct gd_bench_plan *pl, const struct gd_bench_params *p,
		    const struct gd_plan_dev *d);
/* The size after `size` in the run, 0 when it was the last. */
uint64_t gd_plan_next_size(const struct gd_bench_plan *pl, uint64_t size);

#endif
