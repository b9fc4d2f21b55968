/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_doctor checks of the PCIe topology between each GPU and its nearest
 * NIC: path class, NUMA, link training, ACS, IOMMU. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "gd.h"
#include "locality.h"
#include "sysfs.h"

static bool need_pairs(struct gd_doctor *d, const struct gd_check *c)
{
	if (!d->ngpus) {
		gd_res_skip(d, c, NULL, "no NVIDIA GPU in /sys/bus/pci/devices");
		return false;
	}
	return true;
}

static const struct gd_loc_dev *gpu_nic(const struct gd_doctor *d, size_t i)
{
	return d->gpus[i].nic >= 0 ? &d->topo.loc.nics[d->gpus[i].nic] : NULL;
}

/* Where the evidence came from: the sysfs tree, or hwloc (this machine or an XML). */
static void place_source(const struct gd_doctor *d, const char *bdf, const char *file, char *buf,
			 size_t len)
{
	if (d->topo.loc.src.hw)
		snprintf(buf, len, "hwloc%s%s: %s", d->xml ? " " : "", d->xml ? d->xml : "", bdf);
	else
		snprintf(buf, len, "/sys/bus/pci/devices/%s%s", bdf, file);
}

static void place_ev(const struct gd_doctor *d, struct gd_check_result *r,
		     const struct gd_loc_place *p)
{
	char src[192];

	if (!p->known)
		return;
	place_source(d, p->busid, "", src, sizeof(src));
	gd_res_ev(r, src, "%s/%s (%d bridge(s) above)", p->host, p->busid, p->nbridges);
}

void gd_chk_path(struct gd_doctor *d, const struct gd_check *c)
{
	if (!need_pairs(d, c))
		return;
	for (size_t i = 0; i < d->ngpus; i++) {
		const struct gd_doc_gpu *g = &d->gpus[i];
		const struct gd_loc_dev *n = gpu_nic(d, i);
		struct gd_check_result r;

		gd_res_init(&r, c, "GPU %s", g->pci);
		if (!n) {
			gd_res_emit(d, &r, GD_CHECK_SKIP, "no RDMA device with a PCI address to pair with");
			continue;
		}
		snprintf(r.subject, sizeof(r.subject), "GPU %s <-> %s", g->pci, n->name);
		place_ev(d, &r, &d->topo.loc.gpus[i].place);
		place_ev(d, &r, &n->place);
		if (gd_loc_path_verdict(g->cls) == GD_LOC_OK) {
			gd_res_emit(d, &r, GD_CHECK_PASS, "nearest NIC %s (%s) is %s: peer-to-peer stays below the CPU",
				    n->name, n->place.busid, gd_loc_class_str(g->cls));
			continue;
		}
		gd_res_fix(&r, "use a NIC under the same PCIe switch as the GPU, or expect reduced GPUDirect bandwidth");
		gd_res_emit(d, &r, GD_CHECK_WARN, "nearest NIC %s (%s) is %s: traffic crosses the %s",
			    n->name, n->place.busid, gd_loc_class_str(g->cls),
			    g->cls == GD_LOC_SYS ? "CPU interconnect" : "CPU root complex");
	}
}

static void numa_ev(const struct gd_doctor *d, struct gd_check_result *r,
		    const struct gd_loc_place *p)
{
	char src[192];

	place_source(d, p->busid, "/numa_node", src, sizeof(src));
	gd_res_ev(r, src, "%s", p->nodes[0] ? p->nodes : "-1");
}

