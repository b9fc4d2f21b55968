/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* RDMA devices and ports from /sys/class/infiniband (through the rooted sysfs reader). */
#include "config.h"

#include "rdma_dev.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "devname.h"
#include "gid.h"
#include "log.h"
#include "netdev.h"
#include "sysfs.h"

#define IB "/sys/class/infiniband"

int gd_parse_numbered(const char *text, int *num, char *name, size_t len)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || v < 0 || v > INT_MAX || *end != ':')
		return -EINVAL;
	end++;
	while (*end == ' ')
		end++;
	if (!*end || strlen(end) >= len)
		return -EINVAL;
	for (const char *p = end; *p; p++)
		if (!isgraph((unsigned char)*p) && *p != ' ')
			return -EINVAL;
	*num = (int)v;
	snprintf(name, len, "%s", end);
	return 0;
}

int gd_parse_rate(const char *text, double *gbps, int *width, char *speed, size_t len)
{
	char spd[32] = "";
	double g;
	int w = 0, n = 0;

	/* "200 Gb/sec (4X HDR)"; the kernel omits the parenthesis for unknown speeds */
	/* digits first: sscanf would take "nan", "inf" and hex floats as numbers */
	if (!isdigit((unsigned char)text[0]) ||
	    sscanf(text, "%lf Gb/sec %n", &g, &n) != 1 || n == 0 || !(g >= 0 && g <= 1e6))
		return -EINVAL;
	text += n;
	if (*text) {
		int m = 0;

		if (sscanf(text, "(%dX %31[A-Za-z0-9])%n", &w, spd, &m) != 2 || m == 0 ||
		    text[m] != '\0' || w <= 0 || w > 64 || strlen(spd) >= len)
			return -EINVAL;
	}
	*gbps = g;
	*width = w;
	snprintf(speed, len, "%s", spd);
	return 0;
}

static const char *const counter_names[GD_NCOUNTERS] = {
	"symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors",
	"port_xmit_discards", "out_of_sequence", "packet_seq_err", "local_ack_timeout_err",
};

const char *gd_counter_name(enum gd_counter c)
{
	return c < GD_NCOUNTERS ? counter_names[c] : "unknown";
}

int gd_rdma_roce_mtu(int netdev_mtu)
{
	/* the kernel's iboe_get_mtu(): GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH 28, ICRC 4 */
	int room = netdev_mtu - (GD_ROCE_4096_MIN_MTU - 4096);

	for (int mtu = 4096; mtu >= 256; mtu /= 2)
		if (room >= mtu)
			return mtu;
	return 0;
}

void gd_mtu_advice(const char *netdev, char *buf, size_t len)
{
	snprintf(buf, len, "ip link set %s mtu %d (any MTU >= %d gives a 4096 RoCE MTU), on the "
		 "switch ports and the peers too", netdev[0] ? netdev : "NETDEV", GD_NETDEV_MTU_ADVICE,
		 GD_ROCE_4096_MIN_MTU);
}

static void read_counters(const struct gd_machine *m, struct gd_hca *hca, struct gd_port *p)
{
	for (int c = 0; c < GD_NCOUNTERS; c++) {
		const char *dir = c >= GD_CNT_OUT_OF_SEQUENCE ? "hw_counters" : "counters";
		uint64_t v;
		int ret = gd_sysfs_read_u64(m, &v, IB "/%s/ports/%d/%s/%s", hca->name, p->num, dir,
					    counter_names[c]);

		p->counters[c] = ret == 0 && v <= INT64_MAX ? (int64_t)v : -1;
		if (ret == -EINVAL)
			gd_read_errors_bad(m, &hca->errors, NULL, "a number",
					   IB "/%s/ports/%d/%s/%s", hca->name, p->num, dir,
					   counter_names[c]);
	}
}

/* An optional string attribute: absent is fine, anything else is recorded. */
static void read_opt_str(const struct gd_machine *m, struct gd_hca *hca, char *buf, size_t len,
			 const char *attr)
{
	int ret = gd_sysfs_read_str(m, buf, len, IB "/%s/%s", hca->name, attr);

	if (ret) {
		buf[0] = '\0';
		if (ret != -ENOENT)
			gd_read_errors_add(&hca->errors, gd_sysfs_errpath(), ret);
	}
}

