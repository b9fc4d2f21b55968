/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The CPU proxy: threads that read request descriptors from the rings
 * (ring.h) and post them through a transport (transport.h).
 *
 * Each proxy thread owns one ring and the QPs q with q % threads == its
 * index. Per pass it takes up to `batch` ready descriptors (1 MiB at most), groups them per
 * QP and posts each group as ONE chain (one doorbell) whose last WR is
 * signalled: every chain's, or with sig_every one chain's in sig_every
 * requests and the last before the ring runs dry (proxy.c chain_signalled),
 * polls completions in batches, publishes `done` (ring order) and returns
 * credits every `credit_batch` slots (or when the ring runs dry). No mutex:
 * every counter has one writer. A QP's send queue never holds more than
 * sq_depth WRs (a full queue ends the pass early; completions free it).
 *
 * Faults: a failed completion, a failed post or an invalid descriptor sets
 * the shared error word (first one wins) and the threads stop posting; a
 * QP with WRs in flight and no completion for timeout_ns sets
 * GD_ERR_TIMEOUT. gd_proxy_describe() turns the word into a message.
 */
#ifndef GD_PROXY_H
#define GD_PROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ring.h"
#include "transport.h"

/* Where ring memory comes from: host memory (default), or pinned host memory
 * mapped into the GPU plus GPU memory for the producers' head counters. */
enum gd_ring_where { GD_RING_SHARED = 0, GD_RING_PRODUCER = 1 };
struct gd_ring_mem {
	/* zeroed memory; *dev is the producers' address of it. Returns the
	 * proxy's address (may be NULL for GD_RING_PRODUCER), *dev NULL on failure */
	void *(*alloc)(void *ctx, size_t bytes, enum gd_ring_where where, void **dev);
	void (*free)(void *ctx, void *host, void *dev, enum gd_ring_where where);
	void *ctx;
};

#define GD_PROXY_MAX_QPS 256 /* QPs one proxy drives, all its threads together */
#define GD_PROXY_LINE 128    /* a cache line, a GPU-side line as well */

/* The ring memory of nthreads rings of slots descriptors (pinned host memory
 * when a GPU maps it), and that plus the producers' counters: what
 * gd_proxy_create() will allocate, for the option check to refuse up front. */
static inline uint64_t gd_proxy_shared_bytes(uint32_t nthreads, uint32_t slots)
{
	return (uint64_t)nthreads * ((uint64_t)GD_DESC_BYTES * slots + 2 * GD_PROXY_LINE) +
	       2 * GD_PROXY_LINE;
}

static inline uint64_t gd_proxy_ring_bytes(uint32_t nthreads, uint32_t slots)
{
	return gd_proxy_shared_bytes(nthreads, slots) + (uint64_t)nthreads * GD_PROXY_LINE;
}

struct gd_proxy_cfg {
	uint32_t nthreads;      /* proxy threads = rings, 1 .. GD_RING_MAX */
	uint32_t nqps;          /* nthreads .. GD_PROXY_MAX_QPS */
	uint32_t ring_slots;    /* per ring, a power of two >= 2 */
	uint32_t batch;         /* descriptors per pass (default 64) */
	uint32_t credit_batch;  /* credits returned every N slots (default slots / 8) */
	uint32_t sq_depth;      /* WRs in flight per QP */
	uint32_t sig_every;     /* a completion every N requests per QP (-Q); 0 or at most
				 * batch: every chain's last request */
	uint64_t timeout_ns;    /* producers' and proxy's deadline */
	const int *cores;       /* pin thread i to cores[i] (ncores >= nthreads), or NULL */
	uint32_t ncores;
	struct gd_transport *tp; /* transport.h (not owned) */
	const struct gd_ring_mem *mem; /* NULL: host memory */
};

struct gd_proxy_stats {
	uint64_t requests;     /* descriptors consumed */
	uint64_t chains;       /* post calls (doorbells) */
	uint64_t completions;  /* signalled completions polled */
	uint64_t polls;        /* poll calls that returned work */
};

struct gd_proxy;

/* Allocate the rings (nothing runs yet). NULL with a message on failure. */
struct gd_proxy *gd_proxy_create(const struct gd_proxy_cfg *cfg);
/* Start the threads. 0 or -errno. */
int gd_proxy_start(struct gd_proxy *px);
/* The producers' view of the rings (device addresses when mem maps them). */
void gd_proxy_ring_set(const struct gd_proxy *px, struct gd_ring_set *set);
/* Tell producers to give up (their next wait returns GD_RING_STOPPED). */
void gd_proxy_stop_producers(struct gd_proxy *px);
/* Stop and join the threads (after producers finished, or on a fault). */
/* 0, or -ETIMEDOUT when a thread did not stop within the deadline (said):
 * leave everything that thread may touch open (proxy.c says why) */
int gd_proxy_join(struct gd_proxy *px);
void gd_proxy_destroy(struct gd_proxy *px);

uint64_t gd_proxy_error(const struct gd_proxy *px);
void gd_proxy_get_stats(const struct gd_proxy *px, struct gd_proxy_stats *s);
/* "completion error on QP 0x000101 (index 1, RDMA write): remote access error (10)" */
void gd_proxy_describe(const struct gd_proxy *px, uint64_t err, char *buf, size_t len);
/* A completion error's most likely cause, as the run's fabric says it; NULL
 * for any other error word. */
const char *gd_proxy_hint(const struct gd_proxy *px, uint64_t err);
/* One line per thread: consumed, credit, done, WRs in flight per QP. */
void gd_proxy_dump(const struct gd_proxy *px, FILE *f);
/* A producer's failure record as a message with the ring indices. */
void gd_proxy_describe_fail(const struct gd_ring_fail *f, char *buf, size_t len);

/* "write", "read", "fetch-add"... for enum gd_desc_op */
const char *gd_desc_op_name(uint32_t op);

#endif
