/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The libfabric fabric's data path (fabric.h): the WR templates of ops.c
 * (addresses, rotation, CAS values) become fi_writemsg / fi_readmsg /
 * fi_sendmsg / fi_fetch_atomicmsg / fi_compare_atomicmsg; only the
 * signalled one asks for a completion (FI_SELECTIVE_COMPLETION), inline
 * ones are FI_INJECT; fi_cq_read fills the common completion, fi_cq_readerr
 * and fi_cq_strerror give a failed one in the provider's words.
 */
#include "config.h"

#include "fabric.h"
#include "fabric_ofi.h"
#include "ofi_lib.h"

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "clock.h"
#include "gd.h"
#include "log.h"

#define OFI_AGAIN_NS 5000000000ull /* a full provider queue that does not drain: give up */

/* Drive the provider's progress; count 0 takes no completion. */
static void ofi_cq_progress(struct fid_cq *cq)
{
	struct fi_cq_data_entry e;

	fi_cq_read(cq, &e, 0);
}

/* -FI_EAGAIN: the provider's queue (or the peer's) is full. Its caller posts
 * again while this says so, for OFI_AGAIN_NS from the first refusal (r->t0,
 * 0 before it: the clock is read only for a full queue, not per post), each
 * time after the provider's progress and a pause that doubles from
 * OFI_BACKOFF_MIN_NS to OFI_BACKOFF_MAX_NS. Posting again at once kept shm's
 * writer reading the very slot of the peer's command queue that the peer
 * was about to free, every try a cache line taken from the reader: one-way
 * 8 B writes with data, 200,000 a run, ran 0.75-0.79 of fi_rma_bw -o
 * writedata on the H200, whose window of 64 never fills the queue
 * (doc/perf-data/2026-11-30-s46-lead-h200/). */
struct ofi_retry {
	uint64_t t0;
	uint64_t pause_ns;
};

#define OFI_BACKOFF_MIN_NS 250
#define OFI_BACKOFF_MAX_NS 8000

static bool again_within(struct ofi_retry *r, struct fid_cq *cq)
{
	uint64_t now = gd_now_ns(), until;

	if (!r->t0)
		r->t0 = now;
	if (now - r->t0 > OFI_AGAIN_NS)
		return false;
	ofi_cq_progress(cq);
	r->pause_ns = r->pause_ns ? GD_MIN(r->pause_ns * 2, (uint64_t)OFI_BACKOFF_MAX_NS) :
				    OFI_BACKOFF_MIN_NS;
	for (until = gd_now_ns() + r->pause_ns; gd_now_ns() < until;)
		gd_cpu_relax();
	return true;
}

static ssize_t post_atomic(const struct gd_ofi_target *t, const struct ibv_send_wr *wr,
			   uint64_t flags, void *ctx)
{
	struct fi_ioc op = { .addr = (void *)&wr->wr.atomic.swap, .count = 1 };
	struct fi_ioc cmp = { .addr = (void *)&wr->wr.atomic.compare_add, .count = 1 };
	struct fi_ioc res = { .addr = (void *)(uintptr_t)wr->sg_list[0].addr, .count = 1 };
	struct fi_rma_ioc rma = { .addr = wr->wr.atomic.remote_addr, .count = 1, .key = t->key };
	struct fi_msg_atomic m = { .msg_iov = &cmp, .iov_count = 1, .addr = t->dest,
				   .rma_iov = &rma, .rma_iov_count = 1, .datatype = FI_UINT64,
				   .op = FI_SUM, .context = ctx };
	void *rdesc = t->desc;

	if (wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) /* the operand is compare_add */
		return fi_fetch_atomicmsg(t->ep, &m, &res, &rdesc, 1, flags);
	m.msg_iov = &op;
	m.op = FI_CSWAP;
	return fi_compare_atomicmsg(t->ep, &m, &cmp, NULL, 1, &res, &rdesc, 1, flags);
}

/* An inline request that asks no completion: libfabric's inject calls, the
 * providers' shortest path (fi_pingpong's for small messages); -FI_ENOSYS
 * for an opcode (or a provider) without one. */