static void read_node_type(const struct gd_machine *m, struct gd_hca *hca)
{
	char buf[64];
	int num, ret;

	snprintf(hca->transport, sizeof(hca->transport), "unknown");
	ret = gd_sysfs_read_str(m, buf, sizeof(buf), IB "/%s/node_type", hca->name);
	if (ret) {
		gd_read_errors_add(&hca->errors, gd_sysfs_errpath(), ret);
		return;
	}
	if (gd_parse_numbered(buf, &num, hca->node_type, sizeof(hca->node_type))) {
		gd_read_errors_bad(m, &hca->errors, buf, "\"NUMBER: TYPE\" such as \"1: CA\"",
				   IB "/%s/node_type", hca->name);
		return;
	}
	/* rdma-core's ibv_node_type -> transport mapping */
	if (num >= 1 && num <= 3)
		snprintf(hca->transport, sizeof(hca->transport), "InfiniBand");
	else if (num == 4)
		snprintf(hca->transport, sizeof(hca->transport), "iWARP");
	else if (num == 5 || num == 6)
		snprintf(hca->transport, sizeof(hca->transport), "usNIC");
}

static void read_pci(const struct gd_machine *m, struct gd_hca *hca)
{
	char path[PATH_MAX];
	int ret;

	hca->numa_node = -1;
	if (!gd_sysfs_exists(m, IB "/%s/device", hca->name))
		return; /* rxe, siw: no PCI parent */
	snprintf(path, sizeof(path), IB "/%s/device", hca->name);
	ret = gd_sysfs_pci_addr(m, hca->pci_addr, sizeof(hca->pci_addr), path);
	if (ret) {
		hca->pci_addr[0] = '\0';
		if (ret != -ENOENT)
			gd_read_errors_add(&hca->errors, gd_sysfs_errpath(), ret);
	}
	ret = gd_sysfs_read_int(m, &hca->numa_node, IB "/%s/device/numa_node", hca->name);
	if (ret) {
		hca->numa_node = -1;
		if (ret != -ENOENT)
			gd_read_errors_add(&hca->errors, gd_sysfs_errpath(), ret);
	}
	if (gd_sysfs_link_name(m, hca->driver, sizeof(hca->driver), IB "/%s/device/driver",
			       hca->name))
		hca->driver[0] = '\0';
}

static void read_state(const struct gd_machine *m, struct gd_hca *hca, struct gd_port *p,
		       const char *attr, int *num, char *name, size_t len)
{
	char buf[64];
	int ret = gd_sysfs_read_str(m, buf, sizeof(buf), IB "/%s/ports/%d/%s", hca->name, p->num,
				    attr);

	if (ret) {
		gd_read_errors_add(&hca->errors, gd_sysfs_errpath(), ret);
		return;
	}
	if (gd_parse_numbered(buf, num, name, len))
		gd_read_errors_bad(m, &hca->errors, buf, "\"NUMBER: NAME\" such as \"4: ACTIVE\"",
				   IB "/%s/ports/%d/%s", hca->name, p->num, attr);
}

static void read_u32(const struct gd_machine *m, struct gd_hca *hca, struct gd_port *p,
		     const char *attr, uint32_t *val)
{
	uint64_t v;
	int ret = gd_sysfs_read_u64(m, &v, IB "/%s/ports/%d/%s", hca->name, p->num, attr);

	if (ret == 0 && v <= UINT32_MAX)
		*val = (uint32_t)v;
	else if (ret == 0)
		gd_read_errors_bad(m, &hca->errors, NULL, "a 32-bit number", IB "/%s/ports/%d/%s",
				   hca->name, p->num, attr);
	else if (ret == -EINVAL)
		gd_read_errors_bad(m, &hca->errors, NULL, "a number such as 0x1a",
				   IB "/%s/ports/%d/%s", hca->name, p->num, attr);
	else if (ret != -ENOENT)
		gd_read_errors_add(&hca->errors, gd_sysfs_errpath(), ret);
}

static void read_rate(const struct gd_machine *m, struct gd_hca *hca, struct gd_port *p)
{
	int ret = gd_sysfs_read_str(m, p->rate_str, sizeof(p->rate_str), IB "/%s/ports/%d/rate",
				    hca->name, p->num);

	if (ret) {
		p->rate_str[0] = '\0';
		/* the kernel answers EINVAL while the speed is unknown */
		if (ret != -EINVAL || m->fixture)
			gd_read_errors_add(&hca->errors, gd_sysfs_errpath(), ret);
		return;
	}
	if (gd_parse_rate(p->rate_str, &p->rate_gbps, &p->width, p->speed, sizeof(p->speed))) {
		gd_read_errors_bad(m, &hca->errors, p->rate_str, "\"200 Gb/sec (4X HDR)\"",
				   IB "/%s/ports/%d/rate", hca->name, p->num);
		p->rate_str[0] = '\0';
	}
}

