/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* --initiator and the shape options, and the initiator table handed over (see init_opts.h). */
#include "init_opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "log.h"


/* The tools' default for --ibgda_nic, handed down by the tool prologue
 * (tools/bench_tool.h reads GD_IBGDA_NIC_ENV): no library code reads the
 * environment for it. */
#define IBGDA_NIC_ENV GD_IBGDA_NIC_ENV
static const char *nic_default, *nic_default_from;

void gd_init_opts_set_nic_default(const char *value, const char *from)
{
	nic_default = value;
	nic_default_from = from;
}


const char *const gd_initiator_names[] = { "cpu", "proxy", "ibgda", "ibgda-cpudb", NULL };
static const char *const scope_names[] = { "thread", "warp", "block", NULL };
static const char *const producer_names[] = { "auto", "gpu", "host", NULL };
static const char *const ibgda_nic_names[] = { "devx", "software-test-double", NULL };

/* the --help lines are the parameter list's (bench_params.c) */
#define LISTED gd_opt_help_listed

const struct gd_opt gd_initiator_opts[] = {
	{ "initiator", 0, GD_REQ_ARG, "WHO", LISTED, GD_INIT_O_INITIATOR },
	{ "ctas", 0, GD_REQ_ARG, "N", LISTED, GD_INIT_O_CTAS },
	{ "threads", 0, GD_REQ_ARG, "N", LISTED, GD_INIT_O_THREADS },
	{ "scope", 0, GD_REQ_ARG, "SCOPE", LISTED, GD_INIT_O_SCOPE },
	{ "proxy_threads", 0, GD_REQ_ARG, "N", LISTED, GD_INIT_O_PROXY_THREADS },
	{ "ring_slots", 0, GD_REQ_ARG, "N", LISTED, GD_INIT_O_RING_SLOTS },
	{ "producer", 0, GD_REQ_ARG, "WHO", LISTED, GD_INIT_O_PRODUCER },
	{ "ibgda_fallback", 0, GD_NO_ARG, NULL, LISTED, GD_INIT_O_IBGDA_FALLBACK },
	{ "dump_wqes", 0, GD_REQ_ARG, "N", LISTED, GD_INIT_O_DUMP_WQES },
	{ "ibgda_nic", 0, GD_REQ_ARG, "NIC", LISTED, GD_INIT_O_IBGDA_NIC },
	{ NULL },
};

const struct gd_opt_words gd_initiator_opt_words[] = {
	{ "initiator", gd_initiator_names },
	{ "scope", scope_names },
	{ "producer", producer_names },
	{ "ibgda_nic", ibgda_nic_names },
	{ NULL, NULL },
};

static const struct gd_initiator_ops *const *init_table; /* gd_init_use_table */

void gd_init_use_table(const struct gd_initiator_ops *const *table)
{
	init_table = table;
}

const struct gd_initiator_ops *gd_init_ops(const struct gd_init_opts *o)
{
	return init_table && (unsigned)o->initiator < GD_INIT_COUNT ? init_table[o->initiator] : NULL;
}


void gd_init_opts_defaults(struct gd_init_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->initiator = GD_INIT_CPU;
	o->scope = GD_SCOPE_WARP;
	o->ctas = GD_INIT_DEF_CTAS;
	o->threads = GD_INIT_DEF_THREADS;
	o->proxy_threads = GD_INIT_DEF_PROXY_THREADS;
	o->ring_slots = GD_INIT_DEF_RING_SLOTS;
}

const char *gd_initiator_name(enum gd_initiator i)
{
	return (unsigned)i < GD_INIT_COUNT ? gd_initiator_names[i] : "?";
}

const char *gd_scope_name(enum gd_scope s)
{
	return (unsigned)s < GD_SCOPE_COUNT ? scope_names[s] : "?";
}

const char *gd_producer_name(enum gd_producer p)
{
	return (unsigned)p < GD_PRODUCER_COUNT ? producer_names[p] : "?";
}

const char *gd_ibgda_nic_name(enum gd_ibgda_nic_kind k)
{
	return (unsigned)k < GD_IBGDA_NIC_COUNT ? ibgda_nic_names[k] : "?";
}

bool gd_init_cpu_doorbell(const struct gd_init_opts *o)
{
	return o->initiator == GD_INIT_IBGDA_CPUDB;
}

void gd_init_set_cpu_doorbell(struct gd_init_opts *o)
{
	o->initiator = GD_INIT_IBGDA_CPUDB;
}

static bool is_ibgda(const struct gd_init_opts *o)
{
	return o->initiator == GD_INIT_IBGDA || o->initiator == GD_INIT_IBGDA_CPUDB;
}

int gd_init_opts_env_default(struct gd_init_opts *o)
{
	const char *v = nic_default;

	if ((o->given & GD_INIT_GIVEN_IBGDA_NIC) || !is_ibgda(o) || !v || !*v)
		return 0;
	for (int k = 0; k < GD_IBGDA_NIC_COUNT; k++)
		if (!strcmp(v, ibgda_nic_names[k])) {
			o->ibgda_nic = (enum gd_ibgda_nic_kind)k;
			return 0;
		}
	gd_error("%s=%s: unknown IBGDA NIC; use devx (a ConnectX, the default) or %s (the "
		 "software NIC test double, for machines without a ConnectX), or give --ibgda_nic",
		 nic_default_from ? nic_default_from : IBGDA_NIC_ENV, gd_excerpt(v),
		 ibgda_nic_names[GD_IBGDA_NIC_SWNIC]);
	return -EINVAL;
}