static ssize_t post_inject(struct fid_ep *ep, fi_addr_t dest, uint64_t key,
			   const struct ibv_send_wr *wr)
{
	void *buf = (void *)(uintptr_t)wr->sg_list[0].addr;
	size_t len = wr->sg_list[0].length;
	uint64_t data = be32toh(wr->imm_data), raddr = wr->wr.rdma.remote_addr;

	switch (wr->opcode) {
	case IBV_WR_SEND:
		return fi_inject(ep, buf, len, dest);
	case IBV_WR_SEND_WITH_IMM:
		return fi_injectdata(ep, buf, len, data, dest);
	case IBV_WR_RDMA_WRITE:
		return fi_inject_write(ep, buf, len, dest, raddr, key);
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return fi_inject_writedata(ep, buf, len, data, dest, raddr, key);
	default:
		return -FI_ENOSYS;
	}
}

/* One work request of ops.c's (or the proxy's) verbs form, as libfabric's
 * message call (post_one tried the inject call first). */
static ssize_t post_msg(const struct gd_ofi_target *t, const struct ibv_send_wr *wr,
			uint64_t flags, void *ctx)
{
	void *desc = t->desc;
	struct iovec iov = { .iov_base = (void *)(uintptr_t)wr->sg_list[0].addr,
			     .iov_len = wr->sg_list[0].length };
	struct fi_rma_iov rma = { .addr = wr->wr.rdma.remote_addr, .len = iov.iov_len,
				  .key = t->key };
	struct fi_msg_rma m = { .msg_iov = &iov, .desc = &desc, .iov_count = 1, .addr = t->dest,
				.rma_iov = &rma, .rma_iov_count = 1, .context = ctx,
				.data = be32toh(wr->imm_data) };
	struct fi_msg s = { .msg_iov = &iov, .desc = &desc, .iov_count = 1, .addr = t->dest,
			    .context = ctx, .data = m.data };

	switch (wr->opcode) {
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		flags |= FI_REMOTE_CQ_DATA;
		/* fall through */
	case IBV_WR_RDMA_WRITE:
		return fi_writemsg(t->ep, &m, flags);
	case IBV_WR_RDMA_READ:
		return fi_readmsg(t->ep, &m, flags);
	case IBV_WR_SEND_WITH_IMM:
		flags |= FI_REMOTE_CQ_DATA;
		/* fall through */
	case IBV_WR_SEND:
		return fi_sendmsg(t->ep, &s, flags);
	default:
		return post_atomic(t, wr, flags, ctx);
	}
}

/* One work request: an unsignalled inline one by the inject call (nothing to
 * build: a latency loop's whole post), else (or for a provider without that
 * call) by the message call. */
static ssize_t post_one(const struct gd_ofi_target *t, const struct ibv_send_wr *wr,
			uint64_t flags, void *ctx)
{
	if (flags == FI_INJECT) {
		ssize_t ret = post_inject(t->ep, t->dest, t->key, wr);

		if (ret != -FI_ENOSYS)
			return ret;
	}
	return post_msg(t, wr, flags, ctx);
}

/* The completion a signalled write asks (gd_ofi_post_flags says why) */
static uint64_t write_completion(const struct gd_ofi_target *t, const struct ibv_send_wr *wr)
{
	if (t->moderating)
		return FI_INJECT_COMPLETE;
	return t->placed_above && wr->sg_list[0].length > t->placed_above ? FI_TRANSMIT_COMPLETE :
									    FI_DELIVERY_COMPLETE;
}