/* The lower netdev of a port: the PCI function's netdev with dev_port == port - 1. */
static void lower_netdev(const struct gd_machine *m, const struct gd_hca *hca, struct gd_port *p)
{
	char **names;
	size_t n;

	if (gd_sysfs_list(m, &names, &n, IB "/%s/device/net", hca->name))
		return;
	for (size_t i = 0; i < n && !p->netdev[0]; i++) {
		int dev_port;

		if (gd_sysfs_read_int(m, &dev_port, IB "/%s/device/net/%s/dev_port", hca->name,
				      names[i]))
			dev_port = 0; /* old drivers: one port per function */
		if (dev_port == p->num - 1 || n == 1)
			snprintf(p->netdev, sizeof(p->netdev), "%s", names[i]);
	}
	gd_sysfs_free_list(names, n);
}

static void port_netdev(const struct gd_machine *m, const struct gd_hca *hca, struct gd_port *p)
{
	/* RoCE: the upper netdev that carries the GIDs (bond0 for mlx5_bond_0) */
	for (size_t i = 0; i < p->ngids && !p->netdev[0]; i++)
		if (p->gids[i].netdev[0])
			snprintf(p->netdev, sizeof(p->netdev), "%s", p->gids[i].netdev);
	if (!p->netdev[0])
		lower_netdev(m, hca, p); /* IPoIB ib0, or a RoCE port without GIDs yet */
	if (!p->netdev[0] && hca->parent_netdev[0])
		snprintf(p->netdev, sizeof(p->netdev), "%s", hca->parent_netdev);
	p->netdev_up = p->netdev[0] && gd_netdev_is_up(m, p->netdev);
	p->netdev_mtu = -1;
	if (p->netdev[0] &&
	    gd_sysfs_read_int(m, &p->netdev_mtu, "/sys/class/net/%s/mtu", p->netdev))
		p->netdev_mtu = -1;
	if (!strcmp(p->link_layer, "Ethernet") && p->netdev_mtu > 0)
		p->roce_mtu = gd_rdma_roce_mtu(p->netdev_mtu);
}

static int read_port(const struct gd_machine *m, struct gd_hca *hca, struct gd_port *p)
{
	struct gd_gid_choice ch;
	int ret;

	read_state(m, hca, p, "state", &p->state, p->state_str, sizeof(p->state_str));
	read_state(m, hca, p, "phys_state", &p->phys_state, p->phys_state_str,
		   sizeof(p->phys_state_str));
	ret = gd_sysfs_read_str(m, p->link_layer, sizeof(p->link_layer),
				IB "/%s/ports/%d/link_layer", hca->name, p->num);
	if (ret) {
		p->link_layer[0] = '\0';
		gd_read_errors_add(&hca->errors, gd_sysfs_errpath(), ret);
	} else if (strcmp(p->link_layer, "InfiniBand") && strcmp(p->link_layer, "Ethernet")) {
		gd_read_errors_bad(m, &hca->errors, p->link_layer, "\"InfiniBand\" or \"Ethernet\"",
				   IB "/%s/ports/%d/link_layer", hca->name, p->num);
	}
	read_rate(m, hca, p);
	p->lmc = -1;
	if (!strcmp(p->link_layer, "InfiniBand")) {
		uint32_t lmc = 0;

		read_u32(m, hca, p, "lid", &p->lid);
		read_u32(m, hca, p, "sm_lid", &p->sm_lid);
		if (gd_sysfs_exists(m, IB "/%s/ports/%d/lid_mask_count", hca->name, p->num)) {
			read_u32(m, hca, p, "lid_mask_count", &lmc);
			p->lmc = (int)lmc;
		}
	}
	read_counters(m, hca, p);
	ret = gd_gid_read_table(m, hca->name, p, &hca->errors);
	if (ret)
		return ret;
	port_netdev(m, hca, p);
	/* the GIDs a test without a peer address would use (gid.h) */
	gd_gid_choose(p, NULL, AF_INET, &ch);
	p->default_gid = ch.index;
	gd_gid_choose(p, NULL, AF_INET6, &ch);
	p->default_gid6 = ch.index;
	return 0;
}

static int cmp_port(const void *a, const void *b)
{
	const struct gd_port *x = a, *y = b;

	return (x->num > y->num) - (x->num < y->num);
}