void gd_chk_numa(struct gd_doctor *d, const struct gd_check *c)
{
	if (!need_pairs(d, c))
		return;
	for (size_t i = 0; i < d->ngpus; i++) {
		const struct gd_doc_gpu *g = &d->gpus[i];
		const struct gd_loc_dev *n = gpu_nic(d, i);
		const char *gn = d->topo.loc.gpus[i].place.nodes;
		struct gd_check_result r;

		if (!n) {
			gd_res_skip(d, c, NULL, "no RDMA device with a PCI address to pair with");
			continue;
		}
		gd_res_init(&r, c, "GPU %s <-> %s", g->pci, n->name);
		numa_ev(d, &r, &d->topo.loc.gpus[i].place);
		numa_ev(d, &r, &n->place);
		if (!gn[0] || !n->place.nodes[0])
			gd_res_emit(d, &r, GD_CHECK_SKIP, "NUMA node not reported by the firmware (-1)");
		else if (gd_loc_numa_verdict(gn, n->place.nodes) == GD_LOC_OK)
			gd_res_emit(d, &r, GD_CHECK_PASS, "both on NUMA node %s", gn);
		else {
			gd_res_fix(&r, "pair the GPU with a NIC on NUMA node %s, and pin the benchmark there",
				   gn);
			gd_res_emit(d, &r, GD_CHECK_WARN, "GPU on NUMA node %s, NIC on node %s", gn,
				    n->place.nodes);
		}
	}
}

/* ---- link training ---- */

static void hop_ev(struct gd_check_result *r, const struct gd_loc_hop *h)
{
	char live[192];

	if (h->link.bad_file[0]) {
		snprintf(live, sizeof(live), "/sys/bus/pci/devices/%s/%s", h->child, h->link.bad_file);
		gd_res_ev(r, live, "'%s' is not a PCIe transfer rate: ignored", h->link.bad_text);
		if (!h->link.known)
			return;
	}
	snprintf(live, sizeof(live), "/sys/bus/pci/devices/%s/current_link_{speed,width}", h->child);
	if (h->parent[0])
		gd_res_ev(r, live, "%.1f GT/s x%d on the link from %s (both ends capable of %.1f GT/s x%d)",
			  h->link.cur_gts, h->link.cur_width, h->parent, h->want_gts, h->want_width);
	else
		gd_res_ev(r, live, "%.1f GT/s x%d (max %.1f GT/s x%d), on the root complex",
			  h->link.cur_gts, h->link.cur_width, h->want_gts, h->want_width);
}

/* The locality module judges every link on the chain; this adds the evidence. */
static void link_chain(struct gd_doctor *d, const struct gd_check *c, const char *subject,
		       const char *bdf, bool is_gpu)
{
	const struct gd_loc_hop *w;
	struct gd_check_result r;
	struct gd_loc_place p;
	struct gd_loc_links links;

	gd_res_init(&r, c, "%s", subject);
	if (gd_loc_place(&d->topo.loc.src, bdf, &p)) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "%s not found under /sys/bus/pci/devices", bdf);
		return;
	}
	gd_loc_judge_links(d->m, &p, is_gpu, &links);
	for (size_t i = 0; i < links.n; i++)
		hop_ev(&r, &links.hop[i]);
	if (!links.n) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "no PCIe link attributes (not a PCIe device?)");
		return;
	}
	w = &links.hop[links.worst];
	if (w->v == GD_LOC_OK) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "every link on the path trained to its capability");
		return;
	}
	gd_res_fix(&r, "reseat the card, check the slot/riser and the BIOS PCIe speed; compare lspci -vv LnkSta with LnkCap");
	if (w->link.bad_file[0]) {
		gd_res_emit(d, &r, GD_CHECK_WARN, "link below capability: %s", w->why);
		return;
	}
	gd_res_emit(d, &r, w->v == GD_LOC_BAD ? GD_CHECK_FAIL : GD_CHECK_WARN,
		    "link below capability: %s%s%s %s %s%s", w->parent, w->parent[0] ? " -> " : "",
		    w->child, w->link.cur_width < w->want_width ? "trained" : "at", w->why,
		    w->v == GD_LOC_WARN ? "; an idle GPU downshifts, re-check under load" : "");
}

