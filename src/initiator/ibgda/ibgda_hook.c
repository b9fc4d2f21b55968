/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The IBGDA modes' preparation (the table entry's prepare, ibgda_bench.h):
 *   - --ibgda_nic=software-test-double (p->init.ibgda_nic): said so; the
 *     engine's run goes on over its loopback fabric (the table entry's
 *     loopback, gd_ibgda_loopback: no device, no peer) with gd_loop_ibgda on
 *     the test double (ibgda_loop.c);
 *   - otherwise a ConnectX: the device the test would use (the one device
 *     rule, gd_dev_choose), then the probe chain (ibgda_entry.c); a device
 *     that passes goes on to the engine's two-sided run with gd_loop_ibgda
 *     (ibgda_loop.c over the DEVX backend ibgda_nic_devx.c: built, NEVER
 *     RUN on this workplace, which has no ConnectX).
 */
#include "ibgda_bench.h"

#include <errno.h>
#include <string.h>

#include "bench.h"
#include "choose.h"
#include "gd.h"
#include "ibgda_entry.h"
#include "ibgda_nic.h"
#include "log.h"
#include "loop.h"

int gd_ibgda_hook(const struct gd_bench_params *p, FILE *out, struct gd_bench_result *res)
{
	const struct gd_init_opts *o = &p->init;
	struct gd_ibgda_plan plan;
	struct gd_hca hca;
	char name[sizeof(hca.name)];
	int ret;

	(void)res;
	if (o->ibgda_nic == GD_IBGDA_NIC_SWNIC) {
		gd_warn("--initiator=%s on the %s (--ibgda_nic=%s): no ConnectX, no peer; a CPU "
			"thread executes the GPU's WQEs on local buffers (a loopback). Figures "
			"measure the GPU side and the test double, not a NIC.",
			gd_initiator_name(o->initiator), GD_IBGDA_NIC_SWNIC_LABEL,
			gd_ibgda_nic_name(o->ibgda_nic));
		return -1; /* the engine's run over the loopback fabric */
	}
	memset(&hca, 0, sizeof(hca));
	ret = gd_dev_choose(&p->machine, p->dev, p->ib_port, &hca);
	if (ret && ret != -ENETDOWN)
		return -1; /* no such device or port: the engine's device rule says so */
	snprintf(name, sizeof(name), "%s", hca.name);
	gd_rdma_free_hca(&hca);
	ret = gd_ibgda_prepare(&p->machine, name, gd_init_cpu_doorbell(o),
			       o->ibgda_fallback, 0, p->json ? stderr : out, stderr, &plan);
	if (ret)
		return ret;
	return -1; /* the engine's two-sided run, with gd_loop_ibgda */
}

const struct gd_loopback_nic *gd_ibgda_loopback(const struct gd_bench_params *p)
{
	static const struct gd_loopback_nic swnic = {.device = "swnic (test double)",
						     .nic = GD_IBGDA_NIC_SWNIC_LABEL};

	return p->init.ibgda_nic == GD_IBGDA_NIC_SWNIC ? &swnic : NULL;
}
