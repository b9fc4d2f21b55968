/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The machine gd_check judges: RDMA devices (rdma_dev.h), the GPU/NIC
 * topology and nearest NICs (topo.h, topo_advice.h), NUMA nodes (hwloc), and
 * the runs a test expands to, each with its path class and limits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_machine.h"
#include "bench_opts.h"
#include "choose.h"
#include "spec.h"
#include "log.h"
#include "sysfs.h"

int gd_ck_machine_load(struct gd_ck_machine *m, const struct gd_machine *mach, const char *xml)
{
	/* the steps and the locality source gd_topo and gd_doctor use (gd_topo_discover) */
	struct gd_topo_want w = {.steps = GD_TOPO_LOAD | GD_TOPO_LOCALITY | GD_TOPO_GPUS |
					  GD_TOPO_NICS | GD_TOPO_CLASSIFY | GD_TOPO_ADVICE,
				 .m = mach, .xml = xml, .pci_only = true};
	enum gd_topo_step failed;
	char err[512];

	memset(m, 0, sizeof(*m));
	m->mach = mach;
	w.adv = &m->adv;
	if (gd_rdma_discover(mach, &m->hcas, &m->nhcas)) {
		m->hcas = NULL;
		m->nhcas = 0;
	}
	if (gd_topo_discover(&m->t, &w, &failed, err, sizeof(err))) {
		if (failed == GD_TOPO_LOAD && xml) { /* named on the command line: never a green gate */
			gd_error("--topology: %s", err);
			return -EINVAL;
		}
		if (failed == GD_TOPO_LOAD)
			gd_warn("topology: %s", err);
		return 0; /* the topology section then SKIPs with the reason */
	}
	m->numa_nodes = hwloc_get_nbobjs_by_type(m->t.hw, HWLOC_OBJ_NUMANODE);
	m->topo_ok = true;
	m->nics_from_xml = xml && !m->nhcas && m->t.nnics;
	return 0;
}

void gd_ck_machine_free(struct gd_ck_machine *m)
{
	gd_topo_advice_free(&m->adv);
	if (m->topo_ok || m->t.hw)
		gd_topo_free(&m->t);
	if (m->hcas)
		gd_rdma_free(m->hcas, m->nhcas);
	memset(m, 0, sizeof(*m));
}

const struct gd_hca *gd_ck_hca(const struct gd_ck_machine *m, const char *name)
{
	for (size_t i = 0; i < m->nhcas; i++)
		if (!strcmp(m->hcas[i].name, name))
			return &m->hcas[i];
	return NULL;
}

/* PCIe bandwidth of a PCI object in Gb/s from hwloc's link speed (GB/s), 0 unknown. */
static double pcie_gbps(hwloc_obj_t o)
{
	for (; o; o = o->parent)
		if (o->type == HWLOC_OBJ_PCI_DEVICE)
			return o->attr->pcidev.linkspeed * 8;
	return 0;
}

/* The NIC's NUMA node from hwloc's affinity text ("0"), -1 when unknown or several. */
static int nic_numa(const struct gd_ck_machine *m, size_t nic)
{
	const char *s = m->topo_ok ? m->t.nics[nic].nodes : "";
	char *end;
	long v = strtol(s, &end, 10);

	return (*s && !*end) ? (int)v : -1;
}

static void fill_nic(const struct gd_ck_machine *m, size_t nic, struct gd_ck_run *r)
{
	const struct gd_hca *h = gd_ck_hca(m, r->dev);

	r->port = 1;
	if (h && h->nports) {
		const struct gd_port *p = &h->ports[0];

		r->line_gbps = p->rate_gbps;
		/* the loopback's address: the GID rule's choice without a peer (default_gid) */
		if (p->default_gid >= 0)
			for (size_t g = 0; g < p->ngids; g++)
				if (p->gids[g].index == p->default_gid)
					snprintf(r->peer_ip, sizeof(r->peer_ip), "%s", p->gids[g].ip);
	}
	r->addr_unknown = !h;
	if (!r->peer_ip[0])
		snprintf(r->peer_ip, sizeof(r->peer_ip), "127.0.0.1");
	r->pcie_gbps = nic < m->t.nnics ? pcie_gbps(m->t.nics[nic].obj) : 0;
	if (nic >= m->t.nnics || !m->t.nics[nic].obj)
		snprintf(r->pcie_why, sizeof(r->pcie_why), "%s has no PCI device (software RDMA)",
			 r->dev);
	else if (!r->pcie_gbps)
		snprintf(r->pcie_why, sizeof(r->pcie_why), "the PCIe link speed of %s is not known",
			 r->dev);
}

