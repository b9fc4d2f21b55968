/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The libfabric fabric (HAVE_LIBFABRIC only): setup in fabric_ofi_ep.c, the
 * data path (gd_fabric_ofi, fabric.h) in fabric_ofi.c.
 *
 * Lifecycle (bench_ofi.c, the engine's setup table): gd_ofi_open (fi_getinfo with the test's caps, the
 * provider's mr_mode honoured, fabric, domain(s) with their CQs and AV) -> gd_ofi_reg (one
 * memory region per domain: FI_MR_LOCAL descriptors, FI_MR_VIRT_ADDR or offsets,
 * FI_MR_PROV_KEY keys, FI_HMEM for GPU memory) -> gd_ofi_create_eps (RDM:
 * one endpoint per QP; MSG: the server's passive endpoint, the client's
 * endpoints) -> gd_ofi_local_info (the blob: endpoint name, key, address) ->
 * side channel -> gd_ofi_connect per QP (RDM: fi_av_insert; MSG:
 * fi_connect / fi_accept, each within the deadline) -> gd_ofi_qp_run.
 * Errors print the provider, the cause and the fix, and return -errno:
 * -EINVAL (exit 2: no such provider, or it lacks what the test needs),
 * -ENOTSUP (exit 3: FI_HMEM without CUDA in the installed libfabric),
 * -ETIMEDOUT / -ECONNREFUSED (exit 1).
 */
#ifndef GD_FABRIC_OFI_H
#define GD_FABRIC_OFI_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "fabric_conn.h"
#include "fabric_op.h"
#include "fabric_opts.h"
#include "ops.h"

struct gd_ofi_cfg {
	const struct gd_fabric_opts *o;
	enum gd_bench_op op;
	bool alt;			/* with_imm / CMP_AND_SWAP */
	bool server;
	uint32_t nqp, tx_depth, rx_depth;
	/* threads that post and poll, or progress, this side's endpoints at once
	 * (the proxy's --proxy_threads on the initiating side and on the passive
	 * side of its bandwidth test, else 1; bench_ofi.c threads_of): each has a
	 * domain of its own (gd_ofi_dom_of), every domain FI_THREAD_DOMAIN */
	uint32_t threads;
	/* the initiating side's domains belong to the proxy's threads while its loops
	 * run (one thread or several), not to the thread that waits on the side
	 * channel: its waits leave them alone (gd_ofi_progress_tx) */
	bool threaded;
	bool hmem;			/* the buffers are GPU memory (gd_plan_hmem) */
	int cuda_device;
	uint32_t timeout_ms;
	uint32_t tclass;		/* --tclass (DSCP << 2): tx_attr->tclass FI_TC_DSCP, 0 = unspecified */
};

#define GD_OFI_INJECTED 64
struct gd_ofi_cq {
	struct fid_cq *cq;
	char err[512];			/* the last error completion, as the provider says it */
	/* signalled sends posted as FI_INJECT without a provider completion
	 * (fabric_ofi.c, ofi_post): complete when the call returns, their wr_ids
	 * handed out by the next poll before the provider's own */
	uint64_t injected[GD_OFI_INJECTED];
	unsigned inj_head, inj_tail;
	/* a signalled write longer than this is placed at the target before its
	 * transmit completion: it asks no FI_DELIVERY_COMPLETE (gd_ofi_placed_above) */
	uint64_t placed_above;
	/* completions read from the provider in one call and not handed out
	 * yet (ofi_poll: GD_OFI_POLL_CACHE a call, not the caller's batch) */
	struct fi_cq_data_entry *cache;
	unsigned cache_head, cache_n;
};

/* One libfabric domain and what lives in it: its endpoints' CQs, the AV their
 * peers' addresses are inserted in, and the buffer's registration there (the
 * descriptor its endpoints' requests carry, the key the peers of its
 * endpoints are sent). A side has one; the proxy's initiating side one per
 * proxy thread (gd_ofi_dom_of). */
