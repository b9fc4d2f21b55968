/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "gpu_mem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "gdr_env.h"
#include "log.h"
#include "locality.h"
#include "pattern.h"
#include "pcipath.h"
#include "sysfs.h"
#include "topo.h"
#include "topo_nics.h"

#define GPU_PAGE (64 * 1024)
#define COPY_CHUNK ((size_t)4 << 20)
#define GD_MIN_CHUNK(n) ((n) < COPY_CHUNK ? (n) : COPY_CHUNK)

/* ---- choosing the GPU ---- */

int gd_gpu_select_parse(const char *arg, struct gd_gpu_select *sel)
{
	char *end;
	long v;

	if (!arg || !*arg || strcmp(arg, "auto") == 0) {
		sel->by = GD_GPU_AUTO;
		return 0;
	}
	v = strtol(arg, &end, 10);
	if (*end || end == arg || !(*arg >= '0' && *arg <= '9')) {
		gd_error("invalid value '%s' for --use_cuda: expected a CUDA device index or 'auto'",
			 gd_excerpt(arg));
		return -EINVAL;
	}
	if (v > 1023) {
		gd_error("invalid value '%s' for --use_cuda: out of range; must be between 0 and "
			 "1023", gd_excerpt(arg));
		return -ERANGE;
	}
	sel->by = GD_GPU_BY_INDEX;
	sel->index = (int)v;
	return 0;
}

/* ---- the GPU nearest the NIC: the locality module decides (locality.h) ---- */

/* The machine as gd_topo and gd_doctor see it: GPUs, RDMA devices, decisions. */
static int open_locality(struct gd_topo *t, const struct gd_machine *m)
{
	char err[512];
	int ret;

	memset(t, 0, sizeof(*t));
	ret = gd_topo_open_locality(t, m, NULL, err, sizeof(err));
	if (!ret)
		ret = gd_topo_find_gpus(t);
	if (!ret)
		ret = gd_topo_find_nics_rdma(t);
	if (!ret)
		ret = gd_topo_classify(t, NULL, true);
	if (ret)
		gd_debug("locality unavailable: %s", strerror(-ret));
	return ret;
}

/* Which locality GPU each CUDA device is; visible[g] when CUDA sees GPU g. */
static void map_cuda(const struct gd_locality *l, const char (*cuda_pci)[GD_CUDA_BUSID_LEN],
		     int count, bool *visible, int *cuda_of)
{
	for (int i = 0; i < count; i++) {
		int g = cuda_pci[i][0] ? gd_loc_gpu_by_busid(l, cuda_pci[i]) : -1;

		if (g >= 0 && !visible[g]) {
			visible[g] = true;
			cuda_of[g] = i;
		}
	}
}

/* The locality GPU --use_cuda=auto takes for the NIC, and its class; -1 none. */
static int auto_gpu(const struct gd_locality *l, const char *nic_pci,
		    const char (*cuda_pci)[GD_CUDA_BUSID_LEN], int count, int *cuda,
		    enum gd_loc_class *cls)
{
	bool *visible = calloc(l->ngpus + 1, sizeof(*visible));
	int *cuda_of = calloc(l->ngpus + 1, sizeof(*cuda_of));
	int k = gd_loc_nic_by_busid(l, nic_pci), g = -1;

	if (visible && cuda_of && k >= 0) {
		map_cuda(l, cuda_pci, count, visible, cuda_of);
		g = gd_loc_gpu_for_nic(l, (size_t)k, visible);
	}
	if (g >= 0) {
		*cuda = cuda_of[g];
		*cls = gd_loc_gpu_nic(l, (size_t)g, (size_t)k);
	}
	free(visible);
	free(cuda_of);
	return g;
}

int gd_gpu_auto_pick(const struct gd_machine *m, const char *nic_pci,
		     const char (*cuda_pci)[GD_CUDA_BUSID_LEN], int count, int *index,
		     enum gd_loc_class *cls)
{
	struct gd_topo t;
	int ret = open_locality(&t, m);

	*index = 0;
	*cls = GD_LOC_NA;
	if (!ret && auto_gpu(&t.loc, nic_pci, cuda_pci, count, index, cls) < 0)
		ret = -ENODEV;
	gd_topo_free(&t);
	return ret;
}

/* auto: the CUDA device the locality module gives the NIC; without a NIC
 * address, or with no GPU it can place, device 0. */
