/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "doctor.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "log.h"
#include "sysfs.h"

/* The registry, in the order a cluster engineer reads them: software stack,
 * registration paths, IBGDA, resources, RDMA devices, topology, ports, then
 * libfabric: its providers here, and EFA. */
const struct gd_check gd_checks[] = {
	{ "kernel.version", "kernel >= 5.12 for dma-buf memory registration", gd_chk_kernel,
	  false, false, GD_DOC_STAGE_STACK, 0 },
	{ "nvidia.driver", "NVIDIA kernel driver loaded; version and open/proprietary flavour",
	  gd_chk_nvidia_driver, false, false, GD_DOC_STAGE_STACK,
	  GD_DOC_ABOUT_GPU },
	{ "cuda.driver", "CUDA driver (libcuda.so.1) loads and sees the GPUs", gd_chk_cuda_driver,
	  true, false, GD_DOC_STAGE_STACK,
	  GD_DOC_ABOUT_GPU },
	{ "cuda.dmabuf_attr", "CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED per GPU",
	  gd_chk_cuda_dmabuf_attr, true, false, GD_DOC_STAGE_GPUDIRECT,
	  GD_DOC_ABOUT_GPU },
	{ "cuda.dmabuf_export", "2 MiB of GPU memory: fill, verify, export as dma-buf",
	  gd_chk_cuda_dmabuf_export, true, false, GD_DOC_STAGE_GPUDIRECT,
	  GD_DOC_ABOUT_GPU },
	{ "peermem", "nvidia_peermem (or nv_peer_mem) loaded and registered with ib_core",
	  gd_chk_peermem, false, false, GD_DOC_STAGE_GPUDIRECT,
	  GD_DOC_ABOUT_GPU | GD_DOC_ABOUT_VERBS },
	{ "gdr.registration", "at least one way to register GPU memory: dma-buf or peer memory",
	  gd_chk_registration, false, false, GD_DOC_STAGE_GPUDIRECT,
	  GD_DOC_ABOUT_GPU | GD_DOC_ABOUT_VERBS },
	{ "ibgda.regkey", "PeerMappingOverride=1 in the NVIDIA registry (GPU-initiated IBGDA)",
	  gd_chk_regkey, false, false, GD_DOC_STAGE_GPU_INITIATED,
	  GD_DOC_ABOUT_GPU | GD_DOC_ABOUT_VERBS },
	{ "gpu.bar1", "GPU BAR1 aperture size (the NIC reaches GPU memory through it)", gd_chk_bar1,
	  false, true, GD_DOC_STAGE_GPUDIRECT,
	  GD_DOC_ABOUT_GPU },
	{ "memlock", "locked-memory limit of this process (/proc/self/limits)", gd_chk_memlock,
	  false, false, GD_DOC_STAGE_STACK, 0 },
	{ "gdrcopy", "gdrdrv (gdrcopy) loaded with its /dev/gdrdrv device, when installed",
	  gd_chk_gdrcopy, false, false, GD_DOC_STAGE_STACK,
	  GD_DOC_ABOUT_GPU },
	{ "dev.infiniband", "/dev/infiniband uverbs and rdma_cm device files accessible",
	  gd_chk_dev_infiniband, false, false, GD_DOC_STAGE_STACK,
	  GD_DOC_ABOUT_VERBS },
	{ "rdma.devices", "RDMA devices present (/sys/class/infiniband)", gd_chk_rdma_devices,
	  false, false, GD_DOC_STAGE_DEVICES,
	  GD_DOC_ABOUT_VERBS },
	{ "ibgda.devx", "mlx5 device with DEVX (needed by IBGDA)", gd_chk_devx, false, false, GD_DOC_STAGE_GPU_INITIATED,
	  GD_DOC_ABOUT_GPU | GD_DOC_ABOUT_VERBS },
	{ "ibgda.probe", "live IBGDA probe per device: DEVX, caps, umem, UAR GPU mapping; the mode that would run",
	  gd_chk_ibgda_probe, true, false, GD_DOC_STAGE_GPU_INITIATED,
	  GD_DOC_ABOUT_GPU | GD_DOC_ABOUT_VERBS },
	{ "topo.path", "each GPU's nearest NIC and the PCIe path class between them", gd_chk_path,
	  false, true, GD_DOC_STAGE_TOPOLOGY, 0 },
	{ "topo.numa", "GPU and its NIC on the same NUMA node", gd_chk_numa, false, true, GD_DOC_STAGE_TOPOLOGY, 0 },
	{ "pcie.link", "PCIe link speed and width of GPUs, NICs and every bridge above them",
	  gd_chk_link, false, true, GD_DOC_STAGE_DEVICES, 0 },
	{ "pcie.acs", "ACS P2P redirect bits on the bridges between a GPU and its NIC", gd_chk_acs,
	  false, true, GD_DOC_STAGE_TOPOLOGY, 0 },
	{ "iommu", "IOMMU mode: off or passthrough for GPU and NIC", gd_chk_iommu, false, true, GD_DOC_STAGE_TOPOLOGY, 0 },
	{ "rdma.port", "every RDMA port ACTIVE and LinkUp, with its rate", gd_chk_port, false, false, GD_DOC_STAGE_DEVICES,
	  GD_DOC_ABOUT_VERBS },
	{ "rdma.mtu", "RoCE MTU from the netdev MTU (4096 wanted) and equal on all ports",
	  gd_chk_mtu, false, false, GD_DOC_STAGE_DEVICES,
	  GD_DOC_ABOUT_VERBS },
	{ "rdma.gid", "a RoCE v2 GID with an IPv4 address on every RoCE port", gd_chk_gid, false, false, GD_DOC_STAGE_DEVICES,
	  GD_DOC_ABOUT_VERBS },
	{ "rdma.bond", "bonds under RDMA devices: all slaves up at the same speed", gd_chk_bond,
	  false, false, GD_DOC_STAGE_DEVICES,
	  GD_DOC_ABOUT_VERBS },
	{ "roce.trust", "RoCE ports classify by DSCP (DCB apptrust)", gd_chk_roce_trust, false, false, GD_DOC_STAGE_STACK, 0 },
	{ "roce.pfc", "RoCE ports have a lossless priority (PFC on)", gd_chk_roce_pfc, false, false, GD_DOC_STAGE_STACK, 0 },
	{ "roce.ecn", "ECN for RoCE (notification and reaction point) on the lossless priorities",
	  gd_chk_roce_ecn, false, false, GD_DOC_STAGE_STACK, 0 },
	{ "roce.tclass", "the traffic class of the default GID path: set and ECN-capable",
	  gd_chk_roce_tclass, false, false, GD_DOC_STAGE_STACK, 0 },
	{ "ofi.providers", "libfabric providers tcp and shm open a fabric and a domain for RDM with RMA (--fabric ofi)",
	  gd_chk_ofi_providers, false, false, GD_DOC_STAGE_STACK, 0 },
	{ "efa.device", "EFA devices (driver efa): port active; SRD, no RC (fi_efa(7))", gd_chk_efa_device,
	  false, false, GD_DOC_STAGE_DEVICES, 0 },
	{ "efa.provider", "libfabric's efa provider opens a fabric and a domain for RDM with RMA on the EFA device",
	  gd_chk_efa_provider, false, false, GD_DOC_STAGE_DEVICES, 0 },
	{ "efa.perftest", "EFA address is GID 0: perftest needs -c SRD -x 0 (else nothing arrives)",
	  gd_chk_efa_perftest, false, false, GD_DOC_STAGE_DEVICES, 0 },
	{ "efa.gdr", "GPUDirect over EFA: FI_HMEM needs device RDMA (FI_EFA_USE_DEVICE_RDMA) and P2P",
	  gd_chk_efa_gdr, false, false, GD_DOC_STAGE_GPUDIRECT,
	  GD_DOC_ABOUT_GPU },
	{ NULL },
};

