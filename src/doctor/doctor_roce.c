/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_doctor checks of lossless RoCE, per RoCE port (on a bond: each slave,
 * where mlx5 LAG keeps the QoS settings):
 *
 *   roce.trust   the port classifies by DSCP (dcb apptrust: "order ... dscp")
 *   roce.pfc     at least one priority is lossless (dcb pfc: prio-pfc N:on)
 *   roce.ecn     ECN for RoCE on every lossless priority: the notification
 *                point and the reaction point (mlx5 sysfs
 *                /sys/class/net/IF/ecn/roce_{np,rp}/enable/PRIO)
 *   roce.tclass  the traffic class the default GID path carries (mlx5
 *                /sys/class/infiniband/DEV/tc/PORT/traffic_class,
 *                "Global tclass=106"): set, ECN-capable
 *
 * DSCP trust and PFC live in the kernel's DCB netlink (dcbnl), not sysfs:
 * they are read through one small reader, dcb_text(), which runs iproute2's
 * `dcb WHAT show dev IF` (5 s deadline; spawned itself, not through a shell and
 * timeout(1): one exec a call, not three) on a live machine, and on a fixture
 * reads the captured text from gdperf-capture/dcb/IF/WHAT under the root
 * (tests/fixtures/doctor/roce-*: written from dcb-pfc(8) and
 * dcb-apptrust(8), not captured from a ConnectX; their README says so).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "doctor.h"
#include "doctor_int.h"
#include "sysfs.h"

#define DCB_CAPTURE "/gdperf-capture/dcb"

/* An interface name fit for a command line (the kernel's own charset). */
static bool ifname_ok(const char *s)
{
	if (!*s || strlen(s) >= 16)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return false;
	return true;
}

extern char **environ;

#define DCB_DEADLINE_NS (5ull * 1000 * 1000 * 1000)

/* Read the pipe into buf (NUL-terminated) until EOF, a full buf or the deadline:
 * the byte count, -ETIMEDOUT at the deadline. */
