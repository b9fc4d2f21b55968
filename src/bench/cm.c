/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "cm.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conn.h"
#include "gd.h"
#include "log.h"

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Wait for the next event within the deadline. */
static int next_event(struct gd_cm *cm, uint64_t deadline, struct rdma_cm_event **ev)
{
	for (;;) {
		struct pollfd pfd = { .fd = cm->ch->fd, .events = POLLIN };
		uint64_t now = now_ms();
		int r;

		if (rdma_get_cm_event(cm->ch, ev) == 0)
			return 0;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			int err = errno;
			gd_error("rdma_cm: cannot read an event: %s", strerror(err));
			return -err;
		}
		if (now >= deadline)
			return -ETIMEDOUT;
		r = poll(&pfd, 1, (int)GD_MIN(deadline - now, 1000u));
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

static int expect(struct gd_cm *cm, enum rdma_cm_event_type want, const char *step,
		  uint64_t deadline, struct rdma_cm_event **out)
{
	struct rdma_cm_event *ev;
	int ret = next_event(cm, deadline, &ev);

	if (ret == -ETIMEDOUT) {
		gd_error("rdma_cm: %s did not complete within %d ms (--timeout); check that the "
			 "peer runs with -R and that the address routes over an RDMA device",
			 step, cm->timeout_ms);
		return ret;
	}
	if (ret)
		return ret;
	if (ev->event != want) {
		const char *why = "";

		switch (ev->event) {
		case RDMA_CM_EVENT_REJECTED:
			why = ": the peer rejected the connection (not listening with -R on this "
			      "port, or busy)";
			break;
		case RDMA_CM_EVENT_UNREACHABLE:
			why = ": the peer is unreachable over RDMA (link down, wrong GID/route)";
			break;
		case RDMA_CM_EVENT_ADDR_ERROR:
			why = ": the address is not reachable through an RDMA device";
			break;
		case RDMA_CM_EVENT_ROUTE_ERROR:
			why = ": no route to the peer";
			break;
		case RDMA_CM_EVENT_DISCONNECTED:
			why = ": the peer disconnected";
			break;
		default:
			break;
		}
		gd_error("rdma_cm: %s failed: got %s (status %d)%s", step, rdma_event_str(ev->event),
			 ev->status, why);
		rdma_ack_cm_event(ev);
		return -ECONNREFUSED;
	}
	if (out)
		*out = ev;
	else
		rdma_ack_cm_event(ev);
	return 0;
}

static int pick_ctx(struct gd_cm *cm, const struct gd_link_cfg *p)
{
	int n = 0;

	cm->devs = rdma_get_devices(&n);
	if (!cm->devs || n == 0)
		return gd_conn_no_device(p->dev, NULL, 0, errno);
	for (int i = 0; i < n; i++) {
		const char *name = ibv_get_device_name(cm->devs[i]->device);
		struct ibv_port_attr pa;

		if (p->dev[0] && strcmp(p->dev, name))
			continue;
		if (!p->dev[0] && (ibv_query_port(cm->devs[i], p->ib_port, &pa) ||
				   pa.state != IBV_PORT_ACTIVE))
			continue;
		cm->ctx = cm->devs[i];
		return 0;
	}
	if (p->dev[0]) {
		struct ibv_device *devs[64];

		for (int i = 0; i < n && i < 64; i++)
			devs[i] = cm->devs[i]->device;
		return gd_conn_no_device(p->dev, devs, GD_MIN(n, 64), 0);
	}
	gd_error("no RDMA device has port %u ACTIVE; check the links or pick one with -d",
		 p->ib_port);
	return -ENODEV;
}

static int resolve(const char *host, uint16_t port, bool passive, bool ipv6,
		   struct sockaddr_storage *ss)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
	char ports[8];
	int r;

	hints.ai_family = ipv6 ? AF_INET6 : AF_UNSPEC;
	hints.ai_flags = passive ? AI_PASSIVE : 0;
	snprintf(ports, sizeof(ports), "%u", port);
	r = getaddrinfo(host && *host ? host : NULL, ports, &hints, &res);
	if (r) {
		gd_error("rdma_cm: cannot resolve '%s': %s", host ? host : "", gai_strerror(r));
		return -EHOSTUNREACH;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	return 0;
}

/*
 * Bind the listener: to --bind's address, else to the IPv6 wildcard, which
 * (net.ipv6.bindv6only 0, the default) takes IPv4 and IPv6 clients alike, as
 * the TCP side channel does; to the IPv4 wildcard where IPv6 is absent.
 * (The IPv4 wildcard alone rejected an IPv6 client with consumer reason 28.)
 */
static int cm_bind(struct gd_cm *cm, const struct gd_link_cfg *p)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6, .sin6_port = htons(p->tcp_port),
				   .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_port = htons(p->tcp_port),
				  .sin_addr.s_addr = htonl(INADDR_ANY) };
	struct sockaddr_storage ss;
	int ret;

	if (p->bind_addr[0]) {
		ret = resolve(p->bind_addr, p->tcp_port, true, p->ipv6, &ss);
		if (ret)
			return ret; /* printed */
		ret = rdma_bind_addr(cm->listen_id, (struct sockaddr *)&ss) ? -errno : 0;
	} else {
		ret = rdma_bind_addr(cm->listen_id, (struct sockaddr *)&s6) ? -errno : 0;
		if (ret == -EAFNOSUPPORT || ret == -EADDRNOTAVAIL)
			ret = rdma_bind_addr(cm->listen_id, (struct sockaddr *)&s4) ? -errno : 0;
	}
	if (ret)
		gd_error("rdma_cm: cannot bind port %u: %s%s", p->tcp_port, strerror(-ret),
			 ret == -EADDRINUSE ? " (another server runs on it: pick -p)" : "");
	return ret;
}

