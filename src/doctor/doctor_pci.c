/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_doctor checks of the PCIe topology between each GPU and its nearest
 * NIC: path class, NUMA, link training, ACS, IOMMU. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "gd.h"
#include "pcipath.h"
#include "sysfs.h"

static bool need_pairs(struct gd_doctor *d, const struct gd_check *c)
{
	if (!d->ngpus) {
		gd_res_skip(d, c, NULL, "no NVIDIA GPU in /sys/bus/pci/devices");
		return false;
	}
	return true;
}

static const struct gd_doc_nic *gpu_nic(const struct gd_doctor *d, size_t i)
{
	return d->gpus[i].nic >= 0 ? &d->nics[d->gpus[i].nic] : NULL;
}

void gd_chk_path(struct gd_doctor *d, const struct gd_check *c)
{
	if (!need_pairs(d, c))
		return;
	for (size_t i = 0; i < d->ngpus; i++) {
		const struct gd_doc_gpu *g = &d->gpus[i];
		const struct gd_doc_nic *n = gpu_nic(d, i);
		struct gd_pci_chain a, b;
		struct gd_check_result r;
		char live[192];

		gd_res_init(&r, c, "GPU %s", g->pci);
		if (!n) {
			gd_res_emit(d, &r, GD_CHECK_SKIP, "no RDMA device with a PCI address to pair with");
			continue;
		}
		snprintf(r.subject, sizeof(r.subject), "GPU %s <-> %s", g->pci, n->name);
		snprintf(live, sizeof(live), "/sys/bus/pci/devices/%s", g->pci);
		if (gd_pci_chain(d->m, g->pci, &a) == 0)
			gd_res_ev(&r, live, "%s/%s (%d bridge(s) above)", a.host, g->pci, a.n - 1);
		snprintf(live, sizeof(live), "/sys/bus/pci/devices/%s", n->pci);
		if (gd_pci_chain(d->m, n->pci, &b) == 0)
			gd_res_ev(&r, live, "%s/%s (%d bridge(s) above)", b.host, n->pci, b.n - 1);
		switch (g->cls) {
		case GD_PATH_PIX:
		case GD_PATH_PXB:
			gd_res_emit(d, &r, GD_CHECK_PASS, "nearest NIC %s (%s) is %s: peer-to-peer stays below the CPU",
				    n->name, n->pci, gd_path_class_str(g->cls));
			break;
		case GD_PATH_UNKNOWN:
			gd_res_emit(d, &r, GD_CHECK_SKIP, "cannot place %s or %s in the PCI tree",
				    g->pci, n->pci);
			break;
		default:
			gd_res_fix(&r, "use a NIC under the same PCIe switch as the GPU, or expect reduced GPUDirect bandwidth");
			gd_res_emit(d, &r, GD_CHECK_WARN, "nearest NIC %s (%s) is %s: traffic crosses the %s",
				    n->name, n->pci, gd_path_class_str(g->cls),
				    g->cls == GD_PATH_SYS ? "CPU interconnect" : "CPU root complex");
		}
	}
}

void gd_chk_numa(struct gd_doctor *d, const struct gd_check *c)
{
	if (!need_pairs(d, c))
		return;
	for (size_t i = 0; i < d->ngpus; i++) {
		const struct gd_doc_gpu *g = &d->gpus[i];
		const struct gd_doc_nic *n = gpu_nic(d, i);
		struct gd_check_result r;
		char live[192];

		if (!n) {
			gd_res_skip(d, c, NULL, "no RDMA device with a PCI address to pair with");
			continue;
		}
		gd_res_init(&r, c, "GPU %s <-> %s", g->pci, n->name);
		snprintf(live, sizeof(live), "/sys/bus/pci/devices/%s/numa_node", g->pci);
		gd_res_ev(&r, live, "%d", g->numa);
		snprintf(live, sizeof(live), "/sys/bus/pci/devices/%s/numa_node", n->pci);
		gd_res_ev(&r, live, "%d", n->numa);
		if (g->numa < 0 || n->numa < 0)
			gd_res_emit(d, &r, GD_CHECK_SKIP, "NUMA node not reported by the firmware (-1)");
		else if (g->numa == n->numa)
			gd_res_emit(d, &r, GD_CHECK_PASS, "both on NUMA node %d", g->numa);
		else {
			gd_res_fix(&r, "pair the GPU with a NIC on NUMA node %d, and pin the benchmark there",
				   g->numa);
			gd_res_emit(d, &r, GD_CHECK_WARN, "GPU on NUMA node %d, NIC on node %d", g->numa,
				    n->numa);
		}
	}
}

