/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "conn.h"
#include "rdma_dev.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gd.h"
#include "log.h"

#define GD_RNR_TIMER 12
#define GD_QP_TIMEOUT 14 /* 4.096 us * 2^14 = 67 ms per try, 7 tries */
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

const char *gd_gid_type_name(int t)
{
	switch (t) {
	case IBV_GID_TYPE_IB: return "IB";
	case IBV_GID_TYPE_ROCE_V1: return "RoCE v1";
	case IBV_GID_TYPE_ROCE_V2: return "RoCE v2";
	}
	return "none";
}

void gd_gid_perftest_str(const uint8_t gid[16], char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < 16 && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%02d", i ? ":" : "", gid[i]);
}

static bool gid_is_v4mapped(const uint8_t *g)
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	return !memcmp(g, pfx, 12);
}

static bool gid_is_zero(const uint8_t *g)
{
	for (int i = 0; i < 16; i++)
		if (g[i])
			return false;
	return true;
}

static bool gid_is_linklocal(const uint8_t *g)
{
	if (gid_is_v4mapped(g))
		return g[12] == 169 && g[13] == 254;
	return g[0] == 0xfe && (g[1] & 0xc0) == 0x80;
}

static bool gid_matches(const uint8_t *g, const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
		return gid_is_v4mapped(g) && !memcmp(g + 12, &in->sin_addr, 4);
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
		return !memcmp(g, &in6->sin6_addr, 16);
	}
	return false;
}

int gd_gid_pick(const struct ibv_gid_entry *e, int n, const struct sockaddr *src, bool ipv6,
		bool *routed)
{
	*routed = false;
	if (src) {
		for (int i = 0; i < n; i++) {
			if (e[i].gid_type == IBV_GID_TYPE_ROCE_V2 && gid_matches(e[i].gid.raw, src)) {
				*routed = true;
				return (int)e[i].gid_index;
			}
		}
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++) {
			const uint8_t *g = e[i].gid.raw;
			bool fam = ipv6 ? !gid_is_v4mapped(g) : gid_is_v4mapped(g);

			if (e[i].gid_type != IBV_GID_TYPE_ROCE_V2 || gid_is_zero(g) || !fam)
				continue;
			if (pass == 0 && gid_is_linklocal(g))
				continue;
			return (int)e[i].gid_index;
		}
	}
	return -ENOENT;
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
	if (dev && *dev) { /* a name that does not exist is the user's to fix */
		gd_error("no RDMA device named '%s' (-d/--ib-dev)", gd_excerpt(dev));
		gd_info(n > 0 ? "devices here: %s" : "there are no RDMA devices here%s", names);
		return -ENXIO;
	}
	if (!list && err)
		gd_error("no RDMA devices found (cannot list them: %s)", strerror(err));
	else
		gd_error("no RDMA devices found (/sys/class/infiniband is empty or absent)");
	gd_info("%s", GD_RDMA_NODEV_FIX);
	return -ENODEV;
}

static int open_by_name(struct gd_conn *c, const struct gd_bench_params *p)
{
	struct ibv_device **list;
	int n = 0, ret = -ENODEV;

	list = ibv_get_device_list(&n);
	if (!list)
		return gd_conn_no_device(p->dev, NULL, 0, errno);
	if (n == 0) {
		ret = gd_conn_no_device(p->dev, list, 0, 0);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		const char *name = ibv_get_device_name(list[i]);
		struct ibv_context *ctx;
		struct ibv_port_attr pa;

		if (p->dev[0] && strcmp(p->dev, name))
			continue;
		ctx = ibv_open_device(list[i]);
		if (!ctx) {
			int err = errno ? errno : ENODEV;
			gd_error("cannot open RDMA device %s: %s%s", name, strerror(err),
				 err == EACCES || err == EPERM ?
				 "; check the permissions of /dev/infiniband/uverbs*" : "");
			ret = err == EACCES || err == EPERM ? -EPERM : -ENODEV;
			if (p->dev[0])
				goto out;
			continue;
		}
		ret = port_ok(ctx, p->ib_port, &pa);
		if (ret && p->dev[0]) {
			if (ret == -ENETDOWN)
				gd_error("port %u of %s is %s, not ACTIVE; bring the link up (ip link "
					 "set <netdev> up, or check the cable/switch)", p->ib_port,
					 name, port_state_str(pa.state));
			else
				gd_error("cannot query port %u of %s: %s; check -i (ports start at 1)",
					 p->ib_port, name, strerror(-ret));
			ibv_close_device(ctx);
			goto out;
		}
		if (ret) {
			ibv_close_device(ctx);
			continue;
		}
		c->ctx = ctx;
		c->own_ctx = true;
		c->port_attr = pa;
		snprintf(c->dev_name, sizeof(c->dev_name), "%s", name);
		ret = 0;
		goto out;
	}
	if (p->dev[0]) {
		ret = gd_conn_no_device(p->dev, list, n, 0);
		goto out;
	}
	gd_error("no RDMA device has port %u ACTIVE; check the links (gd_devinfo) or "
		 "pick one with -d/-i", p->ib_port);
	ret = -ENODEV;
out:
	ibv_free_device_list(list);
	return ret;
}

