/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "devinfo_peer.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

#include "choose.h"
#include "jsonout.h"
#include "log.h"
#include "opts.h"

/* The first address of host, as the benchmark client tries them (any family). */
static int resolve(const char *host, struct sockaddr_storage *ss, char *text, size_t len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL;
	int gai;

	if (!gd_host_ok(host, true)) {
		gd_error("--peer %s: not a host name or a numeric address; give the server's "
			 "address or name, as for the test", gd_excerpt(host));
		return -EINVAL;
	}
	gai = getaddrinfo(host, NULL, &hints, &res);
	if (gai || !res) {
		gd_error("--peer %s: %s; give the server's address or name, as for the test",
			 gd_excerpt(host), gai ? gai_strerror(gai) : "no address");
		return -EINVAL;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	getnameinfo(res->ai_addr, res->ai_addrlen, text, (socklen_t)len, NULL, 0, NI_NUMERICHOST);
	freeaddrinfo(res);
	return 0;
}

static void choose_gid(struct gd_devinfo_peer *p, const struct gd_hca *hca,
		       const struct sockaddr *peer)
{
	const struct gd_port *port = gd_hca_port(hca, p->port);

	p->gid_err = gd_gid_choose(port, peer, AF_INET, &p->ch);
	if (p->ch.gid) {
		p->gid = *p->ch.gid;
		p->ch.gid = &p->gid; /* the table is freed with hca */
	}
}

int gd_devinfo_peer(const struct gd_machine *m, const char *dev, const char *host,
		    struct gd_devinfo_peer *p)
{
	struct sockaddr_storage ss;
	struct gd_hca hca;
	int ret;

	memset(p, 0, sizeof(*p));
	snprintf(p->host, sizeof(p->host), "%s", host);
	p->port = GD_DEVINFO_PEER_PORT;
	p->ch.index = -1;
	ret = resolve(host, &ss, p->addr, sizeof(p->addr));
	if (ret)
		return ret;
	p->dev_err = gd_dev_choose(m, dev, p->port, &hca);
	if (!p->dev_err) {
		snprintf(p->dev, sizeof(p->dev), "%s", hca.name);
		choose_gid(p, &hca, (struct sockaddr *)&ss);
	} else if (p->dev_err == -ENETDOWN && hca.name[0]) {
		const struct gd_port *pt = gd_hca_port(&hca, p->port);

		snprintf(p->port_state, sizeof(p->port_state), "%s", pt ? pt->state_str : "");
	}
	gd_rdma_free_hca(&hca);
	return 0;
}

int gd_devinfo_peer_status(const struct gd_devinfo_peer *p)
{
	return p->dev_err ? p->dev_err : p->gid_err;
}

/* Why no device: the engine would stop with the same cause. */
static const char *dev_why(const struct gd_devinfo_peer *p, char *buf, size_t len)
{
	switch (p->dev_err) {
	case -ENODEV:
		return "no such RDMA device (or none at all)";
	case -ENOENT:
		return "the device has no port 1";
	case -ENETDOWN:
		if (p->port_state[0])
			snprintf(buf, len, "port 1 is %s, not ACTIVE", p->port_state);
		else
			snprintf(buf, len, "no RDMA device has port 1 ACTIVE");
		return buf;
	}
	snprintf(buf, len, "cannot read the devices: %s", strerror(-p->dev_err));
	return buf;
}

/* How the GID was chosen, one line. */
static void gid_why(const struct gd_devinfo_peer *p, char *buf, size_t len)
{
	const struct gd_gid_choice *ch = &p->ch;

	if (ch->routed)
		snprintf(buf, len, "by the route: this machine reaches %s from %s", p->addr,
			 ch->src_ip);
	else if (ch->route_err)
		snprintf(buf, len, "as the default: no route to %s (%s)", p->addr,
			 strerror(-ch->route_err));
	else
		snprintf(buf, len, "as the default: the route to %s leaves from %s, which no RoCE v2 "
			 "GID of this port carries; pass -x on both sides if traffic does not "
			 "flow", p->addr, ch->src_ip);
}

void gd_devinfo_peer_text(const struct gd_devinfo_peer *p, FILE *out)
{
	const struct gd_gid *g = p->ch.gid;
	char why[320];

	fprintf(out, "\nA test toward %s (%s), without -x:\n", p->host, p->addr);
	if (p->dev_err) {
		fprintf(out, "    no device: %s\n", dev_why(p, why, sizeof(why)));
		return;
	}
	if (p->gid_err) {
		fprintf(out, "    device %s port %d, no GID: no RoCE v2 GID with an IPv4 address; "
			     "give the netdev an address, or pass -x\n", p->dev, p->port);
		return;
	}
	if (!g) {
		fprintf(out, "    device %s port %d, no GID (InfiniBand: LID routing)\n", p->dev,
			p->port);
		return;
	}
	fprintf(out, "    device %s port %d, GID index %d: %s (%s, %s on %s)\n", p->dev, p->port,
		g->index, g->gid, gd_gid_type_str(g->type), g->ip, g->netdev[0] ? g->netdev : "-");
	gid_why(p, why, sizeof(why));
	fprintf(out, "    chosen %s\n", why);
}

static const char *choice_str(const struct gd_devinfo_peer *p)
{
	if (p->dev_err || p->gid_err)
		return "none";
	if (!p->ch.gid)
		return "lid";
	return p->ch.routed ? "route" : "default";
}

void *gd_devinfo_peer_json(const struct gd_devinfo_peer *p)
{
	json_object *rec = gd_json_record("peer");
	const struct gd_gid *g = p->ch.gid;
	const char *err = "";
	char why[128];

	gd_json_add_str(rec, "host", p->host);
	gd_json_add_str(rec, "address", p->addr);
	gd_json_add_str_or_null(rec, "device", p->dev);
	gd_json_add_int(rec, "port", p->port);
	gd_json_add_str(rec, "choice", choice_str(p));
	gd_json_add_int_or_null(rec, "gid_index", g ? g->index : 0, g != NULL);
	gd_json_add_str_or_null(rec, "gid", g ? g->gid : "");
	gd_json_add_str_or_null(rec, "gid_type", g ? gd_gid_type_str(g->type) : "");
	gd_json_add_str_or_null(rec, "gid_address", g ? g->ip : "");
	gd_json_add_str_or_null(rec, "gid_netdev", g ? g->netdev : "");
	gd_json_add_bool(rec, "routed", p->ch.routed);
	gd_json_add_str_or_null(rec, "source_address", p->ch.src_ip);
	if (p->dev_err)
		err = dev_why(p, why, sizeof(why));
	else if (p->gid_err)
		err = "no RoCE v2 GID with an IPv4 address";
	gd_json_add_str_or_null(rec, "error", err);
	return rec;
}