const struct gd_check *gd_check_find(const char *id)
{
	for (const struct gd_check *c = gd_checks; c->id; c++)
		if (!strcmp(c->id, id))
			return c;
	return NULL;
}

const char *gd_check_status_str(enum gd_check_status s)
{
	static const char *const names[] = { "PASS", "WARN", "FAIL", "SKIP" };

	return s < GD_CHECK_NSTATUS ? names[s] : "?";
}

void gd_doctor_list(FILE *out, bool json)
{
	for (const struct gd_check *c = gd_checks; c->id; c++) {
		if (json) {
			json_object *rec = gd_json_record("check_info");

			gd_json_add_str(rec, "id", c->id);
			gd_json_add_str(rec, "title", c->title);
			gd_json_add_bool(rec, "live_only", c->live_only);
			gd_json_emit(rec, out);
		} else {
			fprintf(out, "%-20s %s%s\n", c->id, c->title,
				c->live_only ? " (live only)" : "");
		}
	}
}

void gd_doctor_list_ids(FILE *out)
{
	for (const struct gd_check *c = gd_checks; c->id; c++)
		fprintf(out, "%s\n", c->id);
}

bool gd_doctor_check_exists(const char *prefix)
{
	for (const struct gd_check *c = gd_checks; c->id; c++)
		if (!prefix || strncmp(c->id, prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

/* ---- results ---- */

void gd_res_init(struct gd_check_result *r, const struct gd_check *c, const char *fmt, ...)
{
	va_list ap;

	memset(r, 0, sizeof(*r));
	r->check = c->id;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(r->subject, sizeof(r->subject), fmt, ap);
		va_end(ap);
	}
}

void gd_res_ev(struct gd_check_result *r, const char *source, const char *fmt, ...)
{
	struct gd_evidence *e;
	va_list ap;

	if (r->nev == GD_EVIDENCE_MAX)
		return;
	e = &r->ev[r->nev++];
	snprintf(e->source, sizeof(e->source), "%s", source);
	va_start(ap, fmt);
	vsnprintf(e->value, sizeof(e->value), fmt, ap);
	va_end(ap);
}

void gd_res_fix(struct gd_check_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->fix, sizeof(r->fix), fmt, ap);
	va_end(ap);
}

static void print_text(FILE *out, const struct gd_check_result *r)
{
	fprintf(out, "%s  %-18s %s%s%s\n", gd_check_status_str(r->status), r->check, r->subject,
		r->subject[0] ? ": " : "", r->summary);
	for (size_t i = 0; i < r->nev; i++)
		fprintf(out, "      %s = %s\n", r->ev[i].source, r->ev[i].value);
	if (r->fix[0])
		fprintf(out, "      fix: %s\n", r->fix);
}

static void print_json(FILE *out, const struct gd_check_result *r)
{
	json_object *rec = gd_json_record("check"), *ev = json_object_new_array();

	gd_json_add_str(rec, "check", r->check);
	if (r->subject[0])
		gd_json_add_str(rec, "subject", r->subject);
	gd_json_add_str(rec, "status", gd_check_status_str(r->status));
	gd_json_add_str(rec, "summary", r->summary);
	for (size_t i = 0; i < r->nev; i++) {
		json_object *e = json_object_new_object();

		gd_json_add_str(e, "source", r->ev[i].source);
		gd_json_add_str(e, "value", r->ev[i].value);
		json_object_array_add(ev, e);
	}
	json_object_object_add(rec, "evidence", ev);
	if (r->fix[0])
		gd_json_add_str(rec, "fix", r->fix);
	gd_json_emit(rec, out);
}

void gd_res_emit(struct gd_doctor *d, struct gd_check_result *r, enum gd_check_status s,
		 const char *fmt, ...)
{
	va_list ap;

	r->status = s;
	va_start(ap, fmt);
	vsnprintf(r->summary, sizeof(r->summary), fmt, ap);
	va_end(ap);
	if (s == GD_CHECK_PASS || s == GD_CHECK_SKIP)
		r->fix[0] = '\0';
	d->counts[s]++;
	if (d->json)
		print_json(d->out, r);
	else
		print_text(d->out, r);
}

void gd_res_skip(struct gd_doctor *d, const struct gd_check *c, const char *subject,
		 const char *reason)
{
	struct gd_check_result r;

	gd_res_init(&r, c, "%s", subject ? subject : "");
	gd_res_emit(d, &r, GD_CHECK_SKIP, "%s", reason);
}

void gd_doctor_summary(struct gd_doctor *d)
{
	const int *n = d->counts;

	if (d->json) {
		json_object *rec = gd_json_record("summary");

		gd_json_add_int(rec, "pass", n[GD_CHECK_PASS]);
		gd_json_add_int(rec, "warn", n[GD_CHECK_WARN]);
		gd_json_add_int(rec, "fail", n[GD_CHECK_FAIL]);
		gd_json_add_int(rec, "skip", n[GD_CHECK_SKIP]);
		gd_json_add_bool(rec, "live", d->live);
		gd_json_emit(rec, d->out);
		return;
	}
	fprintf(d->out, "\nsummary: %d PASS, %d WARN, %d FAIL, %d SKIP%s -> %s\n", n[GD_CHECK_PASS],
		n[GD_CHECK_WARN], n[GD_CHECK_FAIL], n[GD_CHECK_SKIP],
		d->live ? "" : " (fixture root: live-only checks skipped)",
		n[GD_CHECK_FAIL] ? "GPUDirect RDMA NOT ready" : "no blocking problem found");
}

/* ---- discovery ---- */

static void nic_view(struct gd_doc_nic *n, const struct gd_hca *h)
{
	snprintf(n->name, sizeof(n->name), "%s", h->name);
	snprintf(n->pci, sizeof(n->pci), "%s", h->pci_addr);
	snprintf(n->driver, sizeof(n->driver), "%s", h->driver);
	n->numa = h->numa_node;
}

/* -d naming no device: a usage error listing the devices (then all is freed). */
static bool unknown_dev(const char *dev, struct gd_hca *all, size_t n)
{
	char list[512] = "";
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(all[i].name, dev))
			return true;
	for (size_t i = 0; i < n && len < sizeof(list); i++)
		len += snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", all[i].name);
	gd_error("no RDMA device named '%s' (-d/--ib-dev)", gd_excerpt(dev));
	if (n)
		gd_info("devices here: %s", list);
	else
		gd_info("there are no RDMA devices here");
	gd_rdma_free(all, n);
	return false;
}

