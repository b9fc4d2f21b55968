/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The GPU buffer backends of the benchmark engine (struct gd_buf_ops,
 * src/gpu/mem.h) over the GPU memory core (gpu_mem.h): device memory
 * (GPUDirect) and pinned host staging.
 */
#include "gpu_buf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "gpu_mem.h"
#include "jsonout.h"
#include "log.h"
#include "sysfs.h"

struct gpu_priv {
	struct gd_gpu gpu;
	struct gd_gpu_mem mem;
	enum gd_gpu_reg mode;
	char nic[64];
	struct gd_machine machine;	/* gd_gpu keeps a pointer to it */
};

/* The GPU the spec names; the NIC is the device the engine opened (its
 * device rule), placed through the run's machine. */
static void select_of(const struct gd_buf_spec *spec, const struct gd_machine *m,
		      struct gd_gpu_select *sel)
{
	memset(sel, 0, sizeof(*sel));
	sel->m = m;
	snprintf(sel->nic_name, sizeof(sel->nic_name), "%s", spec->nic);
	if (sel->nic_name[0] &&
	    gd_sysfs_link_name(m, sel->nic_pci, sizeof(sel->nic_pci),
			       "/sys/class/infiniband/%s/device", sel->nic_name))
		sel->nic_pci[0] = '\0';
	if (spec->cuda_bus_id[0]) {
		sel->by = GD_GPU_BY_BUS_ID;
		snprintf(sel->bus_id, sizeof(sel->bus_id), "%s", spec->cuda_bus_id);
	} else if (spec->cuda == GD_CUDA_AUTO) {
		sel->by = GD_GPU_AUTO;
	} else {
		sel->by = GD_GPU_BY_INDEX;
		sel->index = spec->cuda >= 0 ? spec->cuda : 0;
	}
}

static int gpu_alloc(struct gd_buf *b, size_t length, const struct gd_buf_spec *spec,
		     enum gd_gpu_mem_kind kind)
{
	struct gd_gpu_select sel;
	struct gpu_priv *g = calloc(1, sizeof(*g));
	int ret;

	if (!g)
		return -ENOMEM;
	if (spec->m)
		g->machine = *spec->m;
	else
		gd_machine_live(&g->machine);
	select_of(spec, &g->machine, &sel);
	snprintf(g->nic, sizeof(g->nic), "%s", sel.nic_name);
	g->mode = spec->dmabuf ? GD_GPU_REG_DMABUF : GD_GPU_REG_AUTO;
	ret = gd_gpu_open(&sel, &g->gpu);
	if (ret == -ENOENT) /* no driver: the loader said so; the way round is the caller's */
		gd_error("GPU memory needs the CUDA driver: without it, run without --use_cuda "
			 "(host memory)");
	if (ret) {
		free(g);
		return ret;
	}
	if (sel.nic_pci[0] && !g->gpu.path_class[0])
		gd_gpu_set_nic(&g->gpu, sel.nic_pci);
	ret = gd_gpu_mem_alloc(&g->gpu, length, kind, &g->mem);
	if (!ret)
		ret = gd_gpu_mem_check_device(&g->mem);
	if (!ret)
		ret = gd_gpu_mem_memset(&g->mem, 0);
	if (ret) {
		gd_gpu_mem_free(&g->mem);
		gd_gpu_close(&g->gpu);
		free(g);
		return ret;
	}
	b->addr = gd_gpu_mem_addr(&g->mem);
	b->length = length;
	b->priv = g;
	return 0;
}

static int alloc_device(struct gd_buf *b, size_t length, const struct gd_buf_spec *spec)
{
	return gpu_alloc(b, length, spec, GD_GPU_MEM_DEVICE);
}

static int alloc_staging(struct gd_buf *b, size_t length, const struct gd_buf_spec *spec)
{
	return gpu_alloc(b, length, spec, GD_GPU_MEM_STAGING);
}

static int gpu_register(struct gd_buf *b, struct ibv_pd *pd, int access)
{
	struct gpu_priv *g = b->priv;

	if (!g)
		return -EINVAL;
	return gd_gpu_mem_register(&g->mem, pd, access, g->mode, &b->mr, NULL, 0);
}

static void gpu_free(struct gd_buf *b)
{
	struct gpu_priv *g = b->priv;

	if (b->mr)
		ibv_dereg_mr(b->mr);
	b->mr = NULL;
	if (!g)
		return;
	gd_gpu_mem_free(&g->mem);
	gd_gpu_close(&g->gpu);
	free(g);
	b->priv = NULL;
}