static int pick_auto(const struct gd_gpu_select *sel, int count, int *index, char *why,
		     size_t why_len)
{
	char (*pci)[GD_CUDA_BUSID_LEN] = calloc((size_t)count + 1, sizeof(*pci));
	enum gd_loc_class cls = GD_LOC_NA;
	struct gd_cuda_dev info;

	*index = 0;
	if (!sel->nic_pci[0] || !pci) {
		free(pci);
		snprintf(why, why_len, "auto: no NIC with a PCI address to be near, CUDA device 0");
		return 0;
	}
	for (int i = 0; i < count; i++)
		if (!gd_cuda_device_info(i, &info))
			snprintf(pci[i], sizeof(pci[i]), "%s", info.pci);
	if (gd_gpu_auto_pick(sel->m, sel->nic_pci, (const char(*)[GD_CUDA_BUSID_LEN])pci, count,
			     index, &cls))
		*index = 0;
	free(pci);
	snprintf(why, why_len, "auto: CUDA device %d is nearest to %s (%s): %s", *index,
		 sel->nic_name[0] ? sel->nic_name : sel->nic_pci, sel->nic_pci,
		 cls == GD_LOC_NA ? "path unknown" : gd_loc_class_str(cls));
	return 0;
}

/* CUDA numbers GPUs fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID, and
 * CUDA_VISIBLE_DEVICES renumbers them: an index may not be the GPU meant. */
static void warn_order(int count)
{
	const char *order = getenv("CUDA_DEVICE_ORDER");
	const char *visible = getenv("CUDA_VISIBLE_DEVICES");

	if (count > 1 && (!order || strcmp(order, "PCI_BUS_ID") != 0))
		gd_info("CUDA device numbers follow CUDA_DEVICE_ORDER=%s, not nvidia-smi's PCI order; --use_cuda_bus_id names a GPU exactly",
			order ? order : "FASTEST_FIRST (unset)");
	if (visible && *visible)
		gd_info("CUDA_VISIBLE_DEVICES=%s renumbers the GPUs", visible);
}

static int pick(const struct gd_gpu_select *sel, int *index, char *why, size_t why_len)
{
	int count, ret = gd_cuda_device_count(&count);

	if (ret)
		return ret;
	switch (sel->by) {
	case GD_GPU_BY_BUS_ID:
		ret = gd_cuda_index_by_bus_id(sel->bus_id, index);
		if (!ret)
			snprintf(why, why_len, "--use_cuda_bus_id=%s is CUDA device %d", sel->bus_id,
				 *index);
		return ret;
	case GD_GPU_AUTO:
		return pick_auto(sel, count, index, why, why_len);
	case GD_GPU_BY_INDEX:
	default:
		if (sel->index >= count) {
			gd_error("--use_cuda=%d: no such CUDA device (this machine has %d: 0..%d)",
				 sel->index, count, count - 1);
			return -ENODEV;
		}
		*index = sel->index;
		snprintf(why, why_len, "CUDA device %d", *index);
		if (!sel->quiet)
			warn_order(count);
		return 0;
	}
}

int gd_gpu_open(const struct gd_gpu_select *sel, struct gd_gpu *gpu)
{
	int index, ret;

	memset(gpu, 0, sizeof(*gpu));
	ret = gd_cuda_load(false);
	if (ret)
		return ret;
	ret = pick(sel, &index, gpu->why, sizeof(gpu->why));
	if (!ret)
		ret = gd_cuda_ctx_acquire(index, &gpu->info, &gpu->ctx);
	if (ret)
		return ret;
	gpu->m = sel->m;
	gpu->numa_node = gd_pci_numa(gpu->m, gpu->info.pci);
	if (sel->by == GD_GPU_AUTO && sel->nic_pci[0])
		gd_gpu_set_nic(gpu, sel->nic_pci);
	gd_debug("GPU: %s (%s) %s", gpu->info.name, gpu->info.pci, gpu->why);
	return 0;
}

void gd_gpu_set_nic(struct gd_gpu *gpu, const char *nic_pci)
{
	struct gd_loc_place a, b;
	enum gd_loc_class c;
	struct gd_topo t = { 0 };
	char err[512];

	gpu->path_class[0] = '\0';
	if (!nic_pci || !*nic_pci || gd_topo_open_locality(&t, gpu->m, NULL, err, sizeof(err)))
		return;
	gd_loc_place(&t.loc.src, gpu->info.pci, &a);
	gd_loc_place(&t.loc.src, nic_pci, &b);
	c = gd_loc_classify(&a, &b);
	if (c != GD_LOC_NA)
		snprintf(gpu->path_class, sizeof(gpu->path_class), "%s", gd_loc_class_str(c));
	gd_topo_free(&t);
}

