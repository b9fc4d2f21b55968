/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * GPU memory as a buffer backend of the benchmark engine (mem.h):
 * --use_cuda=N|auto / --use_cuda_bus_id pick the GPU (auto: nearest the
 * run's NIC), --use_cuda_dmabuf restricts registration to dma-buf.
 *   gd_buf_cuda          cuMemAlloc device memory (GPUDirect), registered
 *                        through dma-buf then peer memory; copies through
 *                        the host for fill/verify
 *   gd_buf_cuda_staging  --gpu_staging: pinned host memory (cuMemAllocHost),
 *                        labelled as not GPUDirect
 * Both describe the GPU, its path class to the NIC and the registration
 * used (header text, JSON "gpu" object).
 */
#ifndef GD_GPU_BUF_H
#define GD_GPU_BUF_H

#include "mem.h"

extern const struct gd_buf_ops gd_buf_cuda;
extern const struct gd_buf_ops gd_buf_cuda_staging;

#endif
