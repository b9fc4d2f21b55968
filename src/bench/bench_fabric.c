/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Which fabric's setup a run takes (bench_fabric.h). */
#include "config.h"

#include "bench_fabric.h"

#include "bench_params.h"
#include "loop.h"

const struct gd_bench_fabric *gd_bench_fabric(enum gd_fabric_kind kind)
{
	const struct gd_fabric_ops *ops = gd_fabric_table(kind);

#ifdef HAVE_LIBFABRIC
	if (ops == gd_bench_fabric_ofi.ops)
		return &gd_bench_fabric_ofi;
#endif
	(void)ops;
	return &gd_bench_fabric_verbs;
}

const struct gd_bench_fabric *gd_bench_fabric_for(struct gd_bench_params *p,
						  const struct gd_initiator_ops *ini)
{
	if (ini && ini->loopback && ini->loopback(p)) {
		p->role = GD_ROLE_CLIENT; /* no peer: this side initiates */
		return &gd_bench_fabric_loopback;
	}
	return gd_bench_fabric(p->fab.fabric);
}
