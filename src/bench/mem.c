/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "mem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "gd.h"
#include "log.h"

#include "gpu_mem.h"

#define HUGEPAGE_SIZE (2u << 20)

const char *gd_buf_kind_name(enum gd_buf_kind k)
{
	switch (k) {
	case GD_BUF_HOST: return "host";
	case GD_BUF_HUGEPAGE: return "hugepage";
	case GD_BUF_CUDA: return "cuda";
	}
	return "?";
}

static int alloc_host(struct gd_buf *b, size_t length)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (length + page - 1) / page * page;
	void *p;
	int ret = posix_memalign(&p, page, len);

	if (ret) {
		gd_error("cannot allocate %zu bytes of host memory: %s", len, strerror(ret));
		return -ret;
	}
	memset(p, 0, len);
	b->addr = p;
	b->length = len;
	return 0;
}

static int alloc_hugepage(struct gd_buf *b, size_t length)
{
	size_t len = (length + HUGEPAGE_SIZE - 1) / HUGEPAGE_SIZE * HUGEPAGE_SIZE;
	int id = shmget(IPC_PRIVATE, len, SHM_HUGETLB | IPC_CREAT | SHM_R | SHM_W);
	void *p;

	if (id < 0) {
		int err = errno;
		gd_error("cannot allocate %zu bytes of hugepage memory: %s; reserve 2 MiB pages "
			 "(echo N > /proc/sys/vm/nr_hugepages) or drop --use_hugepages",
			 len, strerror(err));
		return -err;
	}
	p = shmat(id, NULL, 0);
	/* mark for removal now: it goes away when detached, even on a crash */
	shmctl(id, IPC_RMID, NULL);
	if (p == (void *)-1) {
		int err = errno;
		gd_error("cannot attach the hugepage segment: %s", strerror(err));
		return -err;
	}
	memset(p, 0, len);
	b->addr = p;
	b->length = len;
	b->shmid = id;
	return 0;
}

int gd_buf_alloc(struct gd_buf *b, enum gd_buf_kind kind, size_t length,
		 const struct gd_bench_params *p)
{
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->shmid = -1;
	switch (kind) {
	case GD_BUF_HOST:
		return alloc_host(b, length);
	case GD_BUF_HUGEPAGE:
		return alloc_hugepage(b, length);
	case GD_BUF_CUDA:
		return gd_gpu_buf_alloc(b, length, p);
	}
	return -EINVAL;
}

int gd_buf_register(struct gd_buf *b, struct ibv_pd *pd, int access)
{
	char acc[96];

	b->access = access;
	if (b->kind == GD_BUF_CUDA)
		return gd_gpu_buf_register(b, pd, access);
	b->mr = ibv_reg_mr(pd, b->addr, b->length, access);
	if (!b->mr) {
		int err = errno ? errno : EINVAL;
		gd_error("cannot register %zu bytes of %s memory (access %s): %s%s", b->length,
			 gd_buf_kind_name(b->kind), gd_mem_access_str(access, acc, sizeof(acc)),
			 strerror(err),
			 err == ENOMEM || err == EPERM ?
			 "; raise the locked-memory limit (ulimit -l unlimited)" : "");
		return -err;
	}
	return 0;
}

void gd_buf_free(struct gd_buf *b)
{
	if (b->mr && b->kind != GD_BUF_CUDA)
		ibv_dereg_mr(b->mr);
	switch (b->kind) {
	case GD_BUF_HOST:
		free(b->addr);
		break;
	case GD_BUF_HUGEPAGE:
		if (b->addr)
			shmdt(b->addr);
		break;
	case GD_BUF_CUDA:
		gd_gpu_buf_free(b);
		break;
	}
	b->mr = NULL;
	b->addr = NULL;
}

static int range_ok(const struct gd_buf *b, size_t off, size_t len)
{
	if (!b->addr || off > b->length || len > b->length - off)
		return -ERANGE;
	return 0;
}

int gd_buf_fill(struct gd_buf *b, size_t off, size_t len, uint64_t off0)
{
	uint8_t *p;

	if (range_ok(b, off, len))
		return -ERANGE;
	if (b->kind == GD_BUF_CUDA)
		return gd_gpu_buf_fill(b, off, len, off0);
	p = (uint8_t *)b->addr + off;
	gd_pattern_fill(p, len, off0);
	return 0;
}

