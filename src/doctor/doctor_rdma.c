/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_doctor checks of the RDMA devices: presence, DEVX (IBGDA), ports,
 * MTU, GID table, bonds. Facts come from sysfs; verbs adds the live-only
 * ones (DEVX, active MTU). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "doctor.h"
#include "doctor_int.h"
#include "bond.h"
#include "gd.h"
#include "readfile.h"
#include "sysfs.h"

static bool is_roce(const struct gd_port *p)
{
	return strcmp(p->link_layer, "Ethernet") == 0;
}

void gd_chk_rdma_devices(struct gd_doctor *d, const struct gd_check *c)
{
	struct gd_check_result r;

	gd_res_init(&r, c, NULL);
	if (!d->nnics) {
		gd_res_ev(&r, "/sys/class/infiniband", d->only_dev ? "no device named %s" : "%sempty",
			  d->only_dev ? d->only_dev : "");
		gd_res_fix(&r, "install a ConnectX NIC and load mlx5_core/mlx5_ib (lspci | grep Mellanox)");
		gd_res_emit(d, &r, GD_CHECK_FAIL, "no RDMA device: GPUDirect RDMA has no NIC to use");
		return;
	}
	for (size_t i = 0; i < d->nnics; i++)
		gd_res_ev(&r, "/sys/class/infiniband", "%s: PCI %s, driver %s, NUMA %d", d->nics[i].name,
			  d->nics[i].pci[0] ? d->nics[i].pci : "none", d->nics[i].driver[0] ? d->nics[i].driver : "?",
			  d->nics[i].numa);
	gd_res_emit(d, &r, GD_CHECK_PASS, "%zu RDMA device(s)", d->nnics);
}

/* Live: open the device through mlx5dv with DEVX. 0, or a negative errno. */
static int devx_probe(const char *name)
{
	struct mlx5dv_context_attr attr = { .flags = MLX5DV_CONTEXT_FLAGS_DEVX };
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n, ret = -ENODEV;

	list = ibv_get_device_list(&n);
	if (!list)
		return -errno;
	for (int i = 0; i < n; i++) {
		if (strcmp(ibv_get_device_name(list[i]), name) != 0)
			continue;
		if (!mlx5dv_is_supported(list[i])) {
			ret = -EOPNOTSUPP;
			break;
		}
		errno = 0;
		ctx = mlx5dv_open_device(list[i], &attr);
		ret = ctx ? 0 : -(errno ? errno : EOPNOTSUPP);
		break;
	}
	if (ctx)
		ibv_close_device(ctx);
	ibv_free_device_list(list);
	return ret;
}

void gd_chk_devx(struct gd_doctor *d, const struct gd_check *c)
{
	if (!d->nnics) {
		gd_res_skip(d, c, NULL, "no RDMA device");
		return;
	}
	for (size_t i = 0; i < d->nnics; i++) {
		const struct gd_doc_nic *n = &d->nics[i];
		struct gd_check_result r;
		char live[192];
		int ret;

		gd_res_init(&r, c, "%s", n->name);
		snprintf(live, sizeof(live), "/sys/class/infiniband/%s/device/driver", n->name);
		gd_res_ev(&r, live, "%s", n->driver[0] ? n->driver : "none");
		if (strcmp(n->driver, "mlx5_core") != 0) {
			gd_res_fix(&r, "IBGDA needs a ConnectX (mlx5) NIC; use the CPU or proxy initiator here");
			gd_res_emit(d, &r, GD_CHECK_WARN, "not an mlx5 device: IBGDA unavailable");
			continue;
		}
		if (!d->live) {
			gd_res_emit(d, &r, GD_CHECK_SKIP,
				    "mlx5 device; the DEVX probe needs the live device (fixture tree)");
			continue;
		}
		ret = devx_probe(n->name);
		gd_res_ev(&r, "mlx5dv_open_device(DEVX)", "%s", ret ? strerror(-ret) : "ok");
		if (!ret) {
			gd_res_emit(d, &r, GD_CHECK_PASS, "mlx5 device with DEVX");
			continue;
		}
		gd_res_fix(&r, ret == -EPERM || ret == -EACCES
				       ? "DEVX needs CAP_NET_RAW or a privileged container"
				       : "update rdma-core (libmlx5) and the NIC firmware");
		gd_res_emit(d, &r, GD_CHECK_FAIL, "mlx5 device, but DEVX cannot be opened");
	}
}

/* Call fn for every port of every NIC; SKIP once when there is none. */
static void each_port(struct gd_doctor *d, const struct gd_check *c,
		      void (*fn)(struct gd_doctor *, const struct gd_check *, const struct gd_hca *,
				 const struct gd_port *))
{
	bool any = false;

	for (size_t i = 0; i < d->nnics; i++)
		for (size_t j = 0; j < d->hcas[i].nports; j++, any = true)
			fn(d, c, &d->hcas[i], &d->hcas[i].ports[j]);
	if (!any)
		gd_res_skip(d, c, NULL, "no RDMA port");
}