void gd_chk_link(struct gd_doctor *d, const struct gd_check *c)
{
	char subject[96];
	bool any = false;

	for (size_t i = 0; i < d->ngpus; i++) {
		snprintf(subject, sizeof(subject), "GPU %s", d->gpus[i].pci);
		link_chain(d, c, subject, d->gpus[i].pci, true);
		any = true;
	}
	for (size_t i = 0; i < d->nnics; i++) {
		if (!d->nics[i].pci[0])
			continue;
		snprintf(subject, sizeof(subject), "%s %s", d->nics[i].name, d->nics[i].pci);
		link_chain(d, c, subject, d->nics[i].pci, false);
		any = true;
	}
	if (!any)
		gd_res_skip(d, c, NULL, "no GPU and no PCI RDMA device");
}

/* ---- ACS ---- */

/* ACS state of one bridge into r; returns the status for it. */
static enum gd_check_status acs_bridge(const struct gd_machine *m, struct gd_check_result *r,
				       const char *bdf)
{
	uint8_t cfg[GD_PCI_CFG_SIZE];
	char live[192], bits[128];
	uint16_t ctrl;
	size_t got = 0;
	int ret;

	snprintf(live, sizeof(live), "/sys/bus/pci/devices/%s/config", bdf);
	if (gd_pci_read_config(m, bdf, cfg, sizeof(cfg), &got)) {
		gd_res_ev(r, live, "unreadable");
		return GD_CHECK_SKIP;
	}
	ret = gd_pci_acs_ctrl(cfg, got, &ctrl);
	if (ret == -EACCES) {
		gd_res_ev(r, live, "%zu bytes readable (extended config space needs root)", got);
		return GD_CHECK_SKIP;
	}
	if (ret == -ENOENT) {
		gd_res_ev(r, live, "no ACS capability");
		return GD_CHECK_PASS;
	}
	if (ret) {
		gd_res_ev(r, live, "malformed extended capability list");
		return GD_CHECK_SKIP;
	}
	gd_acs_str(ctrl, bits, sizeof(bits));
	gd_res_ev(r, live, "ACSCtl 0x%04x: %s", ctrl, bits);
	return ctrl & (GD_ACS_RR | GD_ACS_CR) ? GD_CHECK_FAIL : GD_CHECK_PASS;
}

static void acs_bridges(const struct gd_machine *m, struct gd_check_result *r, const struct gd_loc_place *p, int from,
			int *redirect, int *skipped)
{
	for (int j = from; j < p->nbridges; j++) {
		enum gd_check_status s = acs_bridge(m, r, p->bridge[j]);

		*redirect += s == GD_CHECK_FAIL;
		*skipped += s == GD_CHECK_SKIP;
	}
}

static void acs_pair(struct gd_doctor *d, const struct gd_check *c, size_t i)
{
	const struct gd_doc_gpu *g = &d->gpus[i];
	const struct gd_loc_dev *n = gpu_nic(d, i);
	const struct gd_loc_place *a = &d->topo.loc.gpus[i].place, *b = &n->place;
	struct gd_check_result r;
	int k, redirect = 0, skipped = 0;

	gd_res_init(&r, c, "GPU %s <-> %s", g->pci, n->name);
	if (!a->known || !b->known) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "cannot place the pair in the PCI tree");
		return;
	}
	if (gd_loc_path_verdict(g->cls) != GD_LOC_OK) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "path is %s: peer-to-peer goes through the CPU anyway",
			    gd_loc_class_str(g->cls));
		return;
	}
	k = gd_loc_common_bridges(a, b);
	/* the deepest common bridge and every bridge below it on both legs */
	acs_bridges(d->m, &r, a, k - 1, &redirect, &skipped);
	acs_bridges(d->m, &r, b, k, &redirect, &skipped);
	if (redirect) {
		gd_res_fix(&r, "disable ACS on these bridges (BIOS, or setpci ECAP_ACS+0x6.w=0000 at boot); keep it only where VMs need isolation");
		gd_res_emit(d, &r, GD_CHECK_FAIL,
			    "ACS redirect on %d bridge(s): GPU<->NIC traffic is routed through the root complex (expect ~half GPUDirect bandwidth)",
			    redirect);
	} else if (skipped) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "cannot read ACS on %d bridge(s): run as root", skipped);
	} else {
		gd_res_emit(d, &r, GD_CHECK_PASS, "no ACS redirect between GPU and NIC");
	}
}

