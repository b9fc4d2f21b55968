/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The IBGDA queue backend's common part (see ibgda_nic.h). */
#include "ibgda_nic.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ibgda_gpu.h"
#include "log.h"
#include "mlx5_dump.h"

const struct gd_ibgda_nic_ops *gd_ibgda_nic_backend(enum gd_ibgda_nic_kind kind)
{
	return kind == GD_IBGDA_NIC_SWNIC ? &gd_ibgda_nic_swnic : &gd_ibgda_nic_devx;
}

/* The CPU doorbell of ibgda-cpudb: a producer word per QP in mapped host
 * memory; the kernels bump it instead of ringing. */
static int cpudb_setup(struct gd_ibgda_nic *n)
{
	const struct gd_ibgda_nic_cfg *c = &n->cfg;

	n->prod = gd_ibgda_gpu_host(c->gpu, (size_t)c->nqps * 64);
	if (!n->prod)
		return -ENOMEM;
	n->cpudb->nqps = c->nqps;
	n->cpudb->max_idle_ns = c->timeout_ns + 5000000000ull;
	for (uint32_t i = 0; i < c->nqps; i++) {
		n->cpudb->qps[i].prod = n->prod + 8 * i;
		n->hqps[i].db = n->prod + 8 * i;
	}
	return 0;
}

static int common_setup(struct gd_ibgda_nic *n)
{
	const struct gd_ibgda_nic_cfg *c = &n->cfg;
	struct gd_ibgda_ctl ctl = {.budget_ns = c->budget_ns};

	n->ctr = gd_ibgda_gpu_dev(c->gpu, (size_t)c->nqps * sizeof(*n->ctr));
	n->ctl = gd_ibgda_gpu_dev(c->gpu, sizeof(*n->ctl));
	n->snap = gd_ibgda_gpu_dev(c->gpu, (size_t)c->nqps * 16);
	n->dqps = gd_ibgda_gpu_dev(c->gpu, (size_t)c->nqps * sizeof(*n->dqps));
	n->err = gd_ibgda_gpu_host(c->gpu, sizeof(*n->err));
	if (!n->ctr || !n->ctl || !n->snap || !n->dqps || !n->err)
		return -ENOMEM;
	if ((c->flags & GD_IBGDA_CPUDB) && cpudb_setup(n))
		return -ENOMEM;
	for (uint32_t i = 0; i < c->nqps; i++) {
		struct gd_ibgda_qp *q = &n->hqps[i];

		q->flags |= c->flags | GD_IBGDA_COLLAPSED;
		q->ring_every = c->ring_every;
		q->ctr = n->ctr + i;
		q->err = n->err;
		q->timeout_ns = c->timeout_ns;
		q->ctl = n->ctl;
	}
	if (gd_ibgda_gpu_put(c->gpu, n->ctl, &ctl, sizeof(ctl)))
		return -EIO;
	return gd_ibgda_gpu_put(c->gpu, n->dqps, n->hqps, (size_t)c->nqps * sizeof(*n->hqps));
}

int gd_ibgda_nic_create(struct gd_ibgda_nic *n, const struct gd_ibgda_nic_ops *ops,
			const struct gd_ibgda_nic_cfg *c)
{
	int ret;

	memset(n, 0, sizeof(*n));
	n->ops = ops;
	n->cfg = *c;
	if (!c->nqps || c->nqps > GD_IBGDA_NIC_MAX_QPS) {
		gd_error("IBGDA: %u QPs: 1..%u", c->nqps, GD_IBGDA_NIC_MAX_QPS);
		return -EINVAL;
	}
	n->hqps = calloc(c->nqps, sizeof(*n->hqps));
	n->cpudb = calloc(1, sizeof(*n->cpudb));
	if (!n->hqps || !n->cpudb)
		return -ENOMEM;
	ret = ops->create(n, c);
	if (ret)
		return ret;
	ret = common_setup(n);
	if (ret)
		gd_error("IBGDA: cannot allocate the counters and control words on the GPU");
	return ret;
}

int gd_ibgda_nic_rearm(struct gd_ibgda_nic *n)
{
	struct gd_ibgda_ctl ctl = {.budget_ns = n->cfg.budget_ns};

	memset(n->err, 0, sizeof(*n->err));
	return gd_ibgda_gpu_put(n->cfg.gpu, n->ctl, &ctl, sizeof(ctl));
}

int gd_ibgda_nic_start(struct gd_ibgda_nic *n)
{
	if (n->ops->start && n->ops->start(n))
		return -EIO;
	if ((n->cfg.flags & GD_IBGDA_CPUDB) && gd_cpudb_start(n->cpudb)) {
		if (n->ops->stop)
			n->ops->stop(n);
		return -EIO;
	}
	return 0;
}

void gd_ibgda_nic_stop(struct gd_ibgda_nic *n)
{
	if (n->cpudb)
		gd_cpudb_stop(n->cpudb);
	if (n->ops && n->ops->stop)
		n->ops->stop(n);
}

void gd_ibgda_nic_destroy(struct gd_ibgda_nic *n)
{
	struct gd_ibgda_gpu *g = n->cfg.gpu;

	gd_ibgda_nic_stop(n);
	if (n->ops && n->ops->destroy)
		n->ops->destroy(n);
	if (g) {
		gd_ibgda_gpu_free_dev(g, n->ctr);
		gd_ibgda_gpu_free_dev(g, n->ctl);
		gd_ibgda_gpu_free_dev(g, n->snap);
		gd_ibgda_gpu_free_dev(g, n->dqps);
		gd_ibgda_gpu_free_host(g, n->err);
		gd_ibgda_gpu_free_host(g, n->prod);
	}
	free(n->hqps);
	free(n->cpudb);
	memset(n, 0, sizeof(*n));
}

int gd_ibgda_nic_report(const struct gd_ibgda_nic *n, FILE *f)
{
	const char *p = n->ops->problem ? n->ops->problem(n) : "";
	char line[512];

	if (p[0])
		fprintf(f, "error: %s\n", p);
	if (!n->err->code)
		return p[0] != 0;
	gd_ibgda_err_text(line, sizeof(line), n->err,
			  n->hqps && (n->hqps[0].flags & GD_IBGDA_COLLAPSED));
	fprintf(f, "error: ibgda: %s\n", line);
	return 1;
}
