/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Loading a gd_check spec with libyaml's document API: the parser builds the
 * node tree with marks (line, column) and this file walks it, checking every
 * key and value. The first problem ends the load with its position.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "robust.h"
#include "spec.h"

#include "locality.h"
#include "readfile.h"

#include "spec_int.h"
#include "log.h"

/* struct ld is spec_int.h's struct gd_ck_ld, shared with spec_fleet.c */
#define ld gd_ck_ld
typedef gd_ck_key_fn key_fn;

/* The walkers (spec_walk.c), by their short names here */
#define fail(...) gd_ck_ld_fail(__VA_ARGS__)
#define fail_at(...) gd_ck_ld_fail_at(__VA_ARGS__)
#define node(...) gd_ck_ld_node(__VA_ARGS__)
#define kind_name(...) gd_ck_ld_kind_name(__VA_ARGS__)
#define scalar(...) gd_ck_ld_scalar(__VA_ARGS__)
#define str_to(...) gd_ck_ld_str(__VA_ARGS__)
#define each_key(...) gd_ck_ld_each_key(__VA_ARGS__)
#define find_key(...) gd_ck_ld_find(__VA_ARGS__)
/* an input value in a message: at most 64 bytes of it, escaped (log.h) */
#define Q(s) gd_excerpt(s)


/* At a node's start (NULL: the file's start): gd_ck_ld_fail, below. */
#define fail(...) gd_ck_ld_fail(__VA_ARGS__)






static int bool_to(struct ld *l, yaml_node_t *n, const char *what, bool *out)
{
	const char *v;
	int ret = scalar(l, n, what, &v);

	if (ret)
		return ret;
	if (!strcmp(v, "true") || !strcmp(v, "yes"))
		*out = true;
	else if (!strcmp(v, "false") || !strcmp(v, "no"))
		*out = false;
	else
		return fail(l, n, "%s must be true or false, not '%s'", what, Q(v));
	return 0;
}

/* One of choices (NULL-terminated); the index in *out. */
static int choice_to(struct ld *l, yaml_node_t *n, const char *what, const char *const *choices,
		     int *out)
{
	char list[256] = "";
	const char *v;
	int ret = scalar(l, n, what, &v);

	if (ret)
		return ret;
	for (int i = 0; choices[i]; i++) {
		if (!strcmp(v, choices[i])) {
			*out = i;
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 choices[i]);
	}
	return fail(l, n, "%s '%s' is not known: use one of %s", what, Q(v), list);
}

/* One of choices, copied into buf. */
static int choice_str(struct ld *l, yaml_node_t *n, const char *what, const char *const *choices,
		      char *buf, size_t len)
{
	int i, ret = choice_to(l, n, what, choices, &i);

	if (!ret)
		snprintf(buf, len, "%s", choices[i]);
	return ret;
}


/* ---- topology ---- */

/* The order of enum gd_loc_class (locality.h); NV is not a GPU-to-NIC class. */
static const char *const link_names[] = { "X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS", NULL };

static int topo_key(struct ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	struct gd_ck_topology *t = ctx;
	long n;
	int ret;

	if (!strcmp(key, "worst_gpu_nic_class"))
		return choice_to(l, v, "worst_gpu_nic_class", link_names, &t->worst_class);
	if (!strcmp(key, "gpu_nic_same_numa"))
		return bool_to(l, v, key, &t->same_numa);
	ret = gd_ck_ld_key_int(l, v, "topology", key, &n);
	if (ret)
		return ret;
	if (!strcmp(key, "gpus"))
		t->gpus = (int)n;
	else if (!strcmp(key, "nics"))
		t->nics = (int)n;
	else
		t->numa_nodes = (int)n;
	return 0;
}

static int load_topology(struct ld *l, yaml_node_t *n)
{
	l->s->topo.given = true;
	return each_key(l, n, "topology", "topology", topo_key, &l->s->topo);
}

/* ---- devices ---- */

