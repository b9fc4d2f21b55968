/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The spec's manifest against this machine, and the manifest of this machine for --example.
 * Every fact is discovery's, read where the other sections read it: counts through the
 * topology section's own check, firmware and port rate from the RDMA devices (gd_hca), the
 * NUMA node of a NIC or GPU from the topology (gd_topo's nodes, as gpu_nic_same_numa).
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check_manifest.h"
#include "check_sections.h"
#include "judge.h"
#include "pcipath.h"

/* The topology's NUMA node of a NIC or GPU: "0", "N/A"; NULL when it is not there. */
static const char *nic_nodes(const struct gd_ck_machine *m, const char *name)
{
	for (size_t i = 0; m->topo_ok && i < m->t.nnics; i++)
		if (!strcmp(m->t.nics[i].name, name))
			return m->t.nics[i].nodes;
	return NULL;
}

static const char *gpu_nodes(const struct gd_ck_machine *m, const char *busid)
{
	for (size_t g = 0; m->topo_ok && g < m->t.ngpus; g++)
		if (!strcasecmp(m->t.gpus[g].busid, busid))
			return m->t.gpus[g].nodes;
	return NULL;
}

/* "NAME numa": the NUMA node found against the manifest's. */
static void numa_item(struct gd_ck_report *r, enum gd_ck_section sec, const char *name,
		      const char *want, const char *got, bool topo_ok)
{
	struct gd_ck_item *it;
	char ev[160];

	if (!want[0] || !(it = gd_ck_add(r, sec, "manifest %s numa", name)))
		return;
	snprintf(it->expected, sizeof(it->expected), "%s", want);
	snprintf(it->measured, sizeof(it->measured), "%s", got ? got : "absent");
	snprintf(ev, sizeof(ev), "%s is %s (gd_topo places it)", name,
		 !got ? "not in the topology" : strcmp(got, "N/A") ? "on another NUMA node" :
		 "on no known NUMA node");
	if (!topo_ok)
		gd_ck_judge_skip(it, GD_CK_SKIP_NO_TOPOLOGY, NULL);
	else
		gd_ck_judge(it, &(struct gd_ck_meas){ .cmp = GD_CK_SAME,
						      .evidence = strcmp(want, it->measured) ? ev :
						      NULL });
}

static void nic_firmware(struct gd_ck_report *r, const struct gd_hca *h, const char *pattern)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_DEVICES, "manifest %s firmware", h->name);
	char why[160];
	regex_t re;
	bool match;

	if (!it)
		return;
	snprintf(it->expected, sizeof(it->expected), "~ %s", pattern);
	snprintf(it->measured, sizeof(it->measured), "%s", h->fw_ver[0] ? h->fw_ver : "unknown");
	if (gd_ck_fw_regex(pattern, &re, why, sizeof(why))) { /* checked at load */
		gd_ck_judge_holds(it, false, why);
		return;
	}
	match = !regexec(&re, h->fw_ver, 0, NULL, 0);
	regfree(&re);
	snprintf(why, sizeof(why), "firmware %s does not match the SKU's pattern",
		 h->fw_ver[0] ? h->fw_ver : "(not reported)");
	gd_ck_judge_holds(it, match, match ? NULL : why);
}

/* NICs the machine has: its RDMA devices, else the topology's. */
static size_t nics_found(const struct gd_ck_machine *m)
{
	return m->nhcas ? m->nhcas : m->t.nnics;
}

/* "NAME: what" of a text fact, GD_CK_SAME; the item (NULL: none). */
static struct gd_ck_item *mf_same(struct gd_ck_report *r, enum gd_ck_section sec, const char *name,
				  const char *want, const char *got, const char *ev)
{
	struct gd_ck_item *it;

	if (!want[0] || !(it = gd_ck_add(r, sec, "%s", name)))
		return NULL;
	snprintf(it->expected, sizeof(it->expected), "%s", want);
	snprintf(it->measured, sizeof(it->measured), "%s", got && got[0] ? got : "unknown");
	gd_ck_judge(it, &(struct gd_ck_meas){ .cmp = GD_CK_SAME,
					      .evidence = strcmp(want, it->measured) ? ev : NULL });
	return it;
}

