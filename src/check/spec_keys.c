/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The spec's keys, one table: the loader takes each section's keys from it (an unknown key is
 * refused with the list), and every numeric key has the limits of the component its value
 * feeds, read from that component's code: the engine's parameter list (gd_matched_params,
 * bench_params.c) for what becomes a gd_* option, the engine's own constants for what the
 * engine limits elsewhere, gd_check's for what gd_check itself uses. tests/unit/
 * test_check_spec.c walks this table: a key added here is checked at its limits.
 */
#include <stdio.h>
#include <string.h>

#include "robust.h"
#include "spec_keys.h"
#include "spec_types.h"

#define NO_PARAM ((size_t)-1)
#define KEY(sec, k, kd) { sec, k, kd, NULL, NO_PARAM, 0, 0 }
#define OWN(sec, k, kd, lo, hi, who) { sec, k, kd, who, NO_PARAM, lo, hi }
#define ENGINE(sec, k, kd, member) { sec, k, kd, NULL, GD_PARAM(member), 0, 0 }

static const struct gd_ck_key keys[] = {
	OWN("spec", "version", GD_CK_KEY_INT, 1, 1, "the spec format's version"),
	KEY("spec", "name", GD_CK_KEY_TEXT),
	KEY("spec", "include", GD_CK_KEY_TEXT),
	OWN("spec", "retries", GD_CK_KEY_INT, 0, GD_CK_RETRIES_MAX, "gd_check's attempts"),
	KEY("spec", "topology", GD_CK_KEY_SECTION),
	KEY("spec", "devices", GD_CK_KEY_SECTION),
	KEY("spec", "doctor", GD_CK_KEY_SECTION),
	KEY("spec", "tests", GD_CK_KEY_SECTION),
	KEY("spec", "fleet", GD_CK_KEY_SECTION),
	KEY("spec", "manifest", GD_CK_KEY_SECTION),
	KEY("spec", "baseline", GD_CK_KEY_SECTION),
	OWN("topology", "gpus", GD_CK_KEY_INT, 0, GD_CK_MAX_COUNT, "gd_check's counts"),
	OWN("topology", "nics", GD_CK_KEY_INT, 0, GD_CK_MAX_COUNT, "gd_check's counts"),
	OWN("topology", "numa_nodes", GD_CK_KEY_INT, 0, GD_CK_MAX_COUNT, "gd_check's counts"),
	KEY("topology", "worst_gpu_nic_class", GD_CK_KEY_TEXT),
	KEY("topology", "gpu_nic_same_numa", GD_CK_KEY_TEXT),
	KEY("device", "name", GD_CK_KEY_TEXT),
	ENGINE("device", "port", GD_CK_KEY_INT, ib_port),
	KEY("device", "state", GD_CK_KEY_TEXT),
	KEY("device", "min_rate", GD_CK_KEY_BW),
	ENGINE("device", "mtu", GD_CK_KEY_INT, mtu),
	KEY("device", "firmware", GD_CK_KEY_TEXT),
	KEY("device", "gid_type", GD_CK_KEY_TEXT),
	KEY("device", "bond_mode", GD_CK_KEY_TEXT),
	OWN("device", "bond_slaves_up", GD_CK_KEY_INT, 0, GD_CK_MAX_BOND_SLAVES,
	    "gd_check's bond sample"),
	KEY("doctor", "must_pass", GD_CK_KEY_TEXT),
	KEY("test", "name", GD_CK_KEY_TEXT),
	KEY("test", "op", GD_CK_KEY_TEXT),
	KEY("test", "type", GD_CK_KEY_TEXT),
	KEY("test", "check", GD_CK_KEY_TEXT),
	ENGINE("test", "size", GD_CK_KEY_SIZE, size),
	OWN("test", "sweep", GD_CK_KEY_SWEEP, 1, GD_BENCH_MAX_SIZE_ALL, "the engine's -a sweep"),
	OWN("test", "duration", GD_CK_KEY_SECONDS, 1, GD_CK_MAX_DURATION_S,
	    "gd_check's deadline of a run"),
	ENGINE("test", "iterations", GD_CK_KEY_INT, iters),
	ENGINE("test", "qps", GD_CK_KEY_INT, num_qps),
	KEY("test", "memory", GD_CK_KEY_TEXT),
	KEY("test", "initiator", GD_CK_KEY_TEXT),
	KEY("test", "device", GD_CK_KEY_TEXT),
	KEY("test", "pairs", GD_CK_KEY_TEXT),
	KEY("test", "thresholds", GD_CK_KEY_SECTION),
	OWN("test", "min_slave_share", GD_CK_KEY_PERCENT, 0, 100, "a share in percent"),
	KEY("test", "fabric", GD_CK_KEY_TEXT),
	KEY("test", "provider", GD_CK_KEY_TEXT),
	KEY("test", "domain", GD_CK_KEY_TEXT),
	KEY("test", "endpoint", GD_CK_KEY_TEXT),
	KEY("test", "rung", GD_CK_KEY_TEXT),
	OWN("test", "retries", GD_CK_KEY_INT, 0, GD_CK_RETRIES_MAX, "gd_check's attempts"),
	OWN("test", "repeat", GD_CK_KEY_INT, 1, GD_CK_REPEAT_MAX, "gd_check's repeated runs"),
	KEY("test", "expect", GD_CK_KEY_SECTION),
	ENGINE("test", "sl", GD_CK_KEY_INT, roce.sl),
	ENGINE("test", "tclass", GD_CK_KEY_INT, roce.tclass),
	KEY("test", "rate_limit", GD_CK_KEY_BW),
	KEY("test", "rate_limit_type", GD_CK_KEY_TEXT),
	KEY("test", "counters_port", GD_CK_KEY_TEXT),
	KEY("test", "tolerate", GD_CK_KEY_SECTION),
	OWN("test", "root", GD_CK_KEY_INT, 0, GD_CK_MAX_COUNT - 1, "a fan's root rank"),
	KEY("test", "min_congestion_factor", GD_CK_KEY_FACTOR),
	/* tolerate: {NAME: N}: any error counter's name (port_counters.h) as the key */
	OWN("tolerate", "counter", GD_CK_KEY_INT, 0, GD_CK_MAX_TOLERATED,
	    "gd_check's tolerated counter change"),
	KEY("thresholds", "min_bw", GD_CK_KEY_BW),
	KEY("thresholds", "min_peak_bw", GD_CK_KEY_BW),
	KEY("thresholds", "min_msg_rate", GD_CK_KEY_RATE),
	KEY("thresholds", "max_lat", GD_CK_KEY_LAT),
	KEY("thresholds", "max_lat_avg", GD_CK_KEY_LAT),
	KEY("thresholds", "max_lat_p50", GD_CK_KEY_LAT),
	KEY("thresholds", "max_lat_p99", GD_CK_KEY_LAT),
	KEY("thresholds", "max_lat_p999", GD_CK_KEY_LAT),
	KEY("thresholds", "max_lat_max", GD_CK_KEY_LAT),
	KEY("expect", "registration", GD_CK_KEY_TEXT),
	KEY("expect", "path", GD_CK_KEY_TEXT),
	KEY("expect", "staging", GD_CK_KEY_TEXT),
	KEY("expect", "initiator", GD_CK_KEY_TEXT),
	KEY("expect", "producer", GD_CK_KEY_TEXT),
	KEY("expect", "fabric", GD_CK_KEY_TEXT),
	KEY("expect", "provider", GD_CK_KEY_TEXT),
	KEY("fleet", "outlier", GD_CK_KEY_PERCENT),
	OWN("manifest", "gpus", GD_CK_KEY_INT, 0, GD_CK_MAX_COUNT, "gd_check's counts"),
	OWN("manifest", "nics", GD_CK_KEY_INT, 0, GD_CK_MAX_COUNT, "gd_check's counts"),
	KEY("manifest", "nic", GD_CK_KEY_SECTION),
	KEY("manifest", "gpu", GD_CK_KEY_SECTION),
	KEY("manifest nic", "name", GD_CK_KEY_TEXT),
	ENGINE("manifest nic", "port", GD_CK_KEY_INT, ib_port),
	KEY("manifest nic", "firmware", GD_CK_KEY_TEXT),
	KEY("manifest nic", "rate", GD_CK_KEY_BW),
	OWN("manifest nic", "numa", GD_CK_KEY_INT, 0, GD_CK_MAX_NUMA, "gd_check's NUMA nodes"),
	KEY("manifest nic", "state", GD_CK_KEY_TEXT),
	KEY("manifest nic", "busid", GD_CK_KEY_TEXT),
	KEY("manifest nic", "pcie", GD_CK_KEY_TEXT),
	OWN("manifest nic", "bond_slaves_up", GD_CK_KEY_INT, 0, GD_CK_MAX_BOND_SLAVES,
	    "gd_check's bond slaves"),
	KEY("manifest gpu", "busid", GD_CK_KEY_TEXT),
	KEY("manifest gpu", "pcie", GD_CK_KEY_TEXT),
	OWN("manifest gpu", "numa", GD_CK_KEY_INT, 0, GD_CK_MAX_NUMA, "gd_check's NUMA nodes"),
	OWN("baseline", "nodes", GD_CK_KEY_INT, GD_CK_BL_MIN_NODES, GD_CK_MAX_COUNT,
	    "a baseline's good nodes"),
	KEY("baseline", "k", GD_CK_KEY_TEXT),
	KEY("baseline", "min_spread", GD_CK_KEY_PERCENT),
	KEY("baseline", "sku", GD_CK_KEY_TEXT),
	KEY("baseline", "spec_sha256", GD_CK_KEY_TEXT),
	KEY("baseline", "kernel", GD_CK_KEY_TEXT),
	KEY("baseline", "nvidia_driver", GD_CK_KEY_TEXT),
	KEY("baseline", "cuda", GD_CK_KEY_TEXT),
	KEY("baseline", "rdma_core", GD_CK_KEY_TEXT),
	KEY("baseline", "libfabric", GD_CK_KEY_TEXT),
	KEY("baseline", "gdperf", GD_CK_KEY_TEXT),
	KEY("baseline", "checks", GD_CK_KEY_SECTION),
	KEY("baseline check", "check", GD_CK_KEY_TEXT),
	KEY("baseline check", "test", GD_CK_KEY_TEXT),
	KEY("baseline check", "run", GD_CK_KEY_TEXT),
	KEY("baseline check", "stat", GD_CK_KEY_TEXT),
	KEY("baseline check", "size", GD_CK_KEY_TEXT),
	KEY("baseline check", "unit", GD_CK_KEY_TEXT),
	KEY("baseline check", "median", GD_CK_KEY_TEXT),
	KEY("baseline check", "mad", GD_CK_KEY_TEXT),
	OWN("baseline check", "n", GD_CK_KEY_INT, GD_CK_BL_MIN_NODES, GD_CK_MAX_COUNT,
	    "a baseline's good nodes"),
};

