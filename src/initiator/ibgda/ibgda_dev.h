/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The IBGDA producer protocol on one mlx5 send queue, compiled for CUDA
 * kernels and for host threads (the host build drives the software NIC test
 * double in make check): reserve WQEBBs, write them, publish in order, ring
 * (doorbell record, then doorbell), poll the CQ (collapsed for bandwidth,
 * normal for per-op latency), decode an error CQE, and a deadline on every
 * wait that records the QPN and the indices.
 *
 * Counters are 64-bit WQEBB indices that never wrap (doc/notes/ibgda.md 2.4):
 *   resv_head  next WQEBB to reserve        ready_head  all below are written
 *   prod_idx   last value rung              cons_idx    all below completed
 * Doorbell batching: a publisher rings when its end crosses a multiple of
 * ring_every, or when nobody has reserved beyond it. Selective signalling:
 * the caller sets CQ_UPDATE on WQEs it wants completions for; a WQE that
 * reserves must find a signalled WQE within nwqe - n - ring_every below it
 * (gd_ibgda_cfg_ok checks the sizes).
 */
#ifndef GD_IBGDA_DEV_H
#define GD_IBGDA_DEV_H

#include <stdint.h>

#include "mlx5_wqe.h"

#if !defined(__CUDA_ARCH__)
#include <sched.h>
#include <time.h>
#endif

enum gd_ibgda_flags {
	GD_IBGDA_COLLAPSED = 1 << 0, /* every CQE in entry 0 */
	GD_IBGDA_SYSMEM = 1 << 1,    /* SQ/DBR/CQ in host memory: system-scope fences */
	GD_IBGDA_CPUDB = 1 << 2,     /* ibgda-cpudb: bump *db (a host word), a CPU rings */
	GD_IBGDA_SHARED = 1 << 3,    /* several threads ring this QP: take the lock */
};

enum gd_ibgda_errcode {
	GD_IBGDA_OK = 0,
	GD_IBGDA_ERR_CQE = 1,     /* error CQE: syndrome names it */
	GD_IBGDA_ERR_TIMEOUT = 2, /* a wait passed its deadline */
	GD_IBGDA_ERR_STOPPED = 3, /* another QP failed first */
	GD_IBGDA_ERR_FETCH = 4,   /* a fetched atomic result is not the expected value */
};

/* First failure, in memory the host reads after the run (mapped pinned). */
struct gd_ibgda_err {
	uint32_t code; /* enum gd_ibgda_errcode; the first writer wins */
	uint32_t qpn;
	uint8_t syndrome, vendor, cqe_opcode, wqe_opcode;
	uint32_t where; /* 1 reserve, 2 publish, 3 ring lock, 4 poll, 5 run deadline, 6 fetch */
	uint64_t resv_head, ready_head, prod_idx, cons_idx;
	uint32_t wqe_counter, dbr;
	uint64_t fetched, expected; /* GD_IBGDA_ERR_FETCH: the decoded result, the value due */
};

/* Per-QP management counters: GPU memory for GPU producers. 64 bytes. */
struct gd_ibgda_ctr {
	uint64_t resv_head, ready_head, prod_idx, cons_idx;
	uint32_t lock, cq_ci; /* lock: the doorbell (one ringer at a time) */
	uint32_t poll, pad32; /* poll: one CQ poller at a time */
	/* atom_base: the WQE index the current run's atomics count from (the
	 * quiet and latency kernels move it past their last WQE), so the k-th
	 * CMP_SWAP of a run on this QP compares k and swaps k + 1 */
	uint64_t atom_base, pad;
};

/* Run-wide control, in memory the producers reach cheaply (GPU memory for
 * GPU producers): the stop flag every spin reads (the failure record itself
 * lives in host memory, a PCIe round trip away), and an absolute deadline
 * for the whole run, set from budget_ns by the first producer (0: none). */
struct gd_ibgda_ctl {
	uint32_t stop, pad;
	uint64_t deadline, budget_ns;
};

struct gd_ibgda_qp {
	uint8_t *sq;           /* nwqe * 64 bytes */
	uint32_t nwqe;         /* power of two */
	uint32_t qpn;
	uint32_t *dbrec;       /* send doorbell record (DBR[1]) */
	uint64_t *db;          /* UAR doorbell register; CPUDB: the host producer word */
	uint8_t *cq;           /* ncqe * 64 bytes */
	uint32_t ncqe;
	uint32_t flags;        /* enum gd_ibgda_flags */
	uint32_t *cq_dbrec;    /* normal CQ: consumer counter record */
	uint32_t ring_every;   /* doorbell batching, WQEBBs (power of two) */
	struct gd_ibgda_ctr *ctr;
	struct gd_ibgda_err *err;
	uint64_t timeout_ns;   /* one wait without progress */
	struct gd_ibgda_ctl *ctl; /* optional: stop flag and run deadline */
};