/* -T: the type of service of an id, before its route is resolved (the
 * listening id's is the accepted ids' too). */
static int set_tos(struct rdma_cm_id *id, const struct gd_link_cfg *p)
{
	uint8_t tos = p->tos;

	if (!p->tos_given)
		return 0;
	if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, sizeof(tos))) {
		gd_error("rdma_cm: cannot set the type of service %u (-T): %s", tos, strerror(errno));
		return -EINVAL;
	}
	return 0;
}

static int cm_listen(struct gd_cm *cm, const struct gd_link_cfg *p)
{
	int ret;

	if (rdma_create_id(cm->ch, &cm->listen_id, NULL, RDMA_PS_TCP)) {
		gd_error("rdma_cm: cannot create an id: %s", strerror(errno));
		return -ENODEV;
	}
	ret = set_tos(cm->listen_id, p) ?: cm_bind(cm, p);
	if (ret)
		return ret;
	if (rdma_listen(cm->listen_id, (int)cm->n)) {
		gd_error("rdma_cm: cannot listen: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

int gd_cm_init(struct gd_cm *cm, const struct gd_link_cfg *p, struct ibv_context **ctx)
{
	int ret;

	memset(cm, 0, sizeof(*cm));
	cm->timeout_ms = (int)p->timeout_ms;
	cm->n = p->num_qps;
	cm->ids = calloc(cm->n, sizeof(*cm->ids));
	if (!cm->ids)
		return -ENOMEM;
	ret = pick_ctx(cm, p);
	if (ret)
		return ret;
	*ctx = cm->ctx;
	cm->ch = rdma_create_event_channel();
	if (!cm->ch) {
		gd_error("rdma_cm: cannot create an event channel: %s; is rdma_ucm loaded "
			 "(/dev/infiniband/rdma_cm)?", strerror(errno));
		return -ENODEV;
	}
	fcntl(cm->ch->fd, F_SETFL, fcntl(cm->ch->fd, F_GETFL) | O_NONBLOCK);
	if (p->role == GD_ROLE_SERVER)
		return cm_listen(cm, p);
	return 0;
}

static void conn_param(struct rdma_conn_param *cp, const struct gd_conn *conn)
{
	memset(cp, 0, sizeof(*cp));
	cp->responder_resources = (uint8_t)GD_MIN(conn->out_reads, 255u);
	cp->initiator_depth = (uint8_t)GD_MIN(conn->out_reads, 255u);
	cp->retry_count = 7;
	cp->rnr_retry_count = 7;
}

/* -u: rdma_cm moves the QP to RTS itself; it takes the ACK timeout as an
 * option of the id (a kernel without it keeps its own, with a warning). */
static void ack_timeout(struct rdma_cm_id *id, uint8_t t)
{
	if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &t, sizeof(t)))
		gd_warn("rdma_cm: cannot set the ACK timeout (-u %u): %s; the kernel's default "
			"applies", t, strerror(errno));
}

static int create_qp(struct gd_cm *cm, struct rdma_cm_id *id, struct gd_conn *conn,
		     const struct gd_link_cfg *p, uint32_t i)
{
	struct ibv_qp_init_attr a;
	uint32_t inl = (p->op == GD_OP_WRITE || p->op == GD_OP_SEND) ?
		       (p->inline_size < 0 ? 220 : (uint32_t)p->inline_size) : 0;

	for (;;) {
		gd_conn_qp_init_attr(conn, p, &a, inl);
		if (rdma_create_qp(id, conn->pd, &a) == 0)
			break;
		if (p->inline_size >= 0 || inl == 0) {
			gd_error("rdma_cm: cannot create QP %u: %s; lower -t/-r/-I", i + 1,
				 strerror(errno));
			return -ENOMEM;
		}
		inl = inl > 64 ? inl / 2 : 0;
	}
	conn->max_inline = inl;
	conn->qp[i] = id->qp;
	cm->ids[i] = id;
	return 0;
}

int gd_cm_connect(struct gd_cm *cm, struct gd_conn *conn, const struct gd_link_cfg *p)
{
	struct sockaddr_storage dst, src;
	struct rdma_conn_param cp;
	uint64_t deadline = now_ms() + (uint64_t)cm->timeout_ms;
	int ret;

	ret = resolve(p->peer, p->tcp_port, false, p->ipv6, &dst);
	if (ret)
		return ret;
	if (p->source_ip[0]) {
		ret = resolve(p->source_ip, 0, false, p->ipv6, &src);
		if (ret)
			return ret;
	}
	for (uint32_t i = 0; i < cm->n; i++) {
		struct rdma_cm_id *id;

		if (rdma_create_id(cm->ch, &id, NULL, RDMA_PS_TCP)) {
			gd_error("rdma_cm: cannot create an id: %s", strerror(errno));
			return -ENODEV;
		}
		cm->ids[i] = id;
		if (set_tos(id, p))
			return -EINVAL;
		if (rdma_resolve_addr(id, p->source_ip[0] ? (struct sockaddr *)&src : NULL,
				      (struct sockaddr *)&dst, cm->timeout_ms)) {
			gd_error("rdma_cm: cannot resolve %s: %s", p->peer, strerror(errno));
			return -EHOSTUNREACH;
		}
		ret = expect(cm, RDMA_CM_EVENT_ADDR_RESOLVED, "address resolution", deadline, NULL);
		if (ret)
			return ret;
		if (id->verbs != conn->ctx) {
			gd_error("rdma_cm: %s is reached through device %s, not %s; use -d %s or "
				 "another address", p->peer, ibv_get_device_name(id->verbs->device),
				 conn->dev_name, ibv_get_device_name(id->verbs->device));
			return -EINVAL;
		}
		if (rdma_resolve_route(id, cm->timeout_ms)) {
			gd_error("rdma_cm: cannot resolve the route to %s: %s", p->peer, strerror(errno));
			return -EHOSTUNREACH;
		}
		ret = expect(cm, RDMA_CM_EVENT_ROUTE_RESOLVED, "route resolution", deadline, NULL);
		if (ret)
			return ret;
		ret = create_qp(cm, id, conn, p, i);
		if (ret)
			return ret;
		ack_timeout(id, p->qp_timeout);
		conn_param(&cp, conn);
		if (rdma_connect(id, &cp)) {
			gd_error("rdma_cm: cannot connect to %s: %s", p->peer, strerror(errno));
			return -ECONNREFUSED;
		}
		ret = expect(cm, RDMA_CM_EVENT_ESTABLISHED, "connection", deadline, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

int gd_cm_accept(struct gd_cm *cm, struct gd_conn *conn, const struct gd_link_cfg *p)
{
	struct rdma_conn_param cp;
	uint64_t deadline = now_ms() + (uint64_t)cm->timeout_ms;
	int ret;

	for (uint32_t i = 0; i < cm->n; i++) {
		struct rdma_cm_event *ev;
		struct rdma_cm_id *id;

		ret = expect(cm, RDMA_CM_EVENT_CONNECT_REQUEST, "waiting for the client's connect "
			     "request", deadline, &ev);
		if (ret)
			return ret;
		id = ev->id;
		rdma_ack_cm_event(ev);
		if (id->verbs != conn->ctx) {
			gd_error("rdma_cm: the client arrived on device %s, not %s; use -d %s",
				 ibv_get_device_name(id->verbs->device), conn->dev_name,
				 ibv_get_device_name(id->verbs->device));
			rdma_reject(id, NULL, 0);
			rdma_destroy_id(id);
			return -EINVAL;
		}
		ret = set_tos(id, p) ?: create_qp(cm, id, conn, p, i);
		if (ret) {
			rdma_reject(id, NULL, 0);
			return ret;
		}
		ack_timeout(id, p->qp_timeout);
		conn_param(&cp, conn);
		if (rdma_accept(id, &cp)) {
			gd_error("rdma_cm: cannot accept: %s", strerror(errno));
			return -ECONNREFUSED;
		}
		ret = expect(cm, RDMA_CM_EVENT_ESTABLISHED, "connection", deadline, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

void gd_cm_update_conn(struct gd_cm *cm, struct gd_conn *conn)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	gd_conn_adopt_qps(conn, conn->qp, cm->n);
	if (!cm->n || !cm->ids[0] || !cm->ids[0]->qp)
		return;
	if (ibv_query_qp(cm->ids[0]->qp, &a, IBV_QP_AV | IBV_QP_PATH_MTU, &ia) == 0) {
		conn->mtu = gd_mtu_bytes(a.path_mtu);
		if (a.ah_attr.is_global) {
			struct ibv_gid_entry e;

			conn->gid_index = a.ah_attr.grh.sgid_index;
			if (ibv_query_gid_ex(conn->ctx, conn->port, conn->gid_index, &e, 0) == 0) {
				conn->gid = e.gid;
				conn->gid_type = (int)e.gid_type;
			}
			conn->gid_auto = false;
		}
	}
}

void gd_cm_close(struct gd_cm *cm)
{
	for (uint32_t i = 0; cm->ids && i < cm->n; i++) {
		if (!cm->ids[i])
			continue;
		if (cm->ids[i]->qp) {
			rdma_disconnect(cm->ids[i]);
			rdma_destroy_qp(cm->ids[i]);
		}
		rdma_destroy_id(cm->ids[i]);
		cm->ids[i] = NULL;
	}
	if (cm->listen_id) {
		rdma_destroy_id(cm->listen_id);
		cm->listen_id = NULL;
	}
}

void gd_cm_release(struct gd_cm *cm)
{
	if (cm->ch)
		rdma_destroy_event_channel(cm->ch);
	if (cm->devs)
		rdma_free_devices(cm->devs);
	free(cm->ids);
	memset(cm, 0, sizeof(*cm));
}
