/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The initiator table (initiator.h). */
#include "initiator.h"

#include "ibgda_bench.h"
#include "loop.h"
#include "proxy_bench.h"

static const struct gd_initiator_ops proxy = {
	.loop = &gd_loop_proxy,
	.verbs_first = true,
	.put_quiet_lat = true,
	.own_threads = true,
	.check = gd_proxy_bench_check,
};

/* ibgda and ibgda-cpudb differ only in who rings the doorbell, which the
 * IBGDA code reads from the option itself */
static const struct gd_initiator_ops ibgda = {
	.loop = &gd_loop_ibgda,
	.verbs_first = true,
	.check = gd_ibgda_bench_check,
	.ofi_conflict = gd_ibgda_ofi_conflict,
	.prepare = gd_ibgda_hook,
	.loopback = gd_ibgda_loopback,
};

const struct gd_initiator_ops *const gd_initiator_table[GD_INIT_COUNT] = {
	[GD_INIT_CPU] = &gd_initiator_cpu,
	[GD_INIT_PROXY] = &proxy,
	[GD_INIT_IBGDA] = &ibgda,
	[GD_INIT_IBGDA_CPUDB] = &ibgda,
};

void gd_initiator_tool_prologue(void)
{
	gd_init_use_table(gd_initiator_table);
}