int gd_init_opts_check(const struct gd_init_opts *o)
{
	if (o->initiator == GD_INIT_CPU && (o->given & ~GD_INIT_GIVEN_IBGDA_NIC)) {
		gd_error("--ctas, --threads, --scope, --proxy_threads, --ring_slots and --producer "
			 "shape the proxy and IBGDA initiators; add --initiator=proxy (or ibgda)");
		return -EINVAL;
	}
	if ((o->given & GD_INIT_GIVEN_PRODUCER) && o->initiator != GD_INIT_PROXY) {
		gd_error("--producer belongs to --initiator=proxy (IBGDA's producers are always GPU "
			 "threads)");
		return -EINVAL;
	}
	if ((o->ibgda_fallback || o->dump_wqes || (o->given & GD_INIT_GIVEN_IBGDA_NIC)) &&
	    !is_ibgda(o)) {
		gd_error("--ibgda_fallback, --dump_wqes and --ibgda_nic belong to --initiator=ibgda "
			 "(or ibgda-cpudb)");
		return -EINVAL;
	}
	if (o->initiator != GD_INIT_CPU && !gd_init_ops(o)) {
		gd_error("--initiator=%s: this program was given no initiator table (only the CPU "
			 "initiates here); use a gdperf tool (gd_write_bw...)",
			 gd_initiator_name(o->initiator));
		return -EINVAL;
	}
	if (o->scope == GD_SCOPE_WARP && o->threads % 32) {
		gd_error("--scope warp needs --threads to be a multiple of 32 (got %u); use "
			 "--scope thread or --threads %u", o->threads, (o->threads + 31) / 32 * 32);
		return -EINVAL;
	}
	if (o->initiator == GD_INIT_PROXY && gd_init_group_size(o) > o->ring_slots) {
		gd_error("--ring_slots %u is smaller than one %s reservation (%u descriptors); raise "
			 "--ring_slots", o->ring_slots, gd_scope_name(o->scope), gd_init_group_size(o));
		return -EINVAL;
	}
	return 0;
}

uint32_t gd_init_group_size(const struct gd_init_opts *o)
{
	switch (o->scope) {
	case GD_SCOPE_THREAD: return 1;
	case GD_SCOPE_WARP: return 32;
	default: return o->threads;
	}
}

uint32_t gd_init_groups(const struct gd_init_opts *o)
{
	return o->ctas * (o->threads / gd_init_group_size(o));
}

void gd_init_opts_to_json(const struct gd_init_opts *o, const char *producer, uint32_t qps,
			  struct json_object *obj)
{
	gd_json_add_str(obj, "initiator", gd_initiator_name(o->initiator));
	if (o->initiator == GD_INIT_CPU)
		return;
	gd_json_add_str(obj, "producer", producer);
	gd_json_add_str(obj, "scope", gd_scope_name(o->scope));
	gd_json_add_int(obj, "ctas", o->ctas);
	gd_json_add_int(obj, "threads", o->threads);
	if (o->initiator == GD_INIT_PROXY) {
		gd_json_add_int(obj, "proxy_threads", o->proxy_threads);
		gd_json_add_int(obj, "ring_slots", o->ring_slots);
	}
	if (is_ibgda(o))
		gd_json_add_str(obj, "ibgda_nic", gd_ibgda_nic_name(o->ibgda_nic));
	gd_json_add_int(obj, "qps", qps);
}

bool gd_init_opts_header(const struct gd_init_opts *o, const char *producer, uint32_t qps,
			 char *buf, size_t len)
{
	if (o->initiator == GD_INIT_CPU) {
		snprintf(buf, len, "cpu");
		return false;
	}
	if (o->initiator == GD_INIT_PROXY && !strcmp(producer, GD_HOST_PRODUCER_LABEL))
		/* host producers are threads, one per CTA, each running its CTA's
		 * --threads as request groups (hostprod.h), not CUDA threads */
		snprintf(buf, len, "proxy, producer %s, scope %s, %u host producer thread%s "
			 "(--ctas), %u request group%s, %u proxy threads, %u ring slots, %u QPs",
			 producer, gd_scope_name(o->scope), o->ctas, o->ctas == 1 ? "" : "s",
			 gd_init_groups(o), gd_init_groups(o) == 1 ? "" : "s", o->proxy_threads,
			 o->ring_slots, qps);
	else if (o->initiator == GD_INIT_PROXY)
		snprintf(buf, len, "proxy, producer %s, scope %s, %u CTA%s x %u threads, %u proxy "
			 "threads, %u ring slots, %u QPs", producer, gd_scope_name(o->scope), o->ctas,
			 o->ctas == 1 ? "" : "s", o->threads, o->proxy_threads, o->ring_slots, qps);
	else
		snprintf(buf, len, "%s, producer %s, scope %s, %u CTA%s x %u threads, %u QPs, NIC %s",
			 gd_initiator_name(o->initiator), producer, gd_scope_name(o->scope), o->ctas,
			 o->ctas == 1 ? "" : "s", o->threads, qps, gd_ibgda_nic_name(o->ibgda_nic));
	return true;
}
