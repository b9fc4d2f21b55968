/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Verbs-only facts of a live device (active/max MTU, LIDs) through libibverbs. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "log.h"
#include "rdma_dev.h"

/* IBV_MTU_256 (1) .. IBV_MTU_4096 (5) -> bytes; 0 unknown */
static int mtu_bytes(enum ibv_mtu mtu)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? 128 << mtu : 0;
}

static void fill_port(struct ibv_context *ctx, struct gd_port *p)
{
	struct ibv_port_attr attr;
	int ret;

	memset(&attr, 0, sizeof(attr));
	ret = ibv_query_port(ctx, (uint8_t)p->num, &attr);
	if (ret) {
		gd_debug("ibv_query_port(%s, %d): %s", ibv_get_device_name(ctx->device), p->num,
			 strerror(ret > 0 ? ret : errno));
		return;
	}
	p->active_mtu = mtu_bytes(attr.active_mtu);
	p->max_mtu = mtu_bytes(attr.max_mtu);
	if (attr.link_layer != IBV_LINK_LAYER_ETHERNET) {
		p->lid = attr.lid;
		p->sm_lid = attr.sm_lid;
		p->lmc = attr.lmc;
	}
}

int gd_rdma_query_verbs(struct gd_hca *hca)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_device_attr dattr;
	int n, ret = -ENODEV;

	list = ibv_get_device_list(&n);
	if (!list)
		return errno ? -errno : -ENODEV;
	for (int i = 0; i < n; i++) {
		if (strcmp(ibv_get_device_name(list[i]), hca->name))
			continue;
		ctx = ibv_open_device(list[i]);
		ret = ctx ? 0 : (errno ? -errno : -EIO);
		break;
	}
	ibv_free_device_list(list);
	if (ret)
		return ret;
	memset(&dattr, 0, sizeof(dattr));
	if (ibv_query_device(ctx, &dattr) == 0 && !hca->fw_ver[0])
		snprintf(hca->fw_ver, sizeof(hca->fw_ver), "%.31s", dattr.fw_ver);
	for (size_t i = 0; i < hca->nports; i++)
		fill_port(ctx, &hca->ports[i]);
	ibv_close_device(ctx);
	hca->verbs_known = true;
	return 0;
}
