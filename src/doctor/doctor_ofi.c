/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_doctor checks of the libfabric fabric: the providers a run over
 * --fabric ofi needs here (tcp, shm), and AWS EFA as fi_efa(7) (libfabric
 * 1.17) describes it: the device (SRD, no RC), the efa provider, the
 * perftest trap (-c SRD -x 0, perftest#113) and GPUDirect through FI_HMEM,
 * which needs device RDMA read (FI_EFA_USE_DEVICE_RDMA). Without an EFA
 * device the EFA checks SKIP with that reason.
 */
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "doctor_int.h"
#include "fabric_rule.h"
#include "log.h"
#include "ofi_info.h"
#include "sysfs.h"

#define EFA_DOC "fi_efa(7)"
#define LIVE_ONLY "live only: libfabric opens this machine's providers, not a fixture tree's"

/* ---- the providers of the main job without a VM ---- */

static void probe_evidence(struct gd_check_result *r, const char *prov, const struct gd_ofi_probe *p)
{
	const char *env = getenv("FI_PROVIDER");

	gd_res_ev(r, "fi_getinfo", "provider %s, FI_EP_RDM, FI_MSG|FI_RMA: %zu entries%s%s%s%s", prov,
		  p->nentries, p->nentries ? "; first: " : "", p->e.prov,
		  p->nentries ? " on " : "", p->e.domain);
	if (p->step)
		gd_res_ev(r, p->step, "%d (%s)", p->err, p->errstr);
	else
		gd_res_ev(r, "fi_fabric, fi_domain", "opened and closed");
	if (env)
		gd_res_ev(r, "FI_PROVIDER", "%s (libfabric offers only these providers)",
			  gd_excerpt(env));
}

static void one_provider(struct gd_doctor *d, const struct gd_check *c, const char *prov,
			 enum gd_check_status missing, const char *fix)
{
	struct gd_check_result r;
	struct gd_ofi_probe p;
	int ret = gd_ofi_probe(prov, &p);

	gd_res_init(&r, c, "provider %s", prov);
	probe_evidence(&r, prov, &p);
	if (!ret) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "usable: %s, fabric %s, domain %s "
			    "(--fabric ofi --provider %s runs here)", p.e.prov, p.e.fabric, p.e.domain,
			    prov);
		return;
	}
	gd_res_fix(&r, "%s", fix);
	gd_res_emit(d, &r, missing, "not usable: %s failed (%s)", p.step ? p.step : "fi_getinfo",
		    p.errstr[0] ? p.errstr : "no entry");
}

void gd_chk_ofi_providers(struct gd_doctor *d, const struct gd_check *c)
{
	if (!d->live) {
		gd_res_skip(d, c, NULL, LIVE_ONLY);
		return;
	}
	if (!GD_FEATURE_LIBFABRIC) {
		gd_res_skip(d, c, NULL, "built without libfabric: " GD_OFI_BUILD_FIX);
		return;
	}
	one_provider(d, c, "tcp", GD_CHECK_FAIL,
		     "install libfabric1 (fi_info -p tcp lists it); unset FI_PROVIDER or add tcp "
		     "to it; FI_TCP_IFACE must name an interface that is up");
	one_provider(d, c, "shm", GD_CHECK_WARN,
		     "shm needs a writable /dev/shm and cross-memory attach between the two "
		     "processes (/proc/sys/kernel/yama/ptrace_scope 0 or 1); unset FI_PROVIDER");
}

/* ---- EFA (fi_efa(7)) ---- */

/* The fabric rule's EFA test (fabric_rule.h), on the machine examined. */
static bool is_efa(const struct gd_doctor *d, const struct gd_doc_nic *n)
{
	return gd_fabric_dev_is_efa(d->m, n->name);
}

/* The EFA devices, or a SKIP result for the check saying there are none. */
static size_t efa_count(struct gd_doctor *d, const struct gd_check *c)
{
	size_t k = 0;

	for (size_t i = 0; i < d->nnics; i++)
		k += is_efa(d, &d->nics[i]);
	if (!k)
		gd_res_skip(d, c, NULL, "not run: no EFA device here (no RDMA device is driven by "
			    "efa); these checks follow " EFA_DOC " for EC2 instances with EFA");
	return k;
}

