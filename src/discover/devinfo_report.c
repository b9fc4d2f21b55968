/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_devinfo's report: collection, text and JSON Lines. */
#include "config.h"

#include "devinfo_report.h"

#include "readfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bond.h"
#include "gd.h"
#include "gid.h"
#include "jsonout.h"
#include "log.h"
#include "sysfs.h"

/* ---- collection ---- */

static int find_bond(const struct gd_devinfo *di, const char *name)
{
	for (size_t i = 0; i < di->nbonds; i++)
		if (!strcmp(di->bonds[i].name, name))
			return (int)i;
	return -1;
}

static int add_bond(struct gd_devinfo *di, const char *name)
{
	struct gd_bond *v;
	char (*u)[256];
	int ret;

	if (find_bond(di, name) >= 0)
		return 0;
	v = realloc(di->bonds, (di->nbonds + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	di->bonds = v;
	u = realloc(di->bond_users, (di->nbonds + 1) * sizeof(*u));
	if (!u)
		return -ENOMEM;
	di->bond_users = u;
	ret = gd_bond_read(di->m, name, &v[di->nbonds]);
	if (ret == -ENOENT) {
		gd_bond_free(&v[di->nbonds]);
		return 0; /* not a bond */
	}
	if (ret) {
		gd_bond_free(&v[di->nbonds]);
		return ret;
	}
	u[di->nbonds][0] = '\0';
	di->nbonds++;
	return 0;
}

static void note_user(struct gd_devinfo *di, const char *bond, const char *dev)
{
	int i = find_bond(di, bond);
	char *u;
	size_t n;

	if (i < 0)
		return;
	u = di->bond_users[i];
	n = strlen(u);
	for (const char *p = u; (p = strstr(p, dev)); p++) /* whole names only */
		if ((p == u || p[-1] == ' ') && (p[strlen(dev)] == ' ' || !p[strlen(dev)]))
			return;
	snprintf(u + n, 256 - n, "%s%s", n ? " " : "", dev);
}

static int collect_bonds(const char *only_dev, struct gd_devinfo *di)
{
	int ret = 0;

	if (!only_dev) {
		char **names;
		size_t n;

		ret = gd_bond_list(di->m, &names, &n);
		if (ret)
			return ret;
		for (size_t i = 0; i < n && !ret; i++)
			ret = add_bond(di, names[i]);
		gd_sysfs_free_list(names, n);
	}
	for (size_t h = 0; h < di->nhcas && !ret; h++) {
		const struct gd_hca *hca = &di->hcas[h];

		for (size_t p = 0; p < hca->nports && !ret; p++) {
			if (!hca->ports[p].netdev[0])
				continue;
			ret = add_bond(di, hca->ports[p].netdev);
			note_user(di, hca->ports[p].netdev, hca->name);
		}
	}
	return ret;
}

static void query_verbs(struct gd_devinfo *di)
{
	di->verbs = GD_VERBS_QUERIED;
	for (size_t i = 0; i < di->nhcas; i++) {
		int ret = gd_rdma_query_verbs(&di->hcas[i]);

		gd_debug("%s: libibverbs %s", di->hcas[i].name, ret ? strerror(-ret) : "queried");
		if (ret && di->verbs != GD_VERBS_FAILED) {
			di->verbs = GD_VERBS_FAILED;
			snprintf(di->verbs_error, sizeof(di->verbs_error), "%s: %s", di->hcas[i].name,
				 strerror(-ret));
		}
	}
}

int gd_devinfo_collect(const struct gd_machine *m, const char *only_dev, bool use_verbs,
		       struct gd_devinfo *di)
{
	int ret;

	memset(di, 0, sizeof(*di));
	di->m = m;
	gd_debug("reading sysfs and procfs under %s", gd_machine_name(m));
	if (only_dev) {
		di->hcas = calloc(1, sizeof(*di->hcas));
		if (!di->hcas)
			return -ENOMEM;
		ret = gd_rdma_read_hca(m, only_dev, di->hcas);
		if (ret) {
			free(di->hcas);
			di->hcas = NULL;
			return ret;
		}
		di->nhcas = 1;
	} else {
		ret = gd_rdma_discover(m, &di->hcas, &di->nhcas);
		if (ret)
			return ret;
	}
	for (size_t i = 0; i < di->nhcas; i++)
		gd_debug("%s: %zu port(s), PCI %s, %zu unreadable file(s)", di->hcas[i].name,
			 di->hcas[i].nports, di->hcas[i].pci_addr[0] ? di->hcas[i].pci_addr : "none",
			 di->hcas[i].errors.n);
	ret = collect_bonds(only_dev, di);
	if (ret) {
		gd_devinfo_free(di);
		return ret;
	}
	if (m->fixture || !use_verbs)
		di->verbs = GD_VERBS_FIXTURE;
	else
		query_verbs(di);
	return 0;
}

void gd_devinfo_free(struct gd_devinfo *di)
{
	gd_rdma_free(di->hcas, di->nhcas);
	for (size_t i = 0; i < di->nbonds; i++)
		gd_bond_free(&di->bonds[i]);
	free(di->bonds);
	free(di->bond_users);
	memset(di, 0, sizeof(*di));
}

size_t gd_devinfo_nerrors(const struct gd_devinfo *di)
{
	size_t n = 0;

	for (size_t i = 0; i < di->nhcas; i++)
		n += di->hcas[i].errors.n;
	for (size_t i = 0; i < di->nbonds; i++)
		n += di->bonds[i].errors.n;
	return n;
}

static const char *err_text(int err)
{
	if (err == -EINVAL)
		return "malformed content";
	if (err == -ENOSPC)
		return "content longer than any valid value";
	return gd_strerror(err);
}

static void log_errs(const struct gd_read_errors *e)
{
	for (size_t i = 0; i < e->n; i++) {
		if (e->v[i].detail[0])
			gd_error("%s: %s: %s", e->v[i].path, err_text(e->v[i].err), e->v[i].detail);
		else
			gd_error("%s: %s", e->v[i].path, err_text(e->v[i].err));
	}
}

void gd_devinfo_log_errors(const struct gd_devinfo *di)
{
	for (size_t i = 0; i < di->nhcas; i++)
		log_errs(&di->hcas[i].errors);
	for (size_t i = 0; i < di->nbonds; i++)
		log_errs(&di->bonds[i].errors);
}

static void warn_bond(const struct gd_bond *b)
{
	size_t up = 0, r, o;

	for (size_t i = 0; i < b->nslaves; i++) {
		const struct gd_bond_slave *s = &b->slaves[i];

		if (!strcmp(s->mii_status, "up")) {
			up++;
			if (b->mode_num == GD_BOND_8023AD && b->active_aggregator >= 0 &&
			    s->aggregator_id != b->active_aggregator)
				gd_warn("%s: slave %s is up but not in the active aggregator %d "
					"(its aggregator is %d): check the switch's LACP configuration",
					b->name, s->name, b->active_aggregator, s->aggregator_id);
			continue;
		}
		gd_warn("%s: slave %s is %s (link failure count %d): check its cable and switch port",
			b->name, s->name, s->mii_status[0] ? s->mii_status : "in an unknown state",
			s->link_failures);
	}
	if (up < b->nslaves)
		gd_warn("%s: %zu of %zu slaves up; the bond runs below its full bandwidth", b->name,
			up, b->nslaves);
	if (gd_bond_speed_mismatch(b, &r, &o))
		gd_warn("%s: slaves %s and %s run at different speeds (%d and %d Mb/s)", b->name,
			b->slaves[r].name, b->slaves[o].name, b->slaves[r].speed_mbps,
			b->slaves[o].speed_mbps);
}

/* What a port that is not ACTIVE most likely needs. */
static const char *port_hint(const struct gd_port *p)
{
	static char buf[160];
	bool ib = !strcmp(p->link_layer, "InfiniBand");

	if (p->phys_state == GD_PHYS_LINKUP && ib &&
	    (p->state == GD_PORT_INIT || p->state == GD_PORT_ARMED))
		return ": the link is up but no subnet manager has configured the port; "
		       "start opensm or check the fabric's subnet manager";
	if (p->phys_state == GD_PHYS_POLLING)
		return ": no link partner; check the cable and the switch port";
	if (p->phys_state == GD_PHYS_DISABLED && p->netdev[0]) {
		snprintf(buf, sizeof(buf), ": the port is disabled; enable it (ip link set %s up, "
			 "or on the switch)", p->netdev);
		return buf;
	}
	if (p->phys_state == GD_PHYS_DISABLED)
		return ": the port is disabled; enable it (ibportstate, or on the switch)";
	return "";
}

void gd_devinfo_log_warnings(const struct gd_devinfo *di)
{
	for (size_t h = 0; h < di->nhcas; h++) {
		const struct gd_hca *hca = &di->hcas[h];

		for (size_t p = 0; p < hca->nports; p++) {
			const struct gd_port *port = &hca->ports[p];

			if (port->state && port->state != GD_PORT_ACTIVE)
				gd_warn("%s port %d is %s (%s)%s", hca->name, port->num,
					port->state_str, port->phys_state_str, port_hint(port));
			if (port->roce_mtu > 0 && port->roce_mtu < 4096) {
				char fix[192];

				gd_mtu_advice(port->netdev, fix, sizeof(fix));
				gd_warn("%s port %d: RoCE MTU at most %d because %s has MTU %d; %s",
					hca->name, port->num, port->roce_mtu, port->netdev,
					port->netdev_mtu, fix);
			}
		}
	}
	for (size_t i = 0; i < di->nbonds; i++)
		warn_bond(&di->bonds[i]);
	if (di->verbs == GD_VERBS_FAILED)
		gd_warn("verbs-only facts (active/max MTU) left out: cannot open %s", di->verbs_error);
}

/* ---- text ---- */

#define KV "    %-18s"

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

static void print_mtu(FILE *out, const char *what, int mtu, const struct gd_hca *hca)
{
	if (mtu > 0)
		fprintf(out, "        %-18s%d bytes\n", what, mtu);
	else
		fprintf(out, "        %-18s%s\n", what, hca->verbs_known ? "unknown" : "not read (verbs only)");
}

static void print_gids(FILE *out, const struct gd_port *p)
{
	if (!p->ngids) {
		fprintf(out, "        GID table:        empty\n");
		return;
	}
	fprintf(out, "        GID table:\n");
	fprintf(out, "            %-5s %-39s  %-8s %-15s %s\n", "IDX", "GID", "TYPE", "NETDEV",
		"ADDRESS");
	for (size_t i = 0; i < p->ngids; i++) {
		const struct gd_gid *g = &p->gids[i];
		char idx[16];

		snprintf(idx, sizeof(idx), "%d%s", g->index, g->index == p->default_gid ? " *" : "");
		fprintf(out, "            %-5s %-39s  %-8s %-15s %s%s\n", idx, g->gid,
			gd_gid_type_str(g->type), g->netdev[0] ? g->netdev : "-", g->ip,
			g->foreign ? " (netdev in another network namespace)" : "");
	}
	if (p->default_gid >= 0 && p->default_gid6 >= 0)
		fprintf(out, "            * default RoCE v2 GID index: %d (IPv6: %d)\n",
			p->default_gid, p->default_gid6);
	else if (p->default_gid >= 0)
		fprintf(out, "            * default RoCE v2 GID index: %d\n", p->default_gid);
	else if (!strcmp(p->link_layer, "Ethernet"))
		fprintf(out, "            no RoCE v2 GID with an IPv4 address: give the netdev an "
			     "address, or pass -x\n");
}

/* The non-zero ones by name, the zeros counted: "symbol_error 12 (7 more at 0)". */
static void print_counters(FILE *out, const struct gd_port *p)
{
	const char *sep = "";
	int zeros = 0;

	for (int c = 0; c < GD_NCOUNTERS; c++) {
		if (p->counters[c] < 0)
			continue;
		if (p->counters[c] == 0) {
			zeros++;
			continue;
		}
		if (!*sep)
			fprintf(out, "        %-18s", "error counters:");
		fprintf(out, "%s%s %lld", sep, gd_counter_name(c), (long long)p->counters[c]);
		sep = ", ";
	}
	if (*sep && zeros)
		fprintf(out, " (%d more at 0)\n", zeros);
	else if (*sep)
		fprintf(out, "\n");
	else if (zeros)
		fprintf(out, "        %-18sall %d at 0\n", "error counters:", zeros);
}

/* Modes that spread flows over slaves: one QP is one flow, so it uses one slave. */
static size_t slaves_up(const struct gd_bond *b)
{
	size_t up = 0;

	for (size_t i = 0; i < b->nslaves; i++)
		up += !strcmp(b->slaves[i].mii_status, "up");
	return up;
}

static bool spreads_flows(const struct gd_bond *b)
{
	return b->mode_num == GD_BOND_RR || b->mode_num == GD_BOND_XOR ||
	       b->mode_num == GD_BOND_8023AD;
}

/* A RoCE LAG port runs at one slave's rate per QP; say what the bond adds up to. */
static void print_port_bond(FILE *out, const struct gd_devinfo *di, const struct gd_port *p)
{
	int i = p->netdev[0] ? find_bond(di, p->netdev) : -1;
	const struct gd_bond *b;

	if (i < 0)
		return;
	b = &di->bonds[i];
	fprintf(out, "        %-18s%s, %zu of %zu slaves up", "bond:", b->name, slaves_up(b),
		b->nslaves);
	if (b->speed_mbps > 0)
		fprintf(out, ", %g Gb/s aggregate", b->speed_mbps / 1000.0);
	fprintf(out, "\n");
}

static void print_port(FILE *out, const struct gd_devinfo *di, const struct gd_hca *hca,
		       const struct gd_port *p)
{
	fprintf(out, "    port %d:\n", p->num);
	fprintf(out, "        %-18s%s (%d)\n", "state:", or_unknown(p->state_str), p->state);
	fprintf(out, "        %-18s%s (%d)\n", "physical state:", or_unknown(p->phys_state_str),
		p->phys_state);
	fprintf(out, "        %-18s%s\n", "link layer:", or_unknown(p->link_layer));
	if (p->rate_gbps > 0 && p->width)
		fprintf(out, "        %-18s%g Gb/s (%dX %s)\n", "rate:", p->rate_gbps, p->width,
			p->speed);
	else if (p->rate_gbps > 0)
		fprintf(out, "        %-18s%g Gb/s\n", "rate:", p->rate_gbps);
	else
		fprintf(out, "        %-18s%s\n", "rate:", "unknown");
	print_mtu(out, "active MTU:", p->active_mtu, hca);
	print_mtu(out, "max MTU:", p->max_mtu, hca);
	if (!strcmp(p->link_layer, "InfiniBand")) {
		fprintf(out, "        %-18s%u (0x%x)\n", "LID:", p->lid, p->lid);
		fprintf(out, "        %-18s%u (0x%x)\n", "SM LID:", p->sm_lid, p->sm_lid);
		if (p->lmc >= 0)
			fprintf(out, "        %-18s%d\n", "LMC:", p->lmc);
	}
	if (p->netdev[0])
		fprintf(out, "        %-18s%s (%s)\n", "netdev:", p->netdev,
			p->netdev_up ? "Up" : "Down");
	else
		fprintf(out, "        %-18s%s\n", "netdev:", "none");
	print_port_bond(out, di, p);
	if (p->netdev_mtu > 0 && p->roce_mtu > 0)
		fprintf(out, "        %-18s%d bytes (RoCE MTU up to %d)\n", "netdev MTU:",
			p->netdev_mtu, p->roce_mtu);
	else if (p->netdev_mtu > 0)
		fprintf(out, "        %-18s%d bytes\n", "netdev MTU:", p->netdev_mtu);
	print_counters(out, p);
	print_gids(out, p);
}

static void print_hca(FILE *out, const struct gd_devinfo *di, const struct gd_hca *hca)
{
	fprintf(out, "%s\n", hca->name);
	fprintf(out, KV "%s\n", "node type:", or_unknown(hca->node_type));
	fprintf(out, KV "%s\n", "transport:", or_unknown(hca->transport));
	fprintf(out, KV "%s\n", "firmware:", or_unknown(hca->fw_ver));
	fprintf(out, KV "%s\n", "node GUID:", or_unknown(hca->node_guid));
	fprintf(out, KV "%s\n", "sys image GUID:", or_unknown(hca->sys_image_guid));
	if (hca->board_id[0])
		fprintf(out, KV "%s\n", "board id:", hca->board_id);
	if (hca->hca_type[0])
		fprintf(out, KV "%s\n", "hca type:", hca->hca_type);
	if (hca->pci_addr[0]) {
		fprintf(out, KV "%s\n", "PCI address:", hca->pci_addr);
		if (hca->numa_node >= 0)
			fprintf(out, KV "%d\n", "NUMA node:", hca->numa_node);
		else
			fprintf(out, KV "%s\n", "NUMA node:", "unknown");
		fprintf(out, KV "%s\n", "driver:", or_unknown(hca->driver));
	} else {
		fprintf(out, KV "%s\n", "PCI address:", "none (software device)");
		fprintf(out, KV "%s\n", "parent netdev:", or_unknown(hca->parent_netdev));
	}
	for (size_t i = 0; i < hca->nports; i++)
		print_port(out, di, hca, &hca->ports[i]);
}

static void print_map(FILE *out, const struct gd_devinfo *di)
{
	fprintf(out, "Netdev map (ibdev2netdev):\n");
	for (size_t h = 0; h < di->nhcas; h++)
		for (size_t p = 0; p < di->hcas[h].nports; p++) {
			const struct gd_port *port = &di->hcas[h].ports[p];

			if (port->netdev[0])
				fprintf(out, "%s port %d ==> %s (%s)\n", di->hcas[h].name, port->num,
					port->netdev, port->netdev_up ? "Up" : "Down");
		}
}

static void print_int_unit(FILE *out, int v, const char *unit)
{
	if (v >= 0)
		fprintf(out, "%d%s", v, unit);
	else
		fprintf(out, "unknown");
}

static void print_bond(FILE *out, const struct gd_bond *b, const char *users)
{
	fprintf(out, "%s", b->name);
	if (users[0])
		fprintf(out, " (RDMA: %s)", users);
	fprintf(out, "\n" KV "%s (%d)\n", "mode:", or_unknown(b->mode), b->mode_num);
	if (b->xmit_hash_policy[0])
		fprintf(out, KV "%s\n", "hash policy:", b->xmit_hash_policy);
	fprintf(out, KV "%s", "MII status:", or_unknown(b->mii_status));
	if (b->miimon_ms >= 0)
		fprintf(out, " (miimon %d ms)", b->miimon_ms);
	fprintf(out, "\n");
	if (b->lacp_rate[0])
		fprintf(out, KV "%s\n", "LACP rate:", b->lacp_rate);
	if (b->mode_num == GD_BOND_8023AD) {
		fprintf(out, KV, "aggregator:");
		print_int_unit(out, b->active_aggregator, "");
		fprintf(out, "\n");
	}
	if (b->active_slave[0])
		fprintf(out, KV "%s\n", "active slave:", b->active_slave);
	fprintf(out, KV, "speed:");
	print_int_unit(out, b->speed_mbps, " Mb/s");
	fprintf(out, "\n    slaves:\n");
	fprintf(out, "        %-15s %-12s  %-12s %-7s %-5s %-8s %-4s %s\n", "NAME", "PCI", "SPEED",
		"DUPLEX", "MII", "FAILURES", "AGG", "STATE");
	for (size_t i = 0; i < b->nslaves; i++) {
		const struct gd_bond_slave *s = &b->slaves[i];
		char speed[24], fails[16], agg[16];

		if (s->speed_mbps >= 0)
			snprintf(speed, sizeof(speed), "%d Mb/s", s->speed_mbps);
		else
			snprintf(speed, sizeof(speed), "unknown");
		snprintf(fails, sizeof(fails), "%d", s->link_failures);
		snprintf(agg, sizeof(agg), "%d", s->aggregator_id);
		fprintf(out, "        %-15s %-12s  %-12s %-7s %-5s %-8s %-4s %s\n", s->name,
			s->pci_addr[0] ? s->pci_addr : "-", speed, s->duplex[0] ? s->duplex : "-",
			s->mii_status[0] ? s->mii_status : "-",
			s->link_failures >= 0 ? fails : "-", s->aggregator_id >= 0 ? agg : "-",
			s->state[0] ? s->state : "-");
	}
	if (users[0] && spreads_flows(b) && slaves_up(b) > 1)
		fprintf(out, "    hint: one QP is one flow and uses one of the %zu slaves up; run "
			     "at least %zu QPs (-q %zu) to use them all\n", slaves_up(b),
			slaves_up(b), slaves_up(b));
}

static void print_notes(FILE *out, const struct gd_devinfo *di)
{
	size_t nerr = gd_devinfo_nerrors(di);

	if (di->verbs == GD_VERBS_QUERIED && !nerr)
		return;
	fprintf(out, "\nNotes:\n");
	if (di->verbs == GD_VERBS_FIXTURE)
		fprintf(out,
			"    verbs-only facts (active and max MTU) left out: read from the sysfs "
			"tree %s\n",
			di->m->root);
	else if (di->verbs == GD_VERBS_FAILED)
		fprintf(out, "    verbs-only facts (active and max MTU) left out: cannot open %s\n",
			di->verbs_error);
	if (nerr)
		fprintf(out, "    %zu file(s) could not be read or parsed (listed on stderr); "
			     "the report shows what could be read\n", nerr);
}

void gd_devinfo_print_text(const struct gd_devinfo *di, FILE *out)
{
	fprintf(out, "RDMA devices: %zu\n", di->nhcas);
	for (size_t i = 0; i < di->nhcas; i++) {
		fprintf(out, "\n");
		print_hca(out, di, &di->hcas[i]);
	}
	fprintf(out, "\n");
	print_map(out, di);
	fprintf(out, "\nBonds: %zu\n", di->nbonds);
	for (size_t i = 0; i < di->nbonds; i++) {
		fprintf(out, "\n");
		print_bond(out, &di->bonds[i], di->bond_users[i]);
	}
	if (di->peer)
		gd_devinfo_peer_text(di->peer, out);
	print_notes(out, di);
}

/* ---- JSON Lines ---- */

static json_object *errors_json(const struct gd_read_errors *e)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < e->n; i++) {
		json_object *o = json_object_new_object();

		gd_json_add_str(o, "path", e->v[i].path);
		gd_json_add_str(o, "error", err_text(e->v[i].err));
		gd_json_add_str_or_null(o, "detail", e->v[i].detail);
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *gid_json(const struct gd_port *p, const struct gd_gid *g)
{
	json_object *o = json_object_new_object();

	gd_json_add_int(o, "index", g->index);
	gd_json_add_str(o, "gid", g->gid);
	gd_json_add_str(o, "type", gd_gid_type_str(g->type));
	gd_json_add_str_or_null(o, "netdev", g->netdev);
	gd_json_add_str(o, "ip", g->ip);
	gd_json_add_bool(o, "ipv4", g->ipv4);
	gd_json_add_bool(o, "link_local", g->link_local);
	gd_json_add_bool(o, "foreign_netns", g->foreign);
	gd_json_add_bool(o, "default", g->index == p->default_gid);
	return o;
}

static json_object *port_json(const struct gd_port *p)
{
	json_object *o = json_object_new_object(), *gids = json_object_new_array(), *cnt;
	bool ib = !strcmp(p->link_layer, "InfiniBand");

	gd_json_add_int(o, "port", p->num);
	gd_json_add_str_or_null(o, "state", p->state_str);
	gd_json_add_int_or_null(o, "state_num", p->state, p->state_str[0]);
	gd_json_add_str_or_null(o, "phys_state", p->phys_state_str);
	gd_json_add_int_or_null(o, "phys_state_num", p->phys_state, p->phys_state_str[0]);
	gd_json_add_str_or_null(o, "link_layer", p->link_layer);
	gd_json_add_str_or_null(o, "rate", p->rate_str);
	json_object_object_add(o, "rate_gbps",
			       p->rate_gbps > 0 ? json_object_new_double(p->rate_gbps) : NULL);
	gd_json_add_int_or_null(o, "width", p->width, p->width > 0);
	gd_json_add_str_or_null(o, "speed", p->speed);
	gd_json_add_int_or_null(o, "active_mtu_bytes", p->active_mtu, p->active_mtu > 0);
	gd_json_add_int_or_null(o, "max_mtu_bytes", p->max_mtu, p->max_mtu > 0);
	gd_json_add_int_or_null(o, "lid", p->lid, ib);
	gd_json_add_int_or_null(o, "sm_lid", p->sm_lid, ib);
	gd_json_add_int_or_null(o, "lmc", p->lmc, ib && p->lmc >= 0);
	gd_json_add_str_or_null(o, "netdev", p->netdev);
	json_object_object_add(o, "netdev_state",
			       p->netdev[0] ? json_object_new_string(p->netdev_up ? "Up" : "Down") :
					      NULL);
	gd_json_add_int_or_null(o, "netdev_mtu_bytes", p->netdev_mtu, p->netdev_mtu > 0);
	gd_json_add_int_or_null(o, "roce_mtu_bytes", p->roce_mtu, p->roce_mtu > 0);
	cnt = json_object_new_object();
	for (int c = 0; c < GD_NCOUNTERS; c++)
		if (p->counters[c] >= 0)
			json_object_object_add(cnt, gd_counter_name(c),
					       json_object_new_int64(p->counters[c]));
	json_object_object_add(o, "counters", cnt);
	gd_json_add_int_or_null(o, "default_roce_v2_gid_index", p->default_gid,
				p->default_gid >= 0);
	gd_json_add_int_or_null(o, "default_roce_v2_ipv6_gid_index", p->default_gid6,
				p->default_gid6 >= 0);
	for (size_t i = 0; i < p->ngids; i++)
		json_object_array_add(gids, gid_json(p, &p->gids[i]));
	json_object_object_add(o, "gids", gids);
	return o;
}

static json_object *hca_json(const struct gd_hca *hca)
{
	json_object *rec = gd_json_record("device"), *ports = json_object_new_array();

	gd_json_add_str(rec, "name", hca->name);
	gd_json_add_str_or_null(rec, "node_type", hca->node_type);
	gd_json_add_str_or_null(rec, "transport", hca->transport);
	gd_json_add_str_or_null(rec, "fw_ver", hca->fw_ver);
	gd_json_add_str_or_null(rec, "node_guid", hca->node_guid);
	gd_json_add_str_or_null(rec, "sys_image_guid", hca->sys_image_guid);
	gd_json_add_str_or_null(rec, "board_id", hca->board_id);
	gd_json_add_str_or_null(rec, "hca_type", hca->hca_type);
	gd_json_add_str_or_null(rec, "pci_addr", hca->pci_addr);
	gd_json_add_int_or_null(rec, "numa_node", hca->numa_node, hca->numa_node >= 0);
	gd_json_add_str_or_null(rec, "driver", hca->driver);
	gd_json_add_str_or_null(rec, "parent_netdev", hca->parent_netdev);
	gd_json_add_bool(rec, "verbs_known", hca->verbs_known);
	for (size_t i = 0; i < hca->nports; i++)
		json_object_array_add(ports, port_json(&hca->ports[i]));
	json_object_object_add(rec, "ports", ports);
	json_object_object_add(rec, "errors", errors_json(&hca->errors));
	return rec;
}

static json_object *slave_json(const struct gd_bond_slave *s)
{
	json_object *o = json_object_new_object();

	gd_json_add_str(o, "name", s->name);
	gd_json_add_str_or_null(o, "pci_addr", s->pci_addr);
	gd_json_add_int_or_null(o, "speed_mbps", s->speed_mbps, s->speed_mbps >= 0);
	gd_json_add_str_or_null(o, "duplex", s->duplex);
	gd_json_add_str_or_null(o, "mii_status", s->mii_status);
	gd_json_add_int_or_null(o, "link_failures", s->link_failures, s->link_failures >= 0);
	gd_json_add_int_or_null(o, "aggregator_id", s->aggregator_id, s->aggregator_id >= 0);
	gd_json_add_str_or_null(o, "state", s->state);
	gd_json_add_str_or_null(o, "perm_hwaddr", s->perm_hwaddr);
	return o;
}

static json_object *bond_json(const struct gd_bond *b, const char *users)
{
	json_object *rec = gd_json_record("bond"), *a = json_object_new_array();
	char buf[256], *save = NULL;

	gd_json_add_str(rec, "name", b->name);
	snprintf(buf, sizeof(buf), "%s", users);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		json_object_array_add(a, json_object_new_string(t));
	json_object_object_add(rec, "rdma_devices", a);
	gd_json_add_str_or_null(rec, "mode", b->mode);
	gd_json_add_int_or_null(rec, "mode_num", b->mode_num, b->mode_num >= 0);
	gd_json_add_str_or_null(rec, "xmit_hash_policy", b->xmit_hash_policy);
	gd_json_add_str_or_null(rec, "mii_status", b->mii_status);
	gd_json_add_int_or_null(rec, "miimon_ms", b->miimon_ms, b->miimon_ms >= 0);
	gd_json_add_str_or_null(rec, "lacp_rate", b->lacp_rate);
	gd_json_add_str_or_null(rec, "active_slave", b->active_slave);
	gd_json_add_int_or_null(rec, "active_aggregator", b->active_aggregator,
				b->active_aggregator >= 0);
	gd_json_add_int_or_null(rec, "speed_mbps", b->speed_mbps, b->speed_mbps >= 0);
	gd_json_add_int(rec, "slaves_up", (int64_t)slaves_up(b));
	a = json_object_new_array();
	for (size_t i = 0; i < b->nslaves; i++)
		json_object_array_add(a, slave_json(&b->slaves[i]));
	json_object_object_add(rec, "slaves", a);
	json_object_object_add(rec, "errors", errors_json(&b->errors));
	return rec;
}

static const char *verbs_str(enum gd_verbs_status v)
{
	return v == GD_VERBS_QUERIED ? "queried" : v == GD_VERBS_FIXTURE ? "left_out" : "failed";
}

int gd_devinfo_print_json(const struct gd_devinfo *di, FILE *out)
{
	json_object *rec;
	int ret = 0;

	for (size_t i = 0; i < di->nhcas && !ret; i++)
		ret = gd_json_emit(hca_json(&di->hcas[i]), out);
	for (size_t i = 0; i < di->nbonds && !ret; i++)
		ret = gd_json_emit(bond_json(&di->bonds[i], di->bond_users[i]), out);
	if (!ret && di->peer)
		ret = gd_json_emit(gd_devinfo_peer_json(di->peer), out);
	if (ret)
		return ret;
	rec = gd_json_record("summary");
	gd_json_add_int(rec, "devices", (int64_t)di->nhcas);
	gd_json_add_int(rec, "bonds", (int64_t)di->nbonds);
	gd_json_add_str(rec, "verbs", verbs_str(di->verbs));
	gd_json_add_str_or_null(rec, "verbs_error", di->verbs_error);
	gd_json_add_str_or_null(rec, "sysfs_root", di->m->root);
	gd_json_add_int(rec, "errors", (int64_t)gd_devinfo_nerrors(di));
	return gd_json_emit(rec, out);
}
