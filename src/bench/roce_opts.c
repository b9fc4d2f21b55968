/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* RoCE bring-up options (roce_opts.h): -S, --tclass, -T, -e, --cpu_util, --rate_limit. */
#include "roce_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench_params.h"
#include "fabric.h"
#include "gd.h"
#include "log.h"

enum { R_SL = GD_ROCE_OPT_BASE, R_TCLASS, R_TOS, R_CPU_UTIL, R_RATE, R_UNITS, R_TYPE, R_BURST,
       R_EVENTS };

/* the --help lines are the parameter list's (bench_params.c) */
#define LISTED gd_opt_help_listed

const struct gd_opt gd_roce_opts[] = {
	{ "sl", 'S', GD_REQ_ARG, "SL", LISTED, R_SL },
	{ "tclass", 0, GD_REQ_ARG, "TC", LISTED, R_TCLASS },
	{ "tos", 'T', GD_REQ_ARG, "TOS", LISTED, R_TOS },
	{ "cpu_util", 0, GD_NO_ARG, NULL, LISTED, R_CPU_UTIL },
	{ NULL },
};

const struct gd_opt gd_rate_opts[] = {
	{ "rate_limit", 0, GD_REQ_ARG, "RATE", LISTED, R_RATE },
	{ "rate_units", 0, GD_REQ_ARG, "M|g|p", LISTED, R_UNITS },
	{ "rate_limit_type", 0, GD_REQ_ARG, "HW|SW", LISTED, R_TYPE },
	{ "burst_size", 0, GD_REQ_ARG, "N", LISTED, R_BURST },
	{ NULL },
};

const struct gd_opt gd_events_opts[] = {
	{ "events", 'e', GD_NO_ARG, NULL, LISTED, R_EVENTS },
	{ NULL },
};


int gd_roce_opts_handle(struct gd_bench_params *p, int id, const char *arg)
{
	struct gd_roce_opts *o = &p->roce;

	switch (id) {
	case R_SL:
		o->sl_given = true;
		return gd_param_set(p, GD_PARAM(roce.sl), arg);
	case R_TCLASS:
		o->tclass_given = true;
		return gd_param_set(p, GD_PARAM(roce.tclass), arg);
	case R_TOS:
		o->tos_given = true;
		return gd_param_set(p, GD_PARAM(roce.tos), arg);
	case R_CPU_UTIL: return gd_param_set(p, GD_PARAM(roce.cpu_util), arg);
	case R_EVENTS: return gd_param_set(p, GD_PARAM(roce.events), arg);
	case R_RATE: return gd_param_set(p, GD_PARAM(roce.rate_limit), arg);
	case R_UNITS:
		o->units_given = true;
		return gd_param_set(p, GD_PARAM(roce.rate_units), arg);
	case R_TYPE:
		o->type_given = true;
		return gd_param_set(p, GD_PARAM(roce.rate_type), arg);
	case R_BURST: return gd_param_set(p, GD_PARAM(roce.burst_size), arg);
	}
	return 1;
}

static int refuse(const char *opt, const char *why)
{
	gd_error("%s: %s", opt, why);
	return -EINVAL;
}

static int check_rate(struct gd_bench_params *p)
{
	struct gd_roce_opts *o = &p->roce;
	const struct gd_fabric_traits *tr = gd_fabric_traits_of(p->fab.fabric);

	if (!(o->rate_limit > 0)) {
		if (o->type_given || o->units_given || o->burst_size)
			return refuse(o->type_given ? "--rate_limit_type" : o->units_given ?
				      "--rate_units" : "--burst_size", "give --rate_limit too");
		o->rate_type = GD_RATE_NONE;
		return 0;
	}
	if (!o->type_given)
		o->rate_type = GD_RATE_HW; /* perftest's default type */
	if (o->rate_type == GD_RATE_PP)
		return refuse("--rate_limit_type PP", "mlx5 packet pacing with a typical packet "
			      "size is not supported by gdperf; use HW (the QP's rate limit) or SW");
	if (o->rate_type == GD_RATE_HW && o->rate_units == GD_RATE_PPS)
		return refuse("--rate_units p", "a HW rate limit is in bits per second (perftest: "
			      "pps not supported with HW); use --rate_units g or M, or SW");
	if (o->rate_type == GD_RATE_HW && !tr->qp_rate_limit)
		return refuse("--rate_limit_type HW", "the QP rate limit is a verbs attribute "
			      "(ibv_modify_qp_rate_limit); over libfabric give --rate_limit_type SW");
	if (o->rate_type == GD_RATE_HW && p->init.initiator != GD_INIT_CPU)
		return refuse("--rate_limit", "only the CPU initiator's QPs take a rate limit here");
	if (o->rate_type == GD_RATE_SW && p->init.initiator != GD_INIT_CPU)
		return refuse("--rate_limit_type SW", "the software pacer is the CPU initiator's "
			      "posting loop; --initiator other than cpu posts elsewhere");
	return 0;
}

int gd_roce_opts_check(struct gd_bench_params *p)
{
	struct gd_roce_opts *o = &p->roce;
	const struct gd_fabric_traits *tr = gd_fabric_traits_of(p->fab.fabric);
	bool cm = p->conn == GD_CONN_RDMA_CM;

	if (o->tos_given && !cm)
		return refuse("-T/--tos", "sets the type of service of rdma_cm's QPs (perftest: "
			      "only with -R); add -R, or give --tclass for the GRH of QPs the side "
			      "channel connects");
	if (o->tclass_given && cm)
		return refuse("--tclass", "with -R rdma_cm builds the address vector from the "
			      "route; give -T/--tos (the same byte: DSCP << 2 | ECN)");
	if (o->sl_given && cm)
		return refuse("-S/--sl", "with -R rdma_cm takes the service level from the route "
			      "(on RoCE from the TOS, -T)");
	if (!tr->service_level && o->sl_given)
		return refuse("-S/--sl with --fabric ofi", "libfabric has no service level; its "
			      "traffic class is --tclass (FI_TC_DSCP)");
	if (!tr->tclass_ecn && (o->tclass & 3))
		return refuse("--tclass with --fabric ofi", "libfabric sets the DSCP only "
			      "(FI_TC_DSCP, the top 6 bits); give a multiple of 4, the ECN bits "
			      "come from the network");
	if (o->events && !tr->cq_events)
		return refuse("-e/--events with --fabric ofi", "completion events are implemented "
			      "for verbs only (a completion channel); leave -e out over libfabric");
	if (o->events && p->init.initiator != GD_INIT_CPU)
		return refuse("-e/--events", "only the CPU initiator polls completions itself");
	if (o->cpu_util && !p->duration_s)
		return refuse("--cpu_util", "valid only in duration mode (as perftest): add -D SEC");
	return check_rate(p);
}
