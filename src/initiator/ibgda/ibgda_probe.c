/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The IBGDA probe chain: a pure decision over the facts (see ibgda_probe.h). */
#include "ibgda_probe.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *gd_ibgda_mem_name(enum gd_ibgda_mem m)
{
	switch (m) {
	case GD_IBGDA_MEM_DMABUF:
		return "GPU memory (dma-buf umem)";
	case GD_IBGDA_MEM_LEGACY:
		return "GPU memory (legacy umem, nvidia-peermem)";
	case GD_IBGDA_MEM_HOST:
		return "host memory (umem)";
	default:
		return "none";
	}
}

static void line(struct gd_ibgda_plan *p, const char *fmt, ...)
{
	va_list ap;

	if (p->nlines >= GD_IBGDA_MAX_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(p->lines[p->nlines++], sizeof(p->lines[0]), fmt, ap);
	va_end(ap);
}

static void refuse(struct gd_ibgda_plan *p, const char *check, const char *fix, const char *fmt,
		   ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
	snprintf(p->fix, sizeof(p->fix), "%s", fix);
	p->check = check;
	p->rc = 3;
}

static const char *err_str(int e, char *buf, size_t len)
{
	if (e < 0)
		return "not tried";
	snprintf(buf, len, "%s", e ? strerror(e) : "ok");
	return buf;
}

/* Steps 1-4: device, DEVX, caps, GPU. 0 to go on. */
static int device_steps(const struct gd_ibgda_facts *f, struct gd_ibgda_plan *p)
{
	char b[96];

	if (f->mlx5 != 1) {
		line(p, "device %s: not mlx5 (driver %s): no", f->dev,
		     f->driver[0] ? f->driver : "unknown");
		refuse(p, "ibgda.devx",
		       "run --initiator=proxy, which works on any RDMA device (rxe, EFA, ...)",
		       "IBGDA (ibgda, ibgda-cpudb) needs a ConnectX (mlx5) NIC; %s is driven by %s "
		       "and has no "
		       "mlx5 work queues or DEVX",
		       f->dev, f->driver[0] ? f->driver : "an unknown driver");
		return -1;
	}
	line(p, "device %s: mlx5 (driver %s): yes", f->dev, f->driver);
	line(p, "DEVX context: %s", err_str(f->devx_err, b, sizeof(b)));
	if (f->devx_err) {
		refuse(p, "ibgda.devx",
		       f->devx_err == 1 || f->devx_err == 13
			       ? "DEVX needs CAP_NET_RAW (or a privileged container)"
			       : "update rdma-core (libmlx5 >= 28) and the NIC firmware",
		       "mlx5dv_open_device(DEVX) on %s failed: %s", f->dev,
		       err_str(f->devx_err, b, sizeof(b)));
		return -1;
	}
	line(p, "HCA caps: cqe_version %d, 8-byte fetched atomics %s, extended atomics %s",
	     f->cqe_version, f->atomic_be == 1 ? "big-endian" : "in host order",
	     f->atomics == 1   ? "yes"
	     : f->atomics == 0 ? "no (PCI_ATOMIC_MODE in the NIC firmware)"
			       : "unknown");
	if (f->cqe_version != 1) {
		refuse(p, "ibgda.devx",
		       "update the NIC firmware (ConnectX-6 or newer is the floor)",
		       "%s reports cqe_version %d; IBGDA needs 1", f->dev, f->cqe_version);
		return -1;
	}
	line(p, "CUDA GPU: %s", f->cuda == 1 ? "yes" : f->cuda_err[0] ? f->cuda_err : "no");
	if (f->cuda != 1) {
		refuse(p, "cuda.driver", "install the NVIDIA driver; check with gd_doctor",
		       "IBGDA needs a CUDA GPU: %s", f->cuda_err[0] ? f->cuda_err : "none found");
		return -1;
	}
	return 0;
}

/* Step 5: where the SQ, CQ and doorbell records live. */
static int buffer_step(const struct gd_ibgda_facts *f, struct gd_ibgda_plan *p)
{
	char b[96];

	line(p, "control buffers, dma-buf umem: %s (CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED %d)",
	     err_str(f->dmabuf_umem_err, b, sizeof(b)), f->dmabuf_attr);
	if (f->dmabuf_umem_err == 0) {
		p->mem = GD_IBGDA_MEM_DMABUF;
		return 0;
	}
	line(p, "control buffers, legacy umem: %s (nvidia-peermem %s)",
	     err_str(f->legacy_umem_err, b, sizeof(b)), f->peermem == 1 ? "loaded" : "not loaded");
	if (f->legacy_umem_err == 0) {
		p->mem = GD_IBGDA_MEM_LEGACY;
		return 0;
	}
	line(p, "control buffers, host memory umem: %s", err_str(f->host_umem_err, b, sizeof(b)));
	if (f->host_umem_err == 0) {
		p->mem = GD_IBGDA_MEM_HOST;
		return 0;
	}
	refuse(p, "gdr.registration",
	       "enable dma-buf (kernel >= 5.12, rdma-core >= 43, open NVIDIA modules; gd_doctor "
	       "checks cuda.dmabuf_attr, kernel.version) or load nvidia-peermem (check peermem)",
	       "no memory can be registered as DEVX umem for the queues on %s", f->dev);
	return -1;
}

/* Step 6: who rings. */
static void doorbell_step(const struct gd_ibgda_facts *f, enum gd_ibgda_want want,
			  bool allow_fallback, struct gd_ibgda_plan *p)
{
	char b[96];

	line(p, "UAR (doorbell page): %s", err_str(f->uar_err, b, sizeof(b)));
	if (f->uar_err) {
		refuse(p, "ibgda.devx", "update rdma-core and the NIC firmware",
		       "mlx5dv_devx_alloc_uar on %s failed: %s", f->dev,
		       err_str(f->uar_err, b, sizeof(b)));
		return;
	}
	if (want == GD_IBGDA_WANT_CPU_DB) {
		p->cpu_doorbell = true;
		line(p, "doorbell: a CPU thread rings (--initiator=ibgda-cpudb)");
		return;
	}
	if (f->uar_gpu_map_err == 0) {
		line(p,
		     "UAR mapped into the GPU (cuMemHostRegister, I/O memory): ok; the GPU rings");
		return;
	}
	line(p,
	     "UAR mapped into the GPU (cuMemHostRegister, I/O memory): CUDA error %d%s (registry "
	     "key PeerMappingOverride=1 %s)",
	     f->uar_gpu_map_err, f->uar_gpu_map_err == 800 ? " not permitted" : "",
	     f->regkey == 1   ? "set"
	     : f->regkey == 0 ? "not set"
			      : "unknown");
	if (allow_fallback) {
		p->cpu_doorbell = true;
		p->fell_back = true;
		line(p, "doorbell: FALLING BACK to ibgda-cpudb (a CPU thread rings), as allowed by "
			"--ibgda_fallback");
		return;
	}
	refuse(p, "ibgda.regkey",
	       "add options nvidia NVreg_RegistryDwords=\"PeerMappingOverride=1;\" and reload the "
	       "driver, or run --initiator=ibgda-cpudb (or allow --ibgda_fallback)",
	       "the GPU cannot map the doorbell page of %s (cuMemHostRegister with the I/O-memory "
	       "flag: CUDA error %d)",
	       f->dev, f->uar_gpu_map_err);
}

void gd_ibgda_decide(const struct gd_ibgda_facts *f, enum gd_ibgda_want want, bool allow_fallback,
		     struct gd_ibgda_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->atomic_be = f->atomic_be == 1;
	if (device_steps(f, p) || buffer_step(f, p))
		return;
	doorbell_step(f, want, allow_fallback, p);
}

void gd_ibgda_plan_print(const struct gd_ibgda_plan *p, const char *dev, void *file)
{
	FILE *out = file;

	for (int i = 0; i < p->nlines; i++)
		fprintf(out, "  IBGDA probe: %s\n", p->lines[i]);
	if (p->rc)
		fprintf(out,
			"  IBGDA probe: cannot run on %s: %s\n  IBGDA probe: fix: %s (gd_doctor "
			"--check %s)\n",
			dev, p->why, p->fix, p->check);
	else
		fprintf(out, "  IBGDA probe: would run: %s, queues in %s%s\n",
			p->cpu_doorbell ? "ibgda-cpudb (a CPU thread rings the doorbell)"
					: "ibgda (the GPU rings the doorbell)",
			gd_ibgda_mem_name(p->mem), p->fell_back ? " (fallback from ibgda)" : "");
}
