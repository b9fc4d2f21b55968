/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The spec's topology, devices and doctor sections against the machine. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "check_machine.h"
#include "check_sections.h"
#include "doctor.h"
#include "gid.h"
#include "judge.h"
#include "log.h"

static const char *const link_names[] = { "X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS", "N/A" };

static void count_item(struct gd_ck_report *r, const char *what, int expect, size_t got, bool ok)
{
	struct gd_ck_item *it;

	if (expect < 0 || !(it = gd_ck_add(r, GD_CK_SEC_TOPOLOGY, "%s", what)))
		return;
	snprintf(it->expected, sizeof(it->expected), "== %d", expect);
	if (ok) {
		snprintf(it->measured, sizeof(it->measured), "%zu", got);
		gd_ck_item_value(it, (double)got, "");
	}
	gd_ck_judge(it, &(struct gd_ck_meas){ .cmp = GD_CK_EQ, .value = (double)got,
					      .expect = expect, .skip = ok ? GD_CK_SKIP_NONE :
					      GD_CK_SKIP_NO_TOPOLOGY });
}

static void worst_class(struct gd_ck_report *r, const struct gd_ck_machine *m, int allowed)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TOPOLOGY, "worst_gpu_nic_class");
	int worst = -1;
	size_t wg = 0;
	char ev[256];

	if (!it)
		return;
	snprintf(it->expected, sizeof(it->expected), "<= %s", link_names[allowed]);
	if (!m->topo_ok || !m->t.ngpus) {
		gd_ck_judge_skip(it, !m->topo_ok ? GD_CK_SKIP_NO_TOPOLOGY : GD_CK_SKIP_NO_GPU, NULL);
		return;
	}
	for (size_t g = 0; g < m->t.ngpus; g++) {
		int nic = m->adv.nic_for_gpu[g];
		int c = nic < 0 ? GD_LOC_NA : (int)gd_topo_cls(&m->t, g, m->t.ngpus + (size_t)nic);

		if (c > worst) {
			worst = c;
			wg = g;
		}
	}
	snprintf(it->measured, sizeof(it->measured), "%s (GPU%zu)", link_names[worst], wg);
	snprintf(ev, sizeof(ev), "GPU%zu (%s) reaches its nearest NIC through %s", wg,
		 m->t.gpus[wg].busid, link_names[worst]);
	gd_ck_judge(it, &(struct gd_ck_meas){ .cmp = GD_CK_LE, .value = worst, .expect = allowed,
					      .evidence = worst > allowed ? ev : NULL });
}

static void same_numa(struct gd_ck_report *r, const struct gd_ck_machine *m)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TOPOLOGY, "gpu_nic_same_numa");
	size_t bad = 0, first = 0;
	char ev[256] = "";

	if (!it)
		return;
	snprintf(it->expected, sizeof(it->expected), "every GPU's nearest NIC on its NUMA node");
	if (!m->topo_ok || !m->t.ngpus) {
		gd_ck_judge_skip(it, !m->topo_ok ? GD_CK_SKIP_NO_TOPOLOGY : GD_CK_SKIP_NO_GPU, NULL);
		return;
	}
	for (size_t g = 0; g < m->t.ngpus; g++) {
		int nic = m->adv.nic_for_gpu[g];

		if (nic < 0 || strcmp(m->t.gpus[g].nodes, m->t.nics[nic].nodes)) {
			if (!bad++)
				first = g;
		}
	}
	snprintf(it->measured, sizeof(it->measured), "%zu of %zu GPUs", m->t.ngpus - bad,
		 m->t.ngpus);
	gd_ck_item_value(it, (double)(m->t.ngpus - bad), ""); /* a count: GPUs where it holds */
	if (bad)
		snprintf(ev, sizeof(ev), "GPU%zu (NUMA %s) has its nearest NIC on NUMA %s", first,
			 m->t.gpus[first].nodes, m->adv.nic_for_gpu[first] < 0 ? "none" :
			 m->t.nics[m->adv.nic_for_gpu[first]].nodes);
	gd_ck_judge_holds(it, !bad, ev);
}

