/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * REAL-CONNECTX-ONLY, NEVER RUN ON THIS WORKPLACE (no ConnectX): the IBGDA
 * queue backend over mlx5 DEVX. create = one gd_ibgda_hwqp per QP
 * (ibgda_devx_qp.c: control buffer + umem, UARs, CREATE_CQ, CREATE_QP);
 * connect = the three state changes toward the peer's QP (RoCE: the peer's
 * MAC from a throw-away address handle); destroy in the NIC's order.
 *
 * ibgda-cpudb puts the control buffer in host memory whatever the probe
 * found for GPU memory: the CPU thread writes the doorbell record, which it
 * cannot do in GPU memory. Host control buffers are registered with CUDA
 * (mapped) so the kernels reach them.
 */
#include "ibgda_nic.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "cuda.h"
#include "ibgda_devx_qp.h"
#include "log.h"

struct devx_priv {
	struct gd_ibgda_hwqp *hw;
	uint32_t max_rd_atom; /* the device's max_qp_rd_atom */
};

static uint32_t log2u(uint32_t v)
{
	uint32_t l = 0;

	while ((1u << (l + 1)) <= v)
		l++;
	return l;
}

static int dx_create_one(struct gd_ibgda_nic *n, uint32_t i, const struct gd_ibgda_plan *plan)
{
	struct devx_priv *d = n->priv;
	struct gd_ibgda_hwqp *h = &d->hw[i];
	struct gd_ibgda_qp *q = &n->hqps[i];
	int ret = gd_ibgda_hwqp_create(h, n->cfg.ctx, n->cfg.pd, plan, log2u(n->cfg.nwqe));

	if (ret) {
		gd_error("IBGDA (DEVX) QP %u: %s", i, h->err);
		return ret;
	}
	q->sq = (uint8_t *)(uintptr_t)h->sq;
	q->nwqe = h->nwqe;
	q->qpn = h->qpn;
	q->dbrec = (uint32_t *)(uintptr_t)(h->qp_dbr + 4); /* DBR[1]: the send counter */
	q->db = h->db_gpu;				   /* NULL with ibgda-cpudb */
	q->cq = (uint8_t *)(uintptr_t)h->cqe;
	q->ncqe = 1;
	q->flags = h->host_ctrl ? GD_IBGDA_SYSMEM : 0;
	/* host memory in ibgda-cpudb (see above), at its host address */
	n->cpudb->qps[i].dbrec = h->host_send_dbr ? h->host_send_dbr : q->dbrec;
	n->cpudb->qps[i].db = (uint64_t *)h->uar->reg_addr;
	n->cpudb->qps[i].qpn = h->qpn;
	return 0;
}

static int dx_create(struct gd_ibgda_nic *n, const struct gd_ibgda_nic_cfg *c)
{
	struct gd_ibgda_plan plan = *c->plan;
	struct ibv_device_attr attr;
	struct devx_priv *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	n->priv = d;
	d->hw = calloc(c->nqps, sizeof(*d->hw));
	if (!d->hw)
		return -ENOMEM;
	if (c->flags & GD_IBGDA_CPUDB) {
		plan.cpu_doorbell = true;
		plan.mem = GD_IBGDA_MEM_HOST;
	}
	d->max_rd_atom = ibv_query_device(c->ctx, &attr) || attr.max_qp_rd_atom < 1
				 ? 1
				 : (uint32_t)attr.max_qp_rd_atom;
	n->atomic_be = plan.atomic_be;
	for (uint32_t i = 0; i < c->nqps; i++) {
		int ret = dx_create_one(n, i, &plan);

		if (ret)
			return ret;
	}
	return 0;
}

/* RoCE: the peer's MAC, as the NIC resolves it, from an address handle. */
static int peer_mac(struct gd_ibgda_nic *n, const struct gd_ibgda_peer *p, uint8_t mac[6])
{
	struct ibv_ah_attr aa;
	struct mlx5dv_ah dvah;
	struct mlx5dv_obj obj;
	struct ibv_ah *ah;
	int ret;

	memset(&aa, 0, sizeof(aa));
	aa.is_global = 1;
	aa.port_num = p->port;
	memcpy(aa.grh.dgid.raw, p->gid, 16);
	aa.grh.sgid_index = p->gid_index;
	aa.grh.hop_limit = 255;
	ah = ibv_create_ah(n->cfg.pd, &aa);
	if (!ah)
		return -errno;
	memset(&obj, 0, sizeof(obj));
	obj.ah.in = ah;
	obj.ah.out = &dvah;
	ret = mlx5dv_init_obj(&obj, MLX5DV_OBJ_AH);
	if (!ret)
		memcpy(mac, dvah.av->rmac, 6);
	ibv_destroy_ah(ah);
	return ret ? -EIO : 0;
}

static int dx_connect(struct gd_ibgda_nic *n, uint32_t i, const struct gd_ibgda_peer *p)
{
	struct devx_priv *d = n->priv;
	struct gd_qp_path path = {.remote_qpn = p->qpn,
				  .port = p->port,
				  .mtu = p->mtu,
				  .log_rra_max = gd_cmd_log_sra(d->max_rd_atom, 0, 0),
				  /* F5: no more than the peer's responder takes, or -o */
				  .log_sra_max = gd_cmd_log_sra(d->max_rd_atom, p->out_reads, 0),
				  .psn_recv = p->psn,
				  .psn_send = p->my_psn,
				  .roce = p->roce,
				  .rlid = (uint16_t)p->lid,
				  .udp_sport = (uint16_t)(0xc000 + i),
				  .gid_index = p->gid_index,
				  .hop_limit = 255,
				  .ack_timeout = n->cfg.qp_timeout};

	memcpy(path.rgid, p->gid, 16);
	if (p->roce && peer_mac(n, p, path.rmac)) {
		gd_error("IBGDA (DEVX) QP %u: cannot resolve the peer's MAC (ibv_create_ah)", i);
		return -EIO;
	}
	if (gd_ibgda_hwqp_connect(&d->hw[i], &path)) {
		gd_error("IBGDA (DEVX) QP %u: %s", i, d->hw[i].err);
		return -EIO;
	}
	return 0;
}

static void dx_destroy(struct gd_ibgda_nic *n)
{
	struct devx_priv *d = n->priv;

	if (!d)
		return;
	for (uint32_t i = 0; d->hw && i < n->cfg.nqps; i++) {
		gd_ibgda_hwqp_destroy(&d->hw[i]);
	}
	free(d->hw);
	free(d);
	n->priv = NULL;
}

const struct gd_ibgda_nic_ops gd_ibgda_nic_devx = {
	.name = "devx",
	.label = "ConnectX (mlx5 DEVX)",
	.create = dx_create,
	.connect = dx_connect,
	.destroy = dx_destroy,
};
