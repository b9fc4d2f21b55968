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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "ibgda_devx.h"
#include "ibgda_hostmap.h"
#include "mlx5_cmd.h"

#define ALIGN64K(x) (((x) + 0xffffull) & ~0xffffull)

/* Every range this process mapped into the GPU: QPs share UAR pages (F1). */
static struct gd_hostmap hostmap;

static int fail(struct gd_ibgda_hwqp *h, const char *what, int err)
{
	snprintf(h->err, sizeof(h->err), "%s: %s", what, strerror(err ? err : EINVAL));
	return -(err ? err : EINVAL);
}

/* A DEVX command the firmware refused: errno and its own status/syndrome
 * (F11). */
static int cmd_fail(struct gd_ibgda_hwqp *h, const char *what, int err,
		    const uint8_t out[GD_PRM_BYTES(CMD_OUT)])
{
	char st[96];

	gd_cmd_status_text(st, sizeof(st), out);
	snprintf(h->err, sizeof(h->err), "%s: %s (%s)", what, strerror(err ? err : EIO), st);
	return -(err ? err : EIO);
}

/* [start, start + len) mapped into the GPU (shared, counted), *dev the GPU
 * address of addr; h->err names the CUDA error. */
static int map_host(struct gd_ibgda_hwqp *h, void *start, size_t len, unsigned int flags,
		    const void *addr, unsigned long long *dev, const char *what)
{
	char why[220];
	uint64_t d = 0;
	int rc = gd_hostmap_get(&hostmap, gd_cuda(), start, len, flags, addr, &d, why,
				sizeof(why));

	if (rc) {
		snprintf(h->err, sizeof(h->err), "mapping the %s into the GPU: %s", what, why);
		return rc;
	}
	*dev = d;
	return 0;
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
		h->umem = mlx5dv_devx_umem_reg(ctx, h->host_ctrl, h->ctrl_len,
					       IBV_ACCESS_LOCAL_WRITE);
		if (!h->umem)
			return fail(h, "host memory umem", errno);
		if (map_host(h, h->host_ctrl, h->ctrl_len,
			     GD_CU_MEMHOSTREGISTER_PORTABLE | GD_CU_MEMHOSTREGISTER_DEVICEMAP,
			     h->host_ctrl, &h->ctrl, "host control buffer"))
			return -EIO;
		h->ctrl_mapped = true; /* h->ctrl: the GPU's address of it (F2) */
		return 0;
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

/* The QP's doorbell register as the GPU sees it: the UAR page mapped once
 * for all its QPs, the GPU's own address for it (F1, F2). */
static int map_uar(struct gd_ibgda_hwqp *h)
{
	void *page = (void *)((uintptr_t)h->uar->reg_addr &
			      ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1));
	unsigned long long dev = 0;
	int rc = map_host(h, page, (size_t)sysconf(_SC_PAGESIZE),
			  GD_CU_MEMHOSTREGISTER_PORTABLE | GD_CU_MEMHOSTREGISTER_DEVICEMAP |
				  GD_CU_MEMHOSTREGISTER_IOMEMORY,
			  h->uar->reg_addr, &dev, "UAR doorbell page (I/O memory)");

	if (rc)
		return rc;
	h->uar_mapped = page;
	h->db_gpu = (uint64_t *)(uintptr_t)dev;
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
		return cmd_fail(h, "CREATE_CQ", errno, out);
	h->cqn = (uint32_t)gd_prm_get(out, GD_F(CMD_OUT, OBJ_ID));
	qa.uar_page = h->uar->page_id;
	qa.cqn = h->cqn;
	qa.umem_id = qa.dbr_umem_id = h->umem->umem_id;
	gd_cmd_create_qp(qp_in, &qa);
	memset(out, 0, sizeof(out));
	h->qp = mlx5dv_devx_obj_create(ctx, qp_in, sizeof(qp_in), out, sizeof(out));
	if (!h->qp)
		return cmd_fail(h, "CREATE_QP", errno, out);
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
	if (h->host_ctrl) /* DBR[1], the send counter, as the CPU doorbell writes it */
		h->host_send_dbr = (uint32_t *)((uint8_t *)h->host_ctrl + h->sq_len + h->cq_len + 4);
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
			char st[96];

			gd_cmd_status_text(st, sizeof(st), out);
			snprintf(h->err, sizeof(h->err), "%s on QP 0x%x: %s (%s)", step[i], h->qpn,
				 strerror(errno), st);
			return -EIO;
		}
	}
	return 0;
}

/* Teardown in the order the NIC needs: QP, CQ, UARs, umem, memory. */
void gd_ibgda_hwqp_destroy(struct gd_ibgda_hwqp *h)
{
	const struct gd_cuda_api *cu = gd_cuda();

	if (h->qp)
		mlx5dv_devx_obj_destroy(h->qp);
	if (h->cq)
		mlx5dv_devx_obj_destroy(h->cq);
	if (h->uar_mapped) /* the last QP of the page unregisters it */
		gd_hostmap_put(&hostmap, cu, h->uar_mapped);
	if (h->ctrl_mapped)
		gd_hostmap_put(&hostmap, cu, h->host_ctrl);
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
