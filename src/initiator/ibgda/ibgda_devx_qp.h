/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * REAL-CONNECTX-ONLY, NOT VERIFIED: one IBGDA RC QP created through DEVX
 * (ibgda_devx_qp.c): control buffer + umem, UARs (the QP's mapped into the
 * GPU unless the plan says the CPU rings), CREATE_CQ (collapsed), CREATE_QP,
 * and the three state changes. The caller fills struct gd_ibgda_qp from
 * sq, cqe, qp_dbr + 4 (the send counter), db_gpu, nwqe and qpn.
 */
#ifndef GD_IBGDA_DEVX_QP_H
#define GD_IBGDA_DEVX_QP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "ibgda_probe.h"
#include "mlx5_cmd.h"

struct gd_ibgda_hwqp {
	uint32_t nwqe, qpn, cqn;
	size_t sq_len, cq_len, ctrl_len;
	unsigned long long ctrl, gpu_alloc; /* control buffer (device address), its allocation */
	void *host_ctrl;                /* host-memory mode */
	uint64_t sq, cqe, qp_dbr;       /* addresses the kernels use (GPU addresses) */
	uint32_t *host_send_dbr;        /* host-memory mode: the send DBR as the CPU writes it */
	uint64_t *db_gpu;               /* doorbell register mapped into the GPU, or NULL */
	void *uar_mapped;               /* the UAR page, mapped (ibgda_hostmap.h) */
	bool ctrl_mapped;               /* host_ctrl mapped into the GPU */
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_uar *uar, *cq_uar;
	struct mlx5dv_devx_obj *cq, *qp;
	char err[256];
};

/* 0, or -errno with h->err naming the step (a failed DEVX command with the
 * firmware's status and syndrome, a CUDA call with its CUresult name). */
int gd_ibgda_hwqp_create(struct gd_ibgda_hwqp *h, struct ibv_context *ctx, struct ibv_pd *pd,
			 const struct gd_ibgda_plan *plan, uint32_t log_nwqe);
int gd_ibgda_hwqp_connect(struct gd_ibgda_hwqp *h, struct gd_qp_path *path);
void gd_ibgda_hwqp_destroy(struct gd_ibgda_hwqp *h);

#endif
