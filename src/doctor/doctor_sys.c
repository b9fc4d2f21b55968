/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_doctor checks of the software stack: kernel, NVIDIA driver, peer
 * memory, the registration paths, registry keys, limits, device files. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor.h"
#include "doctor_int.h"
#include "gdr_env.h"
#include "readfile.h"
#include "sysfs.h"

void gd_chk_kernel(struct gd_doctor *d, const struct gd_check *c)
{
	struct gd_check_result r;
	struct gd_kver k;

	gd_res_init(&r, c, NULL);
	if (gd_kernel_version(d->m, &k)) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "cannot read /proc/sys/kernel/osrelease");
		return;
	}
	gd_res_ev(&r, "/proc/sys/kernel/osrelease", "%s", k.release);
	if (gd_kver_cmp(&k, GD_DMABUF_KERNEL_MAJOR, GD_DMABUF_KERNEL_MINOR, 0) >= 0) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "Linux %d.%d >= 5.12: dma-buf memory registration available",
			    k.major, k.minor);
		return;
	}
	gd_res_fix(&r, "boot a kernel >= 5.12 for dma-buf, or use nvidia_peermem with MLNX_OFED/DOCA-OFED");
	gd_res_emit(d, &r, GD_CHECK_WARN, "Linux %d.%d < 5.12: no dma-buf memory registration (peer memory only)",
		    k.major, k.minor);
}

void gd_chk_nvidia_driver(struct gd_doctor *d, const struct gd_check *c)
{
	struct gd_check_result r;
	struct gd_nv_driver nv;
	char taint[16];

	gd_res_init(&r, c, NULL);
	if (gd_nvidia_driver(d->m, &nv)) {
		gd_res_ev(&r, "/proc/driver/nvidia/version", "absent");
		gd_res_ev(&r, "/sys/module/nvidia", "absent");
		gd_res_fix(&r, "install and load the NVIDIA driver (open kernel modules, >= 560 recommended)");
		gd_res_emit(d, &r, GD_CHECK_FAIL, "no NVIDIA kernel driver loaded");
		return;
	}
	gd_res_ev(&r, nv.source, "%s", nv.line);
	if (gd_sysfs_read_str(d->m, taint, sizeof(taint), "/sys/module/nvidia/taint") == 0)
		gd_res_ev(&r, "/sys/module/nvidia/taint", "%s", taint);
	if (nv.flavour == GD_NV_PROPRIETARY) {
		gd_res_fix(&r, "install the open kernel modules (nvidia-open / nvidia-kernel-open-dkms) for dma-buf");
		gd_res_emit(d, &r, GD_CHECK_WARN,
			    "NVIDIA driver %s, proprietary kernel module: CUDA dma-buf export needs the open modules",
			    nv.version);
		return;
	}
	gd_res_emit(d, &r, GD_CHECK_PASS, "NVIDIA driver %s, %s kernel module", nv.version,
		    gd_nv_flavour_str(nv.flavour));
}

static void peermem_evidence(struct gd_check_result *r, const struct gd_peermem *p)
{
	gd_res_ev(r, "/sys/module/nvidia_peermem", "%s", p->nvidia_peermem ? "loaded" : "absent");
	gd_res_ev(r, "/sys/module/nv_peer_mem", "%s", p->nv_peer_mem ? "loaded" : "absent");
	if (p->modules_err)
		gd_res_ev(r, "/proc/modules", "unreadable, ignored: %s", gd_strerror(p->modules_err));
	if (p->registered_as[0])
		gd_res_ev(r, "/sys/kernel/mm/memory_peers", "%s registered", p->registered_as);
	else
		gd_res_ev(r, "/sys/kernel/mm/memory_peers", "%s",
			  p->memory_peers_dir ? "no nvidia entry" : "absent");
}

