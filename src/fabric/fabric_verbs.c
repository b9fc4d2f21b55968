/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The verbs fabric's data path (fabric.h): today's ops.c and ibv_poll_cq. */
#include "config.h"

#include "fabric.h"

#include <errno.h>
#include <infiniband/verbs.h>

#define VERBS_POLL_MAX 16

static int verbs_poll(void *cq, struct gd_fab_cqe *c, int max)
{
	struct ibv_wc wc[VERBS_POLL_MAX];
	int ne = ibv_poll_cq(cq, max < VERBS_POLL_MAX ? max : VERBS_POLL_MAX, wc);

	if (ne < 0)
		return -EIO;
	for (int k = 0; k < ne; k++) {
		c[k].id = wc[k].wr_id;
		c[k].status = wc[k].status;
		c[k].qp_num = wc[k].qp_num;
		c[k].imm = wc[k].imm_data;
	}
	return ne;
}

static const char *verbs_status_str(void *cq, int status)
{
	(void)cq;
	return ibv_wc_status_str((enum ibv_wc_status)status);
}

static const char *verbs_hint(int status)
{
	return gd_wc_hint((enum ibv_wc_status)status);
}

const struct gd_fabric_ops gd_fabric_verbs = {
	.name = "verbs",
	.post = gd_ops_post,
	.post_recv = gd_ops_post_recv,
	.poll = verbs_poll,
	.status_str = verbs_status_str,
	.hint = verbs_hint,
};