static int find_nics(struct gd_doctor *d)
{
	struct gd_hca *all;
	size_t n, k = 0;
	int ret = gd_rdma_discover(d->m, &all, &n);

	if (ret)
		return ret;
	if (d->only_dev && !unknown_dev(d->only_dev, all, n))
		return -ENXIO;
	/* -d: keep only that device (the others are freed now) */
	for (size_t i = 0; i < n; i++) {
		if (d->only_dev && strcmp(all[i].name, d->only_dev) != 0) {
			gd_rdma_free_hca(&all[i]);
			continue;
		}
		if (k != i)
			all[k] = all[i];
		k++;
	}
	d->hcas = all;
	d->nnics = k;
	d->nics = calloc(k ? k : 1, sizeof(*d->nics));
	if (!d->nics)
		return -ENOMEM;
	for (size_t i = 0; i < k; i++) {
		nic_view(&d->nics[i], &all[i]);
		if (d->live)
			gd_rdma_query_verbs(&all[i]); /* active MTU; best effort */
	}
	return 0;
}

/* The locality's NICs: the RDMA devices, or a replayed XML's OpenFabrics devices. */
static int locality_nics(struct gd_doctor *d)
{
	struct gd_locality *l = &d->topo.loc;
	int ret = 0;

	if (!gd_topo_nics_from_xml(d->m, d->xml)) {
		for (size_t k = 0; k < d->nnics && !ret; k++)
			ret = gd_loc_add_nic(l, d->nics[k].name, d->nics[k].pci);
		return ret;
	}
	ret = gd_topo_find_nics_hwloc(&d->topo);
	for (size_t k = 0; k < d->topo.nnics && !ret; k++)
		if (!d->only_dev || !strcmp(d->topo.nics[k].name, d->only_dev))
			ret = gd_loc_add_nic(l, d->topo.nics[k].name, d->topo.nics[k].busid);
	return ret;
}