struct gd_ofi_dom {
	struct fid_domain *domain;
	struct fid_av *av;
	struct gd_ofi_cq scq, rcq;
	struct fid_mr *mr;
	void *desc;
	uint64_t key;
};

/* A passive side's progress thread: it alone drives domain index while it runs
 * (gd_ofi_progress_start). */
struct gd_ofi_prog {
	struct gd_ofi *f;
	uint32_t index;
	pthread_t thread;
	bool started;
};

struct gd_ofi {
	struct gd_ofi_cfg cfg;
	struct fi_info *info;
	struct fid_fabric *fabric;
	struct gd_ofi_dom *dom;		/* ndom of them; dom[0] the only one but for the proxy */
	uint32_t ndom;
	struct fid_eq *eq;
	struct fid_pep *pep;
	struct fid_ep **ep;
	uint64_t *dest;			/* fi_addr_t per QP (RDM), in its domain's AV */
	uint64_t mr_base;
	bool virt_addr;
	size_t inject_size;
	size_t rx_size;			/* the provider's receive queue (rx_attr->size) */
	bool manual;			/* FI_PROGRESS_MANUAL: a waiting side must call gd_ofi_progress */
	uint64_t pace_ns, last_ns;	/* a passive side's progress: at most every pace_ns (0: always) */
	/* a passive side with several domains: a progress thread each while the
	 * run lasts (gd_ofi_progress_start/stop); nprog 0 when none runs */
	struct gd_ofi_prog *prog;
	uint32_t nprog;
	int prog_stop;			/* atomic: the threads end their loop */
	bool prog_stuck;		/* one did not end by its deadline: the domains stay open */
	struct sockaddr_storage self;	/* this side's address on the side channel */
	char prov[64], fabric_name[128], domain_name[128];
};

/* The most completions ofi_poll takes from the provider in one call */
#define GD_OFI_POLL_CACHE 1024
/* The most entries a CQ gets from the provider's queue sizes (gd_ofi_cq_depth) */
#define GD_OFI_CQ_MAX 16384
struct fi_info;
/* The size of every CQ of a side: -t and -r of every endpoint, raised to the
 * provider's transmit and receive queue sizes (fi_info's tx_attr, rx_attr)
 * up to GD_OFI_CQ_MAX: the one place that decides it. */
size_t gd_ofi_cq_depth(const struct gd_ofi_cfg *c, const struct fi_info *info);
/* The errno of a libfabric call that failed while a side set itself up (fi_fabric, fi_domain,
 * fi_cq_open, fi_av_open, fi_endpoint, fi_ep_bind, fi_enable, ...): the options were matched by
 * fi_getinfo already, so a refusal now is the provider's or the device's (-ENODEV: exit 3 by
 * gd_bench_setup_exit_code, as gd_check calls any run that could not start), e.g. fi_enable's
 * EINVAL where verbs;ofi_rxm cannot create its CQ on rxe; -ENOMEM for memory; -EADDRINUSE
 * (the port the user chose is taken: exit 2). */
int gd_ofi_setup_err(int fi_ret);
int gd_ofi_open(struct gd_ofi *f, const struct gd_ofi_cfg *c);
int gd_ofi_reg(struct gd_ofi *f, void *buf, size_t len);
int gd_ofi_create_eps(struct gd_ofi *f);
int gd_ofi_local_info(struct gd_ofi *f, uint32_t i, uint64_t target, struct gd_wire_conn *info);
int gd_ofi_connect(struct gd_ofi *f, uint32_t i, const struct gd_wire_conn *remote);
/* QP i's fabric fields of q: endpoint, CQ, descriptor, the peer's address and key. */
void gd_ofi_qp_run(struct gd_ofi *f, uint32_t i, struct gd_qp_run *q,
		   const struct gd_wire_conn *remote);