/* Host memory on NUMA node `node` (-1: one row, no NUMA placement). */
static void fill_host(const struct gd_ck_machine *m, size_t nic, int node, struct gd_ck_run *r)
{
	int nn = nic_numa(m, nic);

	r->gpu = -1;
	r->numa = node;
	if (node >= 0) {
		hwloc_obj_t o = hwloc_get_numanode_obj_by_os_index(m->t.hw, (unsigned)node);

		if (o && o->cpuset)
			hwloc_bitmap_list_snprintf(r->cpus, sizeof(r->cpus), o->cpuset);
		snprintf(r->label, sizeof(r->label), "%s host(node%d)", r->dev, node);
	} else {
		snprintf(r->label, sizeof(r->label), "%s host", r->dev);
	}
	if (nic >= m->t.nnics || !m->t.nics[nic].obj)
		snprintf(r->cls, sizeof(r->cls), "N/A");
	else
		snprintf(r->cls, sizeof(r->cls), "%s", node < 0 || nn < 0 ? "N/A" :
			 nn == node ? "NODE" : "SYS");
}

static void fill_gpu(const struct gd_ck_machine *m, size_t nic, size_t gpu, struct gd_ck_run *r)
{
	double g = pcie_gbps(m->t.gpus[gpu].obj);

	r->gpu = (int)gpu;
	r->numa = -1;
	snprintf(r->gpu_bdf, sizeof(r->gpu_bdf), "%s", m->t.gpus[gpu].busid);
	snprintf(r->label, sizeof(r->label), "%s GPU%zu", r->dev, gpu);
	if (nic < m->t.nnics)
		snprintf(r->cls, sizeof(r->cls), "%s",
			 gd_loc_class_str(gd_topo_cls(&m->t, gpu, m->t.ngpus + nic)));
	else
		snprintf(r->cls, sizeof(r->cls), "N/A");
	if (g > 0 && (r->pcie_gbps <= 0 || g < r->pcie_gbps))
		r->pcie_gbps = r->pcie_gbps > 0 ? g : 0;
}

/* Index of a NIC in the topology by name, or nnics when absent. */
static size_t topo_nic(const struct gd_ck_machine *m, const char *name)
{
	size_t j;

	for (j = 0; j < m->t.nnics; j++)
		if (!strcmp(m->t.nics[j].name, name))
			break;
	return j;
}

static int push(struct gd_ck_runs *rs, const struct gd_ck_run *r)
{
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 16;
		struct gd_ck_run *v = realloc(rs->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		rs->v = v;
		rs->cap = cap;
	}
	rs->v[rs->n++] = *r;
	return 0;
}

/* The NIC names a test covers: the RDMA devices (or the topology's), filtered by `device`. */
static size_t nic_names(const struct gd_ck_machine *m, const struct gd_ck_test *t,
			const char *names[], size_t max)
{
	size_t n = 0;

	if (m->nhcas)
		for (size_t i = 0; i < m->nhcas && n < max; i++)
			names[n++] = m->hcas[i].name;
	else
		for (size_t i = 0; i < m->t.nnics && n < max; i++)
			names[n++] = m->t.nics[i].name;
	if (t->device[0]) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (!strcmp(names[i], t->device))
				names[k++] = names[i];
		n = k;
	}
	return n;
}

/* all-nics: the NIC from its nearest GPU (memory: gpu; of the GPUs whose nearest NIC it is,
 * the one of the best path class), else host memory on the NIC's NUMA node. */
static int all_nics_run(const struct gd_ck_machine *m, const struct gd_ck_test *t, size_t j,
			struct gd_ck_run *r, struct gd_ck_runs *rs)
{
	int best = -1;

	for (size_t g = 0; t->memory == GD_CK_MEM_GPU && m->adv.nic_for_gpu && g < m->t.ngpus; g++)
		if (m->adv.nic_for_gpu[g] == (int)j &&
		    (best < 0 || gd_topo_cls(&m->t, g, m->t.ngpus + j) <
				 gd_topo_cls(&m->t, (size_t)best, m->t.ngpus + j)))
			best = (int)g;
	if (best >= 0)
		fill_gpu(m, j, (size_t)best, r);
	else
		fill_host(m, j, m->numa_nodes > 1 ? nic_numa(m, j) : -1, r);
	return push(rs, r);
}

static int expand_nic(const struct gd_ck_machine *m, const struct gd_ck_test *t, const char *nic,
		      struct gd_ck_runs *rs)
{
	struct gd_ck_run r = { .t = t, .gpu = -1, .numa = -1 };
	size_t j = topo_nic(m, nic);
	int ret = 0;

