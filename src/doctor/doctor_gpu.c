/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_doctor checks of the GPUs: CUDA driver, dma-buf support and a live
 * export, BAR1 size. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "doctor.h"
#include "doctor_int.h"
#include "gpu_mem.h"
#include "pcipath.h"

int gd_doc_cuda_dmabuf_any(void)
{
	struct gd_cuda_dev info;
	int count, any = 0;

	if (gd_cuda_load(true) || gd_cuda_device_count(&count))
		return -1;
	for (int i = 0; i < count; i++)
		if (gd_cuda_device_info(i, &info) == 0 && info.dmabuf_supported == 1)
			any = 1;
	return any;
}

/* Load CUDA for a check; on failure emit FAIL/SKIP for it and return false. */
static bool cuda_ready(struct gd_doctor *d, const struct gd_check *c, bool fail_if_missing)
{
	struct gd_check_result r;
	int ret = gd_cuda_load(true);

	if (!ret)
		return true;
	gd_res_init(&r, c, NULL);
	gd_res_ev(&r, GD_LIBCUDA, "%s", gd_cuda_load_error());
	if (!fail_if_missing) {
		gd_res_emit(d, &r, GD_CHECK_SKIP, "no usable CUDA driver (see cuda.driver)");
		return false;
	}
	if (ret == -ENOENT)
		gd_res_fix(&r, "install the NVIDIA driver's user-space libraries (libcuda.so.1)");
	else if (ret == -ENODEV)
		gd_res_fix(&r, "check nvidia-smi; in a container expose the GPU (--gpus all) and libcuda");
	else
		gd_res_fix(&r, "match the NVIDIA user-space driver to the kernel module version");
	gd_res_emit(d, &r, GD_CHECK_FAIL, "%s", gd_cuda_load_error());
	return false;
}

void gd_chk_cuda_driver(struct gd_doctor *d, const struct gd_check *c)
{
	struct gd_check_result r;
	struct gd_cuda_dev info;
	char ver[16];
	int count = 0;

	if (!cuda_ready(d, c, true))
		return;
	gd_res_init(&r, c, NULL);
	gd_cuda_driver_version(NULL, ver, sizeof(ver));
	gd_cuda_device_count(&count);
	gd_res_ev(&r, "cuDriverGetVersion", "%s", ver);
	for (int i = 0; i < count && gd_cuda_device_info(i, &info) == 0; i++)
		gd_res_ev(&r, "cuDeviceGet", "GPU%d %s %s, compute %d.%d, %zu MiB", i, info.name,
			  info.pci, info.cc_major, info.cc_minor, info.total_mem >> 20);
	gd_res_emit(d, &r, GD_CHECK_PASS, "CUDA driver %s, %d GPU(s)", ver, count);
}

void gd_chk_cuda_dmabuf_attr(struct gd_doctor *d, const struct gd_check *c)
{
	struct gd_cuda_dev info;
	int count = 0;

	if (!cuda_ready(d, c, false))
		return;
	gd_cuda_device_count(&count);
	for (int i = 0; i < count && gd_cuda_device_info(i, &info) == 0; i++) {
		struct gd_check_result r;

		gd_res_init(&r, c, "GPU%d %s", i, info.pci);
		gd_res_ev(&r, "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED)", "%d",
			  info.dmabuf_supported);
		gd_res_ev(&r, "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED)",
			  "%d", info.gdr_supported);
		if (info.dmabuf_supported == 1) {
			gd_res_emit(d, &r, GD_CHECK_PASS, "%s supports dma-buf export", info.name);
			continue;
		}
		gd_res_fix(&r, "use the open NVIDIA kernel modules on kernel >= 5.12, or nvidia_peermem");
		gd_res_emit(d, &r, GD_CHECK_WARN, "%s: dma-buf export not supported", info.name);
	}
}