/* "0xefa1" from DEV's PCI function, "" unknown */
static void efa_pci_id(struct gd_doctor *d, const char *dev, char *id, size_t len)
{
	if (gd_sysfs_read_str(d->m, id, len, "/sys/class/infiniband/%s/device/device", dev))
		snprintf(id, len, "?");
}

void gd_chk_efa_device(struct gd_doctor *d, const struct gd_check *c)
{
	if (!efa_count(d, c))
		return;
	for (size_t i = 0; i < d->nnics; i++) {
		const struct gd_hca *h = &d->hcas[i];
		struct gd_check_result r;
		const struct gd_port *p = h->nports ? &h->ports[0] : NULL;
		char id[16];

		if (!is_efa(d, &d->nics[i]))
			continue;
		efa_pci_id(d, h->name, id, sizeof(id));
		gd_res_init(&r, c, "%s", h->name);
		gd_res_ev(&r, "/sys/class/infiniband/.../device/driver", "efa");
		gd_res_ev(&r, "/sys/class/infiniband/.../device/device", "%s (PCI %s)", id,
			  h->pci_addr[0] ? h->pci_addr : "?");
		gd_res_ev(&r, "transport", "SRD (scalable reliable datagram): no RC queue pairs");
		if (!p || p->state != GD_PORT_ACTIVE) {
			gd_res_ev(&r, "/sys/class/infiniband/.../ports/1/state", "%s",
				  p ? p->state_str : "no port");
			gd_res_fix(&r, "check the instance's EFA network interface (InterfaceType efa) "
				   "and a security group that allows all traffic to and from itself");
			gd_res_emit(d, &r, GD_CHECK_FAIL, "EFA port 1 not ACTIVE");
			continue;
		}
		gd_res_emit(d, &r, GD_CHECK_PASS, "EFA: no RC, so gdperf runs it through libfabric "
			    "(--fabric ofi --provider efa, the default when only EFA is here)");
	}
}

void gd_chk_efa_provider(struct gd_doctor *d, const struct gd_check *c)
{
	struct gd_check_result r;
	struct gd_ofi_probe p;
	int ret;

	if (!efa_count(d, c))
		return;
	if (!d->live) {
		gd_res_skip(d, c, NULL, LIVE_ONLY);
		return;
	}
	ret = gd_ofi_probe("efa", &p);
	gd_res_init(&r, c, "provider efa");
	if (ret == -ENOSYS) {
		gd_res_ev(&r, "gdperf build", "no libfabric");
		gd_res_fix(&r, "%s", GD_OFI_BUILD_FIX);
		gd_res_emit(d, &r, GD_CHECK_FAIL, "EFA needs libfabric and this gdperf has none");
		return;
	}
	probe_evidence(&r, "efa", &p);
	if (!ret) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "usable: domain %s, FI_EP_RDM over SRD%s", p.e.domain,
			    gd_ofi_has_hmem(&p.e) ? ", FI_HMEM" : "");
		return;
	}
	gd_res_fix(&r, "install libfabric with the efa provider (the AWS EFA installer puts it in "
		   "/opt/amazon/efa: LD_LIBRARY_PATH=/opt/amazon/efa/lib); fi_info -p efa must list it");
	gd_res_emit(d, &r, GD_CHECK_FAIL, "the efa provider is not usable: %s failed (%s)",
		    p.step ? p.step : "fi_getinfo", p.errstr);
}

