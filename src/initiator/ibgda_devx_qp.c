/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * REAL-CONNECTX-ONLY CODE, NOT VERIFIED (no ConnectX on this workplace):
 * one IBGDA RC QP through DEVX. The send queue, the collapsed CQ and both
 * doorbell records share one control buffer registered as one umem (GPU
 * memory by dma-buf or legacy umem, or host memory, as the probe chose);
 * the QP's UAR is mapped into the GPU, or left to the CPU for ibgda-cpudb.
 * The command images come from mlx5_cmd.c (unit-tested), so what is left
 * here is the calls.
 *
 * Control buffer layout: [0, sq) SQ, [sq, sq + cq) CQ, then 64 bytes of
 * doorbell records: QP DBR at +0 (receive, send), CQ DBR at +32.
 */
#include "ibgda_devx_qp.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "ibgda_devx.h"
#include "mlx5_cmd.h"

#define ALIGN64K(x) (((x) + 0xffffull) & ~0xffffull)

typedef int (*cu_reg_fn)(void *p, size_t bytes, unsigned int flags);
typedef int (*cu_unreg_fn)(void *p);

static int fail(struct gd_ibgda_hwqp *h, const char *what, int err)
{
	snprintf(h->err, sizeof(h->err), "%s: %s", what, strerror(err ? err : EINVAL));
	return -(err ? err : EINVAL);
}

/* The control buffer and its umem, in the memory the probe chose. */
static int ctrl_mem(struct gd_ibgda_hwqp *h, struct ibv_context *ctx, enum gd_ibgda_mem mem)
{
	const struct gd_cuda_api *cu = gd_cuda();
	int fd = -1;

	h->ctrl_len = ALIGN64K(h->sq_len + h->cq_len + 64);
	if (mem == GD_IBGDA_MEM_HOST) {
		if (posix_memalign(&h->host_ctrl, 65536, h->ctrl_len))
			return fail(h, "control buffer", ENOMEM);
		memset(h->host_ctrl, 0, h->ctrl_len);
		memset((uint8_t *)h->host_ctrl + h->sq_len, 0xff, h->cq_len);
		h->ctrl = (uintptr_t)h->host_ctrl; /* mapped to the GPU by the caller (UVA) */
		h->umem = mlx5dv_devx_umem_reg(ctx, h->host_ctrl, h->ctrl_len,
					       IBV_ACCESS_LOCAL_WRITE);
		return h->umem ? 0 : fail(h, "host memory umem", errno);
	}
	if (!cu || cu->MemAlloc(&h->gpu_alloc, h->ctrl_len + 65536))
		return fail(h, "cuMemAlloc for the queues", ENOMEM);
	h->ctrl = ALIGN64K(h->gpu_alloc);
	cu->MemsetD8(h->ctrl, 0, h->ctrl_len);
	cu->MemsetD8(h->ctrl + h->sq_len, 0xff, h->cq_len); /* CQE opcode INVALID */
	if (mem == GD_IBGDA_MEM_DMABUF) {
		struct mlx5dv_devx_umem_in in = {.addr = 0,
						 .size = h->ctrl_len,
						 .access = IBV_ACCESS_LOCAL_WRITE,
						 .pgsz_bitmap =
							 ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1),
						 .comp_mask = MLX5DV_UMEM_MASK_DMABUF};

		if (!cu->MemGetHandleForAddressRange ||
		    cu->MemGetHandleForAddressRange(&fd, h->ctrl, h->ctrl_len,
						    GD_CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0))
			return fail(h, "dma-buf export of the queues", EOPNOTSUPP);
		in.dmabuf_fd = fd;
		h->umem = mlx5dv_devx_umem_reg_ex(ctx, &in);
		close(fd);
	} else {
		h->umem = mlx5dv_devx_umem_reg(ctx, (void *)(uintptr_t)h->ctrl, h->ctrl_len,
					       IBV_ACCESS_LOCAL_WRITE);
	}
	return h->umem ? 0 : fail(h, "GPU memory umem", errno);
}

/* The QP's doorbell register as the GPU sees it. */
static int map_uar(struct gd_ibgda_hwqp *h)
{
	void *lib = dlopen(GD_LIBCUDA, RTLD_NOW | RTLD_NOLOAD);
	cu_reg_fn reg = lib ? (cu_reg_fn)dlsym(lib, "cuMemHostRegister_v2") : NULL;
	uintptr_t page = (uintptr_t)h->uar->reg_addr & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
	int rc;

	if (!reg) {
		if (lib)
			dlclose(lib);
		return fail(h, "cuMemHostRegister not in libcuda", ENOSYS);
	}
	rc = reg((void *)page, (size_t)sysconf(_SC_PAGESIZE), 0x1 | 0x2 | 0x4);
	dlclose(lib);
	if (rc)
		return fail(h, "cuMemHostRegister(UAR, I/O memory)", EPERM);
	h->uar_mapped = (void *)page;
	h->db_gpu = (uint64_t *)h->uar->reg_addr; /* UVA: the same address on the GPU */
	return 0;
}