static int find_locality(struct gd_doctor *d)
{
	struct gd_locality *l = &d->topo.loc;
	/* the pipeline's locality step (gd_topo_discover); the GPUs and NICs go
	 * into the locality itself: the NICs are the ones this run checks */
	struct gd_topo_want w = {.steps = GD_TOPO_LOCALITY, .m = d->m, .xml = d->xml};
	enum gd_topo_step failed;
	char err[512];
	int ret = gd_topo_discover(&d->topo, &w, &failed, err, sizeof(err));

	if (ret) {
		gd_error("%s", err);
		return ret;
	}
	ret = gd_loc_add_gpus(l);
	if (!ret)
		ret = locality_nics(d);
	if (!ret)
		ret = gd_loc_decide(l);
	if (ret)
		return ret;
	d->ngpus = l->ngpus;
	d->gpus = calloc(d->ngpus + 1, sizeof(*d->gpus));
	if (!d->gpus)
		return -ENOMEM;
	for (size_t g = 0; g < d->ngpus; g++) {
		struct gd_doc_gpu *gpu = &d->gpus[g];

		snprintf(gpu->pci, sizeof(gpu->pci), "%s", l->gpus[g].place.busid);
		gpu->nic = l->nic_for_gpu[g];
		gpu->cls = gpu->nic >= 0 ? gd_loc_gpu_nic(l, g, (size_t)gpu->nic) : GD_LOC_NA;
	}
	return 0;
}