static void export_one(struct gd_doctor *d, const struct gd_check *c, int index)
{
	struct gd_gpu_select sel = {
		.by = GD_GPU_BY_INDEX, .index = index, .quiet = true, .m = d->m};
	struct gd_check_result r;
	struct gd_gpu_mem buf;
	struct gd_gpu gpu;
	size_t bad = 0;
	int ret;

	gd_res_init(&r, c, "GPU%d", index);
	ret = gd_gpu_open(&sel, &gpu);
	if (ret) {
		gd_res_emit(d, &r, GD_CHECK_FAIL, "cannot open the GPU: %s", strerror(-ret));
		return;
	}
	snprintf(r.subject, sizeof(r.subject), "GPU%d %s", index, gpu.info.pci);
	ret = gd_gpu_mem_alloc(&gpu, 2 << 20, GD_GPU_MEM_DEVICE, &buf);
	if (!ret)
		ret = gd_gpu_mem_check_device(&buf);
	if (!ret)
		ret = gd_gpu_mem_fill(&buf, 0x6764646f63746f72ULL);
	if (!ret)
		ret = gd_gpu_mem_verify(&buf, 0x6764646f63746f72ULL, &bad);
	gd_res_ev(&r, "cuMemAlloc+cuMemcpy", "2 MiB device memory, pattern %s",
		  ret ? "FAILED" : "written and read back");
	if (!ret) {
		ret = gd_gpu_mem_export_dmabuf(&buf);
		gd_res_ev(&r, "cuMemGetHandleForAddressRange(DMA_BUF_FD)", "%s",
			  ret ? strerror(-ret) : "fd exported");
		if (ret)
			gd_res_fix(&r, "dma-buf export needs the open NVIDIA kernel modules and CUDA >= 11.7");
	}
	gd_gpu_mem_free(&buf);
	gd_gpu_close(&gpu);
	if (ret)
		gd_res_emit(d, &r, GD_CHECK_FAIL, "live dma-buf export of GPU memory failed");
	else
		gd_res_emit(d, &r, GD_CHECK_PASS, "%s: 2 MiB allocated, verified, exported as dma-buf",
			    gpu.info.name);
}

void gd_chk_cuda_dmabuf_export(struct gd_doctor *d, const struct gd_check *c)
{
	int count = 0;

	if (!cuda_ready(d, c, false))
		return;
	gd_cuda_device_count(&count);
	for (int i = 0; i < count; i++)
		export_one(d, c, i);
}

#define BAR1_SMALL (1ULL << 30)

void gd_chk_bar1(struct gd_doctor *d, const struct gd_check *c)
{
	if (!d->ngpus) {
		gd_res_skip(d, c, NULL, "no NVIDIA GPU in /sys/bus/pci/devices");
		return;
	}
	for (size_t i = 0; i < d->ngpus; i++) {
		struct gd_check_result r;
		char live[192];
		uint64_t size;

		gd_res_init(&r, c, "GPU %s", d->gpus[i].pci);
		snprintf(live, sizeof(live), "/sys/bus/pci/devices/%s/resource", d->gpus[i].pci);
		/* BAR0 is the register window; BAR1 the next memory resource */
		if (gd_pci_mem_resource(d->m, d->gpus[i].pci, 1, &size)) {
			gd_res_emit(d, &r, GD_CHECK_SKIP, "cannot read the BARs from %s", live);
			continue;
		}
		gd_res_ev(&r, live, "second memory resource (BAR1): %llu MiB",
			  (unsigned long long)(size >> 20));
		if (size < BAR1_SMALL) {
			gd_res_fix(&r, "enable Resizable BAR / Above 4G decoding in the BIOS (and NVreg_EnableResizableBar=1)");
			gd_res_emit(d, &r, GD_CHECK_WARN,
				    "BAR1 only %llu MiB: large GPU buffers cannot all be registered",
				    (unsigned long long)(size >> 20));
			continue;
		}
		gd_res_emit(d, &r, GD_CHECK_PASS, "BAR1 %llu MiB", (unsigned long long)(size >> 20));
	}
}