static int create_objs(struct gd_ibgda_hwqp *h, struct ibv_context *ctx, uint32_t pdn,
		       uint32_t log_nwqe)
{
	uint8_t cq_in[GD_PRM_BYTES(CREATE_CQ_IN)], qp_in[GD_PRM_BYTES(CREATE_QP_IN)];
	uint8_t out[GD_PRM_BYTES(CMD_OUT)] = {0};
	uint32_t eqn;
	struct gd_cq_attr ca = {.log_size = 0,
				.umem_offset = h->sq_len,
				.dbr_offset = h->sq_len + h->cq_len + 32,
				.collapsed = true};
	struct gd_qp_attr qa = {.pd = pdn,
				.log_sq_size = log_nwqe,
				.umem_offset = 0,
				.dbr_offset = h->sq_len + h->cq_len};

	if (mlx5dv_devx_query_eqn(ctx, 0, &eqn))
		return fail(h, "mlx5dv_devx_query_eqn", errno);
	ca.eqn = eqn;
	ca.uar_page = h->cq_uar->page_id;
	ca.umem_id = ca.dbr_umem_id = h->umem->umem_id;
	gd_cmd_create_cq(cq_in, &ca);
	h->cq = mlx5dv_devx_obj_create(ctx, cq_in, sizeof(cq_in), out, sizeof(out));
	if (!h->cq)
		return fail(h, "CREATE_CQ", errno);
	h->cqn = (uint32_t)gd_prm_get(out, GD_F(CMD_OUT, OBJ_ID));
	qa.uar_page = h->uar->page_id;
	qa.cqn = h->cqn;
	qa.umem_id = qa.dbr_umem_id = h->umem->umem_id;
	gd_cmd_create_qp(qp_in, &qa);
	h->qp = mlx5dv_devx_obj_create(ctx, qp_in, sizeof(qp_in), out, sizeof(out));
	if (!h->qp)
		return fail(h, "CREATE_QP", errno);
	h->qpn = (uint32_t)gd_prm_get(out, GD_F(CMD_OUT, OBJ_ID));
	return 0;
}

int gd_ibgda_hwqp_create(struct gd_ibgda_hwqp *h, struct ibv_context *ctx, struct ibv_pd *pd,
			 const struct gd_ibgda_plan *plan, uint32_t log_nwqe)
{
	struct mlx5dv_pd dvpd;
	struct mlx5dv_obj obj = {.pd = {.in = pd, .out = &dvpd}};
	int rc;

	memset(h, 0, sizeof(*h));
	h->nwqe = 1u << log_nwqe;
	h->sq_len = (size_t)h->nwqe * 64;
	h->cq_len = 4096; /* collapsed: one CQE used, one page */
	if (mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD))
		return fail(h, "mlx5dv_init_obj(PD)", errno);
	if ((rc = ctrl_mem(h, ctx, plan->mem)))
		return rc;
	h->uar = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	h->cq_uar = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (!h->uar || !h->cq_uar)
		return fail(h, "mlx5dv_devx_alloc_uar", errno);
	if (!plan->cpu_doorbell && (rc = map_uar(h)))
		return rc;
	if ((rc = create_objs(h, ctx, dvpd.pdn, log_nwqe)))
		return rc;
	h->sq = h->ctrl;
	h->cqe = h->ctrl + h->sq_len;
	h->qp_dbr = h->ctrl + h->sq_len + h->cq_len;
	return 0;
}

int gd_ibgda_hwqp_connect(struct gd_ibgda_hwqp *h, struct gd_qp_path *path)
{
	uint8_t in[GD_PRM_BYTES(MODIFY_QP_IN)], out[GD_PRM_BYTES(CMD_OUT)];
	static const char *const step[] = {"RST2INIT_QP", "INIT2RTR_QP", "RTR2RTS_QP"};
	void (*build[])(uint8_t *, const struct gd_qp_path *) = {gd_cmd_rst2init, gd_cmd_init2rtr,
								 gd_cmd_rtr2rts};

	path->qpn = h->qpn;
	for (int i = 0; i < 3; i++) {
		memset(out, 0, sizeof(out));
		build[i](in, path);
		if (mlx5dv_devx_obj_modify(h->qp, in, sizeof(in), out, sizeof(out))) {
			snprintf(h->err, sizeof(h->err), "%s on QP 0x%x: %s (syndrome 0x%x)",
				 step[i], h->qpn, strerror(errno),
				 (unsigned)gd_prm_get(out, GD_F(CMD_OUT, SYNDROME)));
			return -EIO;
		}
	}
	return 0;
}

/* Teardown in the order the NIC needs: QP, CQ, UARs, umem, memory. */
void gd_ibgda_hwqp_destroy(struct gd_ibgda_hwqp *h)
{
	const struct gd_cuda_api *cu = gd_cuda();
	void *lib;

	if (h->qp)
		mlx5dv_devx_obj_destroy(h->qp);
	if (h->cq)
		mlx5dv_devx_obj_destroy(h->cq);
	if (h->uar_mapped && (lib = dlopen(GD_LIBCUDA, RTLD_NOW | RTLD_NOLOAD))) {
		cu_unreg_fn unreg = (cu_unreg_fn)dlsym(lib, "cuMemHostUnregister");

		if (unreg)
			unreg(h->uar_mapped);
		dlclose(lib);
	}
	if (h->uar)
		mlx5dv_devx_free_uar(h->uar);
	if (h->cq_uar)
		mlx5dv_devx_free_uar(h->cq_uar);
	if (h->umem)
		mlx5dv_devx_umem_dereg(h->umem);
	if (h->gpu_alloc && cu)
		cu->MemFree(h->gpu_alloc);
	free(h->host_ctrl);
	memset(h, 0, sizeof(*h));
}