/* The flags of one request.
 * - A signalled write completes once the target has placed it
 *   (FI_DELIVERY_COMPLETE), as a verbs RC completion means: the default
 *   (transmit complete) let a tcp client report a write the server had not
 *   yet read off its socket, and --validate saw the old bytes. The
 *   unsignalled ones before it are ordered ahead of it.
 * - A read or a (fetching) atomic needs no flag: it completes when its bytes
 *   are in my buffer, which the target's placement precedes. Asking delivery
 *   of one cost shm its one-sided path (smr_rma_fast: the reader's own
 *   process_vm_readv; with the flag, a command the target's CPU serves): on
 *   the H100, reads of 64 KiB ran 0.79-0.92 of fi_rma_bw's.
 * - A send needs no more than transmit complete: its receiver's own
 *   completion says the bytes arrived (and --validate reads them only
 *   then), and on shm the delivery acknowledgement cost a second handshake
 *   in every send ping-pong. So does an inline write with remote CQ data
 *   where its transmit completion means the command is in the target's
 *   queue (shm, host memory: gd_ofi_placed_above): its target takes a
 *   completion for every write, and drains its queue before it ends. There a
 *   signalled one with FI_DELIVERY_COMPLETE got the next inject refused
 *   until its acknowledgement came back (8 B one-way, one refused post per
 *   signalled write, ~30,000 retries each on the 2-core development VM:
 *   doc/perf-data/2026-11-29-s39-speed4/). tcp and longer writes keep the
 *   write's rule below (tcp's transmit completion is not the target's queue).
 *   A write longer than t->placed_above asks FI_TRANSMIT_COMPLETE instead:
 *   there that completion already follows the placement
 *   (gd_ofi_placed_above: shm above its inject size).
 * - A bandwidth loop's signalled write that only moderates (t->moderating:
 *   its completion frees the loop's window; the QP's last signalled write of
 *   the size follows and asks delivery, and a provider delivers one
 *   endpoint's writes in order) asks inject completion only (the buffer is
 *   free again), as fi_rma_bw's writes ask nothing more. Delivery made shm
 *   leave its CMA path for a transfer the peer's CPU serves, refusing the
 *   next writes to that peer until then (-b write 8 B: 0.88 of fi_rma_bw -o
 *   write on the H200, doc/perf.md); tcp maps transmit completion to
 *   delivery too (an acknowledgement from the peer's progress every -Q
 *   writes: -b write 8 B 0.89 of fi_rma_bw). Not FI_INJECT, which
 *   libfabric 2.x's efa-direct refuses for writes (its RMA inject size is
 *   0). Where writes are not ordered (efa RDM, cxi, opx, ucx) the last
 *   write's delivery does not cover the earlier ones: at most a window per
 *   QP is then still in flight when the clock stops.
 * - An inline request (verbs' IBV_SEND_INLINE, sizes up to the provider's
 *   inject_size) is FI_INJECT, signalled or not, unless it waits for
 *   delivery: as fi_pingpong does for small messages. */
uint64_t gd_ofi_post_flags(const struct gd_ofi_target *t, const struct ibv_send_wr *wr)
{
	bool sig = wr->send_flags & IBV_SEND_SIGNALED;
	bool send = wr->opcode == IBV_WR_SEND || wr->opcode == IBV_WR_SEND_WITH_IMM;
	bool write = wr->opcode == IBV_WR_RDMA_WRITE || wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
	bool inl = wr->send_flags & IBV_SEND_INLINE;
	bool queued = t->placed_above && t->placed_above != UINT64_MAX; /* shm */
	bool as_send = wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM && inl && queued;
	uint64_t flags = sig ? FI_COMPLETION : 0;

	if (sig && write && !as_send)
		flags |= write_completion(t, wr);
	else if ((send || write) && inl)
		flags |= FI_INJECT;
	return flags;
}

