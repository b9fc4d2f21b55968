/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What this host can give a run, asked before anything is taken (threads,
 * memory): the option checks compute what a run needs and refuse it with the
 * limit named instead of failing, hanging or being OOM-killed half-way.
 */
#ifndef GD_HOST_LIMITS_H
#define GD_HOST_LIMITS_H

#include <stdint.h>

/* Online CPUs (at least 1). */
uint32_t gd_host_cpus(void);
/* Physical memory in bytes (0 when unknown: no check). */
uint64_t gd_host_mem_bytes(void);

/* Host producer threads one run may start: 4 per online CPU, at least 64. */
uint32_t gd_host_threads_max(void);
/* Memory one run may take for its buffers, rings and queues: half of the
 * physical memory (UINT64_MAX when unknown). */
uint64_t gd_host_mem_max(void);

#endif