void gd_gpu_close(struct gd_gpu *gpu)
{
	gd_cuda_ctx_release(&gpu->info, &gpu->ctx);
}

/* ---- buffers ---- */

const char *gd_gpu_mem_kind_str(enum gd_gpu_mem_kind k)
{
	return k == GD_GPU_MEM_STAGING ? "pinned host staging buffer (cuMemAllocHost)"
				       : "GPU device memory (cuMemAlloc)";
}

const char *gd_gpu_reg_str(enum gd_gpu_reg r)
{
	switch (r) {
	case GD_GPU_REG_AUTO:
		return "auto";
	case GD_GPU_REG_DMABUF:
		return "dma-buf";
	case GD_GPU_REG_PEERMEM:
		return "peer-memory";
	case GD_GPU_REG_HOST:
		return "host";
	default:
		return "none";
	}
}

void *gd_gpu_mem_addr(const struct gd_gpu_mem *buf)
{
	return buf->kind == GD_GPU_MEM_STAGING ? buf->host : (void *)(uintptr_t)buf->dptr;
}

int gd_gpu_mem_alloc(struct gd_gpu *gpu, size_t size, enum gd_gpu_mem_kind kind,
		     struct gd_gpu_mem *buf)
{
	const struct gd_cuda_api *cu = gd_cuda();
	char what[96];

	memset(buf, 0, sizeof(*buf));
	buf->dmabuf_fd = -1;
	if (!cu || !gpu->ctx)
		return -ENODEV;
	if (size == 0)
		return -EINVAL;
	buf->gpu = gpu;
	buf->kind = kind;
	buf->size = size;
	buf->alloc_size = (size + GPU_PAGE - 1) / GPU_PAGE * GPU_PAGE;
	if (gd_cuda_check(cu->CtxSetCurrent(gpu->ctx), "cuCtxSetCurrent"))
		return -EIO;
	if (kind == GD_GPU_MEM_STAGING) {
		snprintf(what, sizeof(what), "cuMemAllocHost(%zu bytes, staging for GPU %d)",
			 buf->alloc_size, gpu->info.index);
		return gd_cuda_check(cu->MemAllocHost(&buf->host, buf->alloc_size), what);
	}
	snprintf(what, sizeof(what), "cuMemAlloc(%zu bytes on GPU %d, %zu MiB total)",
		 buf->alloc_size, gpu->info.index, gpu->info.total_mem >> 20);
	return gd_cuda_check(cu->MemAlloc(&buf->dptr, buf->alloc_size), what);
}

void gd_gpu_mem_free(struct gd_gpu_mem *buf)
{
	const struct gd_cuda_api *cu = gd_cuda();

	if (buf->dmabuf_fd >= 0)
		close(buf->dmabuf_fd);
	buf->dmabuf_fd = -1;
	if (!cu)
		return;
	if (buf->dptr)
		cu->MemFree(buf->dptr);
	if (buf->host)
		cu->MemFreeHost(buf->host);
	buf->dptr = 0;
	buf->host = NULL;
}

static int bounds(const struct gd_gpu_mem *buf, size_t off, size_t len)
{
	if (off > buf->alloc_size || len > buf->alloc_size - off) {
		gd_error("GPU buffer access [%zu, +%zu) outside its %zu bytes", off, len,
			 buf->alloc_size);
		return -ERANGE;
	}
	return 0;
}

int gd_gpu_mem_write(struct gd_gpu_mem *buf, size_t off, const void *src, size_t len)
{
	int ret = bounds(buf, off, len);

	if (ret)
		return ret;
	if (buf->kind == GD_GPU_MEM_STAGING) {
		memcpy((char *)buf->host + off, src, len);
		return 0;
	}
	return gd_cuda_check(gd_cuda()->MemcpyHtoD(buf->dptr + off, src, len), "cuMemcpyHtoD");
}

int gd_gpu_mem_read(const struct gd_gpu_mem *buf, size_t off, void *dst, size_t len)
{
	int ret = bounds(buf, off, len);

	if (ret)
		return ret;
	if (buf->kind == GD_GPU_MEM_STAGING) {
		memcpy(dst, (char *)buf->host + off, len);
		return 0;
	}
	return gd_cuda_check(gd_cuda()->MemcpyDtoH(dst, buf->dptr + off, len), "cuMemcpyDtoH");
}

