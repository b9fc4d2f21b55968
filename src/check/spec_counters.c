/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A test's keys about port counters (check_counters.c judges them):
 *
 *   counters_port: mlx5_0:1   # the RDMA port whose counters judge the run, where the fabric
 *                             # names none (libfabric tcp over a RoCE or IPoIB netdev)
 *   tolerate:                 # error counters this test tolerates, each up to a bound
 *     out_of_sequence: 50
 *
 * A tolerated name must be an error counter of the table (port_counters.h): tolerating a
 * name gd_check does not judge would do nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "log.h"
#include "port_counters.h"
#include "spec_int.h"

static int tolerate_key(struct gd_ck_ld *l, yaml_node_t *k, yaml_node_t *v, struct gd_ck_test *t)
{
	const char *name, *why;
	char known[2048];
	long n;
	int ret = gd_ck_ld_scalar(l, k, "a counter's name", &name);

	if (ret)
		return ret;
	if (gd_pc_class(name, false, &why) != GD_PC_ERROR) {
		gd_pc_error_names(known, sizeof(known));
		return gd_ck_ld_fail(l, k, "tolerate: '%s' is not an error counter gd_check judges "
				     "(%s); the error counters: %s", gd_excerpt(name), why, known);
	}
	for (size_t i = 0; i < t->ntolerate; i++)
		if (!strcmp(t->tolerate[i].name, name))
			return gd_ck_ld_fail(l, k, "tolerate: '%s' appears twice", name);
	if (t->ntolerate == GD_CK_MAX_TOLERATE)
		return gd_ck_ld_fail(l, k, "tolerate: at most %d counters a test",
				     GD_CK_MAX_TOLERATE);
	ret = gd_ck_ld_key_int(l, v, "tolerate", "counter", &n);
	if (ret)
		return ret;
	snprintf(t->tolerate[t->ntolerate].name, sizeof(t->tolerate[0].name), "%s", name);
	t->tolerate[t->ntolerate++].max = (uint64_t)n;
	return 0;
}

static int tolerate_to(struct gd_ck_ld *l, yaml_node_t *map, struct gd_ck_test *t)
{
	if (map->type != YAML_MAPPING_NODE)
		return gd_ck_ld_fail(l, map, "tolerate must be a mapping of error counters to the "
				     "change each may show (out_of_sequence: 50), not %s",
				     gd_ck_ld_kind_name(map));
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = gd_ck_ld_node(l, p->key), *v = gd_ck_ld_node(l, p->value);
		int ret;

		if (!k || !v)
			return gd_ck_ld_fail(l, map, "tolerate: broken document");
		ret = tolerate_key(l, k, v, t);
		if (ret)
			return ret;
	}
	return 0;
}

/* "DEV" or "DEV:PORT" */
static int port_to(struct gd_ck_ld *l, yaml_node_t *v, struct gd_ck_test *t)
{
	const char *s, *colon;
	char *end;
	long port = 1;
	int ret = gd_ck_ld_scalar(l, v, "counters_port", &s);

	if (ret)
		return ret;
	colon = strrchr(s, ':');
	if (colon)
		port = strtol(colon + 1, &end, 10);
	if (colon == s || !*s || (colon && (!colon[1] || *end || port < 1 || port > 255)) ||
	    (size_t)(colon ? colon - s : (long)strlen(s)) >= sizeof(t->ctr_dev) ||
	    strpbrk(s, "/ "))
		return gd_ck_ld_fail(l, v, "counters_port must be an RDMA device and port, DEV or "
				     "DEV:PORT (port 1 to 255), e.g. mlx5_0:1, not '%s'",
				     gd_excerpt(s));
	snprintf(t->ctr_dev, sizeof(t->ctr_dev), "%.*s", (int)(colon ? colon - s : (long)strlen(s)),
		 s);
	t->ctr_port = (int)port;
	return 0;
}

int gd_ck_load_counters_key(struct gd_ck_ld *l, const char *key, yaml_node_t *v,
			    struct gd_ck_test *t)
{
	if (!strcmp(key, "tolerate"))
		return tolerate_to(l, v, t);
	if (!strcmp(key, "counters_port"))
		return port_to(l, v, t);
	return 1;
}

int gd_ck_counters_rules(struct gd_ck_ld *l, yaml_node_t *n, const struct gd_ck_test *t)
{
	yaml_node_t *v = gd_ck_ld_find(l, n, "counters_port");

	if (v && gd_fabric_traits_of(t->fab.fabric)->port)
		return gd_ck_ld_fail(l, v, "test '%s': counters_port is for fabric ofi (a verbs run "
				     "reads the counters of the port it runs on): drop it or add "
				     "fabric: ofi", gd_excerpt(t->name));
	return 0;
}