static void port_one(struct gd_doctor *d, const struct gd_check *c, const struct gd_hca *n,
		     const struct gd_port *p)
{
	struct gd_check_result r;
	char live[192];

	gd_res_init(&r, c, "%s port %d", n->name, p->num);
	snprintf(live, sizeof(live), "/sys/class/infiniband/%s/ports/%d/", n->name, p->num);
	gd_res_ev(&r, live, "state %d: %s, phys_state %d: %s, rate \"%s\", link_layer %s", p->state,
		  p->state_str, p->phys_state, p->phys_state_str, p->rate_str, p->link_layer);
	if (p->state == GD_PORT_ACTIVE && p->phys_state == GD_PHYS_LINKUP) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "ACTIVE, %s", p->rate_str);
		return;
	}
	gd_res_fix(&r, p->phys_state == GD_PHYS_LINKUP
			       ? "the link is up but the port is not ACTIVE: check the subnet manager (IB) or the netdev (RoCE)"
			       : "check the cable, the switch port and the NIC firmware (mlxlink)");
	gd_res_emit(d, &r, GD_CHECK_FAIL, "port not usable: %s / %s", p->state_str[0] ? p->state_str : "?",
		    p->phys_state_str[0] ? p->phys_state_str : "?");
}

void gd_chk_port(struct gd_doctor *d, const struct gd_check *c)
{
	each_port(d, c, port_one);
}

/* ---- MTU ---- */

struct mtu_seen {
	int first;           /* RoCE MTU of the first RoCE port seen */
	char first_port[192];
};

static void mtu_one(struct gd_doctor *d, const struct gd_check *c, const struct gd_hca *n,
		    const struct gd_port *p, struct mtu_seen *seen)
{
	struct gd_check_result r;
	int mtu, roce, active;
	char live[192];

	gd_res_init(&r, c, "%s port %d", n->name, p->num);
	if (!is_roce(p)) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "InfiniBand port: MTU set by the subnet manager");
		return;
	}
	snprintf(live, sizeof(live), "/sys/class/net/%s/mtu", p->netdev);
	if (!p->netdev[0] || gd_sysfs_read_int(d->m, &mtu, "%s", live)) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "RoCE port without a readable netdev MTU");
		return;
	}
	roce = gd_rdma_roce_mtu(mtu);
	gd_res_ev(&r, live, "%d (RoCE path MTU %d)", mtu, roce);
	active = n->verbs_known ? p->active_mtu : 0;
	if (active)
		gd_res_ev(&r, "ibv_query_port", "active_mtu %d", active);
	if (!seen->first) {
		seen->first = roce;
		snprintf(seen->first_port, sizeof(seen->first_port), "%s (%s port %d)", p->netdev,
			 n->name, p->num);
	} else if (roce != seen->first) {
		gd_res_fix(&r, "set the same MTU (%d recommended) on every RoCE netdev and on the peers",
			   GD_NETDEV_MTU_ADVICE);
		gd_res_emit(d, &r, GD_CHECK_FAIL, "MTU mismatch: RoCE MTU %d here, %d on %s", roce,
			    seen->first, seen->first_port);
		return;
	}
	if (roce < 4096) {
		char fix[192];

		gd_mtu_advice(p->netdev, fix, sizeof(fix));
		gd_res_fix(&r, "%s", fix);
		gd_res_emit(d, &r, GD_CHECK_WARN, "RoCE path MTU %d from netdev %s mtu %d (4096 wanted)",
			    roce, p->netdev, mtu);
		return;
	}
	gd_res_emit(d, &r, GD_CHECK_PASS, "RoCE path MTU 4096 (%s mtu %d)", p->netdev, mtu);
}

void gd_chk_mtu(struct gd_doctor *d, const struct gd_check *c)
{
	struct mtu_seen seen = { 0, "" };
	bool any = false;

	for (size_t i = 0; i < d->nnics; i++)
		for (size_t j = 0; j < d->hcas[i].nports; j++, any = true)
			mtu_one(d, c, &d->hcas[i], &d->hcas[i].ports[j], &seen);
	if (!any)
		gd_res_skip(d, c, NULL, "no RDMA port");
}

/* ---- GIDs ---- */