int gd_gpu_mem_memset(struct gd_gpu_mem *buf, unsigned char val)
{
	if (buf->kind == GD_GPU_MEM_STAGING) {
		memset(buf->host, val, buf->alloc_size);
		return 0;
	}
	return gd_cuda_check(gd_cuda()->MemsetD8(buf->dptr, val, buf->alloc_size), "cuMemsetD8");
}

int gd_gpu_mem_fill(struct gd_gpu_mem *buf, uint64_t off0)
{
	size_t chunk = GD_MIN_CHUNK(buf->size);
	void *tmp;
	int ret = 0;

	if (buf->kind == GD_GPU_MEM_STAGING) {
		gd_pattern_fill(buf->host, buf->size, off0);
		return 0;
	}
	tmp = malloc(chunk);
	if (!tmp)
		return -ENOMEM;
	for (size_t off = 0; off < buf->size && !ret; off += chunk) {
		size_t n = buf->size - off < chunk ? buf->size - off : chunk;

		gd_pattern_fill(tmp, n, off0 + off);
		ret = gd_gpu_mem_write(buf, off, tmp, n);
	}
	free(tmp);
	return ret;
}

int gd_gpu_mem_verify(const struct gd_gpu_mem *buf, uint64_t off0, size_t *bad_off)
{
	size_t chunk = GD_MIN_CHUNK(buf->size);
	void *tmp = malloc(chunk);
	int ret = 0;

	if (!tmp)
		return -ENOMEM;
	for (size_t off = 0; off < buf->size && !ret; off += chunk) {
		size_t n = buf->size - off < chunk ? buf->size - off : chunk, bad;

		ret = gd_gpu_mem_read(buf, off, tmp, n);
		if (ret)
			break;
		bad = gd_pattern_check(tmp, n, off0 + off);
		if (bad < n) {
			if (bad_off)
				*bad_off = off + bad;
			gd_error("validation failed: %s of GPU %d differs at byte %zu of %zu",
				 gd_gpu_mem_kind_str(buf->kind), buf->gpu->info.index, off + bad,
				 buf->size);
			ret = -EILSEQ;
		}
	}
	free(tmp);
	return ret;
}

int gd_gpu_mem_check_device(const struct gd_gpu_mem *buf)
{
	int type = 0;
	int ret;

	if (buf->kind != GD_GPU_MEM_DEVICE)
		return 0;
	ret = gd_cuda_check(gd_cuda()->PointerGetAttribute(&type, GD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
							   buf->dptr),
			    "cuPointerGetAttribute(MEMORY_TYPE)");
	if (ret)
		return ret;
	if (type != GD_CU_MEMORYTYPE_DEVICE) {
		gd_error("GPU buffer is not device memory (CUDA memory type %d): the NIC would read host memory",
			 type);
		return -EFAULT;
	}
	return 0;
}

/* ---- dma-buf and registration ---- */

int gd_gpu_mem_export_dmabuf(struct gd_gpu_mem *buf)
{
	const struct gd_cuda_api *cu = gd_cuda();
	long page = sysconf(_SC_PAGESIZE);
	gd_cu_ptr base;
	int fd = -1, ret;

	if (buf->kind != GD_GPU_MEM_DEVICE)
		return -EINVAL;
	if (buf->dmabuf_fd >= 0)
		return 0;
	if (!cu->MemGetHandleForAddressRange) {
		gd_error("dma-buf: this CUDA driver has no cuMemGetHandleForAddressRange (needs CUDA >= 11.7)");
		return -EOPNOTSUPP;
	}
	base = buf->dptr & ~(gd_cu_ptr)(page - 1);
	ret = gd_cuda_check(cu->MemGetHandleForAddressRange(&fd, base, buf->alloc_size + (buf->dptr - base),
							     GD_CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0),
			    "dma-buf: cuMemGetHandleForAddressRange(DMA_BUF_FD)");
	if (ret)
		return ret;
	buf->dmabuf_fd = fd;
	buf->dmabuf_offset = buf->dptr - base;
	return 0;
}