/* ---- link training ---- */

struct link_verdict {
	enum gd_check_status st;
	char worst[200];
};

/*
 * One link: child is the upstream-facing end (endpoint or switch upstream
 * port), parent the port above it. The child's current speed and width are
 * the link's; it should train to what both ends can do, so a Gen5 NIC in a
 * Gen4 slot is not a fault.
 */
/* A link speed file the kernel did not write: text that is neither a rate nor "Unknown". */
static bool malformed_speed(const char *text, double gts)
{
	return text[0] && !gts && strncmp(text, "Unknown", 7) != 0;
}

/* Malformed speeds ("nan GT/s", "1e999 GT/s") are unknown, never a PASS: WARN, naming them. */
static bool judge_malformed(struct gd_check_result *r, const char *bdf,
			    const struct gd_pci_link *l, struct link_verdict *v)
{
	char live[192], why[200];
	const char *what = malformed_speed(l->cur_speed, l->cur_gts) ? "current" :
			   malformed_speed(l->max_speed, l->max_gts) ? "max" : NULL;
	const char *text = what && what[0] == 'c' ? l->cur_speed : l->max_speed;

	if (!what)
		return false;
	snprintf(live, sizeof(live), "/sys/bus/pci/devices/%s/%s_link_speed", bdf, what);
	gd_res_ev(r, live, "'%.40s' is not a PCIe transfer rate: ignored", text);
	snprintf(why, sizeof(why), "%s %s_link_speed '%.40s' is not a PCIe rate", bdf, what, text);
	if (GD_CHECK_WARN > v->st) {
		v->st = GD_CHECK_WARN;
		snprintf(v->worst, sizeof(v->worst), "%s", why);
	}
	return true;
}

static void judge_link(const struct gd_machine *m, struct gd_check_result *r, const char *child,
		       const char *parent, bool gpu_link, struct link_verdict *v)
{
	enum gd_check_status st = GD_CHECK_PASS;
	struct gd_pci_link l, p;
	double want;
	int wantw;
	char why[200], live[192];

	if (gd_pci_read_link(m, child, &l) || judge_malformed(r, child, &l, v) || !l.cur_gts)
		return;
	want = l.max_gts;
	wantw = l.max_width;
	if (gd_pci_read_link(m, parent, &p) == 0 && p.max_gts) {
		want = GD_MIN(want, p.max_gts);
		if (p.max_width)
			wantw = GD_MIN(wantw, p.max_width);
	}
	snprintf(live, sizeof(live), "/sys/bus/pci/devices/%s/current_link_{speed,width}", child);
	gd_res_ev(r, live, "%.1f GT/s x%d on the link from %s (both ends capable of %.1f GT/s x%d)",
		  l.cur_gts, l.cur_width, parent, want, wantw);
	if (wantw && l.cur_width < wantw) {
		st = GD_CHECK_FAIL;
		snprintf(why, sizeof(why), "%s -> %s trained x%d, capable x%d", parent, child,
			 l.cur_width, wantw);
	} else if (want && l.cur_gts + 0.1 < want) {
		/* an idle GPU lowers its link speed to save power: only a warning */
		st = gpu_link ? GD_CHECK_WARN : GD_CHECK_FAIL;
		snprintf(why, sizeof(why), "%s -> %s at %.1f GT/s (Gen%d), capable %.1f GT/s (Gen%d)%s",
			 parent, child, l.cur_gts, gd_pcie_gen(l.cur_gts), want, gd_pcie_gen(want),
			 gpu_link ? "; an idle GPU downshifts, re-check under load" : "");
	}
	if (st > v->st) {
		v->st = st;
		snprintf(v->worst, sizeof(v->worst), "%s", why);
	}
}