int gd_buf_verify(const struct gd_buf *b, size_t off, size_t len, uint64_t off0, size_t *bad)
{
	const uint8_t *p;

	if (range_ok(b, off, len))
		return -ERANGE;
	if (b->kind == GD_BUF_CUDA)
		return gd_gpu_buf_verify(b, off, len, off0, bad);
	p = (const uint8_t *)b->addr + off;
	*bad = gd_pattern_check(p, len, off0);
	return *bad < len ? -EBADMSG : 0;
}

int gd_buf_set_u64(struct gd_buf *b, size_t off, uint64_t v)
{
	if (range_ok(b, off, 8))
		return -ERANGE;
	if (b->kind == GD_BUF_CUDA)
		return gd_gpu_buf_write(b, off, &v, 8);
	memcpy((uint8_t *)b->addr + off, &v, 8);
	return 0;
}

int gd_buf_read(const struct gd_buf *b, size_t off, void *dst, size_t len)
{
	if (range_ok(b, off, len))
		return -ERANGE;
	if (b->kind == GD_BUF_CUDA)
		return gd_gpu_buf_read(b, off, dst, len);
	memcpy(dst, (const uint8_t *)b->addr + off, len);
	return 0;
}

int gd_buf_get_u64(const struct gd_buf *b, size_t off, uint64_t *v)
{
	return gd_buf_read(b, off, v, 8);
}

void gd_mem_roles(const struct gd_bench_params *p, struct gd_mem_roles *r)
{
	bool client = p->role == GD_ROLE_CLIENT;
	bool lat = p->kind == GD_KIND_LAT;
	/* ping-pong latency tests (write, send) have both sides initiate */
	bool pingpong = lat && (p->op == GD_OP_WRITE || p->op == GD_OP_SEND);
	bool both = p->bidirectional || pingpong;

	r->initiator = client || both;
	r->target = !client || both;
	r->receiver = r->target && gd_bench_uses_recv(p);
	if (p->op == GD_OP_SEND) /* a send has no remote buffer access, only receives */
		r->target = false;
}

int gd_mem_access(const struct gd_bench_params *p)
{
	struct gd_mem_roles r;
	int a = 0;
	bool client = p->role == GD_ROLE_CLIENT;
	bool lat = p->kind == GD_KIND_LAT;
	bool pingpong = lat && (p->op == GD_OP_WRITE || p->op == GD_OP_SEND);
	bool both = p->bidirectional || pingpong;

	gd_mem_roles(p, &r);
	switch (p->op) {
	case GD_OP_WRITE:
		if (r.target)
			a |= IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_LOCAL_WRITE;
		break;
	case GD_OP_READ:
		if (r.target)
			a |= IBV_ACCESS_REMOTE_READ;
		if (r.initiator)
			a |= IBV_ACCESS_LOCAL_WRITE; /* the read data lands here */
		break;
	case GD_OP_ATOMIC:
		if (r.target)
			a |= IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_LOCAL_WRITE;
		if (r.initiator)
			a |= IBV_ACCESS_LOCAL_WRITE; /* the fetched value lands here */
		break;
	case GD_OP_SEND:
		if (!client || both)
			a |= IBV_ACCESS_LOCAL_WRITE; /* receive buffers */
		break;
	default:
		break;
	}
	if (r.receiver)
		a |= IBV_ACCESS_LOCAL_WRITE;
	return a;
}

const char *gd_mem_access_str(int access, char *buf, size_t len)
{
	static const struct { int bit; const char *name; } names[] = {
		{ IBV_ACCESS_LOCAL_WRITE, "LOCAL_WRITE" },
		{ IBV_ACCESS_REMOTE_WRITE, "REMOTE_WRITE" },
		{ IBV_ACCESS_REMOTE_READ, "REMOTE_READ" },
		{ IBV_ACCESS_REMOTE_ATOMIC, "REMOTE_ATOMIC" },
	};
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (access & names[i].bit)
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? "|" : "",
				      names[i].name);
	if (!n)
		snprintf(buf, len, "none");
	return buf;
}