const struct gd_ck_key *gd_ck_keys(size_t *n)
{
	*n = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

const struct gd_ck_key *gd_ck_key_find(const char *section, const char *key)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].section, section) && !strcmp(keys[i].key, key))
			return &keys[i];
	return NULL;
}

void gd_ck_key_list(const char *section, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && n < len; i++)
		if (!strcmp(keys[i].section, section))
			n += (size_t)snprintf(buf + n, len - n, " %s", keys[i].key);
}

/* A key's limits: the engine's parameter's (its option's floor when above its min), else its
 * owner's constants. */
void gd_ck_key_limits(const struct gd_ck_key *k, uint64_t *min, uint64_t *max, char *who,
		      size_t wlen)
{
	const struct gd_param *p = k->param == NO_PARAM ? NULL : gd_param_find(k->param);

	*min = k->min;
	*max = k->max;
	snprintf(who, wlen, "%s", k->owner ? k->owner : "gd_check's");
	if (!p)
		return;
	*min = p->umin > p->min ? p->umin : p->min;
	*max = p->max;
	snprintf(who, wlen, "the engine's %s", p->opt ? p->opt : p->what);
}

bool gd_ck_key_valid(const struct gd_ck_key *k, uint64_t v)
{
	const struct gd_param *p = k->param == NO_PARAM ? NULL : gd_param_find(k->param);
	uint64_t min, max;
	char who[64];

	gd_ck_key_limits(k, &min, &max, who, sizeof(who));
	return v >= min && v <= max && (!p || !p->valid || p->valid(v));
}
