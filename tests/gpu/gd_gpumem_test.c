/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * GPU-tier test of the GPU buffer core (src/gpu_mem.h), run by gpu-mem.sh on
 * a machine with a GPU: allocate device memory of several sizes, fill and
 * verify the pattern through the core, prove that a corrupted byte is caught,
 * check the memory type, export a dma-buf, the staging mode, the selection by
 * index and by PCI address, and RDMA registration when a device exists.
 * Exit: 0 pass, 1 a check failed, 3 no GPU/driver (the script skips).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "gd.h"
#include "gpu_mem.h"
#include "log.h"

static int failures;

#define EXPECT(cond, ...)                                   \
	do {                                                \
		if (cond) {                                 \
			printf("ok   ");                    \
		} else {                                    \
			printf("FAIL ");                    \
			failures++;                         \
		}                                           \
		printf(__VA_ARGS__);                        \
		putchar('\n');                              \
	} while (0)

static void roundtrip(struct gd_gpu *gpu, size_t size, enum gd_gpu_mem_kind kind)
{
	struct gd_gpu_mem buf;
	size_t bad = 0;
	unsigned char b;
	int ret = gd_gpu_mem_alloc(gpu, size, kind, &buf);

	EXPECT(ret == 0, "alloc %zu bytes of %s", size, gd_gpu_mem_kind_str(kind));
	if (ret)
		return;
	EXPECT(gd_gpu_mem_check_device(&buf) == 0, "memory type is %s",
	       kind == GD_GPU_MEM_DEVICE ? "CU_MEMORYTYPE_DEVICE" : "host (staging)");
	EXPECT(gd_gpu_mem_fill(&buf, size) == 0, "fill pattern (from offset %zu)", size);
	EXPECT(gd_gpu_mem_verify(&buf, size, &bad) == 0, "verify pattern after copy back");
	/* a corrupted byte in the middle must be found at its offset */
	if (gd_gpu_mem_read(&buf, size / 2, &b, 1) == 0) {
		b ^= 0x5a;
		gd_gpu_mem_write(&buf, size / 2, &b, 1);
		fprintf(stderr, "(an expected validation error follows)\n");
		EXPECT(gd_gpu_mem_verify(&buf, size, &bad) == -EILSEQ && bad == size / 2,
		       "corruption at byte %zu detected at %zu", size / 2, bad);
	}
	EXPECT(gd_gpu_mem_verify(&buf, size + 1, &bad) == -EILSEQ,
	       "the pattern from another offset does not verify");
	gd_gpu_mem_free(&buf);
}

static void dmabuf(struct gd_gpu *gpu)
{
	struct gd_gpu_mem buf;
	int ret;

	if (gd_gpu_mem_alloc(gpu, (8 << 20) + 123, GD_GPU_MEM_DEVICE, &buf)) {
		EXPECT(0, "alloc for dma-buf");
		return;
	}
	ret = gd_gpu_mem_export_dmabuf(&buf);
	EXPECT(ret == 0 && buf.dmabuf_fd >= 0, "dma-buf export: fd %d offset %llu (%s)", buf.dmabuf_fd,
	       (unsigned long long)buf.dmabuf_offset, ret ? strerror(-ret) : "ok");
	if (ret == 0) {
		off_t end = lseek(buf.dmabuf_fd, 0, SEEK_END);

		EXPECT(end >= (off_t)buf.alloc_size, "dma-buf size %lld >= %zu", (long long)end,
		       buf.alloc_size);
	}
	gd_gpu_mem_free(&buf);
}

/* One device: the MR must cover the buffer, through dma-buf or peer memory;
 * a device or machine that cannot register GPU memory says skip and why. */
