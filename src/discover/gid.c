/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* GID table: /sys/class/infiniband/D/ports/P/{gids,gid_attrs/types,gid_attrs/ndevs}/N */
#include "config.h"

#include "gid.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sysfs.h"

const char *gd_gid_type_str(enum gd_gid_type t)
{
	switch (t) {
	case GD_GID_IB:
		return "IB";
	case GD_GID_ROCE_V1:
		return "RoCE v1";
	case GD_GID_ROCE_V2:
		return "RoCE v2";
	default:
		return "unknown";
	}
}

bool gd_gid_raw_is_v4mapped(const uint8_t raw[16])
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(raw, pfx, sizeof(pfx)) == 0;
}

int gd_gid_parse(const char *text, struct gd_gid *gid)
{
	uint8_t raw[16];
	char norm[GD_GID_STR_LEN];
	const char *p = text;
	bool zero = true;

	/* exactly "xxxx:xxxx:xxxx:xxxx:xxxx:xxxx:xxxx:xxxx" */
	for (int g = 0; g < 8; g++) {
		unsigned v = 0;

		for (int i = 0; i < 4; i++, p++) {
			if (!isxdigit((unsigned char)*p))
				return -EINVAL;
			v = v * 16 + (unsigned)(isdigit((unsigned char)*p) ?
					*p - '0' : tolower((unsigned char)*p) - 'a' + 10);
			norm[g * 5 + i] = (char)tolower((unsigned char)*p);
		}
		if (g < 7) {
			if (*p != ':')
				return -EINVAL;
			norm[g * 5 + 4] = ':';
			p++;
		}
		raw[2 * g] = (unsigned char)(v >> 8);
		raw[2 * g + 1] = (unsigned char)v;
		if (v)
			zero = false;
	}
	while (*p == ' ' || *p == '\n' || *p == '\t')
		p++;
	if (*p)
		return -EINVAL;
	if (zero)
		return -ENODATA;
	norm[39] = '\0';

	memcpy(gid->gid, norm, sizeof(norm));
	memcpy(gid->raw, raw, sizeof(gid->raw));
	gid->ipv4 = gd_gid_raw_is_v4mapped(raw);
	if (gid->ipv4) {
		inet_ntop(AF_INET, raw + 12, gid->ip, sizeof(gid->ip));
		gid->link_local = raw[12] == 169 && raw[13] == 254;
	} else {
		inet_ntop(AF_INET6, raw, gid->ip, sizeof(gid->ip));
		gid->link_local = raw[0] == 0xfe && (raw[1] & 0xc0) == 0x80;
	}
	return 0;
}

int gd_gid_parse_type(const char *text, const char *link_layer, enum gd_gid_type *type)
{
	if (!strcmp(text, "RoCE v2")) {
		*type = GD_GID_ROCE_V2;
		return 0;
	}
	if (!strcmp(text, "IB/RoCE v1") || !strcmp(text, "RoCE v1") || !strcmp(text, "IB")) {
		*type = link_layer && !strcmp(link_layer, "InfiniBand") ? GD_GID_IB : GD_GID_ROCE_V1;
		return 0;
	}
	return -EINVAL;
}

/* Entry names of gids/ in numeric order ("0", "1", ..., "10", ...). */
static int cmp_index(const void *a, const void *b)
{
	const struct gd_gid *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static int parse_index(const char *name)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(name, &end, 10);
	if (errno || end == name || *end || v < 0 || v > INT_MAX)
		return -1;
	return (int)v;
}

