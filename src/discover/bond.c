/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Bonds from sysfs, with /proc/net/bonding/<bond> as the fallback. */
#include "config.h"

#include "bond.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netdev.h"
#include "sysfs.h"

#define NET "/sys/class/net"
#define GD_BOND_NMODES (sizeof(mode_names) / sizeof(mode_names[0]))

static const char *const mode_names[] = { "balance-rr", "active-backup", "balance-xor",
					  "broadcast",  "802.3ad",       "balance-tlb",
					  "balance-alb" };
/* bond_mode_name() in the kernel's bond_main.c, as /proc prints it */
static const char *const mode_descs[] = { "load balancing (round-robin)",
					  "fault-tolerance (active-backup)",
					  "load balancing (xor)",
					  "fault-tolerance (broadcast)",
					  "IEEE 802.3ad Dynamic link aggregation",
					  "transmit load balancing",
					  "adaptive load balancing" };

int gd_bond_mode_num(const char *name)
{
	for (int i = 0; i < (int)GD_BOND_NMODES; i++)
		if (!strcmp(name, mode_names[i]))
			return i;
	return -1;
}

const char *gd_bond_mode_name(int num)
{
	return num >= 0 && num < (int)GD_BOND_NMODES ? mode_names[num] : "unknown";
}

int gd_bond_mode_from_proc(const char *desc)
{
	for (int i = 0; i < (int)GD_BOND_NMODES; i++)
		if (!strcmp(desc, mode_descs[i]))
			return i;
	return -1;
}

static bool mode_has_hash(int mode)
{
	return mode == GD_BOND_XOR || mode == GD_BOND_8023AD || mode == GD_BOND_TLB;
}

static void bond_init(struct gd_bond *bond, const char *name)
{
	memset(bond, 0, sizeof(*bond));
	snprintf(bond->name, sizeof(bond->name), "%s", name);
	bond->mode_num = -1;
	bond->miimon_ms = -1;
	bond->active_aggregator = -1;
	bond->speed_mbps = -1;
}

static void slave_init(struct gd_bond_slave *s, const char *name)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->speed_mbps = -1;
	s->link_failures = -1;
	s->aggregator_id = -1;
}

void gd_bond_free(struct gd_bond *bond)
{
	free(bond->slaves);
	bond->slaves = NULL;
	bond->nslaves = 0;
	gd_read_errors_free(&bond->errors);
}

static struct gd_bond_slave *add_slave(struct gd_bond *bond, const char *name)
{
	struct gd_bond_slave *v = realloc(bond->slaves, (bond->nslaves + 1) * sizeof(*v));

	if (!v)
		return NULL;
	bond->slaves = v;
	slave_init(&v[bond->nslaves], name);
	return &v[bond->nslaves++];
}

/* ---- /proc/net/bonding/<bond> ---- */

