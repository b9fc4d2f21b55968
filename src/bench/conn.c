/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "conn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "choose.h"
#include "gd.h"
#include "gid.h"
#include "log.h"
#include "sysfs.h"

/* struct gd_conn's gid_type is enum gd_gid_type; rdma_cm fills it from verbs */
_Static_assert((int)GD_GID_IB == (int)IBV_GID_TYPE_IB &&
		       (int)GD_GID_ROCE_V1 == (int)IBV_GID_TYPE_ROCE_V1 &&
		       (int)GD_GID_ROCE_V2 == (int)IBV_GID_TYPE_ROCE_V2,
	       "enum gd_gid_type follows enum ibv_gid_type");

#define GD_RNR_TIMER 12
#define GD_RETRY 7

uint32_t gd_mtu_bytes(enum ibv_mtu m)
{
	return m >= IBV_MTU_256 && m <= IBV_MTU_4096 ? 128u << m : 0;
}

enum ibv_mtu gd_mtu_enum(uint32_t bytes)
{
	switch (bytes) {
	case 256: return IBV_MTU_256;
	case 512: return IBV_MTU_512;
	case 1024: return IBV_MTU_1024;
	case 2048: return IBV_MTU_2048;
	case 4096: return IBV_MTU_4096;
	}
	return 0;
}

void gd_gid_perftest_str(const uint8_t gid[16], char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < 16 && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%02d", i ? ":" : "", gid[i]);
}

static int port_ok(struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *pa)
{
	int ret = ibv_query_port(ctx, port, pa); /* returns an errno value */

	if (ret)
		return -ret;
	return pa->state == IBV_PORT_ACTIVE ? 0 : -ENETDOWN;
}

static const char *port_state_str(enum ibv_port_state s)
{
	return ibv_port_state_str(s);
}

int gd_conn_no_device(const char *dev, struct ibv_device **list, int n, int err)
{
	char names[512] = "";
	size_t len = 0;

	for (int i = 0; list && i < n && len < sizeof(names); i++)
		len += snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
				ibv_get_device_name(list[i]));
	if (dev && *dev && n > 0) { /* a name that does not exist is the user's to fix */
		gd_error("no RDMA device named '%s' (-d/--ib-dev)", gd_excerpt(dev));
		gd_info("devices here: %s", names);
		return -ENXIO;
	}
	if (dev && *dev) /* no device at all: the machine's to fix, as gd_devinfo says (exit 3) */
		gd_error("no RDMA device named '%s' (-d/--ib-dev): there are no RDMA devices here",
			 gd_excerpt(dev));
	else if (!list && err)
		gd_error("no RDMA devices found (cannot list them: %s)", strerror(err));
	else
		gd_error("no RDMA devices found (/sys/class/infiniband is empty or absent)");
	gd_info("%s", GD_RDMA_NODEV_FIX);
	return -ENODEV;
}

/* Why the device rule (choose.h) found nothing: the engine's messages. Returns
 * gd_conn_no_device's code for -ENODEV (-ENXIO: an unknown -d among devices). */
static int no_device(const struct gd_link_cfg *p, const struct gd_hca *hca, int err)
{
	const struct gd_port *pt = hca->name[0] ? gd_hca_port(hca, p->ib_port) : NULL;

	if (err == -ENODEV) {
		struct ibv_device **list;
		int n = 0;

		list = ibv_get_device_list(&n);
		err = gd_conn_no_device(p->dev, list, list ? n : 0, list ? 0 : errno);
		if (list)
			ibv_free_device_list(list);
	} else if (err == -ENOENT)
		gd_error("%s has no port %u; check -i (ports start at 1)", p->dev, p->ib_port);
	else if (err == -ENETDOWN && pt)
		gd_error("port %u of %s is %s, not ACTIVE; bring the link up (ip link set <netdev> "
			 "up, or check the cable/switch)", p->ib_port, p->dev,
			 pt->state_str[0] ? pt->state_str : "in an unknown state");
	else if (err == -ENETDOWN)
		gd_error("no RDMA device has port %u ACTIVE; check the links (gd_devinfo) or "
			 "pick one with -d/-i", p->ib_port);
	else
		gd_error("cannot read the RDMA devices: %s (%s)", strerror(-err),
			 gd_sysfs_errpath());
	return err;
}