static int dev_key(struct ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	static const char *const gid_types[] = { "IB", "RoCE v1", "RoCE v2", NULL };
	struct gd_ck_device *d = ctx;
	char why[256];
	const char *s;
	long n;
	int ret;

	if (!strcmp(key, "name"))
		return str_to(l, v, "name", d->name, sizeof(d->name));
	if (!strcmp(key, "state"))
		return str_to(l, v, "state", d->state, sizeof(d->state));
	if (!strcmp(key, "firmware"))
		return str_to(l, v, "firmware", d->firmware, sizeof(d->firmware));
	if (!strcmp(key, "bond_mode"))
		return str_to(l, v, "bond_mode", d->bond_mode, sizeof(d->bond_mode));
	if (!strcmp(key, "gid_type"))
		return choice_str(l, v, "gid_type", gid_types, d->gid_type, sizeof(d->gid_type));
	if (!strcmp(key, "min_rate")) {
		ret = scalar(l, v, key, &s);
		if (!ret && gd_ck_parse_rate(s, &d->min_rate_gbps, why, sizeof(why)))
			ret = fail(l, v, "min_rate: %s", why);
		return ret;
	}
	if (!strcmp(key, "mtu")) {
		ret = gd_ck_ld_key_int(l, v, "device", key, &n);
		if (ret && strstr(l->err, "the limit of"))
			ret = fail(l, v, "mtu must be an IB MTU: 256, 512, 1024, 2048 or 4096");
		d->mtu = (int)n;
		return ret;
	}
	ret = gd_ck_ld_key_int(l, v, "device", key, &n);
	if (!strcmp(key, "port"))
		d->port = (int)n;
	else
		d->bond_slaves_up = (int)n;
	return ret;
}

static int load_devices(struct ld *l, yaml_node_t *n)
{
	struct gd_ck_spec *s = l->s;
	size_t cnt;

	if (n->type != YAML_SEQUENCE_NODE)
		return fail(l, n, "devices must be a list of device entries ('- name: mlx5_0'), "
			    "not %s", kind_name(n));
	cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	s->devices = calloc(cnt ? cnt : 1, sizeof(*s->devices));
	if (!s->devices)
		return -ENOMEM;
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++) {
		struct gd_ck_device *d = &s->devices[s->ndevices++];
		yaml_node_t *e = node(l, *it);
		int ret;

		d->port = 1;
		d->bond_slaves_up = -1;
		d->line = (int)e->start_mark.line + 1;
		d->column = (int)e->start_mark.column + 1;
		ret = each_key(l, e, "a device entry", "device", dev_key, d);
		if (ret)
			return ret;
		if (!d->name[0])
			return fail(l, e, "a device entry needs a name (a device, or \"*\" for all)");
	}
	return 0;
}

/* ---- doctor ---- */

static int doctor_key(struct ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	struct gd_ck_spec *s = l->s;
	size_t cnt;

	if (v->type != YAML_SEQUENCE_NODE)
		return fail(l, v, "must_pass must be a list of gd_doctor check ids "
			    "('gd_doctor --list' names them), not %s", kind_name(v));
	cnt = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	s->doctor = calloc(cnt ? cnt : 1, sizeof(*s->doctor));
	s->doctor_at = calloc(cnt ? cnt : 1, sizeof(*s->doctor_at));
	if (!s->doctor || !s->doctor_at)
		return -ENOMEM;
	for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
	     it++) {
		int ret = str_to(l, node(l, *it), "a doctor check id", s->doctor[s->ndoctor],
				 GD_CK_NAME);
		if (ret)
			return ret;
		s->doctor_at[s->ndoctor][0] = (int)node(l, *it)->start_mark.line + 1;
		s->doctor_at[s->ndoctor][1] = (int)node(l, *it)->start_mark.column + 1;
		s->ndoctor++;
	}
	return 0;
}

static int load_doctor(struct ld *l, yaml_node_t *n)
{
	return each_key(l, n, "doctor", "doctor", doctor_key, NULL);
}

/* ---- tests ---- */

static const char *const op_names[] = { "write", "read", "atomic", "send", NULL };
static const char *const kind_names[] = { "bw", "lat", NULL };
static const char *const pairs_names[] = { "each-nic-loopback", "each-gpu-nearest-nic",
					   "nic-gpu-matrix", "pairwise", "ring", "all-pairs",
					   "one-to-many", "many-to-one", NULL };

static int sweep_to(struct ld *l, yaml_node_t *v, struct gd_ck_test *t)
{
	yaml_node_item_t *it = v->data.sequence.items.start;
	uint64_t b[2];
	char why[256];

	if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top - it != 2)
		return fail(l, v, "sweep must be a list of two sizes [FIRST, LAST], e.g. [2, 8M]");
	for (int i = 0; i < 2; i++) {
		const char *s;
		int ret = scalar(l, node(l, it[i]), "a sweep size", &s);

		if (ret)
			return ret;
		if (gd_ck_parse_size(s, &b[i], why, sizeof(why)))
			return fail(l, node(l, it[i]), "sweep: %s", why);
		if (gd_ck_ld_in_range(l, node(l, it[i]), "test", "sweep", b[i], s, " bytes"))
			return -EINVAL;
	}
	if (b[0] > b[1])
		return fail(l, v, "sweep [FIRST, LAST] needs FIRST <= LAST");
	t->sweep_min = b[0];
	t->sweep_max = b[1];
	return 0;
}