int gd_conn_choose_gid(struct gd_conn *c, const struct gd_bench_params *p,
		       const struct sockaddr *peer)
{
	struct ibv_gid_entry *e;
	struct sockaddr_storage src;
	int n = 0, idx, len = c->port_attr.gid_tbl_len;
	bool routed = false, have_src = false;

	if (p->gid_index >= 0) {
		struct ibv_gid_entry one;
		int ret = ibv_query_gid_ex(c->ctx, c->port, p->gid_index, &one, 0);

		if (ret) {
			gd_error("GID index %d (-x) of %s port %u is not valid: %s; list the GID "
				 "table with gd_devinfo", p->gid_index, c->dev_name, c->port,
				 strerror(ret > 0 ? ret : -ret));
			return -EINVAL;
		}
		c->gid_index = p->gid_index;
		c->gid = one.gid;
		c->gid_type = one.gid_type;
		if (!if_indextoname(one.ndev_ifindex, c->gid_netdev))
			c->gid_netdev[0] = 0;
		return 0;
	}
	if (!c->roce) {
		c->gid_index = -1; /* InfiniBand: LID routing, no GRH */
		ibv_query_gid(c->ctx, c->port, 0, &c->gid);
		c->gid_type = IBV_GID_TYPE_IB;
		return 0;
	}
	e = calloc(len > 0 ? len : 1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (int i = 0; i < len; i++) {
		if (ibv_query_gid_ex(c->ctx, c->port, i, &e[n], 0) == 0)
			n++;
	}
	if (peer && gd_route_source_addr(peer, &src) == 0)
		have_src = true;
	idx = gd_gid_pick(e, n, have_src ? (struct sockaddr *)&src : NULL, p->ipv6, &routed);
	if (idx < 0) {
		gd_error("%s port %u has no RoCE v2 %s GID; give the netdev an address or pick one "
			 "with -x", c->dev_name, c->port, p->ipv6 ? "IPv6" : "IPv4");
		free(e);
		return -ENOENT;
	}
	for (int i = 0; i < n; i++) {
		if ((int)e[i].gid_index != idx)
			continue;
		c->gid = e[i].gid;
		c->gid_type = e[i].gid_type;
		if (!if_indextoname(e[i].ndev_ifindex, c->gid_netdev))
			c->gid_netdev[0] = 0;
	}
	if (peer && !routed) {
		char a[INET6_ADDRSTRLEN] = "?";
		if (have_src)
			getnameinfo((struct sockaddr *)&src, sizeof(src), a, sizeof(a), NULL, 0,
				    NI_NUMERICHOST);
		gd_warn("no RoCE v2 GID of %s matches the local address %s that routes to the "
			"peer; using GID index %d (%s): give -x on both sides if traffic does not "
			"flow", c->dev_name, a, idx, c->gid_netdev);
	}
	c->gid_index = idx;
	c->gid_auto = true;
	free(e);
	return 0;
}

int gd_conn_open(struct gd_conn *c, const struct gd_bench_params *p, struct ibv_context *ctx)
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

static uint32_t send_depth(const struct gd_bench_params *p)
{
	uint32_t d = p->tx_depth;
	if (p->kind == GD_KIND_LAT)
		d = GD_MAX(d, 2u);
	return d;
}

int gd_conn_alloc(struct gd_conn *c, const struct gd_bench_params *p)
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
	c->send_cq = ibv_create_cq(c->ctx, cqe, NULL, NULL, 0);
	if (!c->send_cq) {
		gd_error("cannot create a CQ of %d entries on %s: %s", cqe, c->dev_name,
			 strerror(errno));
		return -ENOMEM;
	}
	c->recv_cq = ibv_create_cq(c->ctx, rcqe, NULL, NULL, 0);
	if (!c->recv_cq) {
		gd_error("cannot create a receive CQ of %d entries on %s: %s", rcqe, c->dev_name,
			 strerror(errno));
		return -ENOMEM;
	}
	c->qp = calloc(nq, sizeof(*c->qp));
	return c->qp ? 0 : -ENOMEM;
}

