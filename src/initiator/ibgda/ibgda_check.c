/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Conflicts of the IBGDA initiators with other options (ibgda_bench.h);
 * apart from the run so that the option parser (and its fuzzer) need no
 * CUDA or DEVX code. */
#include "ibgda_bench.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bench_params.h"
#include "ibgda_gpu.h"
#include "ibgda_nic.h"
#include "init_opts.h"
#include "log.h"

static const char *op_refusal(const struct gd_bench_params *p)
{
	if (p->op != GD_OP_WRITE && p->op != GD_OP_READ && p->op != GD_OP_ATOMIC)
		return "the IBGDA kernels post RDMA WRITE, READ and atomics only (gd_write_*, "
		       "gd_read_*, gd_atomic_*); for SEND use --initiator=proxy";
	if (p->write_with_imm)
		return "--write_with_imm is not built in the IBGDA kernels; drop it";
	if (p->bidirectional || p->duration_s || p->run_infinitely)
		return "IBGDA runs a number of iterations in one direction (-n per size, also "
		       "with -a): drop -b, -D and --run_infinitely";
	if (p->given & (GD_GIVEN_POST_LIST | GD_GIVEN_CQ_MOD) || p->perform_warm_up)
		return "the IBGDA kernels batch doorbells and signal selectively themselves; drop "
		       "-l/--post_list, -Q/--cq-mod and --perform_warm_up";
	if (p->conn == GD_CONN_RDMA_CM)
		return "rdma_cm (-R) creates verbs QPs; IBGDA creates its own: drop -R";
	if (p->limit_bw > 0 || p->limit_msgrate > 0)
		return "-w/-y are not applied with --initiator=ibgda yet; drop them";
	if (p->init.threads % 32)
		return "the IBGDA kernels work in whole warps: --threads must be a multiple of 32";
	return NULL;
}

/* The test double's buffers: pinned host memory, or GPU memory by --use_cuda=N
 * (it copies through the CUDA driver); refused here, with the other conflicts,
 * rather than when its run starts (doc/notes/ibgda-swnic-lifecycle-2026-11-29.md) */
static const char *swnic_refusal(const struct gd_bench_params *p)
{
	if (p->init.ibgda_nic == GD_IBGDA_NIC_SWNIC &&
	    (p->cuda_bus_id[0] || p->use_hugepages || p->cuda_dmabuf))
		return "the " GD_IBGDA_NIC_SWNIC_LABEL "'s buffers are pinned host memory, or GPU "
		       "memory by --use_cuda=N (the test double copies through the CUDA driver); "
		       "drop --use_cuda_bus_id/--use_cuda_dmabuf/--use_hugepages";
	return NULL;
}

int gd_ibgda_gpu_stand_in(void)
{
	const char *v = getenv(GD_IBGDA_GPU_STAND_IN_ENV);

	if (!v || !*v)
		return 0;
	return strcmp(v, "host") ? -1 : 1;
}

/* The host stand-in for the GPU side is a test double for the test
 * double's runs only (ibgda_gpu_host.h). */
static const char *stand_in_refusal(const struct gd_bench_params *p)
{
	int s = gd_ibgda_gpu_stand_in();

	if (s < 0)
		return GD_IBGDA_GPU_STAND_IN_ENV " takes one value, host (a test switch: the "
		       "GPU side on host threads); unset it to run on a GPU";
	if (s > 0 && p->init.ibgda_nic != GD_IBGDA_NIC_SWNIC)
		return GD_IBGDA_GPU_STAND_IN_ENV "=host (the GPU side on host threads, a test "
		       "double) serves --ibgda_nic=software-test-double only: a ConnectX needs "
		       "a GPU; unset it, or add --ibgda_nic=software-test-double";
	return NULL;
}

int gd_ibgda_bench_check(const struct gd_bench_params *p)
{
	const struct gd_init_opts *o = &p->init;
	uint32_t units = o->scope == GD_SCOPE_BLOCK ? o->ctas : o->ctas * o->threads / 32;
	const char *why = op_refusal(p);

	if (!why)
		why = swnic_refusal(p);
	if (!why)
		why = stand_in_refusal(p);

	if (!why && p->kind == GD_KIND_BW && units < p->num_qps)
		why = "each QP needs its own warp (scope thread or warp) or CTA (scope block): "
		      "raise --ctas or --threads, or lower -q";
	if (!why && p->num_qps > GD_IBGDA_NIC_MAX_QPS)
		why = "at most 512 QPs (-q)";
	if (why) {
		gd_error("--initiator=%s: %s", gd_initiator_name(o->initiator), why);
		return -EINVAL;
	}
	return 0;
}

const char *gd_ibgda_ofi_conflict(const struct gd_bench_params *p, const char **option)
{
	*option = "--initiator=ibgda";
	return "IBGDA rings a ConnectX's doorbell itself: it is verbs (mlx5) only";
}