static int read_ports(const struct gd_machine *m, struct gd_hca *hca)
{
	char **names;
	size_t n;
	int ret;

	ret = gd_sysfs_list(m, &names, &n, IB "/%s/ports", hca->name);
	if (ret) {
		gd_read_errors_add(&hca->errors, gd_sysfs_errpath(), ret);
		return 0;
	}
	hca->ports = calloc(n ? n : 1, sizeof(*hca->ports));
	if (!hca->ports) {
		gd_sysfs_free_list(names, n);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct gd_port *p = &hca->ports[hca->nports];
		char *end;
		long num = strtol(names[i], &end, 10);

		if (*end || end == names[i] || num < 0 || num > 255)
			continue;
		p->num = (int)num;
		hca->nports++;
	}
	gd_sysfs_free_list(names, n);
	if (hca->nports > 1) /* qsort(NULL, 0) is undefined */
		qsort(hca->ports, hca->nports, sizeof(*hca->ports), cmp_port);
	for (size_t i = 0; i < hca->nports; i++) {
		ret = read_port(m, hca, &hca->ports[i]);
		if (ret)
			return ret;
	}
	return 0;
}

void gd_rdma_free_hca(struct gd_hca *hca)
{
	for (size_t i = 0; i < hca->nports; i++)
		free(hca->ports[i].gids);
	free(hca->ports);
	gd_read_errors_free(&hca->errors);
	hca->ports = NULL;
	hca->nports = 0;
}

static int read_hca(const struct gd_machine *m, const char *name, struct gd_hca *hca,
		    bool ports)
{
	int ret;

	memset(hca, 0, sizeof(*hca));
	if (!gd_dev_name_ok(name) || !gd_sysfs_exists(m, IB "/%s", name))
		return -ENODEV;
	if (snprintf(hca->name, sizeof(hca->name), "%s", name) >= (int)sizeof(hca->name))
		return -ENAMETOOLONG;
	read_node_type(m, hca);
	read_opt_str(m, hca, hca->fw_ver, sizeof(hca->fw_ver), "fw_ver");
	read_opt_str(m, hca, hca->node_guid, sizeof(hca->node_guid), "node_guid");
	read_opt_str(m, hca, hca->sys_image_guid, sizeof(hca->sys_image_guid), "sys_image_guid");
	read_opt_str(m, hca, hca->board_id, sizeof(hca->board_id), "board_id");
	read_opt_str(m, hca, hca->hca_type, sizeof(hca->hca_type), "hca_type");
	/* rxe and siw name the netdev they run over */
	read_opt_str(m, hca, hca->parent_netdev, sizeof(hca->parent_netdev), "parent");
	read_pci(m, hca);
	if (!ports)
		return 0;
	ret = read_ports(m, hca);
	if (ret) {
		gd_rdma_free_hca(hca);
		return ret;
	}
	if (!hca->parent_netdev[0] && !hca->pci_addr[0] && hca->nports && hca->ports[0].netdev[0])
		snprintf(hca->parent_netdev, sizeof(hca->parent_netdev), "%s",
			 hca->ports[0].netdev);
	return 0;
}

int gd_rdma_read_hca(const struct gd_machine *m, const char *name, struct gd_hca *hca)
{
	return read_hca(m, name, hca, true);
}

void gd_rdma_free(struct gd_hca *hcas, size_t count)
{
	for (size_t i = 0; i < count; i++)
		gd_rdma_free_hca(&hcas[i]);
	free(hcas);
}

static int cmp_natural(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

static int discover(const struct gd_machine *m, struct gd_hca **hcas, size_t *count, bool ports)
{
	char **names;
	size_t n, got = 0;
	struct gd_hca *v;
	int ret;

	*hcas = NULL;
	*count = 0;
	ret = gd_sysfs_list(m, &names, &n, IB);
	if (ret == -ENOENT)
		return 0; /* no RDMA in this kernel: an empty list */
	if (ret)
		return ret;
	/* natural order: mlx5_2 before mlx5_10 */
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(names, n, sizeof(*names), cmp_natural);
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		gd_sysfs_free_list(names, n);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (!strncmp(names[i], "scif", 4))
			continue; /* Xeon Phi pseudo devices, skipped as hwloc does */
		ret = read_hca(m, names[i], &v[got], ports);
		if (ret == -ENODEV) { /* vanished, or a link that leads nowhere: say which */
			char path[PATH_MAX];
			struct stat st;

			if (!gd_sysfs_path(m, path, sizeof(path), IB "/%s", names[i]) &&
			    stat(path, &st) && errno != ENOENT)
				gd_warn("%s: %s; this RDMA device entry is ignored", path,
					strerror(errno));
			continue;
		}
		if (ret) {
			gd_sysfs_free_list(names, n);
			gd_rdma_free(v, got);
			return ret;
		}
		got++;
	}
	gd_sysfs_free_list(names, n);
	*hcas = v;
	*count = got;
	return 0;
}

int gd_rdma_discover(const struct gd_machine *m, struct gd_hca **hcas, size_t *count)
{
	return discover(m, hcas, count, true);
}

int gd_rdma_discover_brief(const struct gd_machine *m, struct gd_hca **hcas, size_t *count)
{
	return discover(m, hcas, count, false);
}