void gd_chk_peermem(struct gd_doctor *d, const struct gd_check *c)
{
	struct gd_check_result r;
	struct gd_peermem p;

	int ofed;

	gd_res_init(&r, c, NULL);
	gd_peermem_probe(d->m, &p);
	peermem_evidence(&r, &p);
	ofed = gd_kallsyms_has(d->m, GD_PEER_SYM);
	if (ofed >= 0)
		gd_res_ev(&r, "/proc/kallsyms", "%s %s", GD_PEER_SYM,
			  ofed ? "exported (MLNX_OFED/DOCA ib_core)" : "absent (inbox ib_core)");
	switch (p.state) {
	case GD_PEERMEM_ABSENT:
		if (ofed == 0)
			gd_res_fix(&r, "the inbox ib_core has no PeerDirect, so nvidia_peermem cannot work here: use dma-buf (kernel >= 5.12, open NVIDIA modules) or install DOCA-OFED");
		else
			gd_res_fix(&r, "modprobe nvidia-peermem (needs MLNX_OFED/DOCA-OFED ib_core), or use dma-buf");
		gd_res_emit(d, &r, GD_CHECK_WARN,
			    "no peer-memory module: ibv_reg_mr on GPU memory fails (EFAULT); only dma-buf can work");
		return;
	case GD_PEERMEM_UNREGISTERED:
		gd_res_fix(&r, "rebuild nvidia_peermem against the installed RDMA stack (reinstall the NVIDIA driver after OFED)");
		gd_res_emit(d, &r, GD_CHECK_FAIL,
			    "peer-memory module loaded but not registered with ib_core");
		return;
	default:
		break;
	}
	if (p.nvidia_peermem && p.nv_peer_mem) {
		gd_res_fix(&r, "rmmod nv_peer_mem (keep only nvidia_peermem)");
		gd_res_emit(d, &r, GD_CHECK_WARN, "both nvidia_peermem and the old nv_peer_mem are loaded");
		return;
	}
	if (p.state == GD_PEERMEM_LOADED) {
		gd_res_emit(d, &r, GD_CHECK_PASS,
			    "%s loaded (registration with ib_core not visible in sysfs)",
			    p.nvidia_peermem ? "nvidia_peermem" : "nv_peer_mem");
		return;
	}
	gd_res_emit(d, &r, GD_CHECK_PASS, "%s loaded and registered with ib_core as %s",
		    p.nvidia_peermem ? "nvidia_peermem" : "nv_peer_mem", p.registered_as);
}

/* Why dma-buf cannot work, or "" when it may. */
static void dmabuf_blocker(struct gd_doctor *d, const struct gd_nv_driver *nv, char *why,
			   size_t len)
{
	struct gd_kver k;
	int attr;

	why[0] = '\0';
	if (gd_kernel_version(d->m, &k) == 0 &&
	    gd_kver_cmp(&k, GD_DMABUF_KERNEL_MAJOR, GD_DMABUF_KERNEL_MINOR, 0) < 0) {
		snprintf(why, len, "dma-buf: kernel %d.%d < 5.12", k.major, k.minor);
		return;
	}
	if (nv->flavour == GD_NV_PROPRIETARY) {
		snprintf(why, len, "dma-buf: proprietary NVIDIA kernel module (needs the open one)");
		return;
	}
	attr = d->live ? gd_doc_cuda_dmabuf_any() : -1;
	if (attr == 0)
		snprintf(why, len, "dma-buf: CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED is 0 on every GPU");
}

static void peermem_blocker(const struct gd_peermem *p, char *why, size_t len)
{
	why[0] = '\0';
	if (p->state == GD_PEERMEM_ABSENT)
		snprintf(why, len, "peermem: nvidia_peermem not loaded");
	else if (p->state == GD_PEERMEM_UNREGISTERED)
		snprintf(why, len, "peermem: nvidia_peermem not registered with ib_core");
}

void gd_chk_registration(struct gd_doctor *d, const struct gd_check *c)
{
	char dmabuf[160], peer[160];
	struct gd_check_result r;
	struct gd_nv_driver nv;
	struct gd_peermem p;

	gd_res_init(&r, c, NULL);
	if (gd_nvidia_driver(d->m, &nv)) {
		gd_res_fix(&r, "install and load the NVIDIA driver");
		gd_res_emit(d, &r, GD_CHECK_FAIL, "no NVIDIA driver: GPU memory cannot be registered");
		return;
	}
	gd_peermem_probe(d->m, &p);
	dmabuf_blocker(d, &nv, dmabuf, sizeof(dmabuf));
	peermem_blocker(&p, peer, sizeof(peer));
	gd_res_ev(&r, "dma-buf", "%s", dmabuf[0] ? dmabuf : "possible");
	gd_res_ev(&r, "peer-memory", "%s", peer[0] ? peer : "possible");
	if (!dmabuf[0]) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "GPU memory registration: dma-buf%s", peer[0] ? "" : " or peer memory");
		return;
	}
	if (!peer[0]) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "GPU memory registration: peer memory (%s)", dmabuf);
		return;
	}
	gd_res_fix(&r, "kernel >= 5.12 with the open NVIDIA modules (dma-buf), or modprobe nvidia-peermem with MLNX_OFED/DOCA-OFED");
	gd_res_emit(d, &r, GD_CHECK_FAIL, "no way to register GPU memory for RDMA: %s; %s", dmabuf,
		    peer);
}