static int thresh_key(struct ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	struct gd_ck_test *t = ctx;
	char why[320];
	const char *s;
	int m, ret = scalar(l, v, key, &s);

	if (ret)
		return ret;
	for (m = 0; m < GD_CK_NMETRIC; m++)
		if (!strcmp(key, gd_ck_metric_name(m)))
			break;
	if (t->nth == GD_CK_MAX_THRESH)
		return fail(l, v, "at most %d thresholds per test", GD_CK_MAX_THRESH);
	if (gd_ck_parse_threshold(m, s, &t->th[t->nth], why, sizeof(why)))
		return fail(l, v, "%s: %s", key, why);
	if (t->kind == GD_KIND_LAT && gd_ck_metric_is_min(m))
		return fail(l, v, "%s needs a bandwidth test (type: bw); a latency test has "
			    "max_lat (the median), max_lat_avg, max_lat_p50, max_lat_p99, "
			    "max_lat_p999 and max_lat_max", key);
	if (t->kind == GD_KIND_BW && !gd_ck_metric_is_min(m))
		return fail(l, v, "%s needs a latency test (type: lat)", key);
	t->nth++;
	return 0;
}

static int hosts_to(struct ld *l, yaml_node_t *v, struct gd_ck_test *t)
{
	yaml_node_item_t *it = v->data.sequence.items.start;

	if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top - it != 2)
		return fail(l, v, "hosts must be a list of two hosts [server, client]");
	for (int i = 0; i < 2; i++) {
		int ret = str_to(l, node(l, it[i]), "a host", t->hosts[i], sizeof(t->hosts[i]));

		if (ret)
			return ret;
	}
	t->nhosts = 2;
	t->pairs = GD_CK_HOSTS;
	return 0;
}

static int pairs_to(struct ld *l, yaml_node_t *v, struct gd_ck_test *t)
{
	int i, ret;

	if (v->type == YAML_MAPPING_NODE && v->data.mapping.pairs.top - v->data.mapping.pairs.start
	    == 1) {
		yaml_node_t *k = node(l, v->data.mapping.pairs.start->key);

		if (k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, "hosts"))
			return hosts_to(l, node(l, v->data.mapping.pairs.start->value), t);
	}
	if (v->type == YAML_SCALAR_NODE && !strcmp((char *)v->data.scalar.value, "all-nics")) {
		t->pairs = GD_CK_ALL_NICS; /* spec_fleet.c has its rules */
		return 0;
	}
	if (v->type != YAML_SCALAR_NODE)
		return fail(l, v, "pairs must be each-nic-loopback, each-gpu-nearest-nic, "
			    "nic-gpu-matrix, all-nics, pairwise, ring, all-pairs, one-to-many, "
			    "many-to-one or {hosts: [A, B]}");
	ret = choice_to(l, v, "pairs", pairs_names, &i);
	if (ret)
		return ret;
	t->pairs = i <= GD_CK_NIC_GPU_MATRIX ? (enum gd_ck_pairs)i : GD_CK_HOSTS;
	if (i > GD_CK_NIC_GPU_MATRIX)
		t->pattern = (enum gd_ck_pattern)(i - GD_CK_HOSTS);
	return 0;
}

/* expect: how the test must have run; the values are those the tools' JSON reports. */
static int expect_key(struct ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	static const char *const regs[] = { "dma-buf", "peer-memory", "host", NULL };
	static const char *const prods[] = { "gpu", "host", NULL };
	struct gd_ck_expect *e = ctx;
	struct gd_fabric_opts f = { 0 };
	char why[256];
	const char *s;
	bool b = false;
	int ret;

	if (!strcmp(key, "registration"))
		return choice_str(l, v, "expect registration", regs, e->registration,
				  sizeof(e->registration));
	if (!strcmp(key, "path")) { /* a GPU-to-NIC class: PIX and farther */
		ret = choice_to(l, v, "expect path", link_names + GD_LOC_PIX, &e->path);
		e->path += GD_LOC_PIX;
		return ret;
	}
	if (!strcmp(key, "staging")) {
		ret = bool_to(l, v, "expect staging", &b);
		if (!ret) /* b is not set on an error (the fuzzer's UBSan: a bool of 225) */
			e->staging = b;
		return ret;
	}
	if (!strcmp(key, "initiator"))
		return choice_str(l, v, "expect initiator", gd_initiator_names, e->initiator,
				  sizeof(e->initiator));
	if (!strcmp(key, "producer"))
		return choice_str(l, v, "expect producer", prods, e->producer, sizeof(e->producer));
	if (!strcmp(key, "fabric"))
		return choice_str(l, v, "expect fabric", gd_fabric_names, e->fabric, sizeof(e->fabric));
	ret = scalar(l, v, key, &s);
	if (!ret && gd_ck_parse_fabric_key("provider", s, &f, why, sizeof(why)))
		return fail(l, v, "expect %s", why);
	snprintf(e->provider, sizeof(e->provider), "%s", f.provider);
	return ret;
}