static ssize_t read_deadline(int fd, char *buf, size_t len, uint64_t deadline)
{
	size_t n = 0;

	while (n < len - 1) {
		uint64_t now = gd_clock_mono_ns();
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t k;
		int r;

		if (now >= deadline)
			return -ETIMEDOUT;
		r = poll(&pfd, 1, (int)((deadline - now) / 1000000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r ? -errno : -ETIMEDOUT;
		k = read(fd, buf + n, len - 1 - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	buf[n] = '\0';
	return (ssize_t)n;
}

/* `dcb WHAT show dev IF` (found on PATH), its stdout into buf, stdin and stderr
 * /dev/null, killed at 5 s: spawned directly, not by popen's shell running
 * timeout(1) (three execs a call; under the Soft-RoCE guest's TCG each chain took
 * 0.13-0.56 s, nine of them a gd_check run). 0 when it printed and exited 0. */
static int run_dcb(const char *what, const char *ifname, char *buf, size_t len)
{
	char *argv[] = { "dcb", (char *)what, "show", "dev", (char *)ifname, NULL };
	posix_spawn_file_actions_t fa;
	int p[2], st = 0, ret;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -ENOENT;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	ret = posix_spawnp(&pid, "dcb", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (ret) {
		close(p[0]);
		return -ENOENT;
	}
	n = read_deadline(p[0], buf, len, gd_clock_mono_ns() + DCB_DEADLINE_NS);
	if (n < 0)
		kill(pid, SIGKILL);
	close(p[0]); /* a longer text than buf: its head, as popen's fread() gave */
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return n > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -ENOENT;
}

/* The text of `dcb WHAT show dev IF`; src names where it came from.
 * 0, -ENOENT (no capture, no dcb, or the device has no DCB), -EINVAL. */
int gd_doc_dcb_text(const struct gd_machine *m, const char *ifname, const char *what,
		    char *buf, size_t len, char *src, size_t slen)
{
	if (!ifname_ok(ifname) || !len)
		return -EINVAL;
	if (m->fixture) {
		snprintf(src, slen, "dcb %s show dev %s (capture %s/%s/%s)", what, ifname, DCB_CAPTURE,
			 ifname, what);
		return gd_sysfs_read_str(m, buf, len, DCB_CAPTURE "/%s/%s", ifname, what) ? -ENOENT : 0;
	}
	snprintf(src, slen, "dcb %s show dev %s", what, ifname);
	return run_dcb(what, ifname, buf, len);
}

/* "prio-pfc 0:off 1:off 2:off 3:on ...": the priorities with PFC on (bit p). */
int gd_doc_parse_pfc(const char *text, unsigned *mask)
{
	const char *s = strstr(text, "prio-pfc");

	*mask = 0;
	if (!s)
		return -EINVAL;
	s += strlen("prio-pfc");
	for (;;) {
		int p, k = 0;
		char onoff[4];

		while (*s == ' ' || *s == '\t')
			s++;
		if (sscanf(s, "%d:%3[onf]%n", &p, onoff, &k) != 2 || p < 0 || p > 7)
			break;
		if (!strcmp(onoff, "on"))
			*mask |= 1u << p;
		s += k;
	}
	return 0;
}

/* "order pcp dscp": 1 when dscp is among the trusted selectors, 0 when not. */
int gd_doc_parse_apptrust(const char *text, bool *dscp)
{
	const char *s = strstr(text, "order");
	const char *e;

	*dscp = false;
	if (!s)
		return -EINVAL;
	e = strchr(s, '\n');
	for (const char *t = strstr(s, "dscp"); t && (!e || t < e); t = strstr(t + 4, "dscp"))
		if ((t[-1] == ' ' || t[-1] == '\t') && (!t[4] || isspace((unsigned char)t[4])))
			*dscp = true;
	return 0;
}

/* The netdevs of a RoCE port that hold its QoS: a bond's slaves, else its own. */
struct netdevs {
	size_t n;
	char name[8][16];
};

static void port_netdevs(const struct gd_doctor *d, const struct gd_port *p, struct netdevs *nd)
{
	struct gd_bond b;

	nd->n = 0;
	if (!gd_port_bond(d->m, p, &b)) {
		for (size_t i = 0; i < b.nslaves && nd->n < 8; i++)
			snprintf(nd->name[nd->n++], sizeof(nd->name[0]), "%s", b.slaves[i].name);
		gd_bond_free(&b);
	}
	if (!nd->n && p->netdev[0])
		snprintf(nd->name[nd->n++], sizeof(nd->name[0]), "%s", p->netdev);
}

typedef void (*roce_fn)(struct gd_doctor *d, const struct gd_check *c, const struct gd_hca *h,
			const struct gd_port *p, const char *ifname);

/* Run fn on every RoCE netdev of every port; SKIP when there is none. */
static void each_roce(struct gd_doctor *d, const struct gd_check *c, roce_fn fn)
{
	bool any = false;

	for (size_t i = 0; i < d->nnics; i++)
		for (size_t j = 0; j < d->hcas[i].nports; j++) {
			const struct gd_port *p = &d->hcas[i].ports[j];
			struct netdevs nd;

			if (strcmp(p->link_layer, "Ethernet"))
				continue;
			port_netdevs(d, p, &nd);
			for (size_t k = 0; k < nd.n; k++, any = true)
				fn(d, c, &d->hcas[i], p, nd.name[k]);
		}
	if (!any)
		gd_res_skip(d, c, NULL, "no RoCE port with a netdev");
}

/* The lossless priorities of ifname from dcb pfc, or -1 unknown. */
static int pfc_mask(const struct gd_doctor *d, const char *ifname, char *src, size_t slen)
{
	char text[512];
	unsigned mask;

	if (gd_doc_dcb_text(d->m, ifname, "pfc", text, sizeof(text), src, slen) ||
	    gd_doc_parse_pfc(text, &mask))
		return -1;
	return (int)mask;
}

static void prio_list(unsigned mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int p = 0; p < 8 && n < len; p++)
		if (mask & (1u << p))
			n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? "," : "", p);
}

static void trust_one(struct gd_doctor *d, const struct gd_check *c, const struct gd_hca *h,
		      const struct gd_port *p, const char *ifname)
{
	struct gd_check_result r;
	char text[512], src[192];
	bool dscp;

	gd_res_init(&r, c, "%s port %d %s", h->name, p->num, ifname);
	if (gd_doc_dcb_text(d->m, ifname, "apptrust", text, sizeof(text), src, sizeof(src)) ||
	    gd_doc_parse_apptrust(text, &dscp)) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "DCB trust not readable: %s gave nothing (iproute2's "
			    "dcb, kernel 6.1+ apptrust)", src);
		return;
	}
	gd_res_ev(&r, src, "%s", text);
	if (dscp) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "the port classifies by DSCP");
		return;
	}
	gd_res_fix(&r, "dcb apptrust set dev %s order dscp (or: mlnx_qos -i %s --trust dscp)",
		   ifname, ifname);
	gd_res_emit(d, &r, GD_CHECK_FAIL, "the port does not trust DSCP: RoCE v2 marks its class in "
		    "DSCP, so its packets land in the default (lossy) priority");
}

void gd_chk_roce_trust(struct gd_doctor *d, const struct gd_check *c)
{
	each_roce(d, c, trust_one);
}

static void pfc_one(struct gd_doctor *d, const struct gd_check *c, const struct gd_hca *h,
		    const struct gd_port *p, const char *ifname)
{
	struct gd_check_result r;
	char src[192], prios[32];
	int mask = pfc_mask(d, ifname, src, sizeof(src));

	gd_res_init(&r, c, "%s port %d %s", h->name, p->num, ifname);
	if (mask < 0) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "PFC not readable: %s gave nothing", src);
		return;
	}
	prio_list((unsigned)mask, prios, sizeof(prios));
	gd_res_ev(&r, src, "PFC on priorities: %s", mask ? prios : "none");
	if (mask) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "lossless priorities %s (PFC on)", prios);
		return;
	}
	gd_res_fix(&r, "dcb pfc set dev %s prio-pfc 3:on (the priority your DSCP maps to; or: "
		   "mlnx_qos -i %s --pfc 0,0,0,1,0,0,0,0), the same on the switch", ifname, ifname);
	gd_res_emit(d, &r, GD_CHECK_FAIL, "no lossless priority: PFC is off on every priority, a "
		    "congested switch drops RoCE packets");
}