/* Does a check that will run read the GPUs' placement? (--check cuda does not,
 * and must not pay for a whole-machine hwloc load.) */
static bool wants_locality(const struct gd_doctor *d)
{
	for (const struct gd_check *c = gd_checks; c->id; c++)
		if (c->needs_loc &&
		    (!d->only_check || !strncmp(c->id, d->only_check, strlen(d->only_check))))
			return true;
	return false;
}

int gd_doctor_init(struct gd_doctor *d)
{
	int ret;

	d->live = !d->m->fixture;
	ret = find_nics(d);
	if (ret || !wants_locality(d))
		return ret;
	return find_locality(d);
}

void gd_doctor_fini(struct gd_doctor *d)
{
	free(d->gpus);
	free(d->nics);
	if (d->hcas)
		gd_rdma_free(d->hcas, d->nnics);
	gd_topo_free(&d->topo);
	d->gpus = NULL;
	d->nics = NULL;
	d->hcas = NULL;
}

int gd_doctor_run(struct gd_doctor *d)
{
	int before = d->counts[0] + d->counts[1] + d->counts[2] + d->counts[3];
	bool any = false;

	for (const struct gd_check *c = gd_checks; c->id; c++) {
		if (d->only_check && strncmp(c->id, d->only_check, strlen(d->only_check)) != 0)
			continue;
		any = true;
		if (c->live_only && !d->live) {
			gd_res_skip(d, c, NULL,
				    "live only: needs the running CUDA driver, not a fixture tree");
			continue;
		}
		c->run(d, c);
	}
	if (!any)
		return -ENOENT;
	return d->counts[0] + d->counts[1] + d->counts[2] + d->counts[3] - before;
}