/* Open the named device with verbs: the device rule chose it. */
static int open_named(struct gd_conn *c, const char *name)
{
	struct ibv_device **list;
	int n = 0, ret = -ENODEV;

	list = ibv_get_device_list(&n);
	if (!list) {
		gd_error("cannot list RDMA devices: %s; is the rdma-core package installed and a "
			 "driver loaded?", strerror(errno));
		return -ENODEV;
	}
	for (int i = 0; i < n; i++) {
		if (strcmp(ibv_get_device_name(list[i]), name))
			continue;
		c->ctx = ibv_open_device(list[i]);
		if (c->ctx) {
			c->own_ctx = true;
			ret = 0;
			break;
		}
		ret = errno == EACCES || errno == EPERM ? -EPERM : -ENODEV;
		gd_error("cannot open RDMA device %s: %s%s", name, strerror(-ret),
			 ret == -EPERM ? "; check the permissions of /dev/infiniband/uverbs*" : "");
		break;
	}
	if (ret == -ENODEV && !c->ctx && n >= 0)
		gd_error("verbs has no RDMA device %s, which sysfs lists: is its driver's "
			 "user-space provider (rdma-core) installed?", name);
	ibv_free_device_list(list);
	return ret;
}

/* -d, else the first device whose port -i is ACTIVE (choose.h); verbs confirms. */
static int open_by_name(struct gd_conn *c, const struct gd_link_cfg *p)
{
	struct gd_hca hca;
	int ret = gd_dev_choose(&p->machine, p->dev, p->ib_port, &hca);

	if (ret) {
		int code = no_device(p, &hca, ret);

		gd_rdma_free_hca(&hca);
		/* a bad -i or an unknown -d among devices is usage, the rest the environment */
		if (ret == -ENODEV)
			return code;
		return ret == -ENOENT ? -EINVAL : ret == -ENETDOWN && p->dev[0] ? -ENETDOWN : -ENODEV;
	}
	snprintf(c->dev_name, sizeof(c->dev_name), "%s", hca.name);
	gd_rdma_free_hca(&hca);
	ret = open_named(c, c->dev_name);
	if (ret)
		return ret;
	ret = port_ok(c->ctx, p->ib_port, &c->port_attr);
	if (ret)
		gd_error("port %u of %s is %s to verbs, though sysfs says ACTIVE; retry, or "
			 "check the link", p->ib_port, c->dev_name,
			 ret == -ENETDOWN ? port_state_str(c->port_attr.state) : "unknown");
	return ret;
}

/* Verbs must report the GID the rule chose from sysfs. */
static int confirm_gid(struct gd_conn *c, const struct gd_gid *g)
{
	struct ibv_gid_entry e;
	int ret = ibv_query_gid_ex(c->ctx, c->port, (uint32_t)g->index, &e, 0);

	if (ret) {
		gd_error("GID index %d of %s port %u is not valid: %s; list the GID table with "
			 "gd_devinfo", g->index, c->dev_name, c->port, strerror(ret > 0 ? ret : -ret));
		return -EINVAL;
	}
	if (memcmp(e.gid.raw, g->raw, sizeof(g->raw))) {
		gd_error("GID index %d of %s port %u is %s in sysfs but not to verbs; the table "
			 "changed (retry), or --sysfs-root is not this machine", g->index,
			 c->dev_name, c->port, g->gid);
		return -EIO;
	}
	c->gid_index = g->index;
	c->gid = e.gid;
	c->gid_type = g->type;
	snprintf(c->gid_netdev, sizeof(c->gid_netdev), "%s", g->netdev);
	return 0;
}