void gd_gpu_explain_dmabuf(const struct gd_machine *m, int err, char *out, size_t len)
{
	struct gd_kver k;

	if (gd_kernel_version(m, &k) == 0 &&
	    gd_kver_cmp(&k, GD_DMABUF_KERNEL_MAJOR, GD_DMABUF_KERNEL_MINOR, 0) < 0) {
		snprintf(out, len, "dma-buf: kernel %d.%d < 5.12 (upgrade the kernel)", k.major,
			 k.minor);
		return;
	}
	switch (err) {
	case -EOPNOTSUPP:
	case -EPROTONOSUPPORT:
		snprintf(out, len,
			 "dma-buf: not supported by the RDMA driver or the GPU driver (%s); use the open NVIDIA kernel modules, rdma-core >= 34",
			 strerror(-err));
		break;
	case -ENOSYS:
		snprintf(out, len, "dma-buf: libibverbs has no ibv_reg_dmabuf_mr (rdma-core < 34)");
		break;
	default:
		snprintf(out, len, "dma-buf: registration failed: %s", strerror(-err));
	}
}

void gd_gpu_explain_peermem(const struct gd_machine *m, int err, char *out, size_t len)
{
	struct gd_peermem p;

	gd_peermem_probe(m, &p);
	if (p.state == GD_PEERMEM_ABSENT)
		snprintf(out, len, "peermem: nvidia_peermem not loaded (modprobe nvidia-peermem)");
	else if (p.state == GD_PEERMEM_UNREGISTERED)
		snprintf(out, len,
			 "peermem: nvidia_peermem loaded but not registered with ib_core (rebuild it against the installed RDMA stack)");
	else
		snprintf(out, len, "peermem: ibv_reg_mr on device memory failed: %s", strerror(-err));
}

static int reg_dmabuf(struct gd_gpu_mem *buf, struct ibv_pd *pd, int access, struct ibv_mr **mr)
{
	int ret = gd_gpu_mem_export_dmabuf(buf);

	if (ret)
		return ret;
	*mr = ibv_reg_dmabuf_mr(pd, buf->dmabuf_offset, buf->size, (uintptr_t)buf->dptr,
				buf->dmabuf_fd, access);
	return *mr ? 0 : -(errno ? errno : EIO);
}

static int reg_plain(void *addr, size_t size, struct ibv_pd *pd, int access, struct ibv_mr **mr)
{
	*mr = ibv_reg_mr(pd, addr, size, access);
	return *mr ? 0 : -(errno ? errno : EIO);
}

int gd_gpu_mem_register(struct gd_gpu_mem *buf, struct ibv_pd *pd, int access,
			enum gd_gpu_reg mode, struct ibv_mr **mr, char *why, size_t why_len)
{
	char dmabuf_why[256] = "", peer_why[256] = "", local[520];
	int ret = -EINVAL;

	*mr = NULL;
	if (!why) {
		why = local;
		why_len = sizeof(local);
	}
	why[0] = '\0';
	if (buf->kind == GD_GPU_MEM_STAGING) {
		ret = reg_plain(buf->host, buf->size, pd, access, mr);
		if (!ret)
			buf->reg_used = GD_GPU_REG_HOST;
		else
			gd_error("ibv_reg_mr on the staging buffer: %s", strerror(-ret));
		return ret;
	}
	if (mode == GD_GPU_REG_AUTO || mode == GD_GPU_REG_DMABUF) {
		ret = reg_dmabuf(buf, pd, access, mr);
		if (!ret) {
			buf->reg_used = GD_GPU_REG_DMABUF;
			return 0;
		}
		gd_gpu_explain_dmabuf(buf->gpu->m, ret, dmabuf_why, sizeof(dmabuf_why));
	}
	if (mode == GD_GPU_REG_AUTO || mode == GD_GPU_REG_PEERMEM) {
		ret = reg_plain((void *)(uintptr_t)buf->dptr, buf->size, pd, access, mr);
		if (!ret) {
			buf->reg_used = GD_GPU_REG_PEERMEM;
			if (dmabuf_why[0])
				gd_info("registered GPU memory through peer memory (%s)", dmabuf_why);
			return 0;
		}
		gd_gpu_explain_peermem(buf->gpu->m, ret, peer_why, sizeof(peer_why));
	}
	snprintf(why, why_len, "%s%s%s", dmabuf_why, dmabuf_why[0] && peer_why[0] ? "; " : "",
		 peer_why);
	gd_error("cannot register GPU memory of GPU %d (%s) for RDMA: %s; run gd_doctor for details%s",
		 buf->gpu->info.index, buf->gpu->info.pci, why,
		 mode == GD_GPU_REG_DMABUF ? " (--use_cuda_dmabuf allows dma-buf only)" : "");
	return ret;
}