/* "NAME pcie": the device's PCIe link at least as wide and fast as the golden one. */
static void mf_pcie(struct gd_ck_report *r, enum gd_ck_section sec, const struct gd_ck_machine *m,
		    const char *name, const char *bdf, const struct gd_ck_mf_pcie *want)
{
	struct gd_pcie_link l = { 0 };
	struct gd_ck_item *it;
	char ev[200];
	bool ok;

	if ((!want->width && !want->gts) || !(it = gd_ck_add(r, sec, "manifest %s pcie", name)))
		return;
	snprintf(it->expected, sizeof(it->expected), ">= %s%.0d%s%.4g%s", want->width ? "x" : "",
		 want->width, want->width && want->gts ? " " : "", want->gts,
		 want->gts ? " GT/s" : "");
	if (!bdf || !bdf[0] || gd_pci_read_link(m->mach, bdf, &l) || !l.known) {
		snprintf(it->measured, sizeof(it->measured), "unknown");
		snprintf(ev, sizeof(ev), "%s: no PCIe link in sysfs (current_link_width, "
			 "current_link_speed of %s)", name, bdf && bdf[0] ? bdf : "no PCI address");
		gd_ck_judge_holds(it, false, ev);
		return;
	}
	snprintf(it->measured, sizeof(it->measured), "x%d %.4g GT/s", l.cur_width, l.cur_gts);
	ok = l.cur_width >= want->width && l.cur_gts >= want->gts;
	snprintf(ev, sizeof(ev), "%s (%s) trained at x%d %.4g GT/s, below the golden %s: reseat "
		 "the card or its riser, check the slot ('lspci -vv' LnkSta)", name, bdf,
		 l.cur_width, l.cur_gts, it->expected + 3);
	gd_ck_judge_holds(it, ok, ok ? NULL : ev);
}

/* The slaves up on the bond of h's first port; -1: not bonded. */
static int bond_up(const struct gd_ck_machine *m, const struct gd_hca *h)
{
	struct gd_bond b;
	int ret, up = 0;

	memset(&b, 0, sizeof(b));
	ret = h->nports ? gd_port_bond(m->mach, &h->ports[0], &b) : -ENOENT;
	if (ret && h->parent_netdev[0]) {
		gd_bond_free(&b);
		memset(&b, 0, sizeof(b));
		ret = gd_bond_read(m->mach, h->parent_netdev, &b);
	}
	for (size_t i = 0; !ret && i < b.nslaves; i++)
		up += !strcmp(b.slaves[i].mii_status, "up");
	gd_bond_free(&b);
	return ret ? -1 : up;
}

static void nic_bond(struct gd_ck_report *r, const struct gd_ck_machine *m,
		     const struct gd_hca *h, int want)
{
	int up = bond_up(m, h);
	char name[GD_CK_NAME + 32], w[16], got[32], ev[200];
	struct gd_ck_item *it;

	snprintf(name, sizeof(name), "manifest %s bond_slaves_up", h->name);
	snprintf(w, sizeof(w), "%d", want);
	snprintf(got, sizeof(got), up < 0 ? "not bonded" : "%d", up);
	snprintf(ev, sizeof(ev), "%s: %s of the golden %d bond slaves up ('gd_devinfo' lists the "
		 "slaves; cable, switch port, 'ip link')", h->name, up < 0 ? "no bond, none" : got,
		 want);
	it = mf_same(r, GD_CK_SEC_DEVICES, name, w, got, ev);
	if (it && up >= 0 && it->measured[0])
		gd_ck_item_value(it, up, ""); /* a count */
}

/* A NIC or port of the manifest the node lacks, named with the counts. */
static void nic_missing(struct gd_ck_report *r, const struct gd_ck_machine *m,
			const struct gd_ck_manifest *mf, const struct gd_ck_mf_nic *n, bool dev)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_DEVICES, "manifest %s port %d", n->name,
					  n->port);
	char ev[300];

	if (!it)
		return;
	snprintf(it->expected, sizeof(it->expected), "present");
	snprintf(it->measured, sizeof(it->measured), "absent");
	if (dev)
		snprintf(ev, sizeof(ev), "NIC %s%s%s missing (golden: %zu NICs, found %zu; "
			 "manifest line %d); 'gd_devinfo' lists the devices", n->name,
			 n->busid[0] ? " at " : "", n->busid, mf->nics >= 0 ? (size_t)mf->nics :
			 mf->nnic, nics_found(m), n->line);
	else
		snprintf(ev, sizeof(ev), "%s port %d missing (manifest line %d); 'gd_devinfo' "
			 "lists the ports", n->name, n->port, n->line);
	gd_ck_judge_holds(it, false, ev);
}