static void warn_unrouted(const struct gd_conn *c, const struct gd_gid_choice *ch)
{
	if (ch->route_err)
		gd_warn("no route to the peer (%s); using GID index %d (%s): give -x on both "
			"sides if traffic does not flow", strerror(-ch->route_err), ch->index,
			c->gid_netdev);
	else
		gd_warn("no RoCE v2 GID of %s matches the local address %s that routes to the "
			"peer; using GID index %d (%s): give -x on both sides if traffic does not "
			"flow", c->dev_name, ch->src_ip, ch->index, c->gid_netdev);
}

/* -x, else the GID rule (gid.h) over the port's table in sysfs. */
static int choose_gid(struct gd_conn *c, const struct gd_link_cfg *p,
		      const struct gd_port *port, const struct sockaddr *peer)
{
	struct gd_gid_choice ch;
	int ret;

	if (p->gid_index >= 0) {
		const struct gd_gid *g = gd_port_gid(port, p->gid_index);
		struct gd_gid given = { .index = p->gid_index };

		return confirm_gid(c, g ? g : &given); /* absent: verbs says why */
	}
	ret = gd_gid_choose(port, peer, p->ipv6 ? AF_INET6 : AF_INET, &ch);
	if (ret) {
		gd_error("%s port %u has no RoCE v2 %s GID; give the netdev an address or pick one "
			 "with -x", c->dev_name, c->port, p->ipv6 ? "IPv6" : "IPv4");
		return ret;
	}
	c->gid_auto = true;
	if (ch.index < 0) { /* InfiniBand: LID routing, no GRH */
		c->gid_index = -1;
		ibv_query_gid(c->ctx, c->port, 0, &c->gid);
		c->gid_type = GD_GID_IB;
		return 0;
	}
	ret = confirm_gid(c, ch.gid);
	if (!ret && peer && !ch.routed)
		warn_unrouted(c, &ch);
	return ret;
}

int gd_conn_choose_gid(struct gd_conn *c, const struct gd_link_cfg *p,
		       const struct sockaddr *peer)
{
	const struct gd_port *port;
	struct gd_hca hca;
	int ret = gd_rdma_read_hca(&p->machine, c->dev_name, &hca);

	if (ret) {
		gd_error("cannot read the GID table of %s under %s: %s (%s)", c->dev_name,
			 gd_machine_name(&p->machine), strerror(-ret), gd_sysfs_errpath());
		return -ENODEV;
	}
	port = gd_hca_port(&hca, c->port);
	if (port)
		ret = choose_gid(c, p, port, peer);
	else
		gd_error("%s has no port %u in sysfs under %s", c->dev_name, c->port,
			 gd_machine_name(&p->machine));
	gd_rdma_free_hca(&hca);
	return port ? ret : -ENODEV;
}

int gd_conn_open(struct gd_conn *c, const struct gd_link_cfg *p, struct ibv_context *ctx)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->port = p->ib_port;
	c->gid_index = -1;
	if (ctx) {
		c->ctx = ctx;
		snprintf(c->dev_name, sizeof(c->dev_name), "%s", ibv_get_device_name(ctx->device));
		ret = port_ok(ctx, c->port, &c->port_attr);
		if (ret) {
			gd_error("port %u of %s is not ACTIVE", c->port, c->dev_name);
			return ret;
		}
	} else {
		ret = open_by_name(c, p);
		if (ret)
			return ret;
	}
	ret = ibv_query_device(c->ctx, &c->dev_attr);
	if (ret) {
		gd_error("cannot query device %s: %s", c->dev_name, strerror(ret));
		return -ret;
	}
	c->roce = c->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET;
	c->mtu = gd_mtu_bytes(c->port_attr.active_mtu);
	if (p->mtu) {
		if (p->mtu > c->mtu)
			gd_warn("-m %u is larger than the active MTU of %s port %u (%u); using %u",
				p->mtu, c->dev_name, c->port, c->mtu, c->mtu);
		else
			c->mtu = p->mtu;
	}
	c->out_reads = p->out_reads ? p->out_reads : (uint32_t)c->dev_attr.max_qp_rd_atom;
	if (c->out_reads > (uint32_t)c->dev_attr.max_qp_rd_atom && c->dev_attr.max_qp_rd_atom > 0) {
		gd_warn("-o %u exceeds what %s takes (%d); using %d", c->out_reads, c->dev_name,
			c->dev_attr.max_qp_rd_atom, c->dev_attr.max_qp_rd_atom);
		c->out_reads = c->dev_attr.max_qp_rd_atom;
	}
	if (!c->out_reads)
		c->out_reads = 1;
	return 0;
}