static void gid_one(struct gd_doctor *d, const struct gd_check *c, const struct gd_hca *n,
		    const struct gd_port *p)
{
	size_t v2 = 0, v2ipv4 = 0;
	struct gd_check_result r;
	char live[192];

	gd_res_init(&r, c, "%s port %d", n->name, p->num);
	if (!is_roce(p)) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "InfiniBand port: no RoCE GIDs");
		return;
	}
	for (size_t i = 0; i < p->ngids; i++) {
		v2 += p->gids[i].type == GD_GID_ROCE_V2;
		v2ipv4 += p->gids[i].type == GD_GID_ROCE_V2 && p->gids[i].ipv4;
	}
	snprintf(live, sizeof(live), "/sys/class/infiniband/%s/ports/%d/gids", n->name, p->num);
	gd_res_ev(&r, live, "%zu valid GID(s), %zu RoCE v2, %zu RoCE v2 IPv4", p->ngids, v2, v2ipv4);
	if (v2ipv4 && p->default_gid >= 0) {
		const struct gd_gid *g = NULL;

		for (size_t i = 0; i < p->ngids; i++)
			if (p->gids[i].index == p->default_gid)
				g = &p->gids[i];
		gd_res_emit(d, &r, GD_CHECK_PASS, "RoCE v2 IPv4 GID at index %d (%s on %s)",
			    p->default_gid, g ? g->ip : "?", g && g->netdev[0] ? g->netdev : "?");
		return;
	}
	gd_res_fix(&r, "assign an IPv4 address to %s (ip addr add ... dev %s); RoCE v2 GIDs follow the netdev's addresses",
		   p->netdev[0] ? p->netdev : "the port's netdev", p->netdev[0] ? p->netdev : "NETDEV");
	gd_res_emit(d, &r, GD_CHECK_FAIL, "no RoCE v2 GID with an IPv4 address");
}

void gd_chk_gid(struct gd_doctor *d, const struct gd_check *c)
{
	each_port(d, c, gid_one);
}

/* ---- bonds ---- */

static void bond_one(struct gd_doctor *d, const struct gd_check *c, const char *ibdev,
		     const struct gd_bond *b)
{
	int speed0 = -1, down = 0, nslaves = (int)b->nslaves;
	size_t ref, other;
	struct gd_check_result r;
	char live[192];

	gd_res_init(&r, c, "%s (%s)", b->name, ibdev);
	snprintf(live, sizeof(live), "/sys/class/net/%s/bonding", b->name);
	gd_res_ev(&r, live, "mode %s%s%s, %d slave(s)", b->mode, b->xmit_hash_policy[0] ? ", " : "",
		  b->xmit_hash_policy, nslaves);
	for (size_t i = 0; i < b->nslaves; i++) {
		const struct gd_bond_slave *s = &b->slaves[i];

		snprintf(live, sizeof(live), "/sys/class/net/%s", s->name);
		gd_res_ev(&r, live, "bonding_slave/mii_status %s, speed %d Mb/s",
			  s->mii_status[0] ? s->mii_status : "?", s->speed_mbps);
		down += strcmp(s->mii_status, "up") != 0;
		if (speed0 < 0)
			speed0 = s->speed_mbps;
	}
	/* values the bond reader refused (validated there) are evidence, never a silent PASS */
	for (size_t i = 0; i < b->errors.n; i++)
		gd_res_ev(&r, b->errors.v[i].path, "ignored: %s", b->errors.v[i].detail[0] ?
			  b->errors.v[i].detail : gd_strerror(b->errors.v[i].err));
	if (!nslaves) {
		gd_res_fix(&r, "enslave the NIC ports to %s", b->name);
		gd_res_emit(d, &r, GD_CHECK_FAIL, "bond without slaves");
	} else if (down) {
		gd_res_fix(&r, "bring the slave up (cable, switch LACP config); cat /proc/net/bonding/%s",
			   b->name);
		gd_res_emit(d, &r, GD_CHECK_FAIL, "%d of %d slave(s) down: the bond runs at reduced bandwidth",
			    down, nslaves);
	} else if (gd_bond_speed_mismatch(b, &ref, &other)) {
		gd_res_fix(&r, "check cables and switch ports so every slave links at the same speed");
		gd_res_emit(d, &r, GD_CHECK_FAIL, "slaves at different speeds (%s %d, %s %d Mb/s)",
			    b->slaves[ref].name, b->slaves[ref].speed_mbps, b->slaves[other].name,
			    b->slaves[other].speed_mbps);
	} else if (b->errors.n) {
		gd_res_fix(&r, "check the bonding driver's files (cat /proc/net/bonding/%s)", b->name);
		gd_res_emit(d, &r, GD_CHECK_WARN, "%zu bonding file(s) unreadable or malformed: "
			    "their values are ignored", b->errors.n);
	} else {
		gd_res_emit(d, &r, GD_CHECK_PASS, "%d slave(s) up at %d Mb/s", nslaves, speed0);
	}
}

void gd_chk_bond(struct gd_doctor *d, const struct gd_check *c)
{
	bool any = false;

	for (size_t i = 0; i < d->nnics; i++) {
		for (size_t j = 0; j < d->hcas[i].nports; j++) {
			struct gd_bond b;

			if (gd_port_bond(d->m, &d->hcas[i].ports[j], &b))
				continue;
			bond_one(d, c, d->hcas[i].name, &b);
			gd_bond_free(&b);
			any = true;
		}
	}
	if (!any)
		gd_res_skip(d, c, NULL, "no bond under an RDMA device");
}
