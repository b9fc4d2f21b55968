/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host ranges mapped into the GPU, counted per range (see ibgda_hostmap.h). */
#include "ibgda_hostmap.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static struct gd_hostmap_ent *find(struct gd_hostmap *m, uintptr_t start)
{
	for (uint32_t i = 0; i < m->n; i++)
		if (m->e[i].refs && m->e[i].start == start)
			return &m->e[i];
	return NULL;
}

static int cu_fail(char *err, size_t errlen, const char *what, gd_cu_result r)
{
	char buf[200];

	snprintf(err, errlen, "%s: %s", what, gd_cuda_strerror(r, buf, sizeof(buf)));
	return gd_cuda_errno(r) ? gd_cuda_errno(r) : -EIO;
}

static struct gd_hostmap_ent *slot(struct gd_hostmap *m)
{
	for (uint32_t i = 0; i < m->n; i++)
		if (!m->e[i].refs)
			return &m->e[i];
	return m->n < GD_HOSTMAP_MAX ? &m->e[m->n++] : NULL;
}

int gd_hostmap_get(struct gd_hostmap *m, const struct gd_cuda_api *cu, void *start, size_t len,
		   unsigned int flags, const void *addr, uint64_t *dev, char *err, size_t errlen)
{
	uintptr_t s = (uintptr_t)start;
	struct gd_hostmap_ent *e = find(m, s);
	gd_cu_result r;

	if ((uintptr_t)addr < s || (uintptr_t)addr - s >= len) {
		snprintf(err, errlen, "address outside the range to map");
		return -EINVAL;
	}
	if (e) { /* another QP's UAR register in the same page */
		e->refs++;
		*dev = e->dev + ((uintptr_t)addr - s);
		return 0;
	}
	if (!cu || !cu->MemHostRegister || !cu->MemHostGetDevicePointer) {
		snprintf(err, errlen, "the CUDA driver lacks cuMemHostRegister_v2 or "
				      "cuMemHostGetDevicePointer_v2");
		return -ENOSYS;
	}
	if (!(e = slot(m))) {
		snprintf(err, errlen, "more than %d host ranges mapped", GD_HOSTMAP_MAX);
		return -ENOSPC;
	}
	memset(e, 0, sizeof(*e));
	r = cu->MemHostRegister(start, len, flags);
	if (r && r != GD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
		return cu_fail(err, errlen, "cuMemHostRegister", r);
	e->owned = r == GD_CU_SUCCESS;
	r = cu->MemHostGetDevicePointer(&e->dev, start, 0);
	if (r) {
		if (e->owned && cu->MemHostUnregister)
			cu->MemHostUnregister(start);
		return cu_fail(err, errlen, "cuMemHostGetDevicePointer", r);
	}
	e->start = s;
	e->len = len;
	e->refs = 1;
	*dev = e->dev + ((uintptr_t)addr - s);
	return 0;
}

int gd_hostmap_put(struct gd_hostmap *m, const struct gd_cuda_api *cu, void *start)
{
	struct gd_hostmap_ent *e = find(m, (uintptr_t)start);

	if (!e)
		return -ENOENT;
	if (--e->refs)
		return 0;
	if (e->owned && cu && cu->MemHostUnregister)
		cu->MemHostUnregister(start);
	memset(e, 0, sizeof(*e));
	return 0;
}

uint32_t gd_hostmap_refs(const struct gd_hostmap *m, const void *start)
{
	for (uint32_t i = 0; i < m->n; i++)
		if (m->e[i].refs && m->e[i].start == (uintptr_t)start)
			return m->e[i].refs;
	return 0;
}