static uint32_t send_depth(const struct gd_link_cfg *p)
{
	uint32_t d = p->tx_depth;
	if (p->kind == GD_KIND_LAT)
		d = GD_MAX(d, 2u);
	return d;
}

int gd_conn_alloc(struct gd_conn *c, const struct gd_link_cfg *p)
{
	uint32_t nq = p->num_qps;
	int cqe = (int)GD_MIN((uint64_t)(send_depth(p) + 1) * nq, (uint64_t)c->dev_attr.max_cqe);
	int rcqe = (int)GD_MIN((uint64_t)(p->rx_depth + 1) * nq, (uint64_t)c->dev_attr.max_cqe);

	c->pd = ibv_alloc_pd(c->ctx);
	if (!c->pd) {
		gd_error("cannot allocate a protection domain on %s: %s", c->dev_name,
			 strerror(errno));
		return -ENOMEM;
	}
	if (p->events && !(c->channel = ibv_create_comp_channel(c->ctx))) {
		gd_error("cannot create a completion channel on %s (-e): %s", c->dev_name,
			 strerror(errno));
		return -ENOMEM;
	}
	c->send_cq = ibv_create_cq(c->ctx, cqe, NULL, c->channel, 0);
	if (!c->send_cq) {
		gd_error("cannot create a CQ of %d entries on %s: %s", cqe, c->dev_name,
			 strerror(errno));
		return -ENOMEM;
	}
	c->recv_cq = ibv_create_cq(c->ctx, rcqe, NULL, c->channel, 0);
	if (!c->recv_cq) {
		gd_error("cannot create a receive CQ of %d entries on %s: %s", rcqe, c->dev_name,
			 strerror(errno));
		return -ENOMEM;
	}
	c->qp = calloc(nq, sizeof(*c->qp));
	return c->qp ? 0 : -ENOMEM;
}

void gd_conn_qp_init_attr(const struct gd_conn *c, const struct gd_link_cfg *p,
			  struct ibv_qp_init_attr *a, uint32_t inline_size)
{
	memset(a, 0, sizeof(*a));
	a->send_cq = c->send_cq;
	a->recv_cq = c->recv_cq;
	a->qp_type = IBV_QPT_RC;
	a->cap.max_send_wr = send_depth(p);
	a->cap.max_recv_wr = p->uses_recv ? p->rx_depth : 1;
	a->cap.max_send_sge = 1;
	a->cap.max_recv_sge = 1;
	a->cap.max_inline_data = inline_size;
	a->sq_sig_all = 0;
}

int gd_conn_qp_access(const struct gd_link_cfg *p)
{
	switch (p->op) {
	case GD_OP_WRITE: return IBV_ACCESS_REMOTE_WRITE;
	case GD_OP_READ: return IBV_ACCESS_REMOTE_READ;
	case GD_OP_ATOMIC: return IBV_ACCESS_REMOTE_ATOMIC;
	default: return 0;
	}
}

