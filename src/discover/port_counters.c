/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Port, hw and netdev counters of an RDMA port, sampled through sysfs.h, and its netdev's
 * ethtool statistics (ethtool_stats.c, or a fixture's files) (port_counters.h);
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

/* Room for cnt more values in s. */
static int grow(struct gd_pc_sample *s, size_t cnt)
{
	struct gd_pc_value *v = realloc(s->v, (s->n + cnt) * sizeof(*v) + 1);

	if (!v)
		return -ENOMEM;
	s->v = v;
	return 0;
}

/* The value of statistic name of interface ifname already sampled from src: NULL none. */
static const struct gd_pc_value *have(const struct gd_pc_sample *s, enum gd_pc_source src,
				      const char *ifname, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].src == src && !strcmp(s->v[i].ifname, ifname) &&
		    !strcmp(s->v[i].name, name))
			return &s->v[i];
	return NULL;
}

/* Whether an ethtool statistic is left out: per queue, or read from statistics/ already. */
static bool ethtool_skip(const struct gd_pc_sample *s, const char *ifname, const char *name)
{
	return gd_ethtool_per_queue(name) || have(s, GD_PC_NETDEV, ifname, name);
}

/* A source that is there but could not be read (a permission, an I/O error): one entry
 * "(all)" with the error, so the report names it unreadable instead of leaving it out. */
static int unreadable(struct gd_pc_sample *s, enum gd_pc_source src, const char *ifname, int err)
{
	struct gd_pc_value *x;

	if (err == -ENOMEM || grow(s, 1))
		return -ENOMEM;
	x = &s->v[s->n++];
	memset(x, 0, sizeof(*x));
	snprintf(x->name, sizeof(x->name), "(all)");
	snprintf(x->ifname, sizeof(x->ifname), "%s", ifname);
	x->src = src;
	x->err = err;
	return 0;
}

/* Every file of one directory into s (dir as a live path); ifname: the values' interface
 * (netdev, ethtool) or "". */
static int sample_dir(const struct gd_machine *m, struct gd_pc_sample *s, enum gd_pc_source src,
		      const char *dir, const char *ifname)
{
	char **names;
	size_t cnt;

	int ret = gd_sysfs_list(m, &names, &cnt, "%s", dir);

	if (ret == -ENOENT)
		return 0; /* no such directory: the driver has none */
	if (ret)
		return unreadable(s, src, ifname, ret);
	s->has[src] = true;
	if (grow(s, cnt)) {
		gd_sysfs_free_list(names, cnt);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cnt; i++) {
		struct gd_pc_value *x = &s->v[s->n];

		if (not_a_counter(names[i]) || strlen(names[i]) >= sizeof(x->name) ||
		    (src == GD_PC_ETHTOOL && ethtool_skip(s, ifname, names[i])))
			continue;
		memset(x, 0, sizeof(*x));
		snprintf(x->name, sizeof(x->name), "%s", names[i]);
		snprintf(x->ifname, sizeof(x->ifname), "%s", ifname);
		x->src = src;
		x->err = gd_sysfs_read_u64(m, &x->v, "%s/%s", dir, names[i]);
		s->n++;
	}
	gd_sysfs_free_list(names, cnt);
	return 0;
}

/* The ethtool statistics of interface ifname into s: a fixture's ROOT/ethtool/IFNAME/,
 * the live machine's through the ioctl. An interface without any (lo, a driver with none)
 * adds nothing. */
static int sample_ethtool(const struct gd_machine *m, struct gd_pc_sample *s, const char *ifname)
{
	char (*names)[GD_ETHTOOL_NAME], dir[64];
	uint64_t *vals;
	size_t n;
	int ret;

	if (m->fixture) {
		snprintf(dir, sizeof(dir), "/ethtool/%s", ifname);
		return sample_dir(m, s, GD_PC_ETHTOOL, dir, ifname);
	}
	ret = gd_ethtool_stats(ifname, &names, &vals, &n);
	if (ret == -ENODEV || ret == -EOPNOTSUPP)
		return 0; /* no such interface, or its driver has no statistics */
	if (ret)
		return unreadable(s, GD_PC_ETHTOOL, ifname, ret);
	s->has[GD_PC_ETHTOOL] = true;
	ret = grow(s, n);
	for (size_t i = 0; !ret && i < n; i++) {
		struct gd_pc_value *x = &s->v[s->n];

		if (!names[i][0] || ethtool_skip(s, ifname, names[i]) ||
		    have(s, GD_PC_ETHTOOL, ifname, names[i]))
			continue;
		memset(x, 0, sizeof(*x));
		snprintf(x->name, sizeof(x->name), "%s", names[i]);
		snprintf(x->ifname, sizeof(x->ifname), "%s", ifname);
		x->src = GD_PC_ETHTOOL;
		x->v = vals[i];
		s->n++;
	}
	free(names);
	free(vals);
	return ret;
}

/* The netdev's ethtool statistics, and each slave's when it is a bond (the PFC counters of
 * a RoCE LAG live on its ports). */
static int sample_ethtool_all(const struct gd_machine *m, struct gd_pc_sample *s)
{
	char slaves[512], *save = NULL;
	int ret = sample_ethtool(m, s, s->netdev);

	if (ret || gd_sysfs_read_str(m, slaves, sizeof(slaves), "/sys/class/net/%s/bonding/slaves",
				     s->netdev))
		return ret;
	for (char *t = strtok_r(slaves, " \t\n", &save); t && !ret;
	     t = strtok_r(NULL, " \t\n", &save))
		if (strlen(t) < IF_NAMESIZE && !strchr(t, '/'))
			ret = sample_ethtool(m, s, t);
	return ret;
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
	ret = sample_dir(m, s, GD_PC_PORT, dir, "");
	snprintf(dir, sizeof(dir), IB "/%s/ports/%d/hw_counters", dev, port);
	ret = ret ?: sample_dir(m, s, GD_PC_HW, dir, "");
	snprintf(dir, sizeof(dir), "/sys/class/net/%s/statistics", s->netdev);
	ret = ret ?: s->netdev[0] ? sample_dir(m, s, GD_PC_NETDEV, dir, s->netdev) : 0;
	ret = ret ?: s->netdev[0] ? sample_ethtool_all(m, s) : 0;
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
		if (s->v[i].src == x->src && !strcmp(s->v[i].name, x->name) &&
		    !strcmp(s->v[i].ifname, x->ifname))
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
		snprintf(x->ifname, sizeof(x->ifname), "%s", a->ifname);
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
