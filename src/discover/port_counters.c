/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Port, hw and netdev counters of an RDMA port, sampled through sysfs.h (port_counters.h);
 * the table of which are errors is port_counters_table.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "port_counters.h"
#include "rdma_dev.h"
#include "sysfs.h"

#define IB "/sys/class/infiniband"

/* Files that are settings, not counters. */
static bool not_a_counter(const char *name)
{
	return !strcmp(name, "lifespan");
}

/* Every file of one directory into s (dir as a live path). */
static int sample_dir(const struct gd_machine *m, struct gd_pc_sample *s, enum gd_pc_source src,
		      const char *dir)
{
	char **names;
	size_t cnt;
	struct gd_pc_value *v;

	if (gd_sysfs_list(m, &names, &cnt, "%s", dir))
		return 0; /* no such directory: the driver has none */
	s->has[src] = true;
	v = realloc(s->v, (s->n + cnt) * sizeof(*v) + 1);
	if (!v) {
		gd_sysfs_free_list(names, cnt);
		return -ENOMEM;
	}
	s->v = v;
	for (size_t i = 0; i < cnt; i++) {
		struct gd_pc_value *x = &s->v[s->n];

		if (not_a_counter(names[i]) || strlen(names[i]) >= sizeof(x->name))
			continue;
		memset(x, 0, sizeof(*x));
		snprintf(x->name, sizeof(x->name), "%s", names[i]);
		x->src = src;
		x->err = gd_sysfs_read_u64(m, &x->v, "%s/%s", dir, names[i]);
		s->n++;
	}
	gd_sysfs_free_list(names, cnt);
	return 0;
}

/* The port's netdev (RoCE), else the device's parent (rxe, siw); "" none. */
static int port_netdev(const struct gd_machine *m, struct gd_pc_sample *s)
{
	struct gd_hca hca;
	int ret = gd_rdma_read_hca(m, s->dev, &hca);

	if (ret)
		return ret;
	s->soft = !hca.pci_addr[0] && hca.parent_netdev[0]; /* rxe, siw */
	if (s->port < 1 || (size_t)s->port > hca.nports)
		ret = -ENODEV;
	else if (hca.ports[s->port - 1].netdev[0])
		snprintf(s->netdev, sizeof(s->netdev), "%s", hca.ports[s->port - 1].netdev);
	else
		snprintf(s->netdev, sizeof(s->netdev), "%s", hca.parent_netdev);
	gd_rdma_free_hca(&hca);
	return ret;
}

int gd_pc_sample(const struct gd_machine *m, const char *dev, int port, struct gd_pc_sample *s)
{
	char dir[512];
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(s->dev, sizeof(s->dev), "%s", dev);
	s->port = port;
	ret = port_netdev(m, s);
	if (ret)
		return ret == -ENOENT ? -ENODEV : ret;
	snprintf(dir, sizeof(dir), IB "/%s/ports/%d/counters", dev, port);
	ret = sample_dir(m, s, GD_PC_PORT, dir);
	snprintf(dir, sizeof(dir), IB "/%s/ports/%d/hw_counters", dev, port);
	ret = ret ?: sample_dir(m, s, GD_PC_HW, dir);
	snprintf(dir, sizeof(dir), "/sys/class/net/%s/statistics", s->netdev);
	ret = ret ?: s->netdev[0] ? sample_dir(m, s, GD_PC_NETDEV, dir) : 0;
	if (ret)
		gd_pc_free(s);
	return ret;
}

void gd_pc_free(struct gd_pc_sample *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

static const struct gd_pc_value *find(const struct gd_pc_sample *s, const struct gd_pc_value *x)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].src == x->src && !strcmp(s->v[i].name, x->name))
			return &s->v[i];
	return NULL;
}

int gd_pc_deltas(const struct gd_pc_sample *before, const struct gd_pc_sample *after,
		 struct gd_pc_delta **d, size_t *n)
{
	*n = 0;
	*d = calloc(after->n + 1, sizeof(**d));
	if (!*d)
		return -ENOMEM;
	for (size_t i = 0; i < after->n; i++) {
		const struct gd_pc_value *a = &after->v[i], *b = find(before, a);
		struct gd_pc_delta *x = &(*d)[(*n)++];

		snprintf(x->name, sizeof(x->name), "%s", a->name);
		x->src = a->src;
		x->cls = gd_pc_class(a->name, after->soft, &x->why);
		x->err = !b ? -ENOENT : b->err ? b->err : a->err;
		if (x->err)
			continue;
		x->went_back = a->v < b->v;
		x->delta = x->went_back ? 0 : a->v - b->v;
	}
	return 0;
}
