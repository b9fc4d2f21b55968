/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The IBGDA queue backend over the SOFTWARE NIC TEST DOUBLE (ibgda_swnic.c):
 * for a GPU machine without a ConnectX. Not a NIC: a CPU thread executes
 * the WQEs the kernels write, on local buffers (a loopback: "connect" pairs
 * each QP with itself, no peer exists). The queues live in pinned host
 * memory mapped into the GPU (the thread must read them); the doorbell
 * record and doorbell word too. Selected only by the option
 * --ibgda_nic=software-test-double (ibgda_nic.h).
 */
#include "ibgda_nic.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ibgda_gpu.h"
#include "ibgda_swnic.h"
#include "log.h"

#define SWNIC_QPN_BASE 0x5100
#define SWNIC_KEY_BASE 0x5e000

struct swnic_priv {
	struct gd_swnic nic;
	uint8_t *sq, *cq; /* mapped host memory, all QPs */
	uint32_t *dbrec;
	uint64_t *db;
};

static struct swnic_priv *priv(const struct gd_ibgda_nic *n)
{
	return n->priv;
}

/* Buffers in GPU memory: the NIC thread copies through the driver. */
static int gpu_copy(void *ctx, void *dst, const void *src, size_t len)
{
	return gd_ibgda_gpu_copy_side(ctx, dst, src, len);
}

static int gpu_bind(void *ctx)
{
	return gd_ibgda_gpu_bind(ctx);
}

static int sw_create(struct gd_ibgda_nic *n, const struct gd_ibgda_nic_cfg *c)
{
	struct swnic_priv *s = calloc(1, sizeof(*s));
	size_t sqb = (size_t)c->nwqe * 64;

	if (!s)
		return -ENOMEM;
	n->priv = s;
	if (c->nqps > GD_SWNIC_MAX_QPS)
		return -EINVAL;
	s->sq = gd_ibgda_gpu_host(c->gpu, sqb * c->nqps);
	s->cq = gd_ibgda_gpu_host(c->gpu, (size_t)64 * c->nqps);
	s->dbrec = gd_ibgda_gpu_host(c->gpu, (size_t)64 * c->nqps);
	s->db = gd_ibgda_gpu_host(c->gpu, (size_t)64 * c->nqps);
	if (!s->sq || !s->cq || !s->dbrec || !s->db)
		return -ENOMEM;
	memset(s->cq, 0xff, (size_t)64 * c->nqps); /* CQE opcode INVALID */
	s->nic.nqps = c->nqps;
	s->nic.inject_err_at = c->err_at;
	s->nic.inject_syndrome = GD_MLX5_SYND_REMOTE_ACCESS;
	s->nic.stall_at = c->stall_at;
	s->nic.max_idle_ns = c->timeout_ns + 5000000000ull;
	s->nic.atomic_be = n->atomic_be = c->atomic_be;
	if (c->data_on_gpu) {
		s->nic.copy = gpu_copy;
		s->nic.thread_init = gpu_bind;
		s->nic.copy_ctx = c->gpu;
	}
	for (uint32_t i = 0; i < c->nqps; i++) {
		struct gd_ibgda_qp *q = &n->hqps[i];

		q->sq = s->sq + sqb * i;
		q->nwqe = c->nwqe;
		q->qpn = SWNIC_QPN_BASE + i;
		q->dbrec = s->dbrec + 16 * i;
		q->db = s->db + 8 * i;
		q->cq = s->cq + 64 * i;
		q->ncqe = 1;
		q->flags = GD_IBGDA_SYSMEM; /* the queues are host memory */
		s->nic.qps[i] = (struct gd_swnic_qp){.sq = q->sq,
						     .nwqe = c->nwqe,
						     .qpn = q->qpn,
						     .dbrec = q->dbrec,
						     .db = q->db,
						     .cq = q->cq,
						     .ncqe = 1,
						     .collapsed = true};
		n->cpudb->qps[i].dbrec = q->dbrec; /* ibgda-cpudb: the CPU rings these */
		n->cpudb->qps[i].db = q->db;
		n->cpudb->qps[i].qpn = q->qpn;
	}
	return 0;
}

/* A loopback: QP i's peer is QP i itself; nothing to move to RTS. */
static int sw_connect(struct gd_ibgda_nic *n, uint32_t i, const struct gd_ibgda_peer *peer)
{
	if (peer->qpn != n->hqps[i].qpn) {
		gd_error("%s: QP 0x%x can only be connected to itself (a loopback), not to 0x%x",
			 GD_IBGDA_NIC_SWNIC_LABEL, n->hqps[i].qpn, peer->qpn);
		return -EINVAL;
	}
	return 0;
}

static int sw_add_mr(struct gd_ibgda_nic *n, void *addr, size_t len, uint32_t *key)
{
	struct gd_swnic *nic = &priv(n)->nic;

	if (nic->nmrs >= GD_SWNIC_MAX_MRS)
		return -ENOSPC;
	*key = SWNIC_KEY_BASE + nic->nmrs;
	nic->mrs[nic->nmrs++] = (struct gd_swnic_mr){addr, len, *key};
	return 0;
}

static int sw_start(struct gd_ibgda_nic *n)
{
	if (gd_swnic_start(&priv(n)->nic)) {
		gd_error("%s: cannot start its thread", GD_IBGDA_NIC_SWNIC_LABEL);
		return -EIO;
	}
	return 0;
}

static void sw_stop(struct gd_ibgda_nic *n)
{
	if (n->priv)
		gd_swnic_stop(&priv(n)->nic);
}

static const char *sw_problem(const struct gd_ibgda_nic *n)
{
	return n->priv ? priv(n)->nic.problem : "";
}

static uint64_t sw_executed(const struct gd_ibgda_nic *n)
{
	return n->priv ? priv(n)->nic.wqes : 0;
}

static void sw_destroy(struct gd_ibgda_nic *n)
{
	struct swnic_priv *s = n->priv;

	if (!s)
		return;
	gd_swnic_stop(&s->nic);
	gd_ibgda_gpu_free_host(n->cfg.gpu, s->sq);
	gd_ibgda_gpu_free_host(n->cfg.gpu, s->cq);
	gd_ibgda_gpu_free_host(n->cfg.gpu, s->dbrec);
	gd_ibgda_gpu_free_host(n->cfg.gpu, s->db);
	free(s);
	n->priv = NULL;
}

const struct gd_ibgda_nic_ops gd_ibgda_nic_swnic = {
	.name = "swnic",
	.label = GD_IBGDA_NIC_SWNIC_LABEL,
	.create = sw_create,
	.connect = sw_connect,
	.add_mr = sw_add_mr,
	.start = sw_start,
	.stop = sw_stop,
	.executed = sw_executed,
	.problem = sw_problem,
	.destroy = sw_destroy,
};
