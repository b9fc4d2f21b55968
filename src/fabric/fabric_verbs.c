/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The verbs fabric's data path (fabric.h): today's ops.c and ibv_poll_cq. */
#include "config.h"

#include "fabric.h"

#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>

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

static int verbs_arm(void *cqv)
{
	struct ibv_cq *cq = cqv;

	return cq->channel && ibv_req_notify_cq(cq, 0) ? -EIO : 0;
}

/* Sleep on cq's completion channel; consume (and acknowledge) one event. */
static int verbs_wait(void *cqv, int timeout_ms)
{
	struct ibv_cq *cq = cqv, *ev_cq;
	struct pollfd pfd;
	void *ctx;
	int n;

	if (!cq->channel)
		return 0;
	pfd.fd = cq->channel->fd;
	pfd.events = POLLIN;
	n = poll(&pfd, 1, timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	if (!n)
		return 0;
	if (ibv_get_cq_event(cq->channel, &ev_cq, &ctx))
		return -EIO;
	ibv_ack_cq_events(ev_cq, 1);
	return 0;
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

static int verbs_post_wrs(struct gd_qp_run *q, struct ibv_send_wr *wr, uint32_t n)
{
	struct ibv_send_wr *bad = NULL;

	(void)n; /* the chain's own links */
	return -ibv_post_send(q->qp, wr, &bad);
}

static uint32_t verbs_qp_num(const struct gd_qp_run *q)
{
	return q->qp ? q->qp->qp_num : 0;
}

const struct gd_fabric_ops gd_fabric_verbs = {
	.name = "verbs",
	.traits = &gd_fabric_verbs_traits,
	.post = gd_ops_post,
	.post_recv = gd_ops_post_recv,
	.poll = verbs_poll,
	.status_str = verbs_status_str,
	.hint = verbs_hint,
	.arm = verbs_arm,
	.wait = verbs_wait,
	.post_wrs = verbs_post_wrs,
	.qp_num = verbs_qp_num,
};
