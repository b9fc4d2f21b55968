/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Benchmark buffers: where the bytes live (host, hugepage, GPU) and their
 * memory region. One struct gd_buf per side; the engine carves it into
 * per-QP regions (see bench.c).
 *
 * The GPU backend is gpu_mem.h's gd_gpu_buf_*() (src/gpu/gpu_bench.c, always
 * built; without a CUDA driver they fail with -ENOENT/-ENODEV/-ENOSYS).
 */
#ifndef GD_MEM_H
#define GD_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "bench_params.h"
#include "pattern.h"

enum gd_buf_kind { GD_BUF_HOST = 0, GD_BUF_HUGEPAGE, GD_BUF_CUDA };

struct gd_buf {
	void *addr;
	size_t length;
	enum gd_buf_kind kind;
	struct ibv_mr *mr;
	int access;		/* what mr was registered with */
	int shmid;		/* hugepage segment, -1 otherwise */
	void *priv;		/* backend data (GPU context...) */
};

/* Allocate length bytes (rounded up to the page or hugepage size), zeroed. */
int gd_buf_alloc(struct gd_buf *b, enum gd_buf_kind kind, size_t length,
		 const struct gd_bench_params *p);
/* Register with exactly `access`. Returns 0 or -errno (message printed). */
int gd_buf_register(struct gd_buf *b, struct ibv_pd *pd, int access);
void gd_buf_free(struct gd_buf *b);

/* Write the payload pattern (pattern.h) at [off, off+len) of b, counting
 * offsets from `off0`. */
int gd_buf_fill(struct gd_buf *b, size_t off, size_t len, uint64_t off0);
/* Check it; on mismatch return -EBADMSG and set *bad to the first bad byte
 * (relative to off). */
int gd_buf_verify(const struct gd_buf *b, size_t off, size_t len, uint64_t off0, size_t *bad);
/* Copy bytes out of the buffer (host or GPU memory). */
int gd_buf_read(const struct gd_buf *b, size_t off, void *dst, size_t len);
/* Set / read a u64 in the buffer (atomic counters). */
int gd_buf_set_u64(struct gd_buf *b, size_t off, uint64_t v);
int gd_buf_get_u64(const struct gd_buf *b, size_t off, uint64_t *v);

/* Which side plays which part for these parameters. */
struct gd_mem_roles {
	bool initiator; /* posts the test's operations */
	bool target;    /* the peer's operations land in / read from my buffer */
	bool receiver;  /* posts receive WRs (send, write_with_imm) */
};
void gd_mem_roles(const struct gd_bench_params *p, struct gd_mem_roles *r);
/*
 * The MR access flags for this side: only the remote access the test needs
 * (write: REMOTE_WRITE, read: REMOTE_READ, atomic: REMOTE_ATOMIC, send: none)
 * and only when this side is a target; LOCAL_WRITE when the NIC writes into
 * the buffer (read/atomic initiator, receiver, any remote write/atomic target).
 */
int gd_mem_access(const struct gd_bench_params *p);
/* "LOCAL_WRITE|REMOTE_WRITE" for headers and JSON. */
const char *gd_mem_access_str(int access, char *buf, size_t len);
const char *gd_buf_kind_name(enum gd_buf_kind k);

#endif