void gd_chk_efa_perftest(struct gd_doctor *d, const struct gd_check *c)
{
	if (!efa_count(d, c))
		return;
	for (size_t i = 0; i < d->nnics; i++) {
		const struct gd_hca *h = &d->hcas[i];
		const struct gd_port *p = h->nports ? &h->ports[0] : NULL;
		struct gd_check_result r;

		if (!is_efa(d, &d->nics[i]))
			continue;
		gd_res_init(&r, c, "%s port 1", h->name);
		if (!p || !p->ngids || p->gids[0].index != 0) {
			gd_res_ev(&r, "/sys/class/infiniband/.../ports/1/gids/0", "zero or absent");
			gd_res_fix(&r, "the EFA address is GID 0: reload the efa driver (modprobe -r efa; "
				   "modprobe efa) or check the instance's EFA interface");
			gd_res_emit(d, &r, GD_CHECK_FAIL, "no GID 0: neither perftest nor libfabric can "
				    "address this EFA");
			continue;
		}
		gd_res_ev(&r, "/sys/class/infiniband/.../ports/1/gids/0", "%s (the EFA address)",
			  p->gids[0].gid);
		gd_res_ev(&r, "perftest without -x", "takes no GID that EFA routes: the client's sends "
			  "leave and the server receives nothing, no error (perftest issue 113)");
		gd_res_emit(d, &r, GD_CHECK_PASS, "perftest over EFA: ib_send_bw/ib_send_lat -d %s "
			    "-c SRD -x 0 on both sides (SRD: send only, no write/read); gdperf: "
			    "--fabric ofi --provider efa", h->name);
	}
}

/* fi_efa(7), libfabric 1.17: device RDMA (read) is on by default except on the first
 * two generations (PCI 0xefa0, 0xefa1), and FI_HMEM needs it and peer to peer */
static bool efa_rdma_default(const char *id)
{
	return strcmp(id, "0xefa0") && strcmp(id, "0xefa1");
}

static void env_ev(struct gd_doctor *d, struct gd_check_result *r, const char *name)
{
	const char *v = d->live ? getenv(name) : NULL;

	gd_res_ev(r, name, "%s", !d->live ? "not read (fixture tree)" : v ? gd_excerpt(v) : "unset");
}

void gd_chk_efa_gdr(struct gd_doctor *d, const struct gd_check *c)
{
	if (!efa_count(d, c))
		return;
	for (size_t i = 0; i < d->nnics; i++) {
		const char *use = d->live ? getenv("FI_EFA_USE_DEVICE_RDMA") : NULL;
		const char *p2p = d->live ? getenv("FI_HMEM_DISABLE_P2P") : NULL;
		struct gd_check_result r;
		bool rdma;
		char id[16];

		if (!is_efa(d, &d->nics[i]))
			continue;
		efa_pci_id(d, d->hcas[i].name, id, sizeof(id));
		rdma = use ? atoi(use) != 0 : efa_rdma_default(id);
		gd_res_init(&r, c, "%s", d->hcas[i].name);
		gd_res_ev(&r, "/sys/class/infiniband/.../device/device", "%s: device RDMA %s by default "
			  "(libfabric 1.17)", id, efa_rdma_default(id) ? "on" : "off");
		env_ev(d, &r, "FI_EFA_USE_DEVICE_RDMA");
		env_ev(d, &r, "FI_HMEM_DISABLE_P2P");
		if (p2p && atoi(p2p)) {
			gd_res_fix(&r, "unset FI_HMEM_DISABLE_P2P: " EFA_DOC " does not support "
				   "FI_HMEM without peer to peer");
			gd_res_emit(d, &r, GD_CHECK_FAIL, "FI_HMEM off: peer to peer disabled");
			continue;
		}
		if (!rdma) {
			gd_res_fix(&r, "export FI_EFA_USE_DEVICE_RDMA=1 where the device has RDMA read "
				   "(p4d, p5: yes; on one without, libfabric 1.17 aborts)");
			gd_res_emit(d, &r, GD_CHECK_WARN, "GPU buffers (--use_cuda) cannot go over EFA: "
				    "libfabric offers FI_HMEM only with device RDMA on");
			continue;
		}
		gd_res_emit(d, &r, GD_CHECK_PASS, "FI_HMEM possible: device RDMA on; the GPU memory "
			    "must also register (dma-buf or peer memory: see gdr.registration)");
	}
}