static int expect_to(struct ld *l, yaml_node_t *v, struct gd_ck_test *t)
{
	t->expect.given = true;
	return each_key(l, v, "expect", "expect", expect_key, &t->expect);
}

/* sl, tclass, rate_limit (Gb/s), rate_limit_type: 1 when key is none of them. */
static int roce_key(struct ld *l, const char *key, yaml_node_t *v, struct gd_ck_test *t)
{
	static const char *const types[] = { "HW", "SW", NULL };
	const char *s;
	char why[160], buf[96];
	long n;
	int i, ret;

	if (!strcmp(key, "sl") || !strcmp(key, "tclass")) {
		ret = gd_ck_ld_key_int(l, v, "test", key, &n);
		*(!strcmp(key, "sl") ? &t->roce.sl : &t->roce.tclass) = (uint32_t)n;
		*(!strcmp(key, "sl") ? &t->roce.sl_given : &t->roce.tclass_given) = true;
		return ret;
	}
	if (!strcmp(key, "rate_limit_type")) {
		ret = choice_to(l, v, key, types, &i);
		t->roce.rate_type = (enum gd_rate_type)(i + GD_RATE_HW);
		t->roce.type_given = true;
		return ret;
	}
	if (strcmp(key, "rate_limit"))
		return 1;
	ret = scalar(l, v, key, &s);
	if (ret)
		return ret;
	snprintf(buf, sizeof(buf), "%s%s", s, s[strspn(s, "0123456789.eE+-")] ? "" : " Gb/s");
	if (gd_ck_parse_rate(buf, &t->roce.rate_limit, why, sizeof(why)) || /* a bare number: Gb/s */
	    !(t->roce.rate_limit > 0) || t->roce.rate_limit > 1e6)
		return fail(l, v, "rate_limit must be a rate above 0 and at most 1000000 Gb/s, "
			    "e.g. '25' or '25 Gb/s'");
	return 0;
}

static int test_scalar_key(struct ld *l, const char *key, yaml_node_t *v, struct gd_ck_test *t)
{
	static const char *const mem[] = { "host", "gpu", NULL };
	char why[256];
	const char *s;
	long n;
	int i, ret;

	if (!strcmp(key, "memory")) {
		ret = choice_to(l, v, key, mem, &i);
		t->memory = (enum gd_ck_memory)i;
		return ret;
	}
	if (!strcmp(key, "initiator")) {
		ret = choice_to(l, v, key, gd_initiator_names, &i);
		if (!ret)
			t->initiator = (enum gd_initiator)i;
		return ret;
	}
	if (!strcmp(key, "retries") || !strcmp(key, "repeat")) {
		ret = gd_ck_ld_key_int(l, v, "test", key, &n);
		*(!strcmp(key, "repeat") ? &t->repeat : &t->retries) = (int)n;
		return ret;
	}
	if (!strcmp(key, "qps")) {
		ret = gd_ck_ld_key_int(l, v, "test", key, &n);
		t->qps = (uint32_t)n;
		return ret;
	}
	if (!strcmp(key, "iterations")) {
		ret = gd_ck_ld_key_int(l, v, "test", key, &n);
		t->iters = (uint64_t)n;
		return ret;
	}
	if ((ret = roce_key(l, key, v, t)) <= 0)
		return ret;
	ret = scalar(l, v, key, &s);
	if (ret)
		return ret;
	ret = gd_ck_parse_fabric_key(key, s, &t->fab, why, sizeof(why));
	if (ret <= 0)
		return ret ? fail(l, v, "%s", why) : 0;
	if (!strcmp(key, "size"))
		return gd_ck_parse_size(s, &t->size, why, sizeof(why)) ?
		       fail(l, v, "size: %s", why) :
		       gd_ck_ld_in_range(l, v, "test", key, t->size, s, " bytes");
	if (!strcmp(key, "duration"))
		return gd_ck_parse_seconds(s, &t->duration_s, why, sizeof(why)) ?
		       fail(l, v, "duration: %s", why) :
		       gd_ck_ld_in_range(l, v, "test", key, t->duration_s, s, " s");
	if (!strcmp(key, "rung") && gd_ck_parse_rung(s, &t->rung, why, sizeof(why)))
		return fail(l, v, "%s", why);
	if (!strcmp(key, "min_slave_share")) {
		double pct;

		if (gd_ck_parse_percent(s, &pct) || !(pct >= 0 && pct <= 100))
			return fail(l, v, "min_slave_share must be a percentage "
				    "from 0 to 100, e.g. '10%%'");
		t->min_slave_share = pct;
	}
	return 0;
}