static void link_chain(struct gd_doctor *d, const struct gd_check *c, const char *subject,
		       const char *bdf, bool is_gpu)
{
	struct link_verdict v = { GD_CHECK_PASS, "" };
	struct gd_check_result r;
	struct gd_pci_chain ch;
	int step;

	gd_res_init(&r, c, "%s", subject);
	if (gd_pci_chain(d->m, bdf, &ch)) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "%s not found under /sys/bus/pci/devices", bdf);
		return;
	}
	/* root port, then (switch upstream port, downstream port) pairs: a link
	 * joins chain[i-1] and chain[i] for every other i from the device up.
	 * An odd chain (unusual virtual bridges) is checked at every hop. */
	step = ch.n % 2 == 0 ? 2 : 1;
	for (int i = ch.n - 1; i >= 1; i -= step)
		judge_link(d->m, &r, ch.bdf[i], ch.bdf[i - 1], is_gpu && i == ch.n - 1, &v);
	if (ch.n == 1) {
		struct gd_pci_link l;

		if (gd_pci_read_link(d->m, bdf, &l) == 0 && !judge_malformed(&r, bdf, &l, &v) &&
		    l.cur_gts) {
			char live[192];

			snprintf(live, sizeof(live), "/sys/bus/pci/devices/%s/current_link_{speed,width}", bdf);
			gd_res_ev(&r, live, "%.1f GT/s x%d (max %.1f GT/s x%d), on the root complex",
				  l.cur_gts, l.cur_width, l.max_gts, l.max_width);
			if (l.cur_width < l.max_width) {
				v.st = GD_CHECK_FAIL;
				snprintf(v.worst, sizeof(v.worst), "%s trained x%d, capable x%d", bdf,
					 l.cur_width, l.max_width);
			} else if (l.cur_gts + 0.1 < l.max_gts) {
				v.st = is_gpu ? GD_CHECK_WARN : GD_CHECK_FAIL;
				snprintf(v.worst, sizeof(v.worst), "%s at %.1f GT/s, capable %.1f GT/s",
					 bdf, l.cur_gts, l.max_gts);
			}
		}
	}
	if (!r.nev) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "no PCIe link attributes (not a PCIe device?)");
		return;
	}
	if (v.st == GD_CHECK_PASS) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "every link on the path trained to its capability");
		return;
	}
	gd_res_fix(&r, "reseat the card, check the slot/riser and the BIOS PCIe speed; compare lspci -vv LnkSta with LnkCap");
	gd_res_emit(d, &r, v.st, "%s: %s", strstr(v.worst, "not a PCIe rate") ?
		    "link speed unknown" : "link below capability", v.worst);
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

static void acs_pair(struct gd_doctor *d, const struct gd_check *c, size_t i)
{
	const struct gd_doc_gpu *g = &d->gpus[i];
	const struct gd_doc_nic *n = gpu_nic(d, i);
	struct gd_pci_chain a, b;
	struct gd_check_result r;
	int k, redirect = 0, skipped = 0;

	gd_res_init(&r, c, "GPU %s <-> %s", g->pci, n->name);
	if (gd_pci_chain(d->m, g->pci, &a) || gd_pci_chain(d->m, n->pci, &b)) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "cannot place the pair in the PCI tree");
		return;
	}
	if (g->cls != GD_PATH_PIX && g->cls != GD_PATH_PXB) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "path is %s: peer-to-peer goes through the CPU anyway",
			    gd_path_class_str(g->cls));
		return;
	}
	k = gd_pci_common(&a, &b);
	/* the common bridge and every bridge below it on both legs */
	for (int j = k; j < a.n - 1; j++) {
		enum gd_check_status s = acs_bridge(d->m, &r, a.bdf[j]);

		redirect += s == GD_CHECK_FAIL;
		skipped += s == GD_CHECK_SKIP;
	}
	for (int j = k + 1; j < b.n - 1; j++) {
		enum gd_check_status s = acs_bridge(d->m, &r, b.bdf[j]);

		redirect += s == GD_CHECK_FAIL;
		skipped += s == GD_CHECK_SKIP;
	}
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
