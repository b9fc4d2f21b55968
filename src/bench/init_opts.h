/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Who issues the operations of a benchmark (--initiator) and in what shape.
 * Parameters of every benchmark (they go over the wire), shared by the proxy
 * mode (src/initiator/proxy) and the IBGDA mode (src/initiator/ibgda):
 *
 *   cpu          the CPU posts work requests itself (the default, perftest's way)
 *   proxy        producers (GPU threads, or host threads without a GPU) write
 *                request descriptors into rings in pinned host memory; CPU
 *                proxy threads post them (IBRC-proxy, ring.h / proxy.h)
 *   ibgda        GPU threads write mlx5 WQEs and ring the doorbell themselves
 *   ibgda-cpudb  GPU threads write WQEs, a CPU thread rings the doorbell
 *
 * The shape (options of every benchmark tool):
 *   --ctas N --threads N     the producer grid: N CTAs of N threads (host
 *                            producers: one host thread per CTA)
 *   --scope thread|warp|block  who issues one reservation: each thread, each
 *                            warp (32 descriptors per system fence), or each
 *                            CTA
 *   --proxy_threads N        proxy threads, one ring each (proxy mode)
 *   --ring_slots N           slots per ring, a power of two
 *   --producer gpu|host      proxy: the CUDA producer kernel or host threads
 *                            (default: gpu when CUDA finds a device)
 *   --pin_cores LIST         (the tools' own option) one proxy thread per core
 *   --ibgda_nic devx|software-test-double  IBGDA: the queue backend, a
 *                            ConnectX (default) or the software NIC test
 *                            double; without the option the tools take the
 *                            environment's variable, read by the tool
 *                            prologue (tools/bench_tool.h) and handed down
 *
 * Kernel launch convention (proxy and IBGDA kernels alike): grid = ctas,
 * block = threads; group g = the g-th scope unit in launch order (thread:
 * blockIdx.x * threads + threadIdx.x; warp: that / 32; block: blockIdx.x)
 * issues on channel g; a channel picks QP channel % QPs.
 */
#ifndef GD_INIT_OPTS_H
#define GD_INIT_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opts.h"

enum gd_initiator { GD_INIT_CPU = 0, GD_INIT_PROXY, GD_INIT_IBGDA, GD_INIT_IBGDA_CPUDB, GD_INIT_COUNT };
enum gd_scope { GD_SCOPE_THREAD = 0, GD_SCOPE_WARP, GD_SCOPE_BLOCK, GD_SCOPE_COUNT };
/* --producer (proxy): auto = the CUDA kernel when CUDA finds a device, else host threads */
enum gd_producer { GD_PRODUCER_AUTO = 0, GD_PRODUCER_GPU, GD_PRODUCER_HOST, GD_PRODUCER_COUNT };
/* --ibgda_nic (IBGDA): a ConnectX through mlx5 DEVX, or the software NIC test double */
enum gd_ibgda_nic_kind { GD_IBGDA_NIC_DEVX = 0, GD_IBGDA_NIC_SWNIC, GD_IBGDA_NIC_COUNT };

#define GD_INIT_DEF_CTAS 1
#define GD_INIT_DEF_THREADS 32
#define GD_INIT_DEF_PROXY_THREADS 1
#define GD_INIT_DEF_RING_SLOTS 1024
#define GD_INIT_MAX_THREADS 1024 /* per CTA, CUDA's limit */
#define GD_INIT_MAX_CTAS 65535
#define GD_INIT_MAX_PROXY_THREADS 32
#define GD_INIT_MAX_RING_SLOTS (1u << 24)
#define GD_INIT_MAX_DUMP_WQES (1u << 20)

/* Which shape options the user gave (for conflict messages). */
enum { GD_INIT_GIVEN_CTAS = 1, GD_INIT_GIVEN_THREADS = 2, GD_INIT_GIVEN_SCOPE = 4,
       GD_INIT_GIVEN_PROXY_THREADS = 8, GD_INIT_GIVEN_RING_SLOTS = 16,
       GD_INIT_GIVEN_PRODUCER = 32, GD_INIT_GIVEN_IBGDA_NIC = 64 };

struct gd_init_opts {
	enum gd_initiator initiator;
	enum gd_scope scope;
	enum gd_producer producer; /* --producer (proxy) */
	enum gd_ibgda_nic_kind ibgda_nic; /* --ibgda_nic (IBGDA) */
	uint32_t ctas;
	uint32_t threads;       /* per CTA */
	uint32_t proxy_threads;
	uint32_t ring_slots;
	uint32_t given;
	bool ibgda_fallback;    /* --ibgda_fallback: ibgda may become ibgda-cpudb */
	uint32_t dump_wqes;     /* --dump_wqes N: print the first N WQEs decoded */
};

void gd_init_opts_defaults(struct gd_init_opts *o);
const char *gd_initiator_name(enum gd_initiator i); /* "cpu", "proxy", "ibgda", "ibgda-cpudb" */
/* The initiators' names in enum order, NULL-terminated: --initiator's values,
 * and gd_check's initiator: and expect: initiator: keys. */
extern const char *const gd_initiator_names[];
const char *gd_scope_name(enum gd_scope s);         /* "thread", "warp", "block" */
const char *gd_producer_name(enum gd_producer p);   /* "auto", "gpu", "host" */
const char *gd_ibgda_nic_name(enum gd_ibgda_nic_kind k); /* "devx", "software-test-double" */
/* IBGDA: a CPU thread rings the doorbell (ibgda-cpudb), not the GPU; the
 * setter is --ibgda_fallback's, which turns ibgda into ibgda-cpudb */
bool gd_init_cpu_doorbell(const struct gd_init_opts *o);
void gd_init_set_cpu_doorbell(struct gd_init_opts *o);

/* The producer a report names when no GPU produces (proxy host producers). */
#define GD_HOST_PRODUCER_LABEL "host producer (no GPU)"

/*
 * The initiator table (struct gd_initiator_ops, loop.h: one entry per
 * --initiator) is owned by src/initiator/, a floor above the engine: the tool
 * prologue hands it over (gd_initiator_tool_prologue, initiator.h) and the
 * engine asks it through gd_init_ops. A program that hands none (unit tests,
 * fuzzers) runs the CPU initiator only; gd_init_opts_check refuses the others.
 */
struct gd_initiator_ops;
void gd_init_use_table(const struct gd_initiator_ops *const *table);
/* o's entry, or NULL when no table was handed over */
const struct gd_initiator_ops *gd_init_ops(const struct gd_init_opts *o);

/* The option table fragment (ids GD_INIT_OPT_BASE ..) and its handler:
 * returns 0, -errno after a message, or 1 when id is not one of these. */
#define GD_INIT_OPT_BASE 900
/* the rows' ids, in this order (tests count from GD_INIT_OPT_BASE) */
enum { GD_INIT_O_INITIATOR = GD_INIT_OPT_BASE, GD_INIT_O_CTAS, GD_INIT_O_THREADS,
       GD_INIT_O_SCOPE, GD_INIT_O_PROXY_THREADS, GD_INIT_O_RING_SLOTS, GD_INIT_O_IBGDA_FALLBACK,
       GD_INIT_O_DUMP_WQES, GD_INIT_O_PRODUCER, GD_INIT_O_IBGDA_NIC };
extern const struct gd_opt gd_initiator_opts[];
extern const struct gd_opt_words gd_initiator_opt_words[]; /* its choices' words */
struct gd_bench_params;
/* Sets p->init through the parameter list (bench_params.h: the ranges and words);
 * defined with the bench options (bench_opts.c), which ask the list, so that
 * the list's names of the initiators (this file's) and the list do not call
 * each other. */
int gd_init_opts_handle(struct gd_bench_params *p, int id, const char *arg);
/* Checks that need all options: 0 or -EINVAL after a message. */
int gd_init_opts_check(const struct gd_init_opts *o);
/* The environment variable the benchmark tools take --ibgda_nic's default
 * from; the tool prologue (tools/bench_tool.h) reads it, not the library. */
#define GD_IBGDA_NIC_ENV "GDPERF_IBGDA_NIC"
/* The default the tool hands down: its value (NULL or "": devx) and where it
 * came from (the variable's name, for messages). */
void gd_init_opts_set_nic_default(const char *value, const char *from);
/* With an IBGDA initiator and no --ibgda_nic, the default handed down.
 * Called by the option parser only (gd_bench_parse). 0, or -EINVAL after a
 * message naming both values. */
int gd_init_opts_env_default(struct gd_init_opts *o);

/* Descriptors one reservation takes for this scope (1, 32, or threads). */
uint32_t gd_init_group_size(const struct gd_init_opts *o);
/* Issuing groups in the grid: ctas * threads / group size. */
uint32_t gd_init_groups(const struct gd_init_opts *o);

/* The JSON fields of the initiator, added to obj (a json_object):
 * "initiator", "producer", "scope", "ctas", "threads", "proxy_threads",
 * "ring_slots", "ibgda_nic", "qps". producer: a GPU's name or GD_HOST_PRODUCER_LABEL. */
struct json_object;
void gd_init_opts_to_json(const struct gd_init_opts *o, const char *producer, uint32_t qps,
			  struct json_object *obj);
/* The header line: " Initiator : proxy, producer host producer (no GPU), scope warp,
 * 1 CTAs x 32 threads, 1 proxy threads, 1024 ring slots, 1 QPs" (IBGDA: "..., 1 QPs,
 * NIC software-test-double"); false (buf "cpu")
 * for the CPU initiator, which the header does not name. */
bool gd_init_opts_header(const struct gd_init_opts *o, const char *producer, uint32_t qps,
			 char *buf, size_t len);

#endif
