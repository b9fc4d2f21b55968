/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The topology pipeline (topo.h: gd_topo_discover). */
#include "topo.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "topo_advice.h"
#include "topo_nics.h"

/* NICs: the RDMA device reader on this machine or a fixture sysfs tree; the
 * XML's OpenFabrics devices when replaying a topology file alone. */
static int find_nics(struct gd_topo *t, const struct gd_topo_want *w, char *err, size_t errlen)
{
	int ret;

	if (gd_topo_nics_from_xml(w->m, w->xml)) {
		gd_debug("NICs from the OpenFabrics devices of %s", w->xml);
		return gd_topo_find_nics_hwloc(t);
	}
	gd_debug("NICs from %s/sys/class/infiniband", w->m->root);
	ret = gd_topo_find_nics_rdma(t);
	if (ret)
		snprintf(err, errlen, "cannot list the RDMA devices: %s", strerror(-ret));
	return ret;
}

static int run_step(struct gd_topo *t, const struct gd_topo_want *w, enum gd_topo_step s,
		    char *err, size_t errlen)
{
	struct gd_topo_src src = {w->xml, w->m};

	switch (s) {
	case GD_TOPO_LOAD: return gd_topo_load(t, &src, err, errlen);
	case GD_TOPO_LOCALITY: return gd_topo_open_locality(t, w->m, w->xml, err, errlen);
	case GD_TOPO_GPUS: return gd_topo_find_gpus(t);
	case GD_TOPO_NICS: return find_nics(t, w, err, errlen);
	case GD_TOPO_CLASSIFY: return gd_topo_classify(t, w->nv, w->pci_only);
	case GD_TOPO_LINKS:
		if (!w->xml || w->m->fixture)
			gd_topo_read_links(t);
		return 0;
	case GD_TOPO_ADVICE: return gd_topo_advise(t, w->adv);
	}
	return -EINVAL;
}

int gd_topo_discover(struct gd_topo *t, const struct gd_topo_want *w, enum gd_topo_step *failed,
		     char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory");
	for (unsigned s = GD_TOPO_LOAD; s <= GD_TOPO_ADVICE; s <<= 1) {
		int ret = w->steps & s ? run_step(t, w, (enum gd_topo_step)s, err, errlen) : 0;

		if (ret) {
			*failed = (enum gd_topo_step)s;
			return ret;
		}
	}
	return 0;
}