void gd_chk_roce_pfc(struct gd_doctor *d, const struct gd_check *c)
{
	each_roce(d, c, pfc_one);
}

static void ecn_one(struct gd_doctor *d, const struct gd_check *c, const struct gd_hca *h,
		    const struct gd_port *p, const char *ifname)
{
	static const char *const side[] = { "roce_np", "roce_rp" };
	struct gd_check_result r;
	char src[192], off[2][32];
	int mask = pfc_mask(d, ifname, src, sizeof(src)), v;
	unsigned offm[2] = { 0, 0 };

	gd_res_init(&r, c, "%s port %d %s", h->name, p->num, ifname);
	if (!gd_sysfs_exists(d->m, "/sys/class/net/%s/ecn/roce_np/enable", ifname)) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "no /sys/class/net/%s/ecn (mlx5 exposes ECN for RoCE "
			    "there)", ifname);
		return;
	}
	if (mask <= 0)
		mask = 0xff; /* lossless priorities unknown or none: every priority */
	for (int prio = 0; prio < 8; prio++)
		for (int s = 0; s < 2 && (mask & (1 << prio)); s++) {
			char path[128];

			snprintf(path, sizeof(path), "/sys/class/net/%s/ecn/%s/enable/%d", ifname,
				 side[s], prio);
			if (gd_sysfs_read_int(d->m, &v, "%s", path))
				continue;
			gd_res_ev(&r, path, "%d", v);
			if (!v)
				offm[s] |= 1u << prio;
		}
	if (!offm[0] && !offm[1]) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "ECN for RoCE on (notification and reaction point) "
			    "on %s priorities", mask == 0xff ? "all" : "the lossless");
		return;
	}
	gd_res_fix(&r, "echo 1 > /sys/class/net/%s/ecn/roce_np/enable/PRIO and .../roce_rp/enable/"
		   "PRIO for each lossless PRIO (DCQCN)", ifname);
	prio_list(offm[0], off[0], sizeof(off[0]));
	prio_list(offm[1], off[1], sizeof(off[1]));
	gd_res_emit(d, &r, GD_CHECK_FAIL, "ECN for RoCE off: notification point on priorities %s, "
		    "reaction point on %s (no congestion notification: PFC pauses instead, and "
		    "spreads)", offm[0] ? off[0] : "none", offm[1] ? off[1] : "none");
}

void gd_chk_roce_ecn(struct gd_doctor *d, const struct gd_check *c)
{
	each_roce(d, c, ecn_one);
}

static void tclass_one(struct gd_doctor *d, const struct gd_check *c, const struct gd_hca *h,
		       const struct gd_port *p)
{
	struct gd_check_result r;
	char path[128], text[128];
	const char *t;
	int tc = 0;

	gd_res_init(&r, c, "%s port %d", h->name, p->num);
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/tc/%d/traffic_class", h->name, p->num);
	if (gd_sysfs_read_str(d->m, text, sizeof(text), "%s", path)) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "no %s (mlx5: the default traffic class of the "
			    "device's QPs)", path);
		return;
	}
	gd_res_ev(&r, path, "%s", text[0] ? text : "(empty)");
	t = strstr(text, "tclass=");
	if (t)
		tc = atoi(t + 7);
	if (tc > 0 && (tc & 3)) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "the default path carries traffic class %d: DSCP %d, "
			    "ECN-capable", tc, tc >> 2);
		return;
	}
	gd_res_fix(&r, "echo tclass=106 > %s (DSCP 26, ECN-capable; the DSCP your lossless "
		   "priority trusts), or give the tools --tclass", path);
	gd_res_emit(d, &r, GD_CHECK_WARN, tc ? "the default path carries traffic class %d (DSCP %d) "
		    "without ECN-capable bits: switches cannot mark it" : "the default path carries "
		    "traffic class %d: DSCP %d, best effort, not the lossless class", tc, tc >> 2);
}

void gd_chk_roce_tclass(struct gd_doctor *d, const struct gd_check *c)
{
	bool any = false;

	for (size_t i = 0; i < d->nnics; i++)
		for (size_t j = 0; j < d->hcas[i].nports; j++)
			if (!strcmp(d->hcas[i].ports[j].link_layer, "Ethernet")) {
				tclass_one(d, c, &d->hcas[i], &d->hcas[i].ports[j]);
				any = true;
			}
	if (!any)
		gd_res_skip(d, c, NULL, "no RoCE port");
}