static void register_on(struct gd_gpu *gpu, struct ibv_device *dev)
{
	const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	struct ibv_context *ctx = ibv_open_device(dev);
	struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	const char *name = ibv_get_device_name(dev);
	struct gd_gpu_mem buf;
	struct ibv_mr *mr = NULL;
	char why[512] = "";
	int ret;

	if (!pd) {
		printf("skip register on %s: cannot open it or allocate a PD\n", name);
	} else if (gd_gpu_mem_alloc(gpu, 4 << 20, GD_GPU_MEM_DEVICE, &buf)) {
		EXPECT(0, "alloc 4 MiB to register on %s", name);
	} else {
		ret = gd_gpu_mem_register(&buf, pd, access, GD_GPU_REG_AUTO, &mr, why, sizeof(why));
		if (ret) {
			printf("skip register on %s: %s\n", name, why);
		} else {
			EXPECT(mr->addr == gd_gpu_mem_addr(&buf) && mr->length >= buf.size &&
				       (buf.reg_used == GD_GPU_REG_DMABUF ||
					buf.reg_used == GD_GPU_REG_PEERMEM),
			       "register %zu bytes of GPU memory on %s via %s", buf.size, name,
			       gd_gpu_reg_str(buf.reg_used));
			ibv_dereg_mr(mr);
		}
		gd_gpu_mem_free(&buf);
	}
	if (pd)
		ibv_dealloc_pd(pd);
	if (ctx)
		ibv_close_device(ctx);
}

static void registration(struct gd_gpu *gpu)
{
	struct ibv_device **list;
	int n = 0;

	list = ibv_get_device_list(&n);
	if (!list || n == 0)
		printf("skip RDMA registration: no RDMA device\n");
	for (int i = 0; list && i < n; i++)
		register_on(gpu, list[i]);
	if (list)
		ibv_free_device_list(list);
}

static struct gd_machine live; /* this machine: the test runs on the GPU host */

static void selection(const struct gd_gpu *gpu)
{
	struct gd_gpu_select sel = {.by = GD_GPU_BY_BUS_ID, .m = &live};
	struct gd_gpu other;
	int count = 0;

	snprintf(sel.bus_id, sizeof(sel.bus_id), "%s", gpu->info.pci + 5); /* "BB:DD.F" form */
	EXPECT(gd_gpu_open(&sel, &other) == 0 && other.info.index == gpu->info.index,
	       "--use_cuda_bus_id=%s selects CUDA device %d", sel.bus_id, gpu->info.index);
	gd_gpu_close(&other);
	gd_cuda_device_count(&count);
	sel = (struct gd_gpu_select){.by = GD_GPU_BY_INDEX, .index = count, .m = &live};
	fprintf(stderr, "(an expected 'no such CUDA device' error follows)\n");
	EXPECT(gd_gpu_open(&sel, &other) == -ENODEV, "--use_cuda=%d (one past the last) is refused",
	       count);
	sel = (struct gd_gpu_select){.by = GD_GPU_BY_BUS_ID, .m = &live};
	snprintf(sel.bus_id, sizeof(sel.bus_id), "0000:ff:1f.7");
	fprintf(stderr, "(an expected 'no CUDA device at PCI address' error follows)\n");
	EXPECT(gd_gpu_open(&sel, &other) == -ENODEV, "--use_cuda_bus_id=0000:ff:1f.7 is refused");
}

int main(int argc, char **argv)
{
	struct gd_gpu_select sel = {.by = GD_GPU_BY_INDEX, .m = &live};
	struct gd_gpu gpu;
	int ret;

	gd_log_init(argv[0]);
	gd_machine_live(&live);
	if (argc > 1 && gd_gpu_select_parse(argv[1], &sel))
		return GD_EXIT_USAGE;
	ret = gd_gpu_open(&sel, &gpu);
	if (ret)
		return ret == -ENOENT || ret == -ENODEV || ret == -ENOSYS ? GD_EXIT_ENV : GD_EXIT_FAIL;
	printf("GPU %d: %s, PCI %s, compute %d.%d, %zu MiB, NUMA %d, dma-buf attr %d (%s)\n",
	       gpu.info.index, gpu.info.name, gpu.info.pci, gpu.info.cc_major, gpu.info.cc_minor,
	       gpu.info.total_mem >> 20, gpu.numa_node, gpu.info.dmabuf_supported, gpu.why);
	roundtrip(&gpu, 1, GD_GPU_MEM_DEVICE);
	roundtrip(&gpu, 4096 + 3, GD_GPU_MEM_DEVICE);
	roundtrip(&gpu, 64 << 20, GD_GPU_MEM_DEVICE);
	roundtrip(&gpu, (1 << 20) + 5, GD_GPU_MEM_STAGING);
	dmabuf(&gpu);
	selection(&gpu);
	registration(&gpu);
	gd_gpu_close(&gpu);
	printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
	return failures ? GD_EXIT_FAIL : GD_EXIT_OK;
}