static void read_attrs(const struct gd_machine *m, const char *dev, int port,
		       const char *link_layer, struct gd_gid *g, struct gd_read_errors *errs)
{
	char buf[64];
	int ret;

	g->type = GD_GID_UNKNOWN;
	ret = gd_sysfs_read_str(m, buf, sizeof(buf),
				"/sys/class/infiniband/%s/ports/%d/gid_attrs/types/%d", dev, port,
				g->index);
	if (ret == 0) {
		if (gd_gid_parse_type(buf, link_layer, &g->type))
			gd_read_errors_bad(m, errs, buf, "\"IB/RoCE v1\" or \"RoCE v2\"",
					   "/sys/class/infiniband/%s/ports/%d/gid_attrs/types/%d",
					   dev, port, g->index);
	} else if (!strcmp(link_layer, "InfiniBand")) {
		g->type = GD_GID_IB; /* old kernels have no gid_attrs for IB */
	} else if (ret != -ENOENT && ret != -EINVAL) {
		gd_read_errors_add(errs, gd_sysfs_errpath(), ret);
	}
	/* IB GIDs have no netdev: the kernel answers EINVAL or ENODEV */
	ret = gd_sysfs_read_str(m, g->netdev, sizeof(g->netdev),
				"/sys/class/infiniband/%s/ports/%d/gid_attrs/ndevs/%d", dev, port,
				g->index);
	if (ret) {
		g->netdev[0] = '\0';
		if (ret != -ENOENT && ret != -EINVAL && ret != -ENODEV)
			gd_read_errors_add(errs, gd_sysfs_errpath(), ret);
	}
	/* a GID of another container's macvlan/ipvlan: listed, but not ours to use */
	g->foreign = g->netdev[0] && (strchr(g->netdev, '/') ||
				      !gd_sysfs_exists(m, "/sys/class/net/%s", g->netdev));
}

/* Entry idx of a port's GID table into g: true for a used entry; an unreadable
 * or malformed one is noted in errs. */
static bool read_gid(const struct gd_machine *m, const char *dev, const struct gd_port *port,
		     int idx, struct gd_gid *g, struct gd_read_errors *errs)
{
	char text[128];
	int ret;

	memset(g, 0, sizeof(*g));
	g->index = idx;
	ret = gd_sysfs_read_str(m, text, sizeof(text), "/sys/class/infiniband/%s/ports/%d/gids/%d",
				dev, port->num, idx);
	if (ret) {
		gd_read_errors_add(errs, gd_sysfs_errpath(), ret);
		return false;
	}
	ret = gd_gid_parse(text, g);
	if (ret == -ENODATA)
		return false; /* unused entry */
	if (ret) {
		gd_read_errors_bad(m, errs, text, "eight groups of four hex digits",
				   "/sys/class/infiniband/%s/ports/%d/gids/%d", dev, port->num,
				   idx);
		return false;
	}
	read_attrs(m, dev, port->num, port->link_layer, g, errs);
	return true;
}

int gd_gid_read_table(const struct gd_machine *m, const char *dev, struct gd_port *port,
		      struct gd_read_errors *errs)
{
	char **names;
	size_t n;
	int ret;

	port->gids = NULL;
	port->ngids = 0;
	ret = gd_sysfs_list(m, &names, &n, "/sys/class/infiniband/%s/ports/%d/gids", dev,
			    port->num);
	if (ret == -ENOENT)
		return 0; /* e.g. a switch port 0 */
	if (ret) {
		gd_read_errors_add(errs, gd_sysfs_errpath(), ret);
		return 0;
	}
	port->gids = calloc(n ? n : 1, sizeof(*port->gids));
	if (!port->gids) {
		gd_sysfs_free_list(names, n);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		int idx = parse_index(names[i]); /* < 0: not a GID entry */

		if (idx >= 0 && read_gid(m, dev, port, idx, &port->gids[port->ngids], errs))
			port->ngids++;
	}
	gd_sysfs_free_list(names, n);
	if (port->ngids > 1) /* qsort(NULL, 0) is undefined */
		qsort(port->gids, port->ngids, sizeof(*port->gids), cmp_index);
	return 0;
}