static void one_nic(struct gd_ck_report *r, const struct gd_ck_machine *m,
		    const struct gd_ck_manifest *mf, const struct gd_ck_mf_nic *n)
{
	const struct gd_hca *h = gd_ck_hca(m, n->name);
	const struct gd_port *p = h && (size_t)n->port <= h->nports ? &h->ports[n->port - 1] : NULL;
	struct gd_ck_item *it;
	char name[GD_CK_NAME + 32];

	if (!p) {
		nic_missing(r, m, mf, n, !h);
		return;
	}
	snprintf(name, sizeof(name), "manifest %s busid", n->name);
	mf_same(r, GD_CK_SEC_DEVICES, name, n->busid, h->pci_addr, NULL);
	if (n->firmware[0])
		nic_firmware(r, h, n->firmware);
	snprintf(name, sizeof(name), "manifest %s port %d state", n->name, n->port);
	mf_same(r, GD_CK_SEC_DEVICES, name, n->state, p->state_str, NULL);
	if (n->rate_gbps > 0 && (it = gd_ck_add(r, GD_CK_SEC_DEVICES, "manifest %s port %d rate",
						 n->name, n->port))) {
		snprintf(it->expected, sizeof(it->expected), "== %g Gb/s", n->rate_gbps);
		snprintf(it->measured, sizeof(it->measured), "%g Gb/s", p->rate_gbps);
		gd_ck_item_value(it, p->rate_gbps, "Gb/s");
		gd_ck_judge(it, &(struct gd_ck_meas){ .cmp = GD_CK_EQ, .value = p->rate_gbps,
						      .expect = n->rate_gbps,
						      .evidence = p->rate_str });
	}
	mf_pcie(r, GD_CK_SEC_DEVICES, m, n->name, h->pci_addr, &n->pcie);
	if (n->bond_given)
		nic_bond(r, m, h, n->bond_slaves_up);
	numa_item(r, GD_CK_SEC_DEVICES, n->name, n->numa, nic_nodes(m, n->name), m->topo_ok);
}

/* "manifest gpus" / "manifest nics": the count, and on a difference the parts by id. */
static void mf_count(struct gd_ck_report *r, enum gd_ck_section sec, const char *what,
		     int want, size_t got, bool known, const char *parts)
{
	struct gd_ck_item *it;
	char ev[sizeof(it->message)];

	if (want < 0 || !(it = gd_ck_add(r, sec, "manifest %s", what)))
		return;
	snprintf(it->expected, sizeof(it->expected), "== %d", want);
	if (known) {
		snprintf(it->measured, sizeof(it->measured), "%zu", got);
		gd_ck_item_value(it, (double)got, "");
	}
	snprintf(ev, sizeof(ev), "%s%s(golden: %d %s, found %zu)", parts, parts[0] ? " " : "",
		 want, what, got);
	gd_ck_judge(it, &(struct gd_ck_meas){ .cmp = GD_CK_EQ, .value = (double)got,
					      .expect = want, .evidence = got != (size_t)want ? ev :
					      NULL,
					      .skip = known ? GD_CK_SKIP_NONE :
					      GD_CK_SKIP_NO_TOPOLOGY });
}

/* The parts of the manifest the node lacks, by id: "GPU 0000:9a:00.0 missing; ". */
static void missing_parts(const struct gd_ck_machine *m, const struct gd_ck_manifest *mf,
			  bool gpus, char *buf, size_t len)
{
	size_t n = gpus ? mf->ngpu : mf->nnic;

	buf[0] = 0;
	for (size_t i = 0; i < n; i++) {
		const char *id = gpus ? mf->gpu[i].busid : mf->nic[i].name;
		bool there = gpus ? gpu_nodes(m, id) != NULL : gd_ck_hca(m, id) != NULL;
		size_t at = strlen(buf);

		if (!there)
			snprintf(buf + at, len - at, "%s%s %s missing", at ? "; " : "",
				 gpus ? "GPU" : "NIC", id);
	}
}

static void one_gpu(struct gd_ck_report *r, const struct gd_ck_machine *m,
		    const struct gd_ck_manifest *mf, const struct gd_ck_mf_gpu *g)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TOPOLOGY, "manifest GPU %s", g->busid);
	bool there = gpu_nodes(m, g->busid) != NULL;
	char name[40], ev[200];

	if (!it)
		return;
	snprintf(it->expected, sizeof(it->expected), "present");
	snprintf(it->measured, sizeof(it->measured), "%s", !m->topo_ok ? "" : there ? "present" :
		 "absent");
	snprintf(ev, sizeof(ev), "GPU %s missing (golden: %d GPUs, found %zu; manifest line %d)",
		 g->busid, mf->gpus >= 0 ? mf->gpus : (int)mf->ngpu, m->t.ngpus, g->line);
	if (!m->topo_ok)
		gd_ck_judge_skip(it, GD_CK_SKIP_NO_TOPOLOGY, NULL);
	else
		gd_ck_judge_holds(it, there, there ? NULL : ev);
	if (!there)
		return;
	snprintf(name, sizeof(name), "GPU %s", g->busid);
	mf_pcie(r, GD_CK_SEC_TOPOLOGY, m, name, g->busid, &g->pcie);
	numa_item(r, GD_CK_SEC_TOPOLOGY, name, g->numa, gpu_nodes(m, g->busid), m->topo_ok);
}