/* A key of a group loaded by a file of its own (spec_groups.c): 0, -EINVAL, 1 none's. */
static int group_key(struct ld *l, const char *key, yaml_node_t *v, struct gd_ck_test *t)
{
	size_t n;
	const struct gd_ck_test_key_group *g = gd_ck_test_key_groups(&n);
	int ret = 1;

	for (size_t i = 0; i < n && ret > 0; i++)
		if (g[i].load)
			ret = g[i].load(l, key, v, t);
	return ret;
}

static int group_rules(struct ld *l, yaml_node_t *n, const struct gd_ck_test *t)
{
	size_t ng;
	const struct gd_ck_test_key_group *g = gd_ck_test_key_groups(&ng);
	int ret = 0;

	for (size_t i = 0; i < ng && !ret; i++)
		ret = g[i].rules(l, n, t);
	return ret;
}

static int test_key(struct ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	static const char *const checks[] = { "bandwidth", "bond-balance", NULL };
	struct gd_ck_test *t = ctx;
	int i, ret;

	if (!strcmp(key, "name"))
		return str_to(l, v, key, t->name, sizeof(t->name));
	if (!strcmp(key, "device"))
		return str_to(l, v, key, t->device, sizeof(t->device));
	if (!strcmp(key, "op")) {
		ret = choice_to(l, v, key, op_names, &i);
		t->op = (enum gd_bench_op)i;
		return ret;
	}
	if (!strcmp(key, "type")) {
		ret = choice_to(l, v, key, kind_names, &i);
		t->kind = (enum gd_bench_kind)i;
		return ret;
	}
	if (!strcmp(key, "check")) {
		ret = choice_to(l, v, key, checks, &i);
		t->bond_balance = i == 1;
		return ret;
	}
	if (!strcmp(key, "sweep"))
		return sweep_to(l, v, t);
	if (!strcmp(key, "pairs"))
		return pairs_to(l, v, t);
	if (!strcmp(key, "expect"))
		return expect_to(l, v, t);
	if (!strcmp(key, "thresholds"))
		return 0; /* after type is known: see gd_ck_load_test */
	if ((ret = group_key(l, key, v, t)) <= 0)
		return ret;
	return test_scalar_key(l, key, v, t);
}


const char *gd_ck_ofi_refuses(const struct gd_ck_test *t)
{
	return t->device[0] ? "device" : t->initiator != GD_INIT_CPU ? "initiator" :
	       t->memory != GD_CK_MEM_HOST ? "memory" :
	       t->pairs != GD_CK_EACH_NIC_LOOPBACK && t->pairs != GD_CK_HOSTS ? "pairs" :
	       t->bond_balance ? "check" : NULL;
}

/* Keys that the test's other keys make meaningless are refused, never ignored. */
/* fabric keys (fabric_opts.h): libfabric names need fabric ofi, which runs host loopbacks */
static int fabric_rules(struct ld *l, yaml_node_t *n, struct gd_ck_test *t)
{
	const char *key;

	if (t->fab.fabric == GD_FABRIC_VERBS && t->fab.given)
		return fail(l, n, "test '%s': provider, domain and endpoint choose libfabric: write "
			    "fabric: ofi (or drop them for verbs)", Q(t->name));
	if (t->fab.fabric == GD_FABRIC_AUTO && gd_fabric_named(&t->fab) == GD_FABRIC_OFI) {
		t->fab.fabric = GD_FABRIC_OFI;
		snprintf(t->fab.why, sizeof(t->fab.why), "the spec's provider/domain/endpoint");
	}
	if (t->fab.fabric == GD_FABRIC_OFI && (key = gd_ck_ofi_refuses(t)))
		return fail(l, n, "test '%s': fabric ofi runs host memory with the cpu initiator, "
			    "on loopback or between ranks (pairs: pairwise, ring, all-pairs, one-to-many, "
			    "many-to-one, hosts) in this version: drop device, initiator, memory, "
			    "other pairs and check (this test has '%s')",
			    Q(t->name), key);
	return 0;
}