ssize_t gd_ofi_post_wrs(const struct gd_ofi_target *t, const struct ibv_send_wr *wr, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint64_t flags = gd_ofi_post_flags(t, &wr[i]); /* FI_COMPLETION: signalled */
		void *ctx = (void *)(uintptr_t)(flags & FI_COMPLETION ? wr[i].wr_id : 0);
		ssize_t ret = post_one(t, &wr[i], flags, ctx);
		struct ofi_retry r = { 0, 0 };

		while (ret == -FI_EAGAIN && again_within(&r, t->cq))
			ret = post_one(t, &wr[i], flags, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

struct gd_ofi_target gd_ofi_target_of(const struct gd_qp_run *q)
{
	const struct gd_ofi_cq *cq = q->fab_cq;

	return (struct gd_ofi_target){ q->fab_ep, cq->cq, q->fab_desc, q->fab_dest, q->fab_key,
				       cq->placed_above, q->moderating };
}

/* Room in the queue of injected sends' completions. */
static bool inject_room(const struct gd_ofi_cq *cq)
{
	return cq->inj_tail - cq->inj_head < GD_OFI_INJECTED;
}

/* A signalled send that fits inline is posted as FI_INJECT with no provider
 * completion, as fi_pingpong posts small messages: its completion (transmit
 * complete: the provider holds the bytes; gd_ofi_post_flags says why a send
 * needs no more) is the call's return, so the wr_id goes straight to the
 * CQ's queue of injected ones. Saves the provider's completion entry and,
 * on tcp, the wait for its socket write (doc/perf-data/history.md, send latency). */
static bool inject_signalled(const struct ibv_send_wr *last, const struct gd_ofi_cq *cq)
{
	return (last->opcode == IBV_WR_SEND || last->opcode == IBV_WR_SEND_WITH_IMM) &&
	       last->send_flags & IBV_SEND_INLINE &&
	       inject_room(cq);
}

/* An injected send's completion, for ofi_poll to hand out in order. */
static void queue_injected(struct gd_ofi_cq *cq, uint64_t wr_id)
{
	cq->injected[cq->inj_tail++ % GD_OFI_INJECTED] = wr_id;
}

/* A latency loop's whole post: one signalled inline send (no variant, no
 * address rotation) goes straight to fi_inject, as fi_pingpong's does, its
 * completion queued as inject_signalled says; false leaves it to the general
 * path (so do a full inject queue and -FI_EAGAIN). The general path's layers
 * (the request's stamp, the flags, the opcode's switch) cost ~340
 * instructions an exchange over fi_pingpong's loop (callgrind, doc/perf-data/history.md
 * "Stop 30"): 2-3 % of an 8 B shm exchange. */
static bool post_lean_send(struct gd_qp_run *q, uint32_t n, bool signal, uint32_t covered)
{
	struct gd_ofi_cq *cq = q->fab_cq;
	const struct ibv_sge *sge = q->wr[0].sg_list;

	if (n != 1 || !signal || !q->inl || q->alt || q->cycle_step ||
	    q->desc->opcode != IBV_WR_SEND || !inject_room(cq))
		return false;
	if (fi_inject(q->fab_ep, (void *)(uintptr_t)sge->addr, sge->length, q->fab_dest))
		return false;
	queue_injected(cq, gd_wr_id(q->index, covered));
	q->posted++;
	return true;
}

/* A bandwidth loop's usual write, one unsignalled inline write (with data
 * under --write_with_imm), goes straight to its inject call with the loop's
 * immediate and the rotation's addresses (gd_ops_cycle_next), as fi_rma_bw's
 * does, skipping the request's stamp (gd_ops_stamp: nothing of the template
 * but its size is read here) and the general path's opcode switch; false
 * leaves it to the general path, which stamps it (so does a refused inject,
 * -FI_EAGAIN: the cycle is stepped back first, so the retry writes where
 * this one would have). Measured: doc/perf-data/2026-11-30-s42-speed7-h200/. */
static bool post_lean_write(struct gd_qp_run *q, uint32_t n, bool signal, uint32_t imm)
{
	size_t len = q->wr[0].sg_list[0].length;
	uint32_t off0 = q->cycle_off, off;
	void *buf;
	uint64_t raddr;
	ssize_t ret;

	if (n != 1 || signal || !q->inl || q->desc->op != GD_OP_WRITE)
		return false;
	off = gd_ops_cycle_next(q);
	buf = (void *)(uintptr_t)(q->local_addr + off);
	raddr = q->remote_addr + off;
	if (q->alt)
		ret = fi_inject_writedata(q->fab_ep, buf, len, imm, q->fab_dest, raddr, q->fab_key);
	else
		ret = fi_inject_write(q->fab_ep, buf, len, q->fab_dest, raddr, q->fab_key);
	if (ret) {
		q->cycle_off = off0;
		return false;
	}
	q->posted++;
	return true;
}

/* The stamped requests: a bandwidth loop's usual post, one unsignalled
 * inline request (the FI_INJECT that gd_ofi_post_flags gives it), goes
 * straight to its inject call as fi_rma_bw's does; the rest, an opcode
 * without one and a refused inject (-FI_EAGAIN: retried there, the
 * request already stamped) take gd_ofi_post_wrs. An 8 B write with data
 * over shm ran ~280 instructions of gdperf's own a write through the
 * general path (callgrind; doc/perf-data/2026-11-29-s41-seam6-h200/). */
static ssize_t post_stamped(struct gd_qp_run *q, uint32_t n, bool signal)
{
	struct gd_ofi_target t;
	ssize_t ret = -FI_ENOSYS;

	if (n == 1 && !signal && q->inl)
		ret = post_inject(q->fab_ep, q->fab_dest, q->fab_key, q->wr);
	if (ret != -FI_ENOSYS && ret != -FI_EAGAIN)
		return ret;
	t = gd_ofi_target_of(q);
	return gd_ofi_post_wrs(&t, q->wr, n);
}

static int ofi_post(struct gd_qp_run *q, uint32_t n, bool signal, uint32_t covered, uint32_t imm)
{
	struct gd_ofi_cq *cq = q->fab_cq;
	struct ibv_send_wr *last = &q->wr[n - 1];
	bool injected;
	ssize_t ret;

	if (post_lean_send(q, n, signal, covered) || post_lean_write(q, n, signal, imm))
		return 0;
	injected = signal && inject_signalled(last, cq);
	gd_ops_stamp(q, n, imm);
	if (signal && !injected) {
		last->send_flags |= IBV_SEND_SIGNALED;
		last->wr_id = gd_wr_id(q->index, covered);
	}
	ret = post_stamped(q, n, signal);
	if (ret) {
		gd_error("cannot post %s on endpoint %u: %s%s", q->desc->wr_name, q->index,
			 gd_fi_strerror((int)-ret),
			 ret == -FI_EAGAIN ? " (the provider's queue stayed full for 5 s: lower -t "
					     "or -l)" : "");
		return ret == -FI_EAGAIN ? -EAGAIN : -EIO;
	}
	if (injected)
		queue_injected(cq, gd_wr_id(q->index, covered));
	if (q->desc->fixed_size)
		q->atomic_next += n;
	q->posted += n;
	return 0;
}

/* Receives by fi_recv, the endpoint's default flags (a completion each) */
static int ofi_post_recv(struct gd_qp_run *q, uint32_t n)
{
	void *buf = (void *)(uintptr_t)q->rsge.addr, *ctx = (void *)(uintptr_t)gd_wr_id(q->index, 1);

	if (!q->desc->recv) { /* write with data: the remote CQ data needs no buffer */
		q->recv_posted += n;
		return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		ssize_t ret = fi_recv(q->fab_ep, buf, q->rsge.length, q->fab_desc, FI_ADDR_UNSPEC, ctx);
		struct ofi_retry r = { 0, 0 };

		while (ret == -FI_EAGAIN && again_within(&r, ((struct gd_ofi_cq *)q->fab_cq)->cq))
			ret = fi_recv(q->fab_ep, buf, q->rsge.length, q->fab_desc, FI_ADDR_UNSPEC, ctx);
		if (ret) {
			gd_error("cannot post a receive on endpoint %u: %s%s", q->index,
				 gd_fi_strerror((int)-ret), ret == -FI_EAGAIN ? " (lower -r)" : "");
			return -EIO;
		}
		q->recv_posted++;
	}
	return 0;
}

/* One completion in the seam's form */
static void cqe_set(struct gd_fab_cqe *c, uint64_t id, int status, uint32_t imm)
{
	c->id = id;
	c->status = status;
	c->qp_num = gd_wr_id_qp(id);
	c->imm = imm;
}

static int read_error(struct gd_ofi_cq *c, struct gd_fab_cqe *e)
{
	struct fi_cq_err_entry err;
	char pe[256] = "";

	memset(&err, 0, sizeof(err));
	if (fi_cq_readerr(c->cq, &err, 0) < 0)
		return -EIO;
	fi_cq_strerror(c->cq, err.prov_errno, err.err_data, pe, sizeof(pe));
	cqe_set(e, (uintptr_t)err.op_context, err.err ? err.err : FI_EOTHER, 0);
	snprintf(c->err, sizeof(c->err), "%s (provider: %s)", gd_fi_strerror(e->status),
		 pe[0] ? pe : "no detail");
	return 1;
}

/* The completions of injected signalled sends (ofi_post), oldest first */
static int injected_done(struct gd_ofi_cq *cq, struct gd_fab_cqe *c, int max)
{
	int k = 0;

	for (; k < max && cq->inj_head != cq->inj_tail; k++)
		cqe_set(&c[k], cq->injected[cq->inj_head++ % GD_OFI_INJECTED], 0, 0);
	return k;
}

/* Up to max completions of those read before, oldest first */
static int cached_done(struct gd_ofi_cq *cq, struct gd_fab_cqe *c, int max)
{
	int k = 0;

	for (; k < max && cq->cache_n; k++, cq->cache_n--) {
		const struct fi_cq_data_entry *e = &cq->cache[cq->cache_head++];

		cqe_set(&c[k], (uintptr_t)e->op_context, 0, (uint32_t)e->data);
	}
	return k;
}

/* Completions in the seam's form. The provider is read GD_OFI_POLL_CACHE
 * entries a call, whatever the caller's batch: each fi_cq_read first runs
 * the provider's progress, and shm's moves every queued command into the
 * CQ; a target that read 16 a call (one write with data, one completion)
 * ran that progress for every 16 and fell behind its initiator: its CQ
 * overflowed into libfabric's list of one calloc a completion. */
static int ofi_poll(void *cqv, struct gd_fab_cqe *c, int max)
{
	struct gd_ofi_cq *cq = cqv;
	ssize_t n;

	if (cq->inj_head != cq->inj_tail)
		return injected_done(cq, c, max);
	if (cq->cache_n)
		return cached_done(cq, c, max);
	n = fi_cq_read(cq->cq, cq->cache, GD_OFI_POLL_CACHE);
	if (n == -FI_EAGAIN)
		return 0;
	if (n == -FI_EAVAIL)
		return read_error(cq, c);
	if (n < 0) {
		snprintf(cq->err, sizeof(cq->err), "%s", gd_fi_strerror((int)-n));
		return -EIO;
	}
	cq->cache_head = 0;
	cq->cache_n = (unsigned)n;
	return cached_done(cq, c, max);
}

static const char *ofi_status_str(void *cqv, int status)
{
	struct gd_ofi_cq *cq = cqv;

	return cq && cq->err[0] ? cq->err : gd_fi_strerror(status);
}

static const char *ofi_hint(int status)
{
	switch (status) {
	case FI_ECONNRESET:
	case FI_ECONNREFUSED:
	case FI_ENOTCONN:
	case FI_ECONNABORTED:
	case FI_EHOSTUNREACH:
		return "the peer's endpoint went away or cannot be reached: the peer process died, "
		       "or its address does not route here (check --provider and the interface)";
	case FI_EACCES:
	case FI_EINVAL:
		return "the peer's memory region or key does not cover the access (a mismatched "
		       "mr_mode between the sides?)";
	case FI_ETRUNC:
		return "the message does not fit the receive buffer";
	case FI_ECANCELED:
		return "cancelled: the endpoint was closed or had already failed";
	default:
		return "see the provider's man page (fi_<provider>(7)) for this error";
	}
}

static void ofi_progress(void *cqv)
{
	ofi_cq_progress(((struct gd_ofi_cq *)cqv)->cq);
}

/* A chain of the proxy's (fabric.h post_wrs) */
static int ofi_post_wrs(struct gd_qp_run *q, struct ibv_send_wr *wr, uint32_t n)
{
	struct gd_ofi_target t = gd_ofi_target_of(q);
	ssize_t ret = gd_ofi_post_wrs(&t, wr, n);

	return ret == -FI_EAGAIN ? -EAGAIN : ret ? -EIO : 0;
}

static uint32_t ofi_qp_num(const struct gd_qp_run *q)
{
	return q->index + 1;
}

const struct gd_fabric_ops gd_fabric_ofi = {
	.progress = ofi_progress,
	.name = "ofi",
	.traits = &gd_fabric_ofi_traits, /* fabric_traits.c: known without libfabric */
	.post = ofi_post,
	.post_recv = ofi_post_recv,
	.poll = ofi_poll,
	.status_str = ofi_status_str,
	.hint = ofi_hint,
	.post_wrs = ofi_post_wrs,
	.qp_num = ofi_qp_num,
	/* as the CPU loop: over shm a chain of 64 KiB writes with one signalled
	 * ran at 0.74-0.86 of the CPU initiator, each signalled at 0.95-0.97 */
	.chain_signal_above = GD_SIGNAL_EACH_ABOVE,
};