	snprintf(r.dev, sizeof(r.dev), "%s", nic);
	fill_nic(m, j, &r);
	if (t->pairs == GD_CK_NIC_GPU_MATRIX) {
		for (size_t g = 0; g < m->t.ngpus && !ret; g++) {
			struct gd_ck_run x = r;

			fill_gpu(m, j, g, &x);
			ret = push(rs, &x);
		}
		for (int node = 0; node < m->numa_nodes && !ret; node++) {
			struct gd_ck_run x = r;

			fill_host(m, j, m->numa_nodes > 1 ? node : -1, &x);
			ret = push(rs, &x);
		}
		if (!m->numa_nodes && !ret) {
			fill_host(m, j, -1, &r);
			ret = push(rs, &r);
		}
		return ret;
	}
	if (t->pairs == GD_CK_ALL_NICS)
		return all_nics_run(m, t, j, &r, rs);
	if (t->memory == GD_CK_MEM_GPU || t->pairs == GD_CK_EACH_GPU_NEAREST_NIC) {
		/* each GPU whose nearest NIC this is (each-gpu-nearest-nic), or the nearest GPU */
		for (size_t g = 0; g < m->t.ngpus && !ret; g++)
			if (m->adv.nic_for_gpu && m->adv.nic_for_gpu[g] == (int)j) {
				struct gd_ck_run x = r;

				fill_gpu(m, j, g, &x);
				ret = push(rs, &x);
			}
		return ret;
	}
	fill_host(m, j, -1, &r);
	return push(rs, &r);
}

/* The test's fabric, through the one decision (fabric_opts.h): the spec's, verbs where the test
 * names what only verbs has (its device or initiator, as the bench tools' -d and --initiator:
 * gd_bench_verbs_why; a key gd_check's libfabric runs cannot take: gd_ck_ofi_refuses) or where
 * the machine is a --topology XML's with RDMA NICs (the plan of another box: this host's rule
 * would plan its own fabric beside the XML's NICs), else the machine's rule. */
int gd_ck_test_fabric(const struct gd_ck_machine *m, const struct gd_ck_test *t,
		      struct gd_fabric_opts *f)
{
	struct gd_bench_params p;
	const char *why, *key = gd_ck_ofi_refuses(t);
	char own[GD_FABRIC_WHY_MAX];

	gd_bench_params_defaults(&p, t->op, t->kind);
	snprintf(p.dev, sizeof(p.dev), "%s", t->device);
	p.init.initiator = t->initiator;
	why = gd_bench_verbs_why(&p); /* the tools' reason: the reproduce line's -d says the same */
	if (!why && key) {
		snprintf(own, sizeof(own), "the test's %s: gd_check runs libfabric with host "
			 "memory and the cpu initiator", key);
		why = own;
	} else if (!why && m->nics_from_xml)
		why = "the --topology XML's RDMA NICs";
	*f = t->fab;
	if (f->fabric == GD_FABRIC_OFI && !gd_fabric_have_ofi())
		return -ENOTSUP;
	return gd_fabric_decide(f, m->mach, why);
}

int gd_ck_run_device(const struct gd_ck_machine *m, const struct gd_ck_test *t, char *dev,
		     size_t len)
{
	struct gd_fabric_opts f;
	struct gd_hca hca;

	snprintf(dev, len, "%s", t->device);
	if (t->device[0] || t->fab.fabric == GD_FABRIC_OFI)
		return 0;
	if (!gd_ck_test_fabric(m, t, &f) && f.fabric == GD_FABRIC_OFI && !f.no_device)
		return 0; /* the rule's libfabric (efa on an EFA-only node): no device to name */
	if (gd_dev_choose(m->mach, NULL, 1, &hca))
		return -1; /* without -d nothing is held on failure */
	snprintf(dev, len, "%s", hca.name);
	gd_rdma_free_hca(&hca);
	return 0;
}

bool gd_ck_ofi_missing(const struct gd_ck_machine *m, const struct gd_ck_test *t)
{
	struct gd_fabric_opts f;

	return gd_ck_test_fabric(m, t, &f) != 0;
}

/* fabric ofi: one loopback through the provider on 127.0.0.1, host memory. */
static int expand_ofi(const struct gd_ck_test *t, const struct gd_fabric_opts *f,
		      struct gd_ck_runs *rs)
{
	struct gd_ck_run r = { .t = t, .gpu = -1, .numa = -1, .port = 1, .fab = *f };

	snprintf(r.peer_ip, sizeof(r.peer_ip), "127.0.0.1");
	snprintf(r.cls, sizeof(r.cls), "N/A");
	snprintf(r.label, sizeof(r.label), "ofi:%s loopback", f->provider);
	snprintf(r.pcie_why, sizeof(r.pcie_why), "libfabric %s on loopback has no PCIe path",
		 f->provider);
	return push(rs, &r);
}

int gd_ck_expand(const struct gd_ck_machine *m, const struct gd_ck_test *t, struct gd_ck_runs *rs)
{
	const char *names[256];
	size_t n = nic_names(m, t, names, GD_ARRAY_SIZE(names));
	struct gd_fabric_opts f;
	size_t before = rs->n;
	int ret = 0;

	if (gd_ck_test_fabric(m, t, &f))
		return 0; /* no run: gd_ck_no_run_why says why */
	if (f.fabric == GD_FABRIC_OFI)
		return expand_ofi(t, &f, rs);

	for (size_t i = 0; i < n && !ret; i++)
		ret = expand_nic(m, t, names[i], rs);
	for (size_t i = before; i < rs->n; i++)
		rs->v[i].fab = f;
	return ret;
}