/* The default half of the rule (no peer, or no GID on its route): see gid.h. */
static int default_index(const struct gd_port *port, int af)
{
	int best = -ENOENT, best_score = -1;

	for (size_t i = 0; i < port->ngids; i++) {
		const struct gd_gid *g = &port->gids[i];
		int score = 0;

		if (g->type != GD_GID_ROCE_V2 || g->ipv4 != (af == AF_INET) || g->foreign)
			continue;
		if (!g->link_local)
			score += 10;
		if (port->netdev[0] && !strcmp(g->netdev, port->netdev))
			score += 4;
		if (score > best_score) { /* ties: the lowest index, as gids are sorted */
			best_score = score;
			best = g->index;
		}
	}
	return best;
}

int gd_gid_index_for_source(const struct gd_port *port, const char *src_ip)
{
	for (size_t i = 0; i < port->ngids; i++) {
		const struct gd_gid *g = &port->gids[i];

		if (g->type == GD_GID_ROCE_V2 && !g->foreign && !strcmp(g->ip, src_ip))
			return g->index;
	}
	return -ENOENT;
}

int gd_route_source_addr(const struct sockaddr *peer, struct sockaddr_storage *src)
{
	socklen_t plen = peer->sa_family == AF_INET ? sizeof(struct sockaddr_in) :
						      sizeof(struct sockaddr_in6);
	socklen_t slen = sizeof(*src);
	struct sockaddr_storage ss;
	int fd, ret = 0;

	if (peer->sa_family != AF_INET && peer->sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	memset(&ss, 0, sizeof(ss));
	memcpy(&ss, peer, plen);
	/* any port will do: connect() on UDP only resolves the route */
	if (ss.ss_family == AF_INET && !((struct sockaddr_in *)&ss)->sin_port)
		((struct sockaddr_in *)&ss)->sin_port = htons(9);
	if (ss.ss_family == AF_INET6 && !((struct sockaddr_in6 *)&ss)->sin6_port)
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(9);
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&ss, plen) ||
	    getsockname(fd, (struct sockaddr *)src, &slen))
		ret = -errno;
	close(fd);
	return ret;
}

int gd_route_source(const struct sockaddr *peer, char *ip, size_t len)
{
	struct sockaddr_storage src;
	const void *addr;
	int ret = gd_route_source_addr(peer, &src);

	if (ret)
		return ret;
	addr = src.ss_family == AF_INET ? (const void *)&((struct sockaddr_in *)&src)->sin_addr :
					  (const void *)&((struct sockaddr_in6 *)&src)->sin6_addr;
	if (!inet_ntop(src.ss_family, addr, ip, (socklen_t)len))
		return -errno;
	/* an IPv4-mapped IPv6 source is the IPv4 address, as GIDs print it */
	if (src.ss_family == AF_INET6 && gd_gid_raw_is_v4mapped(addr) &&
	    !inet_ntop(AF_INET, (const uint8_t *)addr + 12, ip, (socklen_t)len))
		return -errno;
	return 0;
}

const struct gd_gid *gd_port_gid(const struct gd_port *port, int index)
{
	for (size_t i = 0; i < port->ngids; i++)
		if (port->gids[i].index == index)
			return &port->gids[i];
	return NULL;
}

int gd_gid_choose(const struct gd_port *port, const struct sockaddr *peer, int af,
		  struct gd_gid_choice *ch)
{
	int idx = -ENOENT;

	memset(ch, 0, sizeof(*ch));
	ch->index = -1;
	if (strcmp(port->link_layer, "Ethernet"))
		return 0; /* InfiniBand: LID routing, no GRH */
	if (peer) {
		ch->route_err = gd_route_source(peer, ch->src_ip, sizeof(ch->src_ip));
		if (!ch->route_err)
			idx = gd_gid_index_for_source(port, ch->src_ip);
		ch->routed = idx >= 0;
	}
	if (idx < 0)
		idx = default_index(port, af);
	if (idx < 0)
		return idx;
	ch->index = idx;
	ch->gid = gd_port_gid(port, idx);
	return 0;
}
