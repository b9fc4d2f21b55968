/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Where a test's item ran and its numbers, kept as fields (not only in the item's name)
 * for the Prometheus labels and the fleet view. */
#include <stdio.h>

#include "check_int.h"
#include "fabric.h"

void gd_ck_where_set(struct gd_ck_item *it, const struct gd_ck_run *run,
		     const struct gd_ck_measure *m)
{
	struct gd_ck_where *w = &it->where;
	size_t k = m->nsizes ? m->nsizes - 1 : 0; /* the judged (largest) size */
	bool ran = !m->exit_code && m->nsizes;
	const struct gd_fabric_traits *tr = gd_fabric_traits_of(run->fab.fabric);

	snprintf(w->test, sizeof(w->test), "%s", run->t->name);
	/* without a port (libfabric) the device is the domain the provider used (the
	 * engine's fact; "" when the run did not get that far) */
	snprintf(w->dev, sizeof(w->dev), "%s", tr->port ? run->dev : m->device);
	if (run->gpu < 0)
		snprintf(w->gpu, sizeof(w->gpu), "host");
	else
		snprintf(w->gpu, sizeof(w->gpu), "GPU%d", run->gpu);
	snprintf(w->initiator, sizeof(w->initiator), "%s", gd_initiator_name(run->t->initiator));
	snprintf(w->fabric, sizeof(w->fabric), "%s", gd_fabric_decided_name(run->fab.fabric));
	snprintf(w->provider, sizeof(w->provider), "%s", tr->providers ? run->fab.provider : "");
	/* how it ran: the engine's facts (memory registration, the GPU's path to the NIC as
	 * gd_loc_classify placed it); host memory's class is the run's NUMA placement */
	snprintf(w->registration, sizeof(w->registration), "%s", m->registration);
	snprintf(w->path, sizeof(w->path), "%s", !m->registration[0] ? "" : run->gpu < 0 ?
		 run->cls : m->gpu_path_class[0] ? m->gpu_path_class : "N/A");
	w->staging = m->registration[0] ? m->staging : -1;
	w->producer[0] = 0; /* the cpu initiator has none; gd_check runs no other */
	w->port = !tr->port ? 0 : run->port > 0 ? run->port : 1;
	w->size = m->nsizes ? m->size[k] : run->t->size;
	w->bw_gbps = ran && run->t->kind == GD_KIND_BW ? m->bw_avg_gbps[k] : -1;
	w->lat_us = ran && run->t->kind != GD_KIND_BW ? m->lat_avg_us[k] : -1;
}