void gd_chk_regkey(struct gd_doctor *d, const struct gd_check *c)
{
	struct gd_check_result r;
	struct gd_nv_params p;

	gd_res_init(&r, c, NULL);
	if (gd_nv_params_read(d->m, &p)) {
		gd_res_emit(d, &r, GD_CHECK_SKIP,
			    "no NVIDIA driver parameters (/proc/driver/nvidia/params): driver not loaded");
		return;
	}
	gd_res_ev(&r, p.source, "RegistryDwords: \"%s\"", p.registry);
	if (p.stream_memops >= 0)
		gd_res_ev(&r, p.source, "EnableStreamMemOPs: %d", p.stream_memops);
	if (p.peer_mapping_override == 1) {
		gd_res_emit(d, &r, GD_CHECK_PASS,
			    "PeerMappingOverride=1: the GPU may map NIC doorbells (GPU-initiated IBGDA)");
		return;
	}
	gd_res_fix(&r, "options nvidia NVreg_RegistryDwords=\"PeerMappingOverride=1;\" NVreg_EnableStreamMemOPs=1 in /etc/modprobe.d, update-initramfs -u, reboot");
	gd_res_emit(d, &r, GD_CHECK_WARN,
		    "PeerMappingOverride%s: GPU-initiated IBGDA unavailable (CPU-assisted IBGDA and proxy modes still work)",
		    p.peer_mapping_override < 0 ? " not set" : "=0");
}

int gd_parse_memlock(const char *limits, unsigned long long *soft)
{
	const char *line = strstr(limits, "Max locked memory");
	char val[32];

	if (!line || sscanf(line + strlen("Max locked memory"), "%31s", val) != 1)
		return -EINVAL;
	if (strcmp(val, "unlimited") == 0) {
		*soft = ~0ULL;
		return 0;
	}
	char *end;
	*soft = strtoull(val, &end, 10);
	return *end ? -EINVAL : 0;
}

#define MEMLOCK_WANT (512ULL << 20)

void gd_chk_memlock(struct gd_doctor *d, const struct gd_check *c)
{
	struct gd_check_result r;
	unsigned long long soft;
	char *text = NULL;

	gd_res_init(&r, c, NULL);
	if (gd_sysfs_read_text(d->m, &text, "/proc/self/limits") || gd_parse_memlock(text, &soft)) {
		free(text);
		gd_res_emit(d, &r, GD_CHECK_SKIP, "cannot read 'Max locked memory' in /proc/self/limits");
		return;
	}
	free(text);
	if (soft == ~0ULL) {
		gd_res_ev(&r, "/proc/self/limits", "Max locked memory: unlimited");
		gd_res_emit(d, &r, GD_CHECK_PASS, "locked memory unlimited");
		return;
	}
	gd_res_ev(&r, "/proc/self/limits", "Max locked memory: %llu bytes", soft);
	if (soft >= MEMLOCK_WANT) {
		gd_res_emit(d, &r, GD_CHECK_PASS, "locked memory limit %llu MiB", soft >> 20);
		return;
	}
	gd_res_fix(&r, "ulimit -l unlimited (limits.conf memlock, or docker --ulimit memlock=-1)");
	gd_res_emit(d, &r, GD_CHECK_WARN,
		    "locked memory limited to %llu KiB: host buffers, queues and staging beyond it fail with ENOMEM",
		    soft >> 10);
}

bool gd_proc_devices_has(const char *text, const char *name)
{
	size_t len = strlen(name);

	/* "Character devices:\n  1 mem\n510 gdrdrv\n\nBlock devices:..." */
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *q = p;

		if (strncmp(p, "Block devices:", 14) == 0)
			return false;
		while (*q == ' ' || (*q >= '0' && *q <= '9'))
			q++;
		if (q > p && strncmp(q, name, len) == 0 && (q[len] == '\n' || q[len] == '\0'))
			return true;
	}
	return false;
}