/* An expectation that the test's own keys make impossible is refused: it could never hold. */
static const char *expect_conflict(const struct gd_ck_test *t, const char **key)
{
	const struct gd_ck_expect *e = &t->expect;
	const char *fab = gd_fabric_kind_name(t->fab.fabric);
	const struct {
		const char *key;
		bool bad;
		const char *why;
	} rule[] = {
		{ "registration", e->registration[0] && strcmp(e->registration, "host") &&
		  t->memory != GD_CK_MEM_GPU,
		  "registers GPU memory: add 'memory: gpu' (host memory registers as host)" },
		{ "staging", e->staging == 1 && t->memory != GD_CK_MEM_GPU,
		  "is GPU data through host memory: add 'memory: gpu'" },
		{ "path", e->path >= 0 && t->memory != GD_CK_MEM_GPU,
		  "is the class of the path from a GPU to its NIC: a host-memory run has none; "
		  "add 'memory: gpu' (fabric verbs) or drop it" },
		{ "producer", e->producer[0] && t->initiator != GD_INIT_PROXY,
		  "is the proxy's: add 'initiator: proxy'" },
		{ "initiator", e->initiator[0] && strcmp(e->initiator, gd_initiator_name(t->initiator)),
		  "differs from the test's initiator: set the test's 'initiator' to it" },
		{ "fabric", e->fabric[0] && t->fab.fabric != GD_FABRIC_AUTO && strcmp(e->fabric, fab),
		  "differs from the test's fabric: drop one of them" },
		{ "provider", e->provider[0] && !strcmp(e->fabric, gd_fabric_kind_name(GD_FABRIC_VERBS)),
		  "is libfabric's: it needs fabric ofi, not verbs" },
		{ "provider", e->provider[0] && t->fab.provider[0] &&
		  strcmp(e->provider, t->fab.provider),
		  "differs from the test's provider: drop one of them" },
	};

	for (size_t i = 0; i < sizeof(rule) / sizeof(rule[0]); i++)
		if (rule[i].bad) {
			*key = rule[i].key;
			return rule[i].why;
		}
	return NULL;
}

static int expect_rules(struct ld *l, yaml_node_t *n, const struct gd_ck_test *t)
{
	yaml_node_t *e = find_key(l, n, "expect"), *v;
	const char *key, *why = t->expect.given ? expect_conflict(t, &key) : NULL;

	if (!why)
		return 0;
	v = e && e->type == YAML_MAPPING_NODE ? find_key(l, e, key) : NULL;
	return fail(l, v ? v : n, "test '%s': expect %s %s", Q(t->name), key, why);
}

static int test_rules(struct ld *l, yaml_node_t *n, struct gd_ck_test *t)
{
	yaml_node_t *v;

	if (t->size && t->sweep_min)
		return fail(l, n, "test '%s' has both size and sweep: give one", Q(t->name));
	if (t->duration_s && t->iters)
		return fail(l, n, "test '%s' has both duration and iterations: give one", Q(t->name));
	if (t->op == GD_OP_ATOMIC && (((v = find_key(l, n, "size")) && t->size != 8) ||
				      (v = find_key(l, n, "sweep"))))
		return fail(l, v, "test '%s': atomics move 8 bytes; leave size and sweep out",
			    Q(t->name));
	if (t->bond_balance && t->kind != GD_KIND_BW)
		return fail(l, n, "test '%s': bond-balance needs a bandwidth test", Q(t->name));
	if (t->kind != GD_KIND_BW && (v = find_key(l, n, "qps")))
		return fail(l, v, "test '%s': qps is for bandwidth tests (a latency test runs one "
			    "QP); leave it out", Q(t->name));
	if (t->pairs == GD_CK_HOSTS && t->rung && t->rung != GD_CK_RUNG_NODES)
		return fail(l, find_key(l, n, "rung"), "test '%s': a test between hosts is on rung 7 "
			    "(nodes): drop its rung", Q(t->name));
	if (t->repeat > 1 && (t->pairs == GD_CK_HOSTS || t->pairs == GD_CK_ALL_NICS))
		return fail(l, find_key(l, n, "repeat"), "test '%s': repeat is for runs on one node "
			    "(a loopback, a GPU's nearest NIC, the matrix); pairs between hosts and "
			    "all-nics run once an attempt: leave it out", Q(t->name));
	if (!t->bond_balance && (v = find_key(l, n, "min_slave_share")))
		return fail(l, v, "test '%s': min_slave_share is for 'check: bond-balance'; add "
			    "that check or leave it out", Q(t->name));
	return fabric_rules(l, n, t) ?: expect_rules(l, n, t) ?: group_rules(l, n, t);
}