/* --- primitives: the only host/device differences ----------------------- */
#ifdef __CUDA_ARCH__
GD_HD uint64_t gd_ib_now(void)
{
	uint64_t t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}
GD_HD uint64_t gd_ib_add(uint64_t *p, uint64_t n)
{
	return atomicAdd((unsigned long long *)p, (unsigned long long)n);
}
GD_HD uint64_t gd_ib_cas(uint64_t *p, uint64_t e, uint64_t v)
{
	return atomicCAS((unsigned long long *)p, (unsigned long long)e, (unsigned long long)v);
}
GD_HD uint32_t gd_ib_cas32(uint32_t *p, uint32_t e, uint32_t v)
{
	return atomicCAS(p, e, v);
}
GD_HD void gd_ib_max(uint64_t *p, uint64_t v)
{
	atomicMax((unsigned long long *)p, (unsigned long long)v);
}
GD_HD void gd_ib_max_sys(uint64_t *p, uint64_t v)
{
	atomicMax_system((unsigned long long *)p, (unsigned long long)v);
}
GD_HD void gd_ib_min(uint64_t *p, uint64_t v)
{
	atomicMin((unsigned long long *)p, (unsigned long long)v);
}
GD_HD uint64_t gd_ib_ld(const uint64_t *p)
{
	uint64_t v;

	asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
}
GD_HD uint64_t gd_ib_ld_acq_sys(const void *p)
{
	uint64_t v;

	asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
}
GD_HD void gd_ib_st32_rel_sys(uint32_t *p, uint32_t v)
{
	asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GD_HD void gd_ib_st64_rel_sys(uint64_t *p, uint64_t v)
{
	asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
GD_HD void gd_ib_st32_rlx_sys(uint32_t *p, uint32_t v)
{
	asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GD_HD void gd_ib_st64_rel(uint64_t *p, uint64_t v)
{
	asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
GD_HD void gd_ib_st32_rel_gpu(uint32_t *p, uint32_t v)
{
	asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GD_HD void gd_ib_st32_rlx_gpu(uint32_t *p, uint32_t v)
{
	asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GD_HD uint64_t gd_ib_ld_acq_gpu(const void *p)
{
	uint64_t v;

	asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
}
/* The doorbell lock (F6 of the desk review, DOCA's pattern): taking it is
 * an acquire, so the previous holder's doorbell and prod_idx are seen
 * first; releasing orders this holder's MMIO doorbell store (system
 * scope) before the next holder may ring. */
GD_HD uint32_t gd_ib_trylock(uint32_t *p)
{
	uint32_t old = atomicCAS(p, 0u, 1u);

	asm volatile("fence.acq_rel.gpu;" ::: "memory");
	return old;
}
GD_HD void gd_ib_unlock(uint32_t *p)
{
	asm volatile("fence.sc.sys;" ::: "memory");
	asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(0u) : "memory");
}
GD_HD uint32_t gd_ib_ld32(const uint32_t *p)
{
	return *(volatile const uint32_t *)p;
}
GD_HD void gd_ib_st32(uint32_t *p, uint32_t v)
{
	*(volatile uint32_t *)p = v;
}
GD_HD uint64_t gd_ib_ld64_rlx(const void *p)
{
	return *(volatile const uint64_t *)p;
}
GD_HD void gd_ib_fence(uint32_t flags)
{
	if (flags & GD_IBGDA_SYSMEM)
		__threadfence_system();
	else
		__threadfence();
}
GD_HD void gd_ib_pause(uint32_t ns)
{
	__nanosleep(ns);
}
/* One WQEBB: four 16-byte stores. */
GD_HD void gd_ib_store_wqebb(uint8_t *dst, const struct gd_mlx5_wqebb *w)
{
	uint4 *d = (uint4 *)dst;

	for (int i = 0; i < 4; i++)
		d[i] = make_uint4(w->s[i].w[0], w->s[i].w[1], w->s[i].w[2], w->s[i].w[3]);
}
#else
GD_HD uint64_t gd_ib_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
GD_HD uint64_t gd_ib_add(uint64_t *p, uint64_t n)
{
	return __atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}
GD_HD uint64_t gd_ib_cas(uint64_t *p, uint64_t e, uint64_t v)
{
	__atomic_compare_exchange_n(p, &e, v, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	return e;
}
GD_HD uint32_t gd_ib_cas32(uint32_t *p, uint32_t e, uint32_t v)
{
	__atomic_compare_exchange_n(p, &e, v, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
	return e;
}
GD_HD void gd_ib_max(uint64_t *p, uint64_t v)
{
	uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (cur < v && !__atomic_compare_exchange_n(p, &cur, v, 1, __ATOMIC_ACQ_REL,
						       __ATOMIC_RELAXED))
		;
}
GD_HD void gd_ib_max_sys(uint64_t *p, uint64_t v)
{
	gd_ib_max(p, v);
}
GD_HD void gd_ib_min(uint64_t *p, uint64_t v)
{
	uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (cur > v && !__atomic_compare_exchange_n(p, &cur, v, 1, __ATOMIC_ACQ_REL,
						       __ATOMIC_RELAXED))
		;
}
GD_HD uint64_t gd_ib_ld(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
GD_HD uint64_t gd_ib_ld_acq_sys(const void *p)
{
	return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
}
GD_HD void gd_ib_st32_rel_sys(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}
GD_HD void gd_ib_st64_rel_sys(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}
/* The "relaxed" doorbell-record stores are release stores on the host (the
 * same plain store on x86): on the GPU the publish fence before them orders
 * the WQEs, and ThreadSanitizer does not model fences (it reported the test
 * double's reads of a single producer's WQEs and fetch words as races). */
GD_HD void gd_ib_st32_rlx_sys(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}
GD_HD void gd_ib_st64_rel(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}
GD_HD void gd_ib_st32_rel_gpu(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}
GD_HD void gd_ib_st32_rlx_gpu(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE); /* as gd_ib_st32_rlx_sys */
}
GD_HD uint64_t gd_ib_ld_acq_gpu(const void *p)
{
	return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
}
GD_HD uint32_t gd_ib_trylock(uint32_t *p)
{
	uint32_t e = 0;

	__atomic_compare_exchange_n(p, &e, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
	return e;
}
GD_HD void gd_ib_unlock(uint32_t *p)
{
	__atomic_store_n(p, 0, __ATOMIC_RELEASE);
}
GD_HD uint32_t gd_ib_ld32(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
GD_HD void gd_ib_st32(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}
GD_HD uint64_t gd_ib_ld64_rlx(const void *p)
{
	return __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);
}
GD_HD void gd_ib_fence(uint32_t flags)
{
	(void)flags;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}
/* Host producers share few cores with the NIC thread: give the core away. */
GD_HD void gd_ib_pause(uint32_t ns)
{
	(void)ns;
	sched_yield();
}
GD_HD void gd_ib_store_wqebb(uint8_t *dst, const struct gd_mlx5_wqebb *w)
{
	__builtin_memcpy(dst, w, sizeof(*w));
}
#endif

/* --- failure record -------------------------------------------------------- */
GD_HD uint32_t gd_ibgda_failed(const struct gd_ibgda_qp *qp)
{
	return qp->ctl ? gd_ib_ld32(&qp->ctl->stop) : gd_ib_ld32(&qp->err->code);
}

/* where: 1 reserve, 2 publish, 3 ring lock, 4 poll, 5 run budget */
GD_HD void gd_ibgda_fail(const struct gd_ibgda_qp *qp, uint32_t code, uint32_t where,
			 const uint8_t *cqe8)
{
	struct gd_ibgda_err *e = qp->err;
	struct gd_ibgda_ctr *c = qp->ctr;

	if (gd_ib_cas32(&e->code, 0, 0xffffffffu) != 0) {
		if (qp->ctl) /* someone else reported first */
			gd_ib_st32(&qp->ctl->stop, 1);
		return;
	}
	e->qpn = qp->qpn;
	e->where = where;
	e->resv_head = gd_ib_ld(&c->resv_head);
	e->ready_head = gd_ib_ld(&c->ready_head);
	e->prod_idx = gd_ib_ld(&c->prod_idx);
	e->cons_idx = gd_ib_ld(&c->cons_idx);
	e->dbr = gd_be32(gd_ib_ld32(qp->dbrec));
	if (cqe8) { /* the CQE's bytes 48..63 */
		e->vendor = cqe8[GD_MLX5_CQE_VENDOR_SYND - 48];
		e->syndrome = cqe8[GD_MLX5_CQE_SYNDROME - 48];
		e->wqe_opcode = cqe8[56 - 48];
		e->wqe_counter = (uint32_t)((cqe8[12] << 8) | cqe8[13]);
		e->cqe_opcode = cqe8[15] >> 4;
	}
	gd_ib_fence(GD_IBGDA_SYSMEM);
	gd_ib_st32(&e->code, code);
	if (qp->ctl)
		gd_ib_st32(&qp->ctl->stop, 1);
}

/* Start the run's clock (once, by whoever comes first): every wait after
 * that fails at ctl->deadline, progress or not, so a slow but live run
 * ends with a record instead of at the host's kill. */
GD_HD void gd_ibgda_run_start(const struct gd_ibgda_qp *qp)
{
	struct gd_ibgda_ctl *k = qp->ctl;

	if (k && k->budget_ns && !gd_ib_ld(&k->deadline))
		gd_ib_cas(&k->deadline, 0, gd_ib_now() + k->budget_ns);
}

/* A bounded spin: state of one wait. */
struct gd_ib_spin {
	uint64_t t0;
	uint32_t ns;
};

/* One step of a wait that found no progress: stop when another QP failed,
 * when this wait passed qp->timeout_ns or the run its deadline; otherwise
 * back off (exponential, up to ~1 us, so spinners leave the memory system
 * and the counters' owners alone). 0: try again; -1: give up (recorded). */
GD_HD int gd_ibgda_spin(const struct gd_ibgda_qp *qp, struct gd_ib_spin *s, uint32_t where)
{
	uint64_t now = gd_ib_now(), dl;

	if (gd_ibgda_failed(qp)) {
		gd_ibgda_fail(qp, GD_IBGDA_ERR_STOPPED, where, 0);
		return -1;
	}
	if (!s->t0) {
		s->t0 = now;
		if (!s->ns)
			s->ns = 32;
	} else if (now - s->t0 > qp->timeout_ns) {
		gd_ibgda_fail(qp, GD_IBGDA_ERR_TIMEOUT, where, 0);
		return -1;
	}
	dl = qp->ctl ? gd_ib_ld(&qp->ctl->deadline) : 0;
	if (dl && (int64_t)(now - dl) > 0) {
		gd_ibgda_fail(qp, GD_IBGDA_ERR_TIMEOUT, 5, 0);
		return -1;
	}
	gd_ib_pause(s->ns);
	if (s->ns < 1024)
		s->ns *= 2;
	return 0;
}

/* --- completion ------------------------------------------------------------ */

/* The CQE's last 8 bytes (QPN, counter, op_own) with one acquire load:
 * system scope where the CQ is host memory, GPU scope where it is GPU
 * memory the NIC writes (F10 of the desk review; NVSHMEM polls at GPU scope). */
GD_HD uint64_t gd_ibgda_ld_cqe_hi(const uint8_t *cqe, uint32_t flags)
{
	return flags & GD_IBGDA_SYSMEM ? gd_ib_ld_acq_sys(cqe + 56) : gd_ib_ld_acq_gpu(cqe + 56);
}

/* Read CQE bytes 48..63 of the entry: the last 8 bytes, then the syndrome
 * dword before them, then the last 8 again: a collapsed CQ rewrites entry
 * 0 under the reader, so the pair is taken only when both reads of the
 * tail agree (syndrome and opcode from one CQE; F8 of the desk review). */
GD_HD void gd_ibgda_read_cqe_tail(const uint8_t *cqe, uint32_t flags, uint8_t out[16])
{
	uint64_t hi = gd_ibgda_ld_cqe_hi(cqe, flags), lo = gd_ib_ld64_rlx(cqe + 48);

	for (int k = 0; k < 8; k++) {
		uint64_t again = gd_ibgda_ld_cqe_hi(cqe, flags);

		if (again == hi)
			break;
		hi = again;
		lo = gd_ib_ld64_rlx(cqe + 48);
	}

	for (int i = 0; i < 8; i++) {
		out[i] = (uint8_t)(lo >> (8 * i));
		out[8 + i] = (uint8_t)(hi >> (8 * i));
	}
}

GD_HD int gd_ibgda_cqe_err(const uint8_t t[16])
{
	return (t[15] >> 4) == GD_MLX5_CQE_REQ_ERR || (t[15] >> 4) == GD_MLX5_CQE_RESP_ERR;
}

/* Walk a normal CQ from cq_ci (the caller holds the poll lock). */
GD_HD int gd_ibgda_poll_normal(const struct gd_ibgda_qp *qp)
{
	struct gd_ibgda_ctr *c = qp->ctr;
	uint8_t t[16];

	for (;;) {
		uint32_t ci = gd_ib_ld32(&c->cq_ci);
		const uint8_t *e = qp->cq + (size_t)(ci & (qp->ncqe - 1)) * GD_MLX5_CQE;

		gd_ibgda_read_cqe_tail(e, qp->flags, t);
		if ((t[15] >> 4) == GD_MLX5_CQE_INVALID || (t[15] & 1) != ((ci / qp->ncqe) & 1))
			return 0;
		if (gd_ibgda_cqe_err(t)) {
			gd_ibgda_fail(qp, GD_IBGDA_ERR_CQE, 4, t);
			return -1;
		}
		gd_ib_max(&c->cons_idx,
			  gd_mlx5_cons_from_counter(gd_ib_ld(&c->prod_idx),
						    (uint16_t)((t[12] << 8) | t[13])));
		gd_ib_st32(&c->cq_ci, ci + 1);
		gd_ib_st32_rel_sys(qp->cq_dbrec, gd_mlx5_cq_dbr_value(ci + 1));
	}
}

/* Poll once: advance cons_idx from what the CQ shows. One poller per QP at
 * a time (a try-lock): the CQ is a PCIe read away, and a thousand warps
 * polling it at once saturate the link. Returns -1 after an error CQE
 * (recorded), else 0. */
GD_HD int gd_ibgda_poll(const struct gd_ibgda_qp *qp)
{
	struct gd_ibgda_ctr *c = qp->ctr;
	uint8_t t[16];
	int rc = 0;

	if (gd_ib_ld32(&c->poll) || gd_ib_trylock(&c->poll) != 0)
		return 0; /* test, then test-and-set: spinners only read */
	if (!(qp->flags & GD_IBGDA_COLLAPSED)) {
		rc = gd_ibgda_poll_normal(qp);
	} else {
		gd_ibgda_read_cqe_tail(qp->cq, qp->flags, t);
		if (gd_ibgda_cqe_err(t)) {
			gd_ibgda_fail(qp, GD_IBGDA_ERR_CQE, 4, t);
			rc = -1;
		} else if ((t[15] >> 4) != GD_MLX5_CQE_INVALID) {
			gd_ib_max(&c->cons_idx,
				  gd_mlx5_cons_from_counter(gd_ib_ld(&c->prod_idx),
							    (uint16_t)((t[12] << 8) | t[13])));
		}
	}
	gd_ib_unlock(&c->poll);
	return rc;
}

/* Wait until every WQEBB below target has completed. 0, or -1 (recorded). */
GD_HD int gd_ibgda_wait(const struct gd_ibgda_qp *qp, uint64_t target, uint32_t where)
{
	struct gd_ib_spin s = {0, 0};

	while ((int64_t)(gd_ib_ld(&qp->ctr->cons_idx) - target) < 0) {
		if (gd_ibgda_poll(qp))
			return -1;
		if ((int64_t)(gd_ib_ld(&qp->ctr->cons_idx) - target) >= 0)
			break;
		if (gd_ibgda_spin(qp, &s, where))
			return -1;
	}
	return 0;
}

/* --- produce ---------------------------------------------------------------- */

/* Reserve n WQEBBs (one atomic for the whole batch: a warp or CTA reserves
 * once); wait for room. Returns the first index, or ~0 on error. */
GD_HD uint64_t gd_ibgda_reserve(const struct gd_ibgda_qp *qp, uint32_t n)
{
	uint64_t base = gd_ib_add(&qp->ctr->resv_head, n);

	if (base + n > qp->nwqe && gd_ibgda_wait(qp, base + n - qp->nwqe, 1))
		return ~0ull;
	return base;
}

GD_HD uint8_t *gd_ibgda_wqe_ptr(const struct gd_ibgda_qp *qp, uint64_t idx)
{
	return qp->sq + (size_t)gd_mlx5_slot(idx, qp->nwqe) * GD_MLX5_WQEBB;
}

/* Publish [base, base + n) once everything below base is published: one
 * fence for the batch, then wait (loads, not CAS) for ready_head to reach
 * base; only the owner of base moves it on, so a store suffices. */
GD_HD int gd_ibgda_publish(const struct gd_ibgda_qp *qp, uint64_t base, uint32_t n)
{
	struct gd_ib_spin s = {0, 0};

	gd_ib_fence(qp->flags);
	for (;;) {
		uint64_t d = base - gd_ib_ld(&qp->ctr->ready_head);

		if (!d)
			break;
		/* sleep by distance: the next in line spins tight (~64 ns per
		 * warp ahead), those far back leave the line alone (<= 1 us) */
		s.ns = d < 16 ? 32 : d > 512 ? 1024 : (uint32_t)d * 2;
		if (gd_ibgda_spin(qp, &s, 2))
			return -1;
	}
	gd_ib_st64_rel(&qp->ctr->ready_head, base + n);
	return 0;
}

/* Ring once: DBR then doorbell, to everything published (ready_head). The
 * caller holds the lock or is the QP's only producer. */
GD_HD void gd_ibgda_ring_now(const struct gd_ibgda_qp *qp)
{
	struct gd_ibgda_ctr *c = qp->ctr;
	uint64_t r = gd_ib_ld(&c->ready_head);

	if (r <= gd_ib_ld(&c->prod_idx))
		return;
	gd_ib_st64_rel(&c->prod_idx, r);
	if (!(qp->flags & GD_IBGDA_SYSMEM)) { /* queues in GPU memory: GPU scope (F10) */
		if (qp->flags & GD_IBGDA_SHARED) /* others' WQEs: cumulative release */
			gd_ib_st32_rel_gpu(qp->dbrec, gd_mlx5_dbr_value(r));
		else /* our own WQEs, fenced in publish */
			gd_ib_st32_rlx_gpu(qp->dbrec, gd_mlx5_dbr_value(r));
		gd_ib_st64_rel(qp->db, gd_mlx5_db_value(qp->qpn, r)); /* as NVSHMEM */
		return;
	}
	if (qp->flags & GD_IBGDA_SHARED)
		gd_ib_st32_rel_sys(qp->dbrec, gd_mlx5_dbr_value(r));
	else
		gd_ib_st32_rlx_sys(qp->dbrec, gd_mlx5_dbr_value(r));
	gd_ib_st64_rel_sys(qp->db, gd_mlx5_db_value(qp->qpn, r));
}

/* Make the NIC see everything below upto (published already). Combining:
 * whoever takes the lock rings everything published so far, so one
 * doorbell serves every publisher waiting; the others wait on prod_idx (in
 * the producers' memory) with backoff and a deadline. */
GD_HD int gd_ibgda_ring(const struct gd_ibgda_qp *qp, uint64_t upto)
{
	struct gd_ibgda_ctr *c = qp->ctr;
	struct gd_ib_spin s = {0, 0};

	if (qp->flags & GD_IBGDA_CPUDB) { /* ibgda-cpudb: a CPU thread rings */
		gd_ib_max(&c->prod_idx, upto);
		gd_ib_fence(GD_IBGDA_SYSMEM);
		gd_ib_max_sys(qp->db, upto);
		return 0;
	}
	while (gd_ib_ld(&c->prod_idx) < upto) {
		if (!(qp->flags & GD_IBGDA_SHARED) ||
		    (!gd_ib_ld32(&c->lock) && gd_ib_trylock(&c->lock) == 0)) {
			gd_ibgda_ring_now(qp);
			if (qp->flags & GD_IBGDA_SHARED)
				gd_ib_unlock(&c->lock);
			if (gd_ib_ld(&c->prod_idx) >= upto)
				break;
		}
		if (gd_ibgda_spin(qp, &s, 3)) /* not published yet, or lock busy */
			return -1;
	}
	return 0;
}

/* Publish and ring when the batching rule says so. */
GD_HD int gd_ibgda_submit(const struct gd_ibgda_qp *qp, uint64_t base, uint32_t n, int force)
{
	uint64_t end = base + n;

	if (gd_ibgda_publish(qp, base, n))
		return -1;
	if (force || end / qp->ring_every != base / qp->ring_every ||
	    gd_ib_ld(&qp->ctr->resv_head) == end)
		return gd_ibgda_ring(qp, end);
	return 0;
}

/* Everything reserved so far: published, rung and completed (the caller
 * made sure the last WQE is signalled, e.g. with a signalled NOP). */
GD_HD int gd_ibgda_quiet(const struct gd_ibgda_qp *qp, uint64_t upto)
{
	if (gd_ibgda_ring(qp, upto))
		return -1;
	return gd_ibgda_wait(qp, upto, 4);
}

#endif
