/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * An interface's ethtool statistics (`ethtool -S`) through the SIOCETHTOOL ioctl
 * (port_counters.h): the names once (ETH_SS_STATS strings), then the values. Reading them
 * needs no privilege. A driver whose set of statistics changes between the two calls (a
 * reconfiguration) is asked again, up to 3 times.
 *
 * The kernel does not take the caller's count: ETHTOOL_GSTRINGS and ETHTOOL_GSTATS count the
 * driver's statistics again and write that many (net/ethtool/ioctl.c), so a set that grew
 * between the count and the copy (mlx5: `ethtool -L` to more channels, each with its own
 * statistics) would be written past a buffer of the old count. Each buffer has room for
 * GD_ETHTOOL_SLACK more than counted; a count that changed is then asked again.
 */
#define GD_ETHTOOL_SLACK 16384 /* statistics: 512 KiB of names, 128 KiB of values, mapped lazily */
#include <ctype.h>
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "port_counters.h"

_Static_assert(GD_ETHTOOL_NAME == ETH_GSTRING_LEN, "ethtool's string length");

static int ethtool_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name) - 1);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

/* How many statistics the driver has: 0 and *n, or a negative errno. */
static int stats_count(int fd, const char *ifname, size_t *n)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} q;
	int ret;

	memset(&q, 0, sizeof(q));
	q.hdr.cmd = ETHTOOL_GSSET_INFO;
	q.hdr.sset_mask = 1ULL << ETH_SS_STATS;
	ret = ethtool_ioctl(fd, ifname, &q);
	if (ret)
		return ret;
	if (!(q.hdr.sset_mask & (1ULL << ETH_SS_STATS)) || !q.len)
		return -EOPNOTSUPP;
	*n = q.len;
	return 0;
}

/* The names, n of them: trailing blanks cut (mlx5 has had "tx_pause_storm_warning_events "). */
static int stats_names(int fd, const char *ifname, size_t n, char (*names)[GD_ETHTOOL_NAME])
{
	struct ethtool_gstrings *g = calloc(1, sizeof(*g) + (n + GD_ETHTOOL_SLACK) * ETH_GSTRING_LEN);
	int ret;

	if (!g)
		return -ENOMEM;
	g->cmd = ETHTOOL_GSTRINGS;
	g->string_set = ETH_SS_STATS;
	g->len = (uint32_t)n;
	ret = ethtool_ioctl(fd, ifname, g);
	if (!ret && g->len != n)
		ret = -EAGAIN;
	for (size_t i = 0; !ret && i < n; i++) {
		size_t k;

		memcpy(names[i], g->data + i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		names[i][ETH_GSTRING_LEN - 1] = 0;
		for (k = strlen(names[i]); k && isspace((unsigned char)names[i][k - 1]); k--)
			names[i][k - 1] = 0;
	}
	free(g);
	return ret;
}

static int stats_values(int fd, const char *ifname, size_t n, uint64_t *vals)
{
	struct ethtool_stats *st = calloc(1, sizeof(*st) + (n + GD_ETHTOOL_SLACK) * sizeof(uint64_t));
	int ret;

	if (!st)
		return -ENOMEM;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = (uint32_t)n;
	ret = ethtool_ioctl(fd, ifname, st);
	if (!ret && st->n_stats != n)
		ret = -EAGAIN;
	if (!ret)
		memcpy(vals, st->data, n * sizeof(uint64_t));
	free(st);
	return ret;
}

/* One try: the count, the names, the values. */
static int stats_once(int fd, const char *ifname, char (**names)[GD_ETHTOOL_NAME],
		      uint64_t **vals, size_t *n)
{
	int ret = stats_count(fd, ifname, n);

	if (ret)
		return ret;
	*names = calloc(*n, sizeof(**names));
	*vals = calloc(*n, sizeof(**vals));
	ret = *names && *vals ? 0 : -ENOMEM;
	ret = ret ?: stats_names(fd, ifname, *n, *names);
	ret = ret ?: stats_values(fd, ifname, *n, *vals);
	if (ret) {
		free(*names);
		free(*vals);
		*names = NULL;
		*vals = NULL;
		*n = 0;
	}
	return ret;
}

int gd_ethtool_stats(const char *ifname, char (**names)[GD_ETHTOOL_NAME], uint64_t **vals,
		     size_t *n)
{
	int fd, ret = -EAGAIN;

	*names = NULL;
	*vals = NULL;
	*n = 0;
	if (!ifname[0] || strlen(ifname) >= IF_NAMESIZE || strchr(ifname, '/'))
		return -ENODEV;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	for (int i = 0; i < 3 && ret == -EAGAIN; i++)
		ret = stats_once(fd, ifname, names, vals, n);
	close(fd);
	return ret;
}

/* "rx3_packets", "tx12_bytes", "ch7_events", "rx_queue_0_bytes", "tx_queue_15_xdp_tx",
 * "rx-0.packets", "queue_3_rx_bytes": a queue's share of what the totals count. */
bool gd_ethtool_per_queue(const char *name)
{
	static const char *const pre[] = { "rx", "tx", "ch", "ptp", "rx_queue_", "tx_queue_",
					   "queue_", "rx-", "tx-", "xsk" };

	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		size_t k = strlen(pre[i]);

		if (!strncmp(name, pre[i], k) && isdigit((unsigned char)name[k])) {
			while (isdigit((unsigned char)name[k]))
				k++;
			if (name[k] == '_' || name[k] == '.')
				return true;
		}
	}
	return false;
}