static int gd_ck_load_test(struct ld *l, yaml_node_t *n, struct gd_ck_test *t)
{
	yaml_node_t *th;
	int ret;

	memset(t, 0, sizeof(*t));
	t->line = (int)n->start_mark.line + 1;
	t->column = (int)n->start_mark.column + 1;
	t->qps = 1;
	t->retries = -1;
	t->expect.path = t->expect.staging = -1;
	t->initiator = GD_INIT_CPU;
	ret = each_key(l, n, "a test", "test", test_key, t);
	if (ret)
		return ret;
	if (!t->name[0])
		return fail(l, n, "a test needs a name");
	th = find_key(l, n, "thresholds");
	if (th) {
		ret = each_key(l, th, "thresholds", "thresholds", thresh_key, t);
		if (ret)
			return ret;
	}
	if ((ret = test_rules(l, n, t)))
		return ret;
	if (!t->size && !t->sweep_min)
		t->size = t->op == GD_OP_ATOMIC ? 8 : t->kind == GD_KIND_BW ? 65536 : 2;
	return 0;
}

static int load_tests(struct ld *l, yaml_node_t *n)
{
	struct gd_ck_spec *s = l->s;
	size_t cnt;

	if (n->type != YAML_SEQUENCE_NODE)
		return fail(l, n, "tests must be a list of tests ('- name: ...'), not %s",
			    kind_name(n));
	cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	s->tests = calloc(cnt ? cnt : 1, sizeof(*s->tests));
	if (!s->tests)
		return -ENOMEM;
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++) {
		int ret = gd_ck_load_test(l, node(l, *it), &s->tests[s->ntests]);

		if (ret)
			return ret;
		for (size_t i = 0; i < s->ntests; i++)
			if (!strcmp(s->tests[i].name, s->tests[s->ntests].name))
				return fail(l, node(l, *it), "a second test named '%s': test "
					    "names must be unique", Q(s->tests[i].name));
		s->ntests++;
	}
	return 0;
}

static int top_key(struct ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	long n;
	int ret;

	if (!strcmp(key, "version")) {
		ret = gd_ck_ld_key_int(l, v, "spec", key, &n);
		return ret;
	}
	if (!strcmp(key, "retries")) {
		ret = gd_ck_ld_key_int(l, v, "spec", key, &n);
		l->s->retries = (int)n;
		return ret;
	}
	if (!strcmp(key, "name"))
		return str_to(l, v, "name", l->s->name, sizeof(l->s->name));
	if (!strcmp(key, "include")) { /* resolved by gd_ck_spec_load_all (check_suite.c) */
		l->s->include_line = (int)v->start_mark.line + 1;
		l->s->include_column = (int)v->start_mark.column + 1;
		return str_to(l, v, "include", l->s->include, sizeof(l->s->include));
	}
	if (!strcmp(key, "topology"))
		return load_topology(l, v);
	if (!strcmp(key, "fleet"))
		return gd_ck_load_fleet(l, v);
	if (!strcmp(key, "manifest"))
		return gd_ck_load_manifest(l, v);
	if (!strcmp(key, "baseline"))
		return gd_ck_load_baseline(l, v);
	if (!strcmp(key, "devices"))
		return load_devices(l, v);
	if (!strcmp(key, "doctor"))
		return load_doctor(l, v);
	return load_tests(l, v);
}

static int syntax_error(struct ld *l, yaml_parser_t *p)
{
	const yaml_mark_t *m = p->problem ? &p->problem_mark : &p->context_mark;

	snprintf(l->err, l->errlen, "%s:%lu:%lu: YAML syntax error: %s%s%s", l->name,
		 (unsigned long)m->line + 1, (unsigned long)m->column + 1,
		 p->problem ? p->problem : "malformed document", p->context ? " " : "",
		 p->context ? p->context : "");
	return -EINVAL;
}

/*
 * Before the document is built, from the parser's events: nesting deeper than a spec can
 * use is refused at once (libyaml's scanner is quadratic in the depth of flow collections:
 * 200,000 '[' took two minutes), and so is a second document, which the load would ignore,
 * and more nodes than a spec can use (a 14 MB list of 7 M scalars took 1.6 GB and 53 s).
 * Syntax errors are left to the load, which names them.
 */
