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
#include "judge.h"
#include "gd.h"
#include "log.h"
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

static double moved_bytes(const struct gd_ck_test *t, const struct gd_ck_measure *m)
{
	if (!m->nsizes)
		return 0;
	return m->bw_avg_gbps[m->nsizes - 1] * 1e9 / 8 * (t->duration_s ? t->duration_s : 1);
}

void gd_ck_bond_verdict(struct gd_ck_report *r, const struct gd_ck_run *run,
			const struct gd_ck_measure *m, const char *shares, double min, double total,
			const char *bond)
{
	const struct gd_ck_test *t = run->t;
	double want = t->min_slave_share > 0 ? t->min_slave_share : 10;
	/* a loopback never leaves the host: the kernel routes it through lo, past the slaves */
	bool bypass = total < 0.1 * moved_bytes(t, m);
	char msg[640];
	struct gd_ck_item *it;

	snprintf(msg, sizeof(msg), "%s", shares);
	if (bypass)
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), "; the slaves carried %.0f "
			 "bytes of the run's ~%.0f: its traffic did not pass them (a loopback stays "
			 "inside the host)", total, moved_bytes(t, m));
	if (r->n && !t->bond_balance) {
		/* every bandwidth run on a bond reports the shares */
		it = &r->items[r->n - 1];
		snprintf(it->message + strlen(it->message), sizeof(it->message) - strlen(it->message),
			 "%s%s", it->message[0] ? "; " : "", msg);
		if (!bypass && min >= 0 && min < 1 && t->qps >= 2)
			gd_warn("%s: one slave of %s carried almost nothing with %u QPs: %s",
				run->label, bond, t->qps, msg);
		return;
	}
	it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s %s: bond-balance", t->name, run->label);
	if (!it)
		return;
	snprintf(it->expected, sizeof(it->expected), "each slave >= %g%%", want);
	snprintf(it->path_class, sizeof(it->path_class), "%s", run->cls);
	gd_ck_command(run, t->size, it->command, sizeof(it->command));
	if (moved_bytes(t, m) <= 0 || bypass || min < 0) {
		snprintf(it->measured, sizeof(it->measured), "no slave traffic");
		gd_ck_judge_skip(it, GD_CK_SKIP_NO_SLAVES, msg);
		return;
	}
	snprintf(it->measured, sizeof(it->measured), "min %.1f%%", min);
	gd_ck_item_value(it, min, "%");
	if (min < want && t->qps < 2)
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
			 "; one QP is one flow and takes one slave: use qps: 2 or more");
	gd_ck_judge(it, &(struct gd_ck_meas){ .cmp = GD_CK_GE, .value = min, .expect = want,
					      .evidence = msg });
	if (it->status == GD_CK_FAIL && t->qps >= 2)
		gd_warn("%s: one slave of %s carried %.1f%% with %u QPs: %s", run->label, bond, min,
			t->qps, msg);
}
