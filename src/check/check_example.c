/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_check --example: a commented spec for this machine, with counts, rates,
 * states and classes filled in from discovery, so a first spec takes one
 * command. Thresholds come from three calibration runs of each test here (check_calib.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_calib.h"
#include "check_machine.h"
#include "check_manifest.h"
#include "check_sections.h"
#include "doctor.h"
#include "gid.h"

static const char *worst_class(const struct gd_ck_machine *m)
{
	int worst = -1;

	for (size_t g = 0; g < m->t.ngpus; g++) {
		int nic = m->adv.nic_for_gpu ? m->adv.nic_for_gpu[g] : -1;
		int c = nic < 0 ? GD_LOC_NA : (int)gd_topo_cls(&m->t, g, m->t.ngpus + (size_t)nic);

		worst = c > worst ? c : worst;
	}
	return worst < 0 ? NULL : gd_loc_class_str((enum gd_loc_class)worst);
}

static void topology(FILE *out, const struct gd_ck_machine *m, bool suite)
{
	const char *w = worst_class(m);

	fprintf(out, "# What the box must have: counts, and how far each GPU is from its nearest\n"
		"# NIC (X < PIX < PXB < PHB < NODE < SYS, as nvidia-smi topo -m).\n");
	if (suite) /* counts of the node as it is judge nothing: they come from --golden */
		fprintf(out, "# counts: from the golden manifest (--golden FILE), not this node's\n"
			"topology:\n");
	else
		fprintf(out, "topology:\n  gpus: %zu\n  nics: %zu\n", m->t.ngpus,
			m->nhcas ? m->nhcas : m->t.nnics);
	if (m->numa_nodes > 0 && !suite)
		fprintf(out, "  numa_nodes: %d\n", m->numa_nodes);
	if (w && strcmp(w, "N/A"))
		fprintf(out, "  worst_gpu_nic_class: %s      # found here\n", w);
	else
		fprintf(out, "  # worst_gpu_nic_class: PIX  # no GPU/NIC pair with a PCIe path here\n%s",
			suite ? "  {}\n" : "");
	fputc('\n', out);
}

static void devices(FILE *out, const struct gd_ck_machine *m, bool suite)
{
	fprintf(out, "# Every RDMA device as found now: port state, rate, MTU, firmware, GID type,\n"
		"# bond mode and slaves up. Delete what you do not want enforced.\n");
	/* an empty 'devices:' is a null, not a list: the spec must load as written */
	fputs(m->nhcas ? "devices:\n" : "devices: []   # no RDMA device found: list entries as "
		"'- name: mlx5_0'\n", out);
	for (size_t i = 0; i < m->nhcas; i++) {
		const struct gd_hca *h = &m->hcas[i];
		const struct gd_port *p = h->nports ? &h->ports[0] : NULL;
		struct gd_bond b;

		fprintf(out, "  - name: %s\n", h->name);
		if (!p)
			continue;
		/* a suite wants every port up, whatever it is now */
		fprintf(out, "    port: %d\n    state: %s\n", p->num, suite ? "ACTIVE" : p->state_str);
		if (p->rate_gbps > 0)
			fprintf(out, "    min_rate: %g Gb/s   # %s\n", p->rate_gbps, p->rate_str);
		if (h->fw_ver[0])
			fprintf(out, "    firmware: \"%s\"\n", h->fw_ver);
		for (size_t g = 0; g < p->ngids; g++)
			if (p->gids[g].index == p->default_gid)
				fprintf(out, "    gid_type: %s\n", gd_gid_type_str(p->gids[g].type));
		memset(&b, 0, sizeof(b));
		if (!gd_port_bond(m->mach, p, &b) ||
		    (h->parent_netdev[0] && (gd_bond_free(&b), !gd_bond_read(m->mach, h->parent_netdev, &b)))) {
			fprintf(out, "    bond_mode: %s\n    bond_slaves_up: %zu\n", b.mode, b.nslaves);
		}
		gd_bond_free(&b);
	}
	fputc('\n', out);
}

/* The name of a bonded RDMA device (bond-balance needs two hosts), NULL: none. */
static const char *bonded(const struct gd_ck_machine *m)
{
	const char *bond = NULL;

	for (size_t i = 0; i < m->nhcas && !bond; i++) {
		struct gd_bond b;

		memset(&b, 0, sizeof(b));
		if (m->hcas[i].nports && !gd_port_bond(m->mach, &m->hcas[i].ports[0], &b))
			bond = m->hcas[i].name;
		gd_bond_free(&b);
		memset(&b, 0, sizeof(b));
		if (!bond && m->hcas[i].parent_netdev[0] &&
		    !gd_bond_read(m->mach, m->hcas[i].parent_netdev, &b))
			bond = m->hcas[i].name;
		gd_bond_free(&b);
	}
	return bond;
}

/* One example test with its threshold from a calibration run here; left out (with why)
 * when that run fails: the spec passes on the machine that wrote it. */
static void calibrated(FILE *out, const struct gd_ck_machine *m, bool bw, bool ofi, bool suite)
{
	struct gd_ck_test t;
	struct gd_ck_calib c;
	int ret = -ENOTSUP;

	gd_ck_example_test(&t, bw, ofi);
	if (suite) /* a suite judges against a reference, never the node's own runs */
		snprintf(c.why, sizeof(c.why), "a suite's test must run to the end; its figures "
			 "are judged against a golden reference, not this node's own runs");
	else
		ret = gd_ck_calibrate(m, &t, &c);
	if (ret && ret != -ENOTSUP) {
		fprintf(out, "  # %s left out: its calibration run failed here (%s)\n", t.name, c.why);
		return;
	}
	fprintf(out, "  - name: %s\n    op: write\n    type: %s\n", t.name, bw ? "bw" : "lat");
	fprintf(out, bw ? "    size: 64K\n    duration: 2s\n" : "    size: 2\n    iterations: 1000\n");
	fprintf(out, "    pairs: each-nic-loopback\n");
	if (ofi)
		fprintf(out, "    fabric: ofi        # no RDMA device here: libfabric tcp on 127.0.0.1\n"
			"    provider: tcp\n");
	if (ret) {
		fprintf(out, "    # no threshold: %s\n", c.why);
		return;
	}
	/* no exponent: the spec's numbers are plain decimals */
	double v = bw ? c.worst / 2 : c.worst * 3;
	int prec = v >= 100 ? 0 : v >= 1 ? 2 : 4;

	if (bw)
		fprintf(out, "    thresholds:\n      min_bw: %.*f Gb/s   # half the %.2f Gb/s measured "
			"here (worst of %zu run(s))\n", prec, v, c.worst, c.runs);
	else
		fprintf(out, "    thresholds:\n      max_lat: %.*f us   # 3x the mean %.2f us measured "
			"here (worst of %zu run(s))\n", prec, v, c.worst, c.runs);
}

static void tests(FILE *out, const struct gd_ck_machine *m, bool suite)
{
	const char *bond = bonded(m);
	bool ofi = !m->nhcas; /* no RDMA device: libfabric, said in the spec, not by a rule */

	fprintf(out, "# Tests run one at a time through the benchmark engine, loopback through each\n"
		"# NIC (fabric: verbs|ofi, provider: tcp|shm|efa..., endpoint: rdm|msg choose).\n"
		"# Thresholds were calibrated by three runs of each test here: absolute (Gb/s, us,\n"
		"# Mpps) or relative ('90%% line' of the port rate, '80%% pcie' of the narrowest\n"
		"# PCIe link of the pair's path).\ntests:\n");
	calibrated(out, m, true, ofi, suite);
	calibrated(out, m, false, ofi, suite);
	if (m->t.ngpus && m->nhcas)
		fprintf(out, "  - name: matrix\n    op: write\n    type: bw\n    size: 1M\n"
			"    duration: 2s\n    pairs: nic-gpu-matrix\n");
	else if (m->t.ngpus)
		fprintf(out, "  # no nic-gpu-matrix test: no RDMA device here to pair the GPUs with\n");
	if (bond) /* a loopback's traffic never passes the slaves: only between hosts */
		fprintf(out, "  # %s is bonded: between two hosts (pairs: pairwise under mpirun),\n"
			"  # check that traffic uses every slave (a loopback never passes them):\n"
			"  # - name: bond\n  #   op: write\n  #   check: bond-balance\n"
			"  #   device: %s\n  #   qps: 4\n  #   pairs: pairwise\n"
			"  #   min_slave_share: 5%%\n", bond, bond);
	fprintf(out, "  # between nodes, under mpirun or srun:\n"
		"  # - name: pairs\n  #   op: write\n  #   pairs: pairwise   # or ring, all-pairs\n");
}

/* Whether the gd_doctor check id is about what this machine lacks (a GPU, or RDMA devices its
 * tests would use through verbs): the registry's tag (doctor.h), so that a suite leaves it out. */
static bool not_here(const char *id, bool gpus, bool rdma)
{
	const struct gd_check *c = gd_check_find(id);
	unsigned about = c ? c->about : 0;

	return (!gpus && (about & GD_DOC_ABOUT_GPU)) || (!rdma && (about & GD_DOC_ABOUT_VERBS));
}

/* The gd_doctor checks that PASS here now: "snapshot a good node, then enforce it". */
static void doctor(FILE *out, const struct gd_machine *mach, bool suite, bool gpus, bool rdma)
{
	struct gd_ck_spec s = { 0 };
	struct gd_ck_report r = { 0 };
	size_t n = 0;

	for (const struct gd_check *c = gd_checks; c->id; c++)
		n++;
	s.doctor = calloc(n ? n : 1, sizeof(*s.doctor));
	for (const struct gd_check *c = gd_checks; s.doctor && c->id; c++)
		snprintf(s.doctor[s.ndoctor++], GD_CK_NAME, "%s", c->id);
	if (suite && !rdma)
		fputs("# no RDMA device here: the tests run over libfabric, so the suite requires\n"
		      "# the checks that apply to it (ofi.providers), not the verbs ones\n", out);
	fprintf(out, suite ? "# gd_doctor checks that apply here (GPU ones only with a GPU):\n"
			     "doctor:\n  must_pass: [" :
		"# gd_doctor checks that PASS here now and must keep passing (gd_doctor\n"
		"# --list names all of them; WARN, FAIL and SKIP ones are left out):\n"
		"doctor:\n  must_pass: [");
	if (s.doctor && !gd_ck_doctor(&s, mach, &r, 0))
		for (size_t i = 0, k = 0; i < r.n; i++)
			/* a suite: every check that applies here (a failing one too), not warnings */
			if (suite ? r.items[i].status != GD_CK_SKIP && strcmp(r.items[i].measured, "WARN") &&
					    !not_here(r.items[i].name, gpus, rdma)
				  : r.items[i].status == GD_CK_PASS)
				fprintf(out, "%s%s", k++ ? ", " : "", r.items[i].name);
	fprintf(out, "]\n\n");
	gd_ck_report_free(&r);
	free(s.doctor);
}

int gd_ck_print_sections(FILE *out, const struct gd_machine *mach, const char *xml,
			 unsigned which, const char *what)
{
	struct gd_ck_machine m;
	char host[256] = "";
	struct gd_ck_host h;

	gd_ck_host_facts(mach, &h);
	snprintf(host, sizeof(host), "%s", h.hostname);
	gd_ck_machine_load(&m, mach, xml);
	fprintf(out, "# gd_check %s for %s, written by 'gd_check %s' (gdperf %s)\n%s"
		"version: 1\nname: \"%s\"\n\n", which & GD_CK_EX_GOLDEN ? "golden manifest" :
		"spec", host, what, h.version, which & GD_CK_EX_GOLDEN ?
		"# from a known-good node: the reference other nodes of its SKU are judged by\n"
		"# ('gd_check --suite quick --golden THIS_FILE', or 'include: THIS_FILE' in a spec).\n"
		"# A later section (a baseline of measured figures) may be added beside manifest:.\n" :
		"# from what discovery found; check it, then run: gd_check THIS_FILE\n", host);
	if (which & GD_CK_EX_TOPOLOGY)
		topology(out, &m, which & GD_CK_EX_SUITE);
	if (which & GD_CK_EX_DEVICES)
		devices(out, &m, which & GD_CK_EX_SUITE);
	if (which & GD_CK_EX_MANIFEST)
		gd_ck_print_manifest(out, &m);
	if (which & GD_CK_EX_DOCTOR)
		doctor(out, mach, which & GD_CK_EX_SUITE, m.t.ngpus > 0, m.nhcas > 0);
	if (which & GD_CK_EX_TESTS)
		tests(out, &m, which & GD_CK_EX_SUITE);
	gd_ck_machine_free(&m);
	return 0;
}

int gd_ck_print_example(FILE *out, const struct gd_machine *mach, const char *xml)
{
	return gd_ck_print_sections(out, mach, xml, GD_CK_EX_ALL | GD_CK_EX_MANIFEST, "--example");
}

struct golden_ctx {
	const struct gd_machine *mach;
	const char *xml;
};

static int golden_fill(FILE *f, void *ctx)
{
	const struct golden_ctx *g = ctx;

	gd_ck_print_sections(f, g->mach, g->xml, GD_CK_EX_MANIFEST | GD_CK_EX_GOLDEN,
			     "--write-golden");
	return ferror(f) ? -EIO : 0;
}

int gd_ck_write_golden(const char *path, const struct gd_machine *mach, const char *xml)
{
	struct golden_ctx g = { mach, xml };

	return gd_ck_write_atomic(path, golden_fill, &g);
}