static int prescan(struct ld *l, const unsigned char *buf, size_t len)
{
	yaml_parser_t p;
	yaml_event_t e;
	int depth = 0, docs = 0, nodes = 0, ret = 0;

	if (!yaml_parser_initialize(&p))
		return -ENOMEM;
	yaml_parser_set_input_string(&p, buf, len);
	while (!ret && yaml_parser_parse(&p, &e)) {
		yaml_event_type_t t = e.type;

		if ((t == YAML_SCALAR_EVENT || t == YAML_ALIAS_EVENT ||
		     t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) &&
		    ++nodes > GD_CK_SPEC_MAX_NODES)
			ret = fail_at(l, &e.start_mark, "more than %d values, lists and mappings: a spec "
				      "needs a few thousand (the document would take about 100 bytes "
				      "each)", GD_CK_SPEC_MAX_NODES);
		else if ((t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) &&
		    ++depth > GD_CK_SPEC_MAX_DEPTH)
			ret = fail_at(l, &e.start_mark, "nested more than %d levels deep: a spec "
				      "uses 5 at most (the spec, tests, a test, pairs, hosts)",
				      GD_CK_SPEC_MAX_DEPTH);
		else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT)
			depth--;
		else if (t == YAML_DOCUMENT_START_EVENT && ++docs > 1)
			ret = fail_at(l, &e.start_mark, "a second YAML document: a spec is one "
				      "document (remove the '---' and what follows, or split the "
				      "file)");
		yaml_event_delete(&e);
		if (t == YAML_STREAM_END_EVENT)
			break;
	}
	yaml_parser_delete(&p);
	return ret;
}

int gd_ck_spec_parse(const char *name, const unsigned char *buf, size_t len,
		     struct gd_ck_spec *spec, char *err, size_t errlen)
{
	struct ld l = { .name = name, .err = err, .errlen = errlen, .s = spec };
	yaml_parser_t p;
	yaml_node_t *root;
	int ret;

	memset(spec, 0, sizeof(*spec));
	spec->topo = (struct gd_ck_topology){ -1, -1, -1, -1, false, false };
	spec->fleet_outlier_pct = GD_CK_FLEET_OUTLIER_PCT;
	spec->baseline.k = GD_CK_BL_K_DEFAULT;
	spec->baseline.min_spread_pct = GD_CK_BL_MIN_SPREAD_PCT;
	spec->manifest.gpus = spec->manifest.nics = -1;
	spec->retries = -1;
	snprintf(spec->path, sizeof(spec->path), "%s", name);
	gd_ck_sha256_hex(buf, len, spec->sha256);
	if ((ret = prescan(&l, buf, len)))
		return ret;
	if (!yaml_parser_initialize(&p))
		return -ENOMEM;
	yaml_parser_set_input_string(&p, buf, len);
	if (!yaml_parser_load(&p, &l.doc)) {
		ret = syntax_error(&l, &p);
		yaml_parser_delete(&p);
		return ret;
	}
	root = yaml_document_get_root_node(&l.doc);
	if (!root)
		ret = fail(&l, NULL, "the spec is empty; 'gd_check --example' prints one for "
			   "this machine");
	else
		ret = each_key(&l, root, "the spec", "spec", top_key, NULL);
	yaml_document_delete(&l.doc);
	yaml_parser_delete(&p);
	if (ret)
		gd_ck_spec_free(spec);
	return ret;
}

int gd_ck_spec_load(const char *path, struct gd_ck_spec *spec, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	/* bounded and non-blocking: a FIFO, /dev/zero or a huge file is refused at once */
	int ret = gd_readfile_alloc(path, (size_t)16 << 20, &buf, &len);

	memset(spec, 0, sizeof(*spec));
	if (ret) {
		snprintf(err, errlen, "%s: cannot read the spec: %s%s", path, gd_strerror(ret),
			 ret == -EFBIG ? " (16 MiB at most)" : "");
		return ret;
	}
	ret = gd_ck_spec_parse(path, (const unsigned char *)buf, len, spec, err, errlen);
	free(buf);
	return ret;
}

void gd_ck_spec_free(struct gd_ck_spec *spec)
{
	free(spec->devices);
	free(spec->doctor);
	free(spec->doctor_at);
	free(spec->tests);
	free(spec->manifest.nic);
	free(spec->manifest.gpu);
	free(spec->baseline.c);
	spec->baseline.c = NULL;
	spec->baseline.n = 0;
	spec->manifest.nic = NULL;
	spec->manifest.gpu = NULL;
	spec->manifest.nnic = spec->manifest.ngpu = 0;
	spec->devices = NULL;
	spec->doctor = NULL;
	spec->doctor_at = NULL;
	spec->tests = NULL;
	spec->ndevices = spec->ndoctor = spec->ntests = 0;
}