void gd_chk_gdrcopy(struct gd_doctor *d, const struct gd_check *c)
{
	struct gd_check_result r;
	char *devs = NULL;
	bool mod, chr, node;

	gd_res_init(&r, c, NULL);
	mod = gd_sysfs_exists(d->m, "/sys/module/gdrdrv");
	chr = gd_sysfs_read_text(d->m, &devs, "/proc/devices") == 0 &&
	      gd_proc_devices_has(devs, "gdrdrv");
	free(devs);
	node = gd_sysfs_exists(d->m, "/dev/gdrdrv");
	gd_res_ev(&r, "/sys/module/gdrdrv", "%s", mod ? "loaded" : "absent");
	gd_res_ev(&r, "/proc/devices", "gdrdrv %s", chr ? "registered" : "absent");
	gd_res_ev(&r, "/dev/gdrdrv", "%s", node ? "present" : "absent");
	if (!mod && !chr && !node) {
		gd_res_emit(d, &r, GD_CHECK_SKIP,
			    "gdrcopy not installed (GPUDirect RDMA does not need it; NVSHMEM's proxy and CPU-assisted IBGDA paths use it)");
		return;
	}
	if (!chr || !node) {
		gd_res_fix(&r, "reload gdrdrv (modprobe gdrdrv, or gdrcopy's insmod.sh) so that /dev/gdrdrv is created");
		gd_res_emit(d, &r, GD_CHECK_FAIL, "gdrdrv %s but %s: gdr_open() fails",
			    mod ? "loaded" : "partly present", node ? "not in /proc/devices" : "/dev/gdrdrv missing");
		return;
	}
	gd_res_emit(d, &r, GD_CHECK_PASS, "gdrdrv loaded, /dev/gdrdrv present");
}

static bool rw_ok(const struct gd_machine *m, const char *live_path)
{
	char path[512];

	if (gd_sysfs_path(m, path, sizeof(path), "%s", live_path))
		return false;
	return access(path, R_OK | W_OK) == 0;
}

void gd_chk_dev_infiniband(struct gd_doctor *d, const struct gd_check *c)
{
	size_t n = 0, uverbs = 0, denied = 0;
	struct gd_check_result r;
	char **names, live[300];
	bool cm;

	gd_res_init(&r, c, NULL);
	if (gd_sysfs_list(d->m, &names, &n, "/dev/infiniband")) {
		gd_res_ev(&r, "/dev/infiniband", "absent");
		gd_res_fix(&r, "load the RDMA drivers (ib_uverbs, rdma_ucm); in a container pass --device=/dev/infiniband");
		gd_res_emit(d, &r, GD_CHECK_FAIL, "no /dev/infiniband: verbs cannot open any device");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (strncmp(names[i], "uverbs", 6) != 0)
			continue;
		uverbs++;
		snprintf(live, sizeof(live), "/dev/infiniband/%s", names[i]);
		if (!rw_ok(d->m, live)) {
			denied++;
			gd_res_ev(&r, live, "no read/write access");
		}
	}
	gd_sysfs_free_list(names, n);
	cm = gd_sysfs_exists(d->m, "/dev/infiniband/rdma_cm");
	gd_res_ev(&r, "/dev/infiniband", "%zu uverbs device(s), rdma_cm %s", uverbs,
		  cm ? (rw_ok(d->m, "/dev/infiniband/rdma_cm") ? "accessible" : "not accessible")
		     : "absent");
	if (uverbs == 0) {
		gd_res_fix(&r, "no RDMA device is bound to ib_uverbs: check the NIC driver (mlx5_ib) and the device plugin");
		gd_res_emit(d, &r, GD_CHECK_FAIL, "no /dev/infiniband/uverbs* device");
		return;
	}
	if (denied) {
		gd_res_fix(&r, "grant rw on /dev/infiniband/uverbs* (udev rule, group rdma) or run in a privileged container");
		gd_res_emit(d, &r, GD_CHECK_FAIL, "%zu of %zu uverbs device(s) not accessible", denied,
			    uverbs);
		return;
	}
	gd_res_emit(d, &r, GD_CHECK_PASS, "%zu uverbs device(s) accessible", uverbs);
}