void gd_ofi_close(struct gd_ofi *f);
/* The domain endpoint i lives in: the domain of the thread that posts on it.
 * With several threads (the proxy's), endpoint i belongs to thread
 * i % threads (proxy.c gives QP i to that thread), and each thread posts
 * and polls only its own domain's objects (FI_THREAD_DOMAIN: one thread at a
 * time per domain, the providers' lock-free path): no thread's fi_cq_read
 * drives another's endpoints, and a CQ's queue of injected completions has
 * one writer. The one rule of the layout with gd_ofi_open's ndom. */
struct gd_ofi_dom *gd_ofi_dom_of(struct gd_ofi *f, uint32_t i);
/* The send CQ endpoint i is bound to: its domain's (gd_ofi_dom_of). */
struct gd_ofi_cq *gd_ofi_ep_scq(struct gd_ofi *f, uint32_t i);

/* Where one endpoint's requests go: the endpoint, its send CQ (progress while
 * the provider's queue is full), the local descriptor, the peer's address
 * and key. */
struct gd_ofi_target {
	void *ep, *cq, *desc;
	uint64_t dest, key;
	uint64_t placed_above;	/* gd_ofi_cq's; 0: every signalled write asks delivery */
	bool moderating;	/* the post's q->moderating (ops.h) */
};
struct ibv_send_wr;
/* Post n work requests in verbs form (ops.c's templates, the proxy's
 * chains through gd_fabric_ofi.post_wrs): opcode, SGE, remote address and key field
 * ignored (t->key), atomics' operands, immediate data; IBV_SEND_SIGNALED asks
 * for a completion with wr_id as its context, IBV_SEND_INLINE is FI_INJECT.
 * 0 or -FI_E* (nothing printed). */
ssize_t gd_ofi_post_wrs(const struct gd_ofi_target *t, const struct ibv_send_wr *wr, uint32_t n);
/* The libfabric flags gd_ofi_post_wrs posts one work request with (FI_COMPLETION,
 * FI_INJECT, FI_DELIVERY_COMPLETE, FI_TRANSMIT_COMPLETE): the one rule, fabric_ofi.c. */
uint64_t gd_ofi_post_flags(const struct gd_ofi_target *t, const struct ibv_send_wr *wr);
struct gd_qp_run;
/* The target of a QP the ofi fabric connected (gd_ofi_qp_run) */
struct gd_ofi_target gd_ofi_target_of(const struct gd_qp_run *q);
/* Drive the provider's progress on a passive side (reads and drops the
 * completions such a side never expects). */
void gd_ofi_progress(void *ofi);
/* The same on an active side while it waits between its loops: only the send
 * CQ, whose entries its loops have all taken. */
void gd_ofi_progress_tx(void *ofi);
/* A passive side with several domains (the peer's proxy threads): one thread
 * per domain drives that domain's progress (as gd_ofi_progress, paced alike),
 * and no other thread touches the domain until gd_ofi_progress_stop; from here
 * gd_ofi_progress reads no CQ. One domain: nothing to start (0). 0 or -errno
 * (printed; the threads started are stopped). */
int gd_ofi_progress_start(struct gd_ofi *f);
/* Ends and joins the progress threads, within a second (fabric_ofi_ep.c,
 * OFI_PROGRESS_JOIN_MS): 0, or -ETIMEDOUT when one is stuck inside the provider
 * (printed; the domains are then left open for the process's exit:
 * gd_ofi_close closes nothing). After it the caller's thread drives the
 * progress again (gd_ofi_progress). No threads: 0. */
int gd_ofi_progress_stop(struct gd_ofi *f);
/* How often the passive side of a bandwidth test of this message size
 * drives the provider's progress (gd_ofi_progress): sets f->pace_ns. */
void gd_ofi_pace_passive(struct gd_ofi *f, uint64_t size);
/* The length above which this fabric's transmit completion of a write
 * already means the bytes are placed at the target (UINT64_MAX: none). */
uint64_t gd_ofi_placed_above(const struct gd_ofi *f);

#endif
