/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * REAL-CONNECTX-ONLY CODE. Everything past the "is it mlx5" test in this
 * file talks to a live mlx5 device through DEVX (rdma-core's mlx5dv) and to
 * the CUDA driver; none of it can run on this workplace (no ConnectX) and it
 * is NOT verified. The decisions it feeds (ibgda_probe.c), the command
 * images (mlx5_cmd.c) and the protocol (ibgda_dev.h) are unit-tested.
 *
 * gd_ibgda_probe_facts tries each step on a scratch context: DEVX open, HCA
 * caps, 64 KiB of GPU memory as dma-buf umem then legacy umem, host memory
 * umem, a UAR, and the UAR mapped into the GPU (cuMemHostRegister with the
 * I/O-memory flag, looked up in the already loaded libcuda).
 */
#include "ibgda_devx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "cuda.h"
#include "gdr_env.h"
#include "mlx5_cmd.h"
#include "sysfs.h"

#define SCRATCH (64u << 10)
#define CU_HOSTREGISTER_PORTABLE_MAPPED_IOMEMORY                                            \
	(GD_CU_MEMHOSTREGISTER_PORTABLE | GD_CU_MEMHOSTREGISTER_DEVICEMAP |                  \
	 GD_CU_MEMHOSTREGISTER_IOMEMORY)

int gd_devx_cmd(struct ibv_context *ctx, const void *in, size_t inlen, void *out, size_t outlen,
		char *err, size_t errlen)
{
	int rc = mlx5dv_devx_general_cmd(ctx, in, inlen, out, outlen);

	if (rc && err)
		snprintf(err, errlen, "%s (status 0x%x, syndrome 0x%x)",
			 strerror(rc > 0 ? rc : errno),
			 (unsigned)gd_prm_get(out, GD_F(CMD_OUT, STATUS)),
			 (unsigned)gd_prm_get(out, GD_F(CMD_OUT, SYNDROME)));
	return rc;
}

static void caps(struct ibv_context *ctx, struct gd_ibgda_facts *f)
{
	uint8_t in[GD_PRM_BYTES(QUERY_HCA_CAP_IN)];
	static uint8_t out[GD_PRM_BYTES(QUERY_HCA_CAP_OUT)];
	const uint8_t *cap = GD_PRM_SUB(out, QUERY_HCA_CAP_OUT, CAPABILITY);

	gd_cmd_query_hca_cap(in, GD_PRM_HCA_CAP_GENERAL);
	if (!gd_devx_cmd(ctx, in, sizeof(in), out, sizeof(out), NULL, 0))
		f->cqe_version = (int)gd_prm_get(cap, GD_F(HCA_CAP, CQE_VERSION));
	gd_cmd_query_hca_cap(in, GD_PRM_HCA_CAP_ATOMIC);
	if (!gd_devx_cmd(ctx, in, sizeof(in), out, sizeof(out), NULL, 0)) {
		uint32_t ops = (uint32_t)gd_prm_get(cap, GD_F(ATOMIC_CAPS, ATOMIC_OPERATIONS));
		uint32_t size = (uint32_t)gd_prm_get(cap, GD_F(ATOMIC_CAPS, ATOMIC_SIZE_QP));

		/* CAS, FA, masked CAS, masked FA; 4- and 8-byte operands */
		f->atomics = (ops & 0xf) == 0xf && (size & 0xc) == 0xc;
		/* PRM: 0 big endian, 1 host endianness */
		f->atomic_be = gd_prm_get(cap, GD_F(ATOMIC_CAPS, ATOMIC_REQ_8B_ENDIANNESS_MODE)) == 0;
	}
}

static int umem_try(struct ibv_context *ctx, void *addr, int dmabuf_fd)
{
	struct mlx5dv_devx_umem *u;

	errno = 0;
	if (dmabuf_fd >= 0) {
		struct mlx5dv_devx_umem_in in = {.addr = 0,
						 .size = SCRATCH,
						 .access = IBV_ACCESS_LOCAL_WRITE,
						 .pgsz_bitmap =
							 ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1),
						 .comp_mask = MLX5DV_UMEM_MASK_DMABUF,
						 .dmabuf_fd = dmabuf_fd};
		u = mlx5dv_devx_umem_reg_ex(ctx, &in);
	} else {
		u = mlx5dv_devx_umem_reg(ctx, addr, SCRATCH, IBV_ACCESS_LOCAL_WRITE);
	}
	if (!u)
		return errno ? errno : EINVAL;
	mlx5dv_devx_umem_dereg(u);
	return 0;
}

