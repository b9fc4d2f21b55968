/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ibgda.probe: the live IBGDA probe on every RDMA device, the same chain
 * --initiator=ibgda runs (src/initiator/ibgda/ibgda_probe.h): which mode would
 * run (ibgda, or ibgda-cpudb as the fallback), or why none, with the check
 * that shows the cause.
 */
#include <stdio.h>
#include <string.h>

#include "doctor.h"
#include "ibgda_probe.h"

static enum gd_check_status verdict(const struct gd_ibgda_facts *f, const struct gd_ibgda_plan *p,
				    char *sum, size_t len)
{
	if (p->rc && f->mlx5 != 1) {
		snprintf(sum, len,
			 "not an mlx5 device: IBGDA cannot run here; --initiator=proxy works");
		return GD_CHECK_WARN;
	}
	if (p->rc) {
		snprintf(sum, len, "IBGDA cannot run: %s (see check %s)", p->why, p->check);
		return GD_CHECK_FAIL;
	}
	if (p->cpu_doorbell) {
		snprintf(sum, len,
			 "ibgda-cpudb would run (a CPU rings the doorbell), queues in %s; "
			 "--initiator=ibgda needs --ibgda_fallback",
			 gd_ibgda_mem_name(p->mem));
		return GD_CHECK_WARN;
	}
	snprintf(sum, len, "ibgda would run: the GPU rings the doorbell, queues in %s",
		 gd_ibgda_mem_name(p->mem));
	return GD_CHECK_PASS;
}

void gd_chk_ibgda_probe(struct gd_doctor *d, const struct gd_check *c)
{
	if (!d->nnics) {
		gd_res_skip(d, c, NULL, "no RDMA device");
		return;
	}
	for (size_t i = 0; i < d->nnics; i++) {
		struct gd_check_result r;
		struct gd_ibgda_facts f;
		struct gd_ibgda_plan p;
		enum gd_check_status st;
		char sum[sizeof(r.summary)];

		gd_res_init(&r, c, "%s", d->nics[i].name);
		gd_ibgda_probe_facts(d->m, d->nics[i].name, 0, &f);
		gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, true, &p);
		for (int k = 0; k < p.nlines && k < GD_EVIDENCE_MAX; k++)
			gd_res_ev(&r, "IBGDA probe", "%s", p.lines[k]);
		st = verdict(&f, &p, sum, sizeof(sum));
		if (p.rc)
			gd_res_fix(&r, "%s", p.fix);
		gd_res_emit(d, &r, st, "%s", sum);
	}
}
