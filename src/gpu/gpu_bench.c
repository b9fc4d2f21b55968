/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The benchmark engine's GPU backend: struct gd_buf (src/mem.h) over the GPU
 * memory core (gpu_mem.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "bench_params.h"
#include "choose.h"
#include "gpu_mem.h"
#include "jsonout.h"
#include "log.h"
#include "mem.h"

#define CHUNK ((size_t)4 << 20)

struct gpu_priv {
	struct gd_gpu gpu;
	struct gd_gpu_mem mem;
	enum gd_gpu_reg mode;
	char nic[64];
};

/* The NIC the run uses: the engine's device rule (choose.h). */
static void nic_of(const struct gd_bench_params *p, struct gd_gpu_select *sel)
{
	struct gd_hca hca;

	if (gd_dev_choose(&p->machine, p->dev, p->ib_port, &hca) == 0) {
		snprintf(sel->nic_name, sizeof(sel->nic_name), "%s", hca.name);
		snprintf(sel->nic_pci, sizeof(sel->nic_pci), "%s", hca.pci_addr);
	}
	gd_rdma_free_hca(&hca);
}

static void select_of(const struct gd_bench_params *p, struct gd_gpu_select *sel)
{
	memset(sel, 0, sizeof(*sel));
	sel->m = &p->machine;
	nic_of(p, sel);
	if (p->cuda_bus_id[0]) {
		sel->by = GD_GPU_BY_BUS_ID;
		snprintf(sel->bus_id, sizeof(sel->bus_id), "%s", p->cuda_bus_id);
	} else if (p->use_cuda == GD_CUDA_AUTO) {
		sel->by = GD_GPU_AUTO;
	} else {
		sel->by = GD_GPU_BY_INDEX;
		sel->index = p->use_cuda >= 0 ? p->use_cuda : 0;
	}
}

int gd_gpu_buf_alloc(struct gd_buf *b, size_t length, const struct gd_bench_params *p)
{
	struct gd_gpu_select sel;
	struct gpu_priv *g = calloc(1, sizeof(*g));
	int ret;

	if (!g)
		return -ENOMEM;
	select_of(p, &sel);
	snprintf(g->nic, sizeof(g->nic), "%s", sel.nic_name);
	g->mode = p->cuda_dmabuf ? GD_GPU_REG_DMABUF : GD_GPU_REG_AUTO;
	ret = gd_gpu_open(&sel, &g->gpu);
	if (ret) {
		free(g);
		return ret;
	}
	if (sel.nic_pci[0] && !g->gpu.path_class[0])
		gd_gpu_set_nic(&g->gpu, sel.nic_pci);
	ret = gd_gpu_mem_alloc(&g->gpu, length,
			       p->gpu_staging ? GD_GPU_MEM_STAGING : GD_GPU_MEM_DEVICE, &g->mem);
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

int gd_gpu_buf_register(struct gd_buf *b, struct ibv_pd *pd, int access)
{
	struct gpu_priv *g = b->priv;

	if (!g)
		return -EINVAL;
	return gd_gpu_mem_register(&g->mem, pd, access, g->mode, &b->mr, NULL, 0);
}

void gd_gpu_buf_free(struct gd_buf *b)
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

int gd_gpu_buf_fill(struct gd_buf *b, size_t off, size_t len, uint64_t off0)
{
	struct gpu_priv *g = b->priv;
	uint8_t *tmp = malloc(len < CHUNK ? (len ? len : 1) : CHUNK);
	int ret = 0;

	if (!tmp)
		return -ENOMEM;
	for (size_t done = 0; done < len && !ret;) {
		size_t n = len - done < CHUNK ? len - done : CHUNK;

		gd_pattern_fill(tmp, n, off0 + done);
		ret = gd_gpu_mem_write(&g->mem, off + done, tmp, n);
		done += n;
	}
	free(tmp);
	return ret;
}

int gd_gpu_buf_verify(const struct gd_buf *b, size_t off, size_t len, uint64_t off0, size_t *bad)
{
	const struct gpu_priv *g = b->priv;
	uint8_t *tmp = malloc(len < CHUNK ? (len ? len : 1) : CHUNK);
	int ret = 0;

	if (!tmp)
		return -ENOMEM;
	for (size_t done = 0; done < len && !ret;) {
		size_t n = len - done < CHUNK ? len - done : CHUNK;

		size_t i;

		ret = gd_gpu_mem_read(&g->mem, off + done, tmp, n);
		if (!ret && (i = gd_pattern_check(tmp, n, off0 + done)) < n) {
			*bad = done + i;
			ret = -EBADMSG;
		}
		done += n;
	}
	free(tmp);
	return ret;
}

int gd_gpu_buf_read(const struct gd_buf *b, size_t off, void *dst, size_t len)
{
	const struct gpu_priv *g = b->priv;

	return g ? gd_gpu_mem_read(&g->mem, off, dst, len) : -EINVAL;
}

int gd_gpu_buf_write(struct gd_buf *b, size_t off, const void *src, size_t len)
{
	struct gpu_priv *g = b->priv;

	return g ? gd_gpu_mem_write(&g->mem, off, src, len) : -EINVAL;
}

const struct gd_gpu *gd_gpu_buf_gpu(const struct gd_buf *b)
{
	const struct gpu_priv *g = b->priv;

	return g ? &g->gpu : NULL;
}

int gd_gpu_buf_describe(const struct gd_buf *b, char *out, size_t len)
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

void gd_gpu_buf_json(const struct gd_buf *b, void *json_record)
{
	const struct gpu_priv *g = b->priv;
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
	gd_json_add_str(o, "registration", gd_gpu_reg_str(g->mem.reg_used));
	gd_json_add_str(o, "selected_by", g->gpu.why);
	json_object_object_add((json_object *)json_record, "gpu", o);
}
