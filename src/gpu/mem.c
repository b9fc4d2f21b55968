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

#define HUGEPAGE_SIZE (2u << 20)

static int alloc_host(struct gd_buf *b, size_t length, const struct gd_buf_spec *spec)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (length + page - 1) / page * page;
	void *p;
	int ret = posix_memalign(&p, page, len);

	(void)spec;
	if (ret) {
		gd_error("cannot allocate %zu bytes of host memory: %s", len, strerror(ret));
		return -ret;
	}
	memset(p, 0, len);
	b->addr = p;
	b->length = len;
	return 0;
}

static void free_host(struct gd_buf *b)
{
	free(b->addr);
}

static int alloc_hugepage(struct gd_buf *b, size_t length, const struct gd_buf_spec *spec)
{
	size_t len = (length + HUGEPAGE_SIZE - 1) / HUGEPAGE_SIZE * HUGEPAGE_SIZE;
	int id = shmget(IPC_PRIVATE, len, SHM_HUGETLB | IPC_CREAT | SHM_R | SHM_W);
	void *p;

	(void)spec;
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

static void free_hugepage(struct gd_buf *b)
{
	if (b->addr)
		shmdt(b->addr);
}

const struct gd_buf_ops gd_buf_host = {
	.name = "host", .host_visible = true, .alloc = alloc_host, .free = free_host,
};

const struct gd_buf_ops gd_buf_hugepage = {
	.name = "hugepage", .host_visible = true, .alloc = alloc_hugepage, .free = free_hugepage,
};

const char *gd_buf_name(const struct gd_buf *b)
{
	return b->ops ? b->ops->name : "?";
}

int gd_buf_alloc(struct gd_buf *b, const struct gd_buf_ops *ops, size_t length,
		 const struct gd_buf_spec *spec)
{
	struct gd_buf_spec none;

	memset(b, 0, sizeof(*b));
	b->ops = ops;
	b->shmid = -1;
	if (!spec) {
		memset(&none, 0, sizeof(none));
		none.cuda = GD_CUDA_NONE;
		spec = &none;
	}
	return ops->alloc(b, length, spec);
}

int gd_buf_register(struct gd_buf *b, struct ibv_pd *pd, int access)
{
	char acc[96];

	b->access = access;
	if (b->ops->reg)
		return b->ops->reg(b, pd, access);
	b->mr = ibv_reg_mr(pd, b->addr, b->length, access);
	if (!b->mr) {
		int err = errno ? errno : EINVAL;
		gd_error("cannot register %zu bytes of %s memory (access %s): %s%s", b->length,
			 gd_buf_name(b), gd_mem_access_str(access, acc, sizeof(acc)), strerror(err),
			 err == ENOMEM || err == EPERM ?
			 "; raise the locked-memory limit (ulimit -l unlimited)" : "");
		return -err;
	}
	return 0;
}

void gd_buf_free(struct gd_buf *b)
{
	if (!b->ops)
		return;
	if (b->mr && !b->ops->reg)
		ibv_dereg_mr(b->mr);
	b->mr = NULL;
	b->ops->free(b);
	b->addr = NULL;
}

static int range_ok(const struct gd_buf *b, size_t off, size_t len)
{
	if (!b->addr || off > b->length || len > b->length - off)
		return -ERANGE;
	return 0;
}

static int buf_write(struct gd_buf *b, size_t off, const void *src, size_t len)
{
	if (b->ops->host_visible) {
		memcpy((uint8_t *)b->addr + off, src, len);
		return 0;
	}
	return b->ops->write(b, off, src, len);
}

int gd_buf_read(const struct gd_buf *b, size_t off, void *dst, size_t len)
{
	if (range_ok(b, off, len))
		return -ERANGE;
	if (b->ops->host_visible) {
		memcpy(dst, (const uint8_t *)b->addr + off, len);
		return 0;
	}
	return b->ops->read(b, off, dst, len);
}

/* Memory the CPU cannot touch goes through a bounce buffer of CHUNK bytes. */
#define CHUNK ((size_t)4 << 20)

int gd_buf_fill(struct gd_buf *b, size_t off, size_t len, uint64_t off0)
{
	uint8_t *tmp;
	int ret = 0;

	if (range_ok(b, off, len))
		return -ERANGE;
	if (b->ops->host_visible) {
		gd_pattern_fill((uint8_t *)b->addr + off, len, off0);
		return 0;
	}
	tmp = malloc(len < CHUNK ? (len ? len : 1) : CHUNK);
	if (!tmp)
		return -ENOMEM;
	for (size_t done = 0; done < len && !ret;) {
		size_t n = len - done < CHUNK ? len - done : CHUNK;

		gd_pattern_fill(tmp, n, off0 + done);
		ret = buf_write(b, off + done, tmp, n);
		done += n;
	}
	free(tmp);
	return ret;
}

static size_t first_bad(const uint8_t *p, size_t n, uint64_t off0)
{
	return gd_pattern_check(p, n, off0);
}

int gd_buf_verify(const struct gd_buf *b, size_t off, size_t len, uint64_t off0, size_t *bad)
{
	uint8_t *tmp;
	int ret = 0;

	if (range_ok(b, off, len))
		return -ERANGE;
	if (b->ops->host_visible) {
		size_t i = first_bad((const uint8_t *)b->addr + off, len, off0);

		if (i < len)
			*bad = i;
		return i < len ? -EBADMSG : 0;
	}
	tmp = malloc(len < CHUNK ? (len ? len : 1) : CHUNK);
	if (!tmp)
		return -ENOMEM;
	for (size_t done = 0; done < len && !ret;) {
		size_t n = len - done < CHUNK ? len - done : CHUNK, i;

		ret = gd_buf_read(b, off + done, tmp, n);
		i = ret ? n : first_bad(tmp, n, off0 + done);
		if (i < n) {
			*bad = done + i;
			ret = -EBADMSG;
		}
		done += n;
	}
	free(tmp);
	return ret;
}

int gd_buf_set_u64(struct gd_buf *b, size_t off, uint64_t v)
{
	if (range_ok(b, off, 8))
		return -ERANGE;
	return buf_write(b, off, &v, 8);
}

int gd_buf_get_u64(const struct gd_buf *b, size_t off, uint64_t *v)
{
	return gd_buf_read(b, off, v, 8);
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
