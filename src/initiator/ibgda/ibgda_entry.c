/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "ibgda_entry.h"

#include "log.h"

int gd_ibgda_prepare(const struct gd_machine *m, const char *dev, bool cpudb, bool allow_fallback,
		     int cuda_ordinal, FILE *out, FILE *err, struct gd_ibgda_plan *plan)
{
	struct gd_ibgda_facts f;

	gd_ibgda_probe_facts(m, dev, cuda_ordinal, &f);
	gd_ibgda_decide(&f, cpudb ? GD_IBGDA_WANT_CPU_DB : GD_IBGDA_WANT_GPU_DB, allow_fallback,
			plan);
	gd_ibgda_plan_print(plan, dev, out);
	if (plan->rc) {
		fprintf(err, "%s: error: --initiator=%s: %s\n  fix: %s (gd_doctor --check %s)\n",
			gd_progname(), cpudb ? "ibgda-cpudb" : "ibgda", plan->why, plan->fix, plan->check);
		return 3;
	}
	if (plan->fell_back)
		fprintf(err, "%s: note: --initiator=ibgda fell back to ibgda-cpudb (a CPU thread "
			"rings the doorbell): the GPU cannot map the NIC's doorbell page\n",
			gd_progname());
	return 0;
}
