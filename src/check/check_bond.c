/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Did the traffic use every slave of a bond? The slaves' byte counters
 * (/sys/class/net/SLAVE/statistics/{tx,rx}_bytes, through sysfs.h) before and
 * after a run. They count RDMA traffic where it passes the netdev (Soft-RoCE);
 * a ConnectX LAG moves RoCE traffic in hardware, past these counters, so on
 * mlx5 the source says so and the shares are not trusted (see the man page).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check_int.h"
#include "gd.h"
#include "rdma_dev.h"
#include "sysfs.h"

int gd_ck_bond_sample(const struct gd_machine *m, const char *dev, int port,
		      struct gd_ck_bond_sample *s)
{
	struct gd_hca hca;
	struct gd_bond bond;
	int ret;

	memset(s, 0, sizeof(*s));
	memset(&bond, 0, sizeof(bond));
	ret = gd_rdma_read_hca(m, dev, &hca);
	if (ret)
		return ret;
	ret = -ENOENT;
	if (port >= 1 && (size_t)port <= hca.nports)
		ret = gd_port_bond(m, &hca.ports[port - 1], &bond);
	if (ret == -ENOENT && hca.parent_netdev[0]) {
		gd_bond_free(&bond);
		ret = gd_bond_read(m, hca.parent_netdev, &bond);
	}
	snprintf(s->source, sizeof(s->source), "%s",
		 strncmp(hca.driver, "mlx5", 4) ? "slave netdev statistics" :
		 "slave netdev statistics (mlx5: RoCE bypasses them)");
	gd_rdma_free_hca(&hca);
	if (ret) {
		gd_bond_free(&bond);
		return ret;
	}
	snprintf(s->bond, sizeof(s->bond), "%s", bond.name);
	for (size_t i = 0; i < bond.nslaves && s->n < GD_ARRAY_SIZE(s->slave); i++) {
		uint64_t tx = 0, rx = 0;
		const char *n = bond.slaves[i].name;

		snprintf(s->slave[s->n], sizeof(s->slave[0]), "%s", n);
		if (gd_sysfs_read_u64(m, &tx, "/sys/class/net/%s/statistics/tx_bytes", n) ||
		    gd_sysfs_read_u64(m, &rx, "/sys/class/net/%s/statistics/rx_bytes", n))
			tx = rx = 0;
		s->bytes[s->n++] = tx + rx;
	}
	gd_bond_free(&bond);
	return 0;
}

double gd_ck_bond_shares(const struct gd_ck_bond_sample *before,
			 const struct gd_ck_bond_sample *after, char *msg, size_t len)
{
	uint64_t d[8] = { 0 }, total = 0;
	double min = 100;
	size_t n = GD_MIN(before->n, after->n), off;

	for (size_t i = 0; i < n; i++) {
		d[i] = after->bytes[i] >= before->bytes[i] ? after->bytes[i] - before->bytes[i] : 0;
		total += d[i];
	}
	off = (size_t)snprintf(msg, len, "%s slaves (%s):", after->bond, after->source);
	for (size_t i = 0; i < n && off < len; i++) {
		double share = total ? 100.0 * (double)d[i] / (double)total : 0;

		min = share < min ? share : min;
		off += (size_t)snprintf(msg + off, len - off, " %s %.1f%% (%.1f MB)", after->slave[i],
					share, (double)d[i] / 1e6);
	}
	return total ? min : -1;
}