void gd_ck_topology(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		    struct gd_ck_report *r)
{
	const struct gd_ck_topology *t = &s->topo;
	size_t nics = m->nhcas ? m->nhcas : m->t.nnics;

	count_item(r, "gpus", t->gpus, m->t.ngpus, m->topo_ok);
	count_item(r, "nics", t->nics, nics, m->topo_ok || m->nhcas);
	count_item(r, "numa_nodes", t->numa_nodes, (size_t)m->numa_nodes, m->topo_ok);
	if (t->worst_class >= 0)
		worst_class(r, m, t->worst_class);
	if (t->same_numa)
		same_numa(r, m);
}

/* ---- devices ---- */

/* A device fact against the spec's, the same text; value >= 0: it is that number in unit
 * (JSON's value), < 0: a state, a name or not known. */
static void dev_str(struct gd_ck_report *r, const char *dev, int port, const char *what,
		    const char *want, const char *got, double value, const char *unit)
{
	struct gd_ck_item *it;

	if (!want[0] || !(it = gd_ck_add(r, GD_CK_SEC_DEVICES, "%s port %d %s", dev, port, what)))
		return;
	snprintf(it->expected, sizeof(it->expected), "%s", want);
	snprintf(it->measured, sizeof(it->measured), "%s", got[0] ? got : "unknown");
	if (value >= 0 && got[0])
		gd_ck_item_value(it, value, unit);
	gd_ck_judge(it, &(struct gd_ck_meas){ .cmp = GD_CK_SAME });
}

static void dev_bond(struct gd_ck_report *r, const struct gd_machine *mach, const struct gd_hca *h,
		     const struct gd_port *p, const struct gd_ck_device *d)
{
	struct gd_bond b;
	int up = 0, ret;
	char got[32];

	if (!d->bond_mode[0] && d->bond_slaves_up < 0)
		return;
	memset(&b, 0, sizeof(b));
	ret = gd_port_bond(mach, p, &b);
	if (ret && h->parent_netdev[0]) {
		gd_bond_free(&b);
		ret = gd_bond_read(mach, h->parent_netdev, &b);
	}
	for (size_t i = 0; !ret && i < b.nslaves; i++)
		up += !strcmp(b.slaves[i].mii_status, "up");
	dev_str(r, h->name, p->num, "bond_mode", d->bond_mode, ret ? "not bonded" : b.mode, -1,
		"");
	if (d->bond_slaves_up >= 0) {
		snprintf(got, sizeof(got), "%d", ret ? 0 : up);
		char want[32];

		snprintf(want, sizeof(want), "%d", d->bond_slaves_up);
		dev_str(r, h->name, p->num, "bond_slaves_up", want, got, ret ? 0 : up, "");
	}
	gd_bond_free(&b);
}

