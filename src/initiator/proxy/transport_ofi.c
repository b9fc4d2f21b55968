/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The proxy's libfabric transport (see transport_ofi.h). */
#include "config.h"

#include "transport_ofi.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_errno.h>

#include "fabric.h"
#include "ofi_lib.h"
#include "fabric_ofi.h"
#include "transport_verbs.h"

#define QP_SHIFT 56
#define ID_MASK ((1ull << QP_SHIFT) - 1)

struct gd_tof {
	struct gd_tv *tv;		/* builds the chains */
	struct gd_ofi_target *tg;	/* per QP */
	uint32_t nqps;
	struct gd_ofi_cq **cq;		/* per proxy thread: its QPs' send CQ */
};

struct gd_tof *gd_tof_create(const struct gd_qp_run *q, uint32_t nqps, uint32_t nthreads,
			     uint32_t max_chain, uint32_t max_inline)
{
	struct gd_tof *t = calloc(1, sizeof(*t));
	struct gd_tv_qp *qps = calloc(nqps, sizeof(*qps));

	if (!t || !qps)
		goto fail;
	t->tg = calloc(nqps, sizeof(*t->tg));
	t->cq = calloc(nthreads, sizeof(*t->cq));
	if (!t->tg || !t->cq || nthreads > nqps)
		goto fail;
	/* thread k posts QPs k, k + nthreads, ... (proxy.c), all on one CQ
	 * (fabric_ofi.h gd_ofi_ep_scq): QP k's */
	for (uint32_t k = 0; k < nthreads; k++)
		t->cq[k] = q[k].fab_cq;
	for (uint32_t i = 0; i < nqps; i++) {
		qps[i] = (struct gd_tv_qp){ NULL, q[i].local_addr, 0, q[i].remote_addr, 0 };
		t->tg[i] = gd_ofi_target_of(&q[i]);
	}
	t->tv = gd_tv_create(qps, nqps, NULL, nthreads, max_chain, max_inline);
	if (!t->tv)
		goto fail;
	/* as the CPU loop: over shm a chain of 64 KiB writes with one signalled
	 * ran at 0.74-0.86 of the CPU initiator, each signalled at 0.95-0.97 */
	gd_tv_signal_each_above(t->tv, GD_SIGNAL_EACH_ABOVE);
	free(qps);
	t->nqps = nqps;
	return t;
fail:
	free(qps);
	gd_tof_destroy(t);
	return NULL;
}

void gd_tof_destroy(struct gd_tof *t)
{
	if (!t)
		return;
	gd_tv_destroy(t->tv);
	free(t->tg);
	free(t->cq);
	free(t);
}

static int tof_post(void *ctx, uint32_t thread, uint32_t qp, const struct gd_req *reqs, uint32_t n,
		    uint64_t signal_id)
{
	struct gd_tof *t = ctx;
	struct ibv_send_wr *wr;
	ssize_t ret;

	if (qp >= t->nqps)
		return -EINVAL;
	wr = gd_tv_build(t->tv, thread, qp, reqs, n, signal_id);
	if (!wr)
		return -EINVAL;
	ret = gd_ofi_post_wrs(&t->tg[qp], wr, n);
	return ret == -FI_EAGAIN ? -EAGAIN : ret ? -EIO : 0;
}

static int tof_poll(void *ctx, uint32_t thread, struct gd_tp_comp *c, int max)
{
	struct gd_tof *t = ctx;
	struct gd_fab_cqe e[32];
	int n = gd_fabric_ofi.poll(t->cq[thread], e, max < 32 ? max : 32);

	for (int i = 0; i < n; i++) {
		uint32_t qp = (uint32_t)(e[i].id >> QP_SHIFT);

		c[i].qp = qp;
		c[i].qp_num = qp + 1;
		c[i].id = e[i].id & ID_MASK;
		c[i].status = e[i].status;
		c[i].op = gd_tv_last_op(t->tv, qp);
	}
	return n;
}

static const char *tof_status_str(int status)
{
	return gd_fi_strerror(status);
}

static uint32_t tof_qp_num(void *ctx, uint32_t qp)
{
	(void)ctx;
	return qp + 1;
}

void gd_tof_ops(struct gd_tof *t, struct gd_transport *tp)
{
	tp->name = "libfabric";
	tp->ctx = t;
	tp->post = tof_post;
	tp->poll = tof_poll;
	tp->status_str = tof_status_str;
	tp->qp_num = tof_qp_num;
}