void gd_conn_qp_init_attr(const struct gd_conn *c, const struct gd_bench_params *p,
			  struct ibv_qp_init_attr *a, uint32_t inline_size)
{
	memset(a, 0, sizeof(*a));
	a->send_cq = c->send_cq;
	a->recv_cq = c->recv_cq;
	a->qp_type = IBV_QPT_RC;
	a->cap.max_send_wr = send_depth(p);
	a->cap.max_recv_wr = gd_bench_uses_recv(p) ? p->rx_depth : 1;
	a->cap.max_send_sge = 1;
	a->cap.max_recv_sge = 1;
	a->cap.max_inline_data = inline_size;
	a->sq_sig_all = 0;
}

int gd_conn_qp_access(const struct gd_bench_params *p)
{
	switch (p->op) {
	case GD_OP_WRITE: return IBV_ACCESS_REMOTE_WRITE;
	case GD_OP_READ: return IBV_ACCESS_REMOTE_READ;
	case GD_OP_ATOMIC: return IBV_ACCESS_REMOTE_ATOMIC;
	default: return 0;
	}
}

static bool inline_allowed(const struct gd_bench_params *p)
{
	return p->op == GD_OP_WRITE || p->op == GD_OP_SEND;
}

static struct ibv_qp *create_one(struct gd_conn *c, const struct gd_bench_params *p)
{
	static const uint32_t tries[] = { 1024, 512, 256, 220, 128, 64, 0 };
	struct ibv_qp_init_attr a;
	struct ibv_qp *qp;

	if (!inline_allowed(p) || p->inline_size >= 0) {
		uint32_t want = inline_allowed(p) && p->inline_size > 0 ? p->inline_size : 0;
		gd_conn_qp_init_attr(c, p, &a, want);
		qp = ibv_create_qp(c->pd, &a);
		if (qp)
			c->max_inline = a.cap.max_inline_data >= want ? want : a.cap.max_inline_data;
		else if (want)
			gd_error("cannot create a QP with %u bytes of inline data (-I) on %s: %s",
				 want, c->dev_name, strerror(errno));
		return qp;
	}
	/* latency default: the largest inline size the device takes */
	for (size_t i = 0; i < GD_ARRAY_SIZE(tries); i++) {
		gd_conn_qp_init_attr(c, p, &a, tries[i]);
		qp = ibv_create_qp(c->pd, &a);
		if (qp) {
			c->max_inline = tries[i];
			return qp;
		}
	}
	return NULL;
}

static int to_init(struct gd_conn *c, const struct gd_bench_params *p, struct ibv_qp *qp)
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

int gd_conn_create_qps(struct gd_conn *c, const struct gd_bench_params *p)
{
	for (uint32_t i = 0; i < p->num_qps; i++) {
		int ret;

		c->qp[i] = create_one(c, p);
		if (!c->qp[i]) {
			int err = errno ? errno : ENOMEM;
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

int gd_conn_connect(struct gd_conn *c, const struct gd_bench_params *p, uint32_t i,
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
	a.ah_attr.sl = 0;
	a.ah_attr.port_num = c->port;
	if (c->gid_index >= 0) {
		a.ah_attr.is_global = 1;
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
	a.timeout = GD_QP_TIMEOUT;
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
	(void)p;
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
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	if (c->ctx && c->own_ctx)
		ibv_close_device(c->ctx);
	c->send_cq = c->recv_cq = NULL;
	c->pd = NULL;
	c->ctx = NULL;
}