static int gpu_read(const struct gd_buf *b, size_t off, void *dst, size_t len)
{
	const struct gpu_priv *g = b->priv;

	return g ? gd_gpu_mem_read(&g->mem, off, dst, len) : -EINVAL;
}

static int gpu_write(struct gd_buf *b, size_t off, const void *src, size_t len)
{
	struct gpu_priv *g = b->priv;

	return g ? gd_gpu_mem_write(&g->mem, off, src, len) : -EINVAL;
}

static const char *gpu_path_class(const struct gd_buf *b)
{
	const struct gpu_priv *g = b->priv;

	return g ? g->gpu.path_class : "";
}

static const char *gpu_registration(const struct gd_buf *b, bool *staging)
{
	const struct gpu_priv *g = b->priv;

	*staging = g && g->mem.kind == GD_GPU_MEM_STAGING;
	return g ? gd_gpu_reg_str(g->mem.reg_used) : "none";
}

static int gpu_describe(const struct gd_buf *b, char *out, size_t len)
{
	const struct gpu_priv *g = b->priv;

	if (!g)
		return -EINVAL;
	snprintf(out, len, "GPU %d %s (%s%s%s%s%s), %s%s%s", g->gpu.info.index, g->gpu.info.name,
		 g->gpu.info.pci, g->gpu.path_class[0] ? ", " : "", g->gpu.path_class,
		 g->gpu.path_class[0] && g->nic[0] ? " to " : "", g->gpu.path_class[0] ? g->nic : "",
		 g->mem.kind == GD_GPU_MEM_STAGING ? "pinned host staging (not GPUDirect)" : "device memory",
		 g->mem.reg_used != GD_GPU_REG_NONE ? " via " : "",
		 g->mem.reg_used != GD_GPU_REG_NONE ? gd_gpu_reg_str(g->mem.reg_used) : "");
	return 0;
}

static int gpu_of(const struct gd_buf *b, char *pci, size_t len, bool *mps)
{
	const struct gpu_priv *g = b->priv;

	if (!g)
		return -EINVAL;
	snprintf(pci, len, "%s", g->gpu.info.pci);
	*mps = g->gpu.info.mps == 1; /* -1 (a driver without the attribute): not known to be */
	return 0;
}

static int cuda_device_of(const struct gd_buf *b)
{
	const struct gpu_priv *g = b->priv;

	return g ? g->gpu.info.index : -1;
}

static void gpu_json(const struct gd_buf *b, void *json_record)
{
	const struct gpu_priv *g = b->priv;
	bool staging;
	json_object *o;

	if (!g || !json_record)
		return;
	o = json_object_new_object();
	gd_json_add_int(o, "index", g->gpu.info.index);
	gd_json_add_str(o, "name", g->gpu.info.name);
	gd_json_add_str(o, "pci", g->gpu.info.pci);
	gd_json_add_int(o, "numa_node", g->gpu.numa_node);
	if (g->nic[0])
		gd_json_add_str(o, "nic", g->nic);
	if (g->gpu.path_class[0])
		gd_json_add_str(o, "path_class", g->gpu.path_class);
	gd_json_add_str(o, "memory", g->mem.kind == GD_GPU_MEM_STAGING ? "host_staging" : "device");
	gd_json_add_str(o, "registration", gpu_registration(b, &staging));
	gd_json_add_str(o, "selected_by", g->gpu.why);
	json_object_object_add((json_object *)json_record, "gpu", o);
}

/* Staging is pinned host memory: the CPU touches it directly. */
const struct gd_buf_ops gd_buf_cuda = {
	.name = "cuda", .alloc = alloc_device, .reg = gpu_register, .free = gpu_free,
	.write = gpu_write, .read = gpu_read, .describe = gpu_describe, .json = gpu_json,
	.path_class = gpu_path_class, .registration = gpu_registration, .gpu = gpu_of,
	.cuda_device = cuda_device_of,
};

const struct gd_buf_ops gd_buf_cuda_staging = {
	.name = "cuda", .host_visible = true, .alloc = alloc_staging, .reg = gpu_register,
	.free = gpu_free, .write = gpu_write, .read = gpu_read, .describe = gpu_describe,
	.json = gpu_json, .path_class = gpu_path_class, .registration = gpu_registration,
};