static bool inline_allowed(const struct gd_link_cfg *p)
{
	return p->op == GD_OP_WRITE || p->op == GD_OP_SEND;
}

/* Inline sizes to try, largest first: the latency default takes the first one
 * the device accepts; a refused -I is answered with it. */
static const uint32_t inline_tries[] = { 1024, 512, 256, 220, 128, 64, 0 };

/* The largest of inline_tries below `below` that the device takes with these
 * depths; -1 when it takes none (then the depths are the cause). */
static int inline_limit(struct gd_conn *c, const struct gd_link_cfg *p, uint32_t below)
{
	struct ibv_qp_init_attr a;

	for (size_t i = 0; i < GD_ARRAY_SIZE(inline_tries); i++) {
		struct ibv_qp *qp;

		if (inline_tries[i] >= below)
			continue;
		gd_conn_qp_init_attr(c, p, &a, inline_tries[i]);
		qp = ibv_create_qp(c->pd, &a);
		if (qp) {
			ibv_destroy_qp(qp);
			return (int)inline_tries[i];
		}
	}
	return -1;
}

/* NULL with *said when the message is out (an -I the device refuses). */
static struct ibv_qp *create_one(struct gd_conn *c, const struct gd_link_cfg *p, bool *said)
{
	struct ibv_qp_init_attr a;
	struct ibv_qp *qp;

	if (!inline_allowed(p) || p->inline_size >= 0) {
		uint32_t want = inline_allowed(p) && p->inline_size > 0 ? p->inline_size : 0;
		int err, limit;

		gd_conn_qp_init_attr(c, p, &a, want);
		qp = ibv_create_qp(c->pd, &a);
		if (qp) {
			c->max_inline = a.cap.max_inline_data >= want ? want : a.cap.max_inline_data;
			return qp;
		}
		err = errno;
		if (want && (limit = inline_limit(c, p, want)) >= 0) { /* -I alone is the cause */
			gd_error("-I/--inline_size %u: %s takes at most %d bytes of inline data "
				 "(with -t %u); lower -I to %d", want, c->dev_name, limit,
				 p->tx_depth, limit);
			*said = true;
		}
		errno = err;
		return NULL;
	}
	/* latency default: the largest inline size the device takes */
	for (size_t i = 0; i < GD_ARRAY_SIZE(inline_tries); i++) {
		gd_conn_qp_init_attr(c, p, &a, inline_tries[i]);
		qp = ibv_create_qp(c->pd, &a);
		if (qp) {
			c->max_inline = inline_tries[i];
			return qp;
		}
	}
	return NULL;
}

static int to_init(struct gd_conn *c, const struct gd_link_cfg *p, struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = c->port,
		.qp_access_flags = gd_conn_qp_access(p),
	};
	int ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				IBV_QP_ACCESS_FLAGS);
	if (ret) {
		gd_error("cannot move QP 0x%06x of %s to INIT: %s", qp->qp_num, c->dev_name,
			 strerror(ret));
		return -ret;
	}
	return 0;
}

int gd_conn_create_qps(struct gd_conn *c, const struct gd_link_cfg *p)
{
	for (uint32_t i = 0; i < p->num_qps; i++) {
		bool said = false;
		int ret;

		c->qp[i] = create_one(c, p, &said);
		if (!c->qp[i]) {
			int err = errno ? errno : ENOMEM;

			if (said)
				return -EINVAL;
			gd_error("cannot create QP %u of %u on %s (send depth %u, receive depth %u): "
				 "%s; lower -t/-r/-q", i + 1, p->num_qps, c->dev_name, p->tx_depth,
				 p->rx_depth, strerror(err));
			return -err;
		}
		c->nqp = i + 1;
		ret = to_init(c, p, c->qp[i]);
		if (ret)
			return ret;
	}
	return 0;
}