static void one_device(struct gd_ck_report *r, const struct gd_machine *mach, const struct gd_hca *h,
		       const struct gd_ck_device *d)
{
	const struct gd_port *p = (size_t)d->port <= h->nports ? &h->ports[d->port - 1] : NULL;
	char got[64], want[64];
	struct gd_ck_item *it;

	if (!p) {
		if ((it = gd_ck_add(r, GD_CK_SEC_DEVICES, "%s port %d", h->name, d->port))) {
			snprintf(got, sizeof(got), "%s has %zu port(s)", h->name, h->nports);
			gd_ck_judge_holds(it, false, got);
		}
		return;
	}
	dev_str(r, h->name, d->port, "state", d->state, p->state_str, -1, "");
	dev_str(r, h->name, d->port, "firmware", d->firmware, h->fw_ver, -1, "");
	if (d->gid_type[0]) {
		snprintf(got, sizeof(got), "none");
		for (size_t g = 0; g < p->ngids; g++)
			if (p->gids[g].index == p->default_gid)
				snprintf(got, sizeof(got), "%s", gd_gid_type_str(p->gids[g].type));
		if (!strcmp(p->link_layer, "InfiniBand"))
			snprintf(got, sizeof(got), "IB");
		dev_str(r, h->name, d->port, "gid_type", d->gid_type, got, -1, "");
	}
	if (d->mtu) {
		int mtu = p->active_mtu ? p->active_mtu : p->roce_mtu;

		snprintf(want, sizeof(want), "%d", d->mtu);
		snprintf(got, sizeof(got), "%d", mtu);
		dev_str(r, h->name, d->port, "mtu", want, mtu ? got : "", mtu, "bytes");
	}
	if (d->min_rate_gbps > 0 && (it = gd_ck_add(r, GD_CK_SEC_DEVICES, "%s port %d rate",
						     h->name, d->port))) {
		snprintf(it->expected, sizeof(it->expected), ">= %g Gb/s", d->min_rate_gbps);
		snprintf(it->measured, sizeof(it->measured), "%g Gb/s", p->rate_gbps);
		gd_ck_item_value(it, p->rate_gbps, "Gb/s");
		gd_ck_judge(it, &(struct gd_ck_meas){ .cmp = GD_CK_GE, .value = p->rate_gbps,
						      .expect = d->min_rate_gbps,
						      .evidence = p->rate_str });
	}
	dev_bond(r, mach, h, p, d);
}

void gd_ck_devices(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		   struct gd_ck_report *r)
{
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct gd_ck_device *d = &s->devices[i];
		bool any = false;

		for (size_t h = 0; h < m->nhcas; h++)
			if (!strcmp(d->name, "*") || !strcmp(d->name, m->hcas[h].name)) {
				one_device(r, m->mach, &m->hcas[h], d);
				any = true;
			}
		if (!any) {
			struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_DEVICES, "%s present",
							  d->name);

			if (it) {
				char ev[160];

				snprintf(it->expected, sizeof(it->expected), "present");
				snprintf(it->measured, sizeof(it->measured), "absent");
				snprintf(ev, sizeof(ev), "no RDMA device %s (spec line %d); "
					 "'gd_devinfo' lists the devices", d->name, d->line);
				gd_ck_judge_holds(it, false, ev);
			}
		}
	}
}

/* ---- doctor ---- */

/* Fold one gd_doctor JSON record into the item of its check id (items[0..n), named by id). */
static void fold(struct gd_ck_item *items, size_t n, const char *line)
{
	json_object *o = json_tokener_parse(line), *v;
	const char *id, *st, *subj = "", *sum = "";

	if (!o)
		return;
	if (!json_object_object_get_ex(o, "check", &v) || !(id = json_object_get_string(v)) ||
	    !json_object_object_get_ex(o, "status", &v) || !(st = json_object_get_string(v))) {
		json_object_put(o);
		return;
	}
	if (json_object_object_get_ex(o, "subject", &v))
		subj = json_object_get_string(v);
	if (json_object_object_get_ex(o, "summary", &v))
		sum = json_object_get_string(v);
	for (size_t i = 0; i < n; i++) {
		struct gd_ck_item *it = &items[i];
		bool bad = !strcmp(st, "FAIL") || !strcmp(st, "WARN");

		if (strcmp(it->name, id))
			continue;
		/* the worst record wins: FAIL or WARN, then PASS, then SKIP (its summary kept) */
		if (bad && strcmp(it->measured, "FAIL") && strcmp(it->measured, "WARN")) {
			snprintf(it->measured, sizeof(it->measured), "%s", st);
			snprintf(it->message, sizeof(it->message), "%s%s%s", subj, *subj ? ": " : "",
				 sum);
		} else if (!strcmp(st, "PASS") && (!it->measured[0] || !strcmp(it->measured, "SKIP"))) {
			snprintf(it->measured, sizeof(it->measured), "PASS");
		} else if (!strcmp(st, "SKIP") && !it->measured[0]) {
			snprintf(it->measured, sizeof(it->measured), "SKIP");
			snprintf(it->message, sizeof(it->message), "%s", sum);
		}
	}
	json_object_put(o);
}