static int parse_int_field(const char *val, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 10);
	if (errno || end == val || *end || v < INT_MIN || v > INT_MAX)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static int parse_speed(const char *val, int *out)
{
	int v;
	char unit[8];

	if (!strcmp(val, "Unknown")) {
		*out = -1;
		return 0;
	}
	if (sscanf(val, "%d %7s", &v, unit) != 2 || strcmp(unit, "Mbps") || v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

/* One "Key: value" line of the bond part (before the first slave). */
static int proc_bond_line(struct gd_bond *bond, const char *key, const char *val, bool in_agg)
{
	if (!strcmp(key, "Bonding Mode")) {
		bond->mode_num = gd_bond_mode_from_proc(val);
		if (bond->mode_num < 0)
			return -EINVAL;
		snprintf(bond->mode, sizeof(bond->mode), "%s", mode_names[bond->mode_num]);
	} else if (!strcmp(key, "Transmit Hash Policy")) {
		/* "layer3+4 (1)" */
		if (sscanf(val, "%31s", bond->xmit_hash_policy) != 1)
			return -EINVAL;
	} else if (!strcmp(key, "MII Status")) {
		snprintf(bond->mii_status, sizeof(bond->mii_status), "%s", val);
	} else if (!strcmp(key, "MII Polling Interval (ms)")) {
		return parse_int_field(val, &bond->miimon_ms);
	} else if (!strcmp(key, "LACP rate")) {
		snprintf(bond->lacp_rate, sizeof(bond->lacp_rate), "%s", val);
	} else if (!strcmp(key, "Currently Active Slave")) {
		if (strcmp(val, "None"))
			snprintf(bond->active_slave, sizeof(bond->active_slave), "%s", val);
	} else if (!strcmp(key, "Aggregator ID") && in_agg) {
		return parse_int_field(val, &bond->active_aggregator);
	}
	return 0;
}

static int proc_slave_line(struct gd_bond_slave *s, const char *key, const char *val)
{
	if (!strcmp(key, "MII Status"))
		snprintf(s->mii_status, sizeof(s->mii_status), "%s", val);
	else if (!strcmp(key, "Speed"))
		return parse_speed(val, &s->speed_mbps);
	else if (!strcmp(key, "Duplex"))
		snprintf(s->duplex, sizeof(s->duplex), "%s", val);
	else if (!strcmp(key, "Link Failure Count"))
		return parse_int_field(val, &s->link_failures);
	else if (!strcmp(key, "Permanent HW addr"))
		snprintf(s->perm_hwaddr, sizeof(s->perm_hwaddr), "%s", val);
	else if (!strcmp(key, "Aggregator ID"))
		return parse_int_field(val, &s->aggregator_id);
	return 0;
}

/* The aggregate a bond can transmit at, when sysfs does not say. */
static int aggregate_speed(const struct gd_bond *bond)
{
	int sum = 0;

	for (size_t i = 0; i < bond->nslaves; i++) {
		const struct gd_bond_slave *s = &bond->slaves[i];

		if (strcmp(s->mii_status, "up") || s->speed_mbps < 0)
			continue;
		if (bond->mode_num == GD_BOND_ACTIVE_BACKUP && strcmp(s->name, bond->active_slave))
			continue;
		if (bond->mode_num == GD_BOND_8023AD && s->aggregator_id != bond->active_aggregator)
			continue;
		sum += s->speed_mbps;
	}
	return sum ? sum : -1;
}

int gd_bond_parse_proc(const char *text, struct gd_bond *bond)
{
	struct gd_bond_slave *slave = NULL;
	bool in_agg = false, seen_mode = false;
	char line[256];
	const char *p = text;
	int ret = 0;

	while (*p && !ret) {
		size_t n = strcspn(p, "\n");
		char *key, *val, *colon;

		if (n >= sizeof(line))
			return -EINVAL;
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (p[n] == '\n');
		if (!line[0]) {
			in_agg = false;
			continue;
		}
		if (line[0] == ' ')
			continue; /* LACP pdu details of a slave */
		key = line + (line[0] == '\t');
		colon = strstr(key, ": ");
		if (!colon) {
			/* "Active Aggregator Info:" and section titles */
			in_agg = !strcmp(key, "Active Aggregator Info:") ? true : in_agg;
			continue;
		}
		*colon = '\0';
		val = colon + 2;
		if (!strcmp(key, "Slave Interface")) {
			if (!*val || strlen(val) >= IF_NAMESIZE)
				return -EINVAL;
			slave = add_slave(bond, val);
			if (!slave)
				return -ENOMEM;
			in_agg = false;
		} else if (slave) {
			ret = proc_slave_line(slave, key, val);
		} else {
			seen_mode |= !strcmp(key, "Bonding Mode");
			ret = proc_bond_line(bond, key, val, in_agg);
		}
	}
	if (ret)
		return ret;
	if (!seen_mode)
		return -EINVAL;
	if (!mode_has_hash(bond->mode_num))
		bond->xmit_hash_policy[0] = '\0';
	if (bond->speed_mbps < 0)
		bond->speed_mbps = aggregate_speed(bond);
	return 0;
}

/* ---- validation: every value the bonding driver's files hold is checked ---- */

static const char *const hash_policies[] = { "layer2", "layer3+4", "layer2+3", "encap2+3",
					     "encap3+4", "vlan+srcmac", NULL };
static const char *const lacp_rates[] = { "slow", "fast", NULL };
static const char *const bond_mii[] = { "up", "down", NULL };
static const char *const slave_mii[] = { "up", "down", "going down", "going back", NULL };

/* val must be "" or one of set; else it is recorded as malformed (naming path) and cleared. */
static void check_word(const struct gd_machine *m, struct gd_bond *bond, char *val, const char *const set[],
		       const char *expected, const char *path)
{
	if (!val[0])
		return;
	for (size_t i = 0; set[i]; i++)
		if (!strcmp(val, set[i]))
			return;
	gd_read_errors_bad(m, &bond->errors, val, expected, "%s", path);
	val[0] = '\0';
}

/* The values of a bond read from sysfs (proc: from /proc/net/bonding/NAME). */
static void validate(const struct gd_machine *m, struct gd_bond *bond, bool proc)
{
	char path[PATH_MAX];

#define BOND_PATH(attr)                                                                     \
	(proc ? snprintf(path, sizeof(path), "/proc/net/bonding/%s", bond->name) :           \
		snprintf(path, sizeof(path), NET "/%s/bonding/%s", bond->name, attr))
	BOND_PATH("xmit_hash_policy");
	check_word(m, bond, bond->xmit_hash_policy, hash_policies,
		   "a hash policy such as \"layer3+4 1\"", path);
	BOND_PATH("lacp_rate");
	check_word(m, bond, bond->lacp_rate, lacp_rates, "\"slow 0\" or \"fast 1\"", path);
	BOND_PATH("mii_status");
	check_word(m, bond, bond->mii_status, bond_mii, "\"up\" or \"down\"", path);
	if (bond->miimon_ms < -1 || bond->miimon_ms > 3600000) {
		char val[16];

		BOND_PATH("miimon");
		snprintf(val, sizeof(val), "%d", bond->miimon_ms);
		gd_read_errors_bad(m, &bond->errors, val, "milliseconds from 0 to 3600000", "%s",
				   path);
		bond->miimon_ms = -1;
	}
#undef BOND_PATH
	for (size_t i = 0; i < bond->nslaves; i++) {
		if (proc)
			snprintf(path, sizeof(path), "/proc/net/bonding/%s", bond->name);
		else
			snprintf(path, sizeof(path), NET "/%s/bonding_slave/mii_status",
				 bond->slaves[i].name);
		check_word(m, bond, bond->slaves[i].mii_status, slave_mii,
			   "\"up\", \"down\", \"going down\" or \"going back\"", path);
	}
}

/* ---- sysfs ---- */

/* "802.3ad 4" -> "802.3ad"; "layer3+4 1" -> "layer3+4"; "fast 1" -> "fast". */
static void first_word(char *s)
{
	s[strcspn(s, " \t")] = '\0';
}

static void bond_str(const struct gd_machine *m, struct gd_bond *bond, char *buf, size_t len,
		     const char *attr)
{
	int ret = gd_sysfs_read_str(m, buf, len, NET "/%s/bonding/%s", bond->name, attr);

	if (ret) {
		buf[0] = '\0';
		/* some attributes answer EINVAL/ENOENT outside their mode */
		if (ret != -ENOENT && ret != -EINVAL)
			gd_read_errors_add(&bond->errors, gd_sysfs_errpath(), ret);
	}
}

static void bond_int(const struct gd_machine *m, struct gd_bond *bond, int *val, const char *fmt,
		     const char *name, const char *attr)
{
	char buf[32];
	int ret = gd_sysfs_read_str(m, buf, sizeof(buf), fmt, name, attr);

	if (ret == -ENOENT || (ret == 0 && !buf[0]))
		return; /* not in this mode, or not applicable */
	if (ret) {
		gd_read_errors_add(&bond->errors, gd_sysfs_errpath(), ret);
		return;
	}
	if (parse_int_field(buf, val)) {
		char path[PATH_MAX];

		*val = -1;
		snprintf(path, sizeof(path), fmt, name, attr);
		gd_read_errors_bad(m, &bond->errors, buf, "a number", "%s", path);
	}
}

static void read_slave(const struct gd_machine *m, struct gd_bond *bond, struct gd_bond_slave *s)
{
	struct gd_netdev nd;
	char state[16];
	int ret;

	ret = gd_sysfs_read_str(m, s->mii_status, sizeof(s->mii_status),
				NET "/%s/bonding_slave/mii_status", s->name);
	if (ret) {
		s->mii_status[0] = '\0';
		gd_read_errors_add(&bond->errors, gd_sysfs_errpath(), ret);
	}
	bond_int(m, bond, &s->link_failures, NET "/%s/bonding_slave/%s", s->name,
		 "link_failure_count");
	if (bond->mode_num == GD_BOND_8023AD)
		bond_int(m, bond, &s->aggregator_id, NET "/%s/bonding_slave/%s", s->name,
			 "ad_aggregator_id");
	if (gd_sysfs_read_str(m, s->perm_hwaddr, sizeof(s->perm_hwaddr),
			      NET "/%s/bonding_slave/perm_hwaddr", s->name))
		s->perm_hwaddr[0] = '\0';
	if (gd_sysfs_read_str(m, state, sizeof(state), NET "/%s/bonding_slave/state", s->name) == 0)
		snprintf(s->state, sizeof(s->state), "%s", state);
	/* speed: the kernel answers EINVAL while the link is down */
	if (gd_sysfs_exists(m, NET "/%s/speed", s->name)) {
		ret = gd_sysfs_read_int(m, &s->speed_mbps, NET "/%s/speed", s->name);
		/* live, EINVAL means "interface down"; in a tree it is garbage */
		if (ret && (ret != -EINVAL || m->fixture))
			gd_read_errors_add(&bond->errors, gd_sysfs_errpath(), ret);
		if (ret || s->speed_mbps < 0)
			s->speed_mbps = -1;
	}
	if (gd_netdev_read(m, s->name, &nd) == 0) {
		snprintf(s->duplex, sizeof(s->duplex), "%s", nd.duplex);
		snprintf(s->pci_addr, sizeof(s->pci_addr), "%s", nd.pci_addr);
	}
}

static int read_sysfs(const struct gd_machine *m, struct gd_bond *bond)
{
	char buf[512], *save = NULL, *tok;

	bond_str(m, bond, buf, sizeof(buf), "mode");
	first_word(buf);
	bond->mode_num = gd_bond_mode_num(buf);
	if (bond->mode_num < 0)
		gd_read_errors_bad(m, &bond->errors, buf, "a mode such as \"802.3ad 4\"",
				   NET "/%s/bonding/mode", bond->name);
	else
		snprintf(bond->mode, sizeof(bond->mode), "%.47s", buf);
	if (mode_has_hash(bond->mode_num)) {
		bond_str(m, bond, bond->xmit_hash_policy, sizeof(bond->xmit_hash_policy),
			 "xmit_hash_policy");
		first_word(bond->xmit_hash_policy);
	}
	bond_str(m, bond, bond->mii_status, sizeof(bond->mii_status), "mii_status");
	bond_int(m, bond, &bond->miimon_ms, NET "/%s/bonding/%s", bond->name, "miimon");
	if (bond->mode_num == GD_BOND_8023AD) {
		bond_str(m, bond, bond->lacp_rate, sizeof(bond->lacp_rate), "lacp_rate");
		first_word(bond->lacp_rate);
		bond_int(m, bond, &bond->active_aggregator, NET "/%s/bonding/%s", bond->name,
			 "ad_aggregator");
	}
	if (bond->mode_num == GD_BOND_ACTIVE_BACKUP || bond->mode_num == GD_BOND_TLB ||
	    bond->mode_num == GD_BOND_ALB)
		bond_str(m, bond, bond->active_slave, sizeof(bond->active_slave), "active_slave");
	if (gd_sysfs_read_int(m, &bond->speed_mbps, NET "/%s/speed", bond->name) ||
	    bond->speed_mbps < 0)
		bond->speed_mbps = -1;

	bond_str(m, bond, buf, sizeof(buf), "slaves");
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		struct gd_bond_slave *s;

		if (strlen(tok) >= IF_NAMESIZE) {
			gd_read_errors_bad(m, &bond->errors, tok, "interface names",
					   NET "/%s/bonding/slaves", bond->name);
			continue;
		}
		s = add_slave(bond, tok);
		if (!s)
			return -ENOMEM;
		read_slave(m, bond, s);
	}
	validate(m, bond, false);
	if (bond->speed_mbps < 0)
		bond->speed_mbps = aggregate_speed(bond);
	return 0;
}

static int read_proc(const struct gd_machine *m, struct gd_bond *bond)
{
	char *text = malloc(65536);
	int ret;

	if (!text)
		return -ENOMEM;
	ret = gd_sysfs_read_str(m, text, 65536, "/proc/net/bonding/%s", bond->name);
	if (ret == 0) {
		ret = gd_bond_parse_proc(text, bond);
		if (ret == 0)
			validate(m, bond, true);
		if (ret == -EINVAL)
			gd_read_errors_bad(m, &bond->errors, NULL, "the bonding driver's text",
					   "/proc/net/bonding/%s", bond->name);
		ret = ret == -ENOMEM ? ret : 0;
	}
	free(text);
	return ret;
}

int gd_bond_read(const struct gd_machine *m, const char *netdev, struct gd_bond *bond)
{
	bond_init(bond, netdev);
	if (!*netdev || strchr(netdev, '/'))
		return -ENOENT;
	if (gd_sysfs_exists(m, NET "/%s/bonding", netdev))
		return read_sysfs(m, bond);
	if (gd_sysfs_exists(m, "/proc/net/bonding/%s", netdev))
		return read_proc(m, bond);
	return -ENOENT;
}

int gd_port_bond(const struct gd_machine *m, const struct gd_port *port, struct gd_bond *bond)
{
	return gd_bond_read(m, port->netdev, bond);
}

int gd_bond_list(const struct gd_machine *m, char ***names, size_t *count)
{
	char **all;
	size_t n, got = 0;
	int ret;

	*names = NULL;
	*count = 0;
	ret = gd_sysfs_list(m, &all, &n, NET);
	if (ret == -ENOENT)
		ret = gd_sysfs_list(m, &all, &n, "/proc/net/bonding");
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++) {
		if (gd_sysfs_exists(m, NET "/%s/bonding", all[i]) ||
		    gd_sysfs_exists(m, "/proc/net/bonding/%s", all[i]))
			all[got++] = all[i];
		else
			free(all[i]);
	}
	*names = all;
	*count = got;
	return 0;
}

bool gd_bond_speed_mismatch(const struct gd_bond *b, size_t *ref, size_t *other)
{
	size_t r = b->nslaves;

	for (size_t i = 0; i < b->nslaves; i++) {
		if (b->slaves[i].speed_mbps <= 0)
			continue;
		if (r == b->nslaves) {
			r = i;
		} else if (b->slaves[i].speed_mbps != b->slaves[r].speed_mbps) {
			*ref = r;
			*other = i;
			return true;
		}
	}
	return false;
}