int gd_conn_adopt_qps(struct gd_conn *c, struct ibv_qp **qps, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		c->qp[i] = qps[i];
	c->nqp = n;
	c->cm_qps = true;
	return 0;
}

void gd_conn_local_info(const struct gd_conn *c, uint32_t i, uint32_t rkey, uint64_t vaddr,
			struct gd_wire_conn *info)
{
	memset(info, 0, sizeof(*info));
	info->qp_index = i;
	info->qp_count = c->nqp;
	info->lid = c->port_attr.lid;
	info->qpn = c->qp[i]->qp_num;
	info->psn = (uint32_t)lrand48() & 0xffffff;
	info->rkey = rkey;
	info->vaddr = vaddr;
	info->buf_size = 0;
	memcpy(info->gid, c->gid.raw, 16);
	info->gid_index = c->gid_index;
	info->out_reads = c->out_reads;
	info->mtu = c->mtu;
}

int gd_conn_connect(struct gd_conn *c, const struct gd_link_cfg *p, uint32_t i,
		    const struct gd_wire_conn *local, const struct gd_wire_conn *remote)
{
	struct ibv_qp *qp = c->qp[i];
	uint32_t mtu = GD_MIN(local->mtu, remote->mtu);
	uint32_t rd = GD_MIN(local->out_reads, remote->out_reads);
	struct ibv_qp_attr a;
	int ret;

	if (!gd_mtu_enum(mtu)) {
		gd_error("the peer's MTU %u is not one of 256..4096", remote->mtu);
		return -EPROTO;
	}
	if (c->gid_index < 0 && remote->gid_index >= 0) {
		gd_error("the peer uses GID index %d but this side uses none (InfiniBand LID "
			 "routing); give -x on both sides", remote->gid_index);
		return -EPROTO;
	}
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = gd_mtu_enum(mtu);
	a.dest_qp_num = remote->qpn;
	a.rq_psn = remote->psn;
	a.max_dest_rd_atomic = (uint8_t)GD_MIN(local->out_reads, 255u);
	a.min_rnr_timer = GD_RNR_TIMER;
	a.ah_attr.dlid = remote->lid;
	a.ah_attr.sl = p->sl; /* -S */
	a.ah_attr.port_num = c->port;
	if (c->gid_index >= 0) {
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.traffic_class = p->tclass; /* --tclass: RoCE v2's DS field */
		memcpy(a.ah_attr.grh.dgid.raw, remote->gid, 16);
		a.ah_attr.grh.sgid_index = (uint8_t)c->gid_index;
		a.ah_attr.grh.hop_limit = 0xff;
	}
	ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			    IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (ret) {
		gd_error("cannot move QP 0x%06x of %s to RTR (peer QP 0x%06x, GID index %d): %s; "
			 "check that both sides use the same link (GID) and MTU", qp->qp_num,
			 c->dev_name, remote->qpn, c->gid_index, strerror(ret));
		return -ret;
	}
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = p->qp_timeout;
	a.retry_cnt = GD_RETRY;
	a.rnr_retry = GD_RETRY;
	a.sq_psn = local->psn;
	a.max_rd_atomic = (uint8_t)GD_MIN(rd, 255u);
	ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			    IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
	if (ret) {
		gd_error("cannot move QP 0x%06x of %s to RTS: %s", qp->qp_num, c->dev_name,
			 strerror(ret));
		return -ret;
	}
	return 0;
}