static void gpu_steps(struct ibv_context *ctx, int ordinal, struct gd_ibgda_facts *f)
{
	const struct gd_cuda_api *cu;
	gd_cu_device dev;
	gd_cu_context cctx;
	gd_cu_ptr p = 0;
	int fd = -1;

	if (gd_cuda_load(true) || !(cu = gd_cuda()) || cu->DeviceGet(&dev, ordinal) ||
	    cu->DevicePrimaryCtxRetain(&cctx, dev) || cu->CtxSetCurrent(cctx)) {
		snprintf(f->cuda_err, sizeof(f->cuda_err), "CUDA driver or GPU %d unavailable (%s)",
			 ordinal, gd_cuda_load_error() ? gd_cuda_load_error() : "no device");
		f->cuda = 0;
		return;
	}
	f->cuda = 1;
	cu->DeviceGetAttribute(&f->dmabuf_attr, GD_CU_ATTR_DMA_BUF_SUPPORTED, dev);
	if (!cu->MemAlloc(&p, 2 * SCRATCH)) {
		gd_cu_ptr a = (p + SCRATCH - 1) & ~(gd_cu_ptr)(SCRATCH - 1);

		if (cu->MemGetHandleForAddressRange &&
		    !cu->MemGetHandleForAddressRange(&fd, a, SCRATCH,
						     GD_CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0)) {
			f->dmabuf_umem_err = umem_try(ctx, NULL, fd);
			close(fd);
		} else {
			f->dmabuf_umem_err = EOPNOTSUPP;
		}
		f->legacy_umem_err = umem_try(ctx, (void *)(uintptr_t)a, -1);
		cu->MemFree(p);
	}
}

static void uar_steps(struct ibv_context *ctx, struct gd_ibgda_facts *f)
{
	const struct gd_cuda_api *cu = gd_cuda(); /* F12: GDPERF_LIBCUDA's library too */
	struct mlx5dv_devx_uar *uar;

	errno = 0;
	uar = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	f->uar_err = uar ? 0 : (errno ? errno : ENOMEM);
	if (!uar || f->cuda != 1)
		goto out;
	if (cu && cu->MemHostRegister && cu->MemHostUnregister) {
		void *page = (void *)((uintptr_t)uar->reg_addr &
				      ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1));

		f->uar_gpu_map_err = cu->MemHostRegister(page, (size_t)sysconf(_SC_PAGESIZE),
							 CU_HOSTREGISTER_PORTABLE_MAPPED_IOMEMORY);
		if (!f->uar_gpu_map_err)
			cu->MemHostUnregister(page);
	}
out:
	if (uar)
		mlx5dv_devx_free_uar(uar);
}

/* Step 1 from sysfs and verbs: the device exists and is an mlx5 one. */
static struct ibv_device *find_dev(const char *name, struct ibv_device ***list)
{
	int n;

	*list = ibv_get_device_list(&n);
	for (int i = 0; *list && i < n; i++)
		if (!strcmp(ibv_get_device_name((*list)[i]), name))
			return (*list)[i];
	return NULL;
}

/* The RDMA device's driver for messages: the PCI driver ("mlx5_core",
 * "efa"), or the software driver over a netdev (rxe, siw: no PCI parent). */
static void driver_name(const struct gd_machine *m, const char *dev, char *buf, size_t len)
{
	char parent[64];

	if (!gd_sysfs_read_str(m, parent, sizeof(parent), "/sys/class/infiniband/%s/parent", dev)) {
		snprintf(buf, len, "%s over %s",
			 strncmp(dev, "siw", 3) ? "rdma_rxe (Soft-RoCE)" : "siw", parent);
		return;
	}
	if (gd_sysfs_link_name(m, buf, len, "/sys/class/infiniband/%s/device/driver", dev))
		buf[0] = 0;
}

void gd_ibgda_probe_facts(const struct gd_machine *m, const char *dev, int cuda_ordinal,
			  struct gd_ibgda_facts *f)
{
	struct mlx5dv_context_attr attr = {.flags = MLX5DV_CONTEXT_FLAGS_DEVX};
	struct ibv_device **list = NULL, *d;
	struct ibv_context *ctx;
	struct gd_peermem pm;
	struct gd_nv_params nv;
	void *host = NULL;

	memset(f, 0xff, sizeof(*f)); /* every int fact: -1, not tried */
	snprintf(f->dev, sizeof(f->dev), "%s", dev);
	f->cuda_err[0] = 0;
	driver_name(m, dev, f->driver, sizeof(f->driver));
	f->peermem = !gd_peermem_probe(m, &pm) && pm.state != GD_PEERMEM_ABSENT;
	f->regkey = !gd_nv_params_read(m, &nv) ? nv.peer_mapping_override == 1 : -1;
	d = find_dev(dev, &list);
	f->mlx5 = d ? mlx5dv_is_supported(d) : 0;
	if (!d && !f->driver[0])
		snprintf(f->driver, sizeof(f->driver), "%s", "no such RDMA device");
	if (f->mlx5 != 1)
		goto out;
	/* ---- real ConnectX from here on ---- */
	errno = 0;
	ctx = mlx5dv_open_device(d, &attr);
	f->devx_err = ctx ? 0 : (errno ? errno : EOPNOTSUPP);
	if (!ctx)
		goto out;
	caps(ctx, f);
	gpu_steps(ctx, cuda_ordinal, f);
	if (!posix_memalign(&host, SCRATCH, SCRATCH)) {
		f->host_umem_err = umem_try(ctx, host, -1);
		free(host);
	}
	uar_steps(ctx, f);
	ibv_close_device(ctx);
out:
	if (list)
		ibv_free_device_list(list);
}