void gd_chk_acs(struct gd_doctor *d, const struct gd_check *c)
{
	if (!need_pairs(d, c))
		return;
	for (size_t i = 0; i < d->ngpus; i++) {
		if (!gpu_nic(d, i)) {
			char s[64];

			snprintf(s, sizeof(s), "GPU %s", d->gpus[i].pci);
			gd_res_skip(d, c, s, "no RDMA device with a PCI address to pair with");
			continue;
		}
		acs_pair(d, c, i);
	}
}

/* ---- IOMMU ---- */

/* The IOMMU domain type of a device: "identity", "DMA", "DMA-FQ", "" none. */
static void iommu_type(const struct gd_machine *m, const char *bdf, char *type, size_t len)
{
	char group[32];

	type[0] = '\0';
	if (gd_sysfs_link_name(m, group, sizeof(group), "/sys/bus/pci/devices/%s/iommu_group", bdf))
		return;
	if (gd_sysfs_read_str(m, type, len, "/sys/kernel/iommu_groups/%s/type", group))
		snprintf(type, len, "group %s, type unknown", group);
}

static void iommu_dev(const struct gd_machine *m, struct gd_check_result *r, const char *what,
		      const char *bdf, int *translated)
{
	char type[64], live[80];

	if (!bdf[0])
		return;
	iommu_type(m, bdf, type, sizeof(type));
	snprintf(live, sizeof(live), "/sys/bus/pci/devices/%s/iommu_group", bdf);
	gd_res_ev(r, live, "%s: %s", what, type[0] ? type : "none");
	if (strncmp(type, "DMA", 3) == 0)
		(*translated)++;
}

void gd_chk_iommu(struct gd_doctor *d, const struct gd_check *c)
{
	char cmdline[1024] = "", **names;
	struct gd_check_result r;
	int translated = 0;
	size_t n = 0;

	gd_res_init(&r, c, NULL);
	if (gd_sysfs_list(d->m, &names, &n, "/sys/class/iommu") == 0)
		gd_sysfs_free_list(names, n);
	gd_res_ev(&r, "/sys/class/iommu", "%zu IOMMU unit(s)", n);
	if (gd_sysfs_read_str(d->m, cmdline, sizeof(cmdline), "/proc/cmdline") == 0) {
		const char *keys[] = { "iommu=", "intel_iommu=", "amd_iommu=", "iommu.passthrough=" };
		char found[256] = "";
		size_t m = 0;

		for (size_t i = 0; i < GD_ARRAY_SIZE(keys); i++) {
			const char *p = strstr(cmdline, keys[i]);

			if (p && (p == cmdline || p[-1] == ' '))
				m += snprintf(found + m, sizeof(found) - m, "%s%.*s", m ? " " : "",
					      (int)strcspn(p, " "), p);
		}
		gd_res_ev(&r, "/proc/cmdline", "%s", m ? found : "no iommu options");
	}
	if (n == 0) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "no IOMMU active: DMA addresses are physical");
		return;
	}
	for (size_t i = 0; i < d->ngpus; i++)
		iommu_dev(d->m, &r, "GPU", d->gpus[i].pci, &translated);
	for (size_t i = 0; i < d->nnics; i++)
		iommu_dev(d->m, &r, d->nics[i].name, d->nics[i].pci, &translated);
	if (translated) {
		gd_res_fix(&r, "boot with iommu=pt (intel_iommu=on iommu=pt / amd_iommu=pt), or enable ATS on the NIC in VMs");
		gd_res_emit(d, &r, GD_CHECK_WARN,
			    "IOMMU translates DMA for %d device(s): GPUDirect may hang or lose bandwidth",
			    translated);
		return;
	}
	gd_res_emit(d, &r, GD_CHECK_PASS, "IOMMU on, GPUs and NICs in passthrough (identity) domains");
}