void gd_conn_read_av(struct gd_conn *c, const struct gd_link_cfg *p, bool cm)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;
	int ret;

	c->av_sl = c->av_tclass = -1;
	if (!c->nqp || !c->qp || !c->qp[0])
		return;
	memset(&a, 0, sizeof(a));
	ret = ibv_query_qp(c->qp[0], &a, IBV_QP_AV, &ia);
	if (ret) {
		gd_warn("cannot read back the address vector of QP 0x%06x of %s (ibv_query_qp: %s): "
			"the service level and traffic class it sends with are not confirmed",
			c->qp[0]->qp_num, c->dev_name, strerror(ret));
		return;
	}
	c->av_sl = a.ah_attr.sl;
	if (a.ah_attr.is_global)
		c->av_tclass = a.ah_attr.grh.traffic_class;
	if (!cm && c->av_sl != p->sl)
		gd_warn("-S %u: QP 0x%06x of %s reads back service level %d (ibv_query_qp): the "
			"device did not keep it, so -S has no effect there (Soft-RoCE keeps no "
			"service level)", p->sl, c->qp[0]->qp_num, c->dev_name, c->av_sl);
	if (c->gid_index >= 0 && (cm ? p->tos_given : true) &&
	    c->av_tclass != (cm ? p->tos : p->tclass))
		gd_warn("%s %u: QP 0x%06x of %s reads back traffic class %d (ibv_query_qp): the "
			"device did not keep it; its packets carry another class than the one asked",
			cm ? "-T" : "--tclass", cm ? p->tos : p->tclass, c->qp[0]->qp_num,
			c->dev_name, c->av_tclass);
}

int gd_conn_rate_limit(struct gd_conn *c, const struct gd_link_cfg *p)
{
	struct ibv_device_attr_ex x;
	struct ibv_packet_pacing_caps *pp = &x.packet_pacing_caps;

	if (!p->rate_kbps)
		return 0;
	memset(&x, 0, sizeof(x));
	if (ibv_query_device_ex(c->ctx, NULL, &x) || !pp->qp_rate_limit_max ||
	    !(pp->supported_qpts & (1u << IBV_QPT_RC))) {
		gd_error("%s has no packet pacing for RC QPs (ibv_query_device_ex: qp_rate_limit_max "
			 "%u): it cannot hold --rate_limit_type HW; give --rate_limit_type SW (the "
			 "software pacer)", c->dev_name, pp->qp_rate_limit_max);
		return -ENOTSUP;
	}
	if (p->rate_kbps < pp->qp_rate_limit_min || p->rate_kbps > pp->qp_rate_limit_max) {
		gd_error("--rate_limit %u kbps is outside what %s paces (%u to %u kbps); give a rate "
			 "in that range or --rate_limit_type SW", p->rate_kbps, c->dev_name,
			 pp->qp_rate_limit_min, pp->qp_rate_limit_max);
		return -ENOTSUP;
	}
	for (uint32_t i = 0; i < c->nqp; i++) {
		struct ibv_qp_rate_limit_attr a = { .rate_limit = p->rate_kbps,
						    .max_burst_sz = p->rate_burst };
		int ret = ibv_modify_qp_rate_limit(c->qp[i], &a);

		if (ret) {
			gd_error("cannot set the rate limit %u kbps on QP 0x%06x of %s: %s; give "
				 "--rate_limit_type SW", p->rate_kbps, c->qp[i]->qp_num, c->dev_name,
				 strerror(ret));
			return -ENOTSUP;
		}
	}
	return 0;
}

void gd_conn_close_qps(struct gd_conn *c)
{
	if (!c->qp)
		return;
	for (uint32_t i = 0; i < c->nqp; i++)
		if (c->qp[i] && !c->cm_qps)
			ibv_destroy_qp(c->qp[i]);
	free(c->qp);
	c->qp = NULL;
	c->nqp = 0;
}

void gd_conn_close(struct gd_conn *c)
{
	gd_conn_close_qps(c);
	if (c->send_cq)
		ibv_destroy_cq(c->send_cq);
	if (c->recv_cq)
		ibv_destroy_cq(c->recv_cq);
	if (c->channel)
		ibv_destroy_comp_channel(c->channel);
	c->channel = NULL;
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	if (c->ctx && c->own_ctx)
		ibv_close_device(c->ctx);
	c->send_cq = c->recv_cq = NULL;
	c->pd = NULL;
	c->ctx = NULL;
}