void gd_ck_manifest(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		    struct gd_ck_report *r)
{
	const struct gd_ck_manifest *mf = &s->manifest;
	char parts[400];

	if (!mf->given)
		return;
	missing_parts(m, mf, true, parts, sizeof(parts));
	mf_count(r, GD_CK_SEC_TOPOLOGY, "GPUs", mf->gpus, m->t.ngpus, m->topo_ok, parts);
	missing_parts(m, mf, false, parts, sizeof(parts));
	mf_count(r, GD_CK_SEC_TOPOLOGY, "NICs", mf->nics, nics_found(m), m->topo_ok || m->nhcas,
		 parts);
	for (size_t i = 0; i < mf->nnic; i++)
		one_nic(r, m, mf, &mf->nic[i]);
	for (size_t i = 0; i < mf->ngpu; i++)
		one_gpu(r, m, mf, &mf->gpu[i]);
}

void gd_ck_fw_quote(FILE *out, const char *v)
{
	fputc('\'', out);
	for (; *v; v++) {
		if (strchr(".[]()*+?{}|^$\\", *v))
			fputc('\\', out);
		if (*v == '\'')
			fputc('\'', out);
		fputc(*v, out);
	}
	fputc('\'', out);
}

/* A NUMA node a manifest can name: a single number. */
static bool one_node(const char *nodes)
{
	return nodes && nodes[0] && strspn(nodes, "0123456789") == strlen(nodes);
}

/* "      pcie: x16 32 GT/s" of a device whose link sysfs reports. */
static void print_pcie(FILE *out, const struct gd_ck_machine *m, const char *bdf)
{
	struct gd_pcie_link l = { 0 };

	if (bdf[0] && !gd_pci_read_link(m->mach, bdf, &l) && l.known && l.cur_width > 0 &&
	    l.cur_gts > 0)
		fprintf(out, "      pcie: x%d %.4g GT/s\n", l.cur_width, l.cur_gts);
}

static void print_nic(FILE *out, const struct gd_ck_machine *m, const struct gd_hca *h)
{
	const char *nodes = nic_nodes(m, h->name);
	int up = bond_up(m, h);

	fprintf(out, "    - name: %s\n", h->name);
	if (h->pci_addr[0])
		fprintf(out, "      busid: \"%s\"\n", h->pci_addr);
	if (h->fw_ver[0]) {
		fputs("      firmware: ", out);
		gd_ck_fw_quote(out, h->fw_ver);
		fputc('\n', out);
	}
	if (h->nports && h->ports[0].state_str[0])
		fprintf(out, "      state: %s\n", h->ports[0].state_str);
	if (h->nports && h->ports[0].rate_gbps > 0)
		fprintf(out, "      rate: %g Gb/s\n", h->ports[0].rate_gbps);
	print_pcie(out, m, h->pci_addr);
	if (up >= 0)
		fprintf(out, "      bond_slaves_up: %d\n", up);
	if (one_node(nodes))
		fprintf(out, "      numa: %s\n", nodes);
}

void gd_ck_print_manifest(FILE *out, const struct gd_ck_machine *m)
{
	fprintf(out, "# The SKU's manifest, as this node is: this example of a good node is the\n"
		"# manifest for the fleet. firmware is a POSIX extended regular expression matched\n"
		"# against the whole version (e.g. '28\\.39\\..*' for any 28.39 build); rate is the\n"
		"# port's link rate exactly; state the port's; pcie the link at least this wide and\n"
		"# fast; numa the node gd_topo places the NIC or GPU on.\n"
		"manifest:\n  gpus: %zu\n  nics: %zu\n", m->t.ngpus, nics_found(m));
	fputs(m->nhcas ? "  nic:\n" : "  nic: []\n", out);
	for (size_t i = 0; i < m->nhcas; i++)
		print_nic(out, m, &m->hcas[i]);
	fputs(m->topo_ok && m->t.ngpus ? "  gpu:\n" : "  gpu: []\n", out);
	for (size_t g = 0; m->topo_ok && g < m->t.ngpus; g++) {
		fprintf(out, "    - busid: \"%s\"\n", m->t.gpus[g].busid);
		print_pcie(out, m, m->t.gpus[g].busid);
		if (one_node(m->t.gpus[g].nodes))
			fprintf(out, "      numa: %s\n", m->t.gpus[g].nodes);
	}
	fputc('\n', out);
}
