/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "host_limits.h"

#include <unistd.h>

uint32_t gd_host_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (uint32_t)n : 1;
}

uint64_t gd_host_mem_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

uint32_t gd_host_threads_max(void)
{
	uint32_t n = 4 * gd_host_cpus();

	return n < 64 ? 64 : n;
}

uint64_t gd_host_mem_max(void)
{
	uint64_t m = gd_host_mem_bytes();

	return m ? m / 2 : UINT64_MAX;
}
