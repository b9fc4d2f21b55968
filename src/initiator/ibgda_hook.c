/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The IBGDA modes' entry (initiator.h), owned by the IBGDA feature: the
 * device the test would use (the one device rule, gd_dev_choose), then the
 * probe chain (ibgda_entry.c). A device that passes the chain still gets
 * exit 3 for now: the benchmark tools' IBGDA data path (DEVX QPs per channel,
 * the address exchange, the kernels on registered buffers) is not wired in
 * yet; tests/gpu/gd_ibgda_gpu runs the protocol against the software NIC.
 */
#include "initiator.h"

#include <errno.h>
#include <string.h>

#include "choose.h"
#include "ibgda_entry.h"
#include "log.h"

int gd_ibgda_hook(const struct gd_init_opts *o, const struct gd_machine *m, const char *dev,
		  int port, FILE *out)
{
	struct gd_ibgda_plan plan;
	struct gd_hca hca;
	char name[sizeof(hca.name)];
	int ret;

	memset(&hca, 0, sizeof(hca));
	ret = gd_dev_choose(m, dev, port, &hca);
	if (ret && ret != -ENETDOWN)
		return 0; /* no such device or port: the engine's device rule says so */
	snprintf(name, sizeof(name), "%s", hca.name);
	gd_rdma_free_hca(&hca);
	ret = gd_ibgda_prepare(m, name, o->initiator == GD_INIT_IBGDA_CPUDB, o->ibgda_fallback, 0,
			       out, stderr, &plan);
	if (ret)
		return ret;
	gd_error("--initiator=%s on %s: the probe passes, but the benchmark tools' IBGDA data path "
		 "is not built yet (it awaits a real ConnectX to be verified); use "
		 "--initiator=proxy",
		 gd_initiator_name(o->initiator), name);
	return 3;
}