/* The folded records of one doctor check to the judge. The row says gd_doctor's word only
 * where it adds to the result (WARN under FAIL), and the expectation (gd_doctor passes) is
 * the section's: no "PASS | PASS | PASS" rows. */
static void doctor_verdict(struct gd_ck_item *it)
{
	char ev[sizeof(it->message)], word[8];
	bool bad = !strcmp(it->measured, "FAIL") || !strcmp(it->measured, "WARN");

	snprintf(word, sizeof(word), "%s", it->measured);
	if (bad)
		snprintf(ev, sizeof(ev), "gd_doctor %s: %s", word,
			 it->message[0] ? it->message : "no evidence given");
	else
		snprintf(ev, sizeof(ev), "%s", it->message[0] ? it->message :
			 "no result from gd_doctor");
	it->measured[0] = it->expected[0] = 0;
	if (!bad && strcmp(word, "PASS"))
		gd_ck_judge_skip(it, GD_CK_SKIP_DOCTOR, ev);
	else
		gd_ck_judge_holds(it, !bad, bad ? ev : NULL);
	if (!strcmp(word, "WARN"))
		snprintf(it->measured, sizeof(it->measured), "%s", word);
}

int gd_ck_doctor_ids(const struct gd_ck_spec *s)
{
	for (size_t i = 0; i < s->ndoctor; i++) {
		bool known = false;

		for (const struct gd_check *c = gd_checks; c->id && !known; c++)
			known = !strcmp(c->id, s->doctor[i]);
		if (!known) {
			gd_error("%s:%d:%d: doctor: no gd_doctor check '%s'; 'gd_doctor --list' "
				 "names them", s->path, s->doctor_at[i][0], s->doctor_at[i][1],
				 gd_excerpt(s->doctor[i]));
			return GD_EXIT_USAGE;
		}
	}
	return 0;
}

int gd_ck_doctor(const struct gd_ck_spec *s, const struct gd_machine *mach, struct gd_ck_report *r,
		 int rung)
{
	struct gd_doctor d = { 0 };
	char *buf = NULL, *save = NULL;
	size_t len = 0, first = r->n, n;

	for (size_t i = 0; i < s->ndoctor; i++) {
		struct gd_ck_item *it;

		if (rung && gd_ck_doctor_rung(s->doctor[i]) != rung)
			continue;
		if (!(it = gd_ck_add(r, GD_CK_SEC_DOCTOR, "%s", s->doctor[i])))
			return GD_EXIT_ENV;
	}
	n = r->n - first;
	if (!n || r->items[first].blocked_by) { /* the ladder stopped below: gd_doctor not run */
		for (size_t i = first; i < r->n; i++)
			gd_ck_judge_holds(&r->items[i], false, NULL);
		return 0;
	}
	d.m = mach;
	d.json = true;
	d.out = open_memstream(&buf, &len);
	if (!d.out || gd_doctor_init(&d)) {
		if (d.out)
			fclose(d.out);
		free(buf);
		gd_doctor_fini(&d);
		return GD_EXIT_ENV;
	}
	for (size_t i = first; i < r->n; i++) { /* this rung's checks, not the whole registry */
		d.only_check = r->items[i].name;
		gd_doctor_run(&d);
	}
	fclose(d.out);
	gd_doctor_fini(&d);
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		fold(&r->items[first], n, line);
	free(buf);
	for (size_t i = first; i < r->n; i++)
		doctor_verdict(&r->items[i]);
	return 0;
}
