/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One libfabric domain per proxy thread (fabric_ofi.h, gd_ofi_dom_of; issue 32
 * item 2), over the real providers of this libfabric (shm, tcp) in one
 * process: a passive side (one thread: one domain) and an initiating side of
 * 4 threads and 8 endpoints (4 domains). Asserted for every QP i: its
 * endpoint's domain is thread i % 4's, the descriptor its requests carry is
 * that domain's registration, its send CQ is that domain's, the key its blob
 * sends is that registration's, and the peer's address it posts to was
 * inserted in that domain's AV (it names the peer endpoint i). Then the 4
 * threads write at once, each on its own QPs through the fabric table (its
 * own domain, FI_THREAD_DOMAIN), and every QP's region at the peer is
 * checked byte for byte. Shm and tcp ignore a host buffer's descriptor, so
 * a wrong one would not fail the writes: the layout asserts are what would.
 * Then the same with the passive side of the proxy's bandwidth test (session
 * 45): 4 domains there too, endpoint i in domain i % 4, each driven by its own
 * progress thread (gd_ofi_progress_start) and by nothing else: the side
 * channel's progress call reads no CQ while they run; the regions of every
 * domain arrive (tcp's target moves the bytes in its progress: a domain no
 * thread drove would never complete its writes); the threads joined, the
 * caller's progress drives again.
 * One proxy thread (one domain, still the thread's): the side channel's idle
 * hook between loops (gd_ofi_progress_tx, on the main thread) leaves its send
 * CQ alone, so the thread's completion is still there for it (the hook once
 * read that CQ from the main thread while the thread polled it, and dropped
 * what it read).
 * Exit 77 when libfabric or both providers are missing.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <infiniband/verbs.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>

#include "clock.h"
#include "fabric.h"
#include "fabric_ofi.h"
#include "log.h"
#include "ofi_lib.h"
#include "ops.h"

#define NQP 8
#define NTHR 4
#define SLOT 4096
#define SKIPPED 77

struct side2 {
	struct gd_fabric_opts o;
	struct gd_ofi srv, cli;
	struct gd_wire_conn si[NQP], ci[NQP];
	struct gd_qp_run q[NQP];
	uint8_t *sbuf, *cbuf;
	pthread_t progress;
	uint32_t sthreads;	/* the passive side's threads: 1 (the test's serve) or NTHR (its own) */
	bool serving;	/* progress started (leave joins it) */
	bool absent;	/* the provider is not offered here: a skip, not a failure */
	int stop;
};

static int skipped; /* providers that could not run here: both, exit 77 */

static void *serve(void *arg)
{
	struct side2 *s = arg;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE))
		gd_ofi_progress(&s->srv);
	return NULL;
}

static int open_side(struct side2 *s, struct gd_ofi *f, bool server, uint32_t threads, void *buf)
{
	/* a client's endpoints are its proxy threads' (threaded), the server's its own */
	struct gd_ofi_cfg c = { .o = &s->o, .op = GD_OP_WRITE, .server = server, .nqp = NQP,
				.tx_depth = 64, .rx_depth = 64, .threads = threads,
				.threaded = !server, .timeout_ms = 20000 };
	int ret = gd_ofi_open(f, &c);

	/* only the server's open may find the provider absent: every later step
	 * failing is this code's fault (a domain's AV, MR key, endpoint) */
	if (server)
		s->absent = ret != 0;
	ret = ret ?: gd_ofi_reg(f, buf, NQP * SLOT);
	return ret ?: gd_ofi_create_eps(f);
}

/* Both sides open, the server progressing, every client endpoint connected;
 * the client's domains are nthr threads'. */
static int join(struct side2 *s, const char *prov, uint32_t nthr)
{
	int ret;

	gd_fabric_opts_defaults(&s->o);
	s->o.fabric = GD_FABRIC_OFI;
	snprintf(s->o.provider, sizeof(s->o.provider), "%s", prov);
	s->sbuf = calloc(NQP, SLOT);
	s->cbuf = calloc(NQP, SLOT);
	if (!s->sbuf || !s->cbuf)
		return -ENOMEM;
	ret = open_side(s, &s->srv, true, s->sthreads, s->sbuf);
	ret = ret ?: open_side(s, &s->cli, false, nthr, s->cbuf);
	for (uint32_t i = 0; !ret && i < NQP; i++) {
		ret = gd_ofi_local_info(&s->srv, i, (uintptr_t)(s->sbuf + i * SLOT), &s->si[i]);
		ret = ret ?: gd_ofi_local_info(&s->cli, i, (uintptr_t)(s->cbuf + i * SLOT), &s->ci[i]);
		ret = ret ?: gd_ofi_connect(&s->srv, i, &s->ci[i]);
	}
	if (ret)
		return ret;
	if (s->sthreads > 1) /* the passive side's own threads, as bench_ofi.c starts them */
		ret = gd_ofi_progress_start(&s->srv);
	else if (pthread_create(&s->progress, NULL, serve, s))
		return -EAGAIN;
	else
		s->serving = true;
	for (uint32_t i = 0; !ret && i < NQP; i++) {
		ret = gd_ofi_connect(&s->cli, i, &s->si[i]);
		s->q[i].index = i;
		s->q[i].local_addr = (uintptr_t)(s->cbuf + i * SLOT);
		s->q[i].remote_addr = s->si[i].vaddr;
		gd_ofi_qp_run(&s->cli, i, &s->q[i], &s->si[i]);
	}
	return ret;
}

static void leave(struct side2 *s)
{
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	if (s->serving)
		pthread_join(s->progress, NULL);
	gd_ofi_progress_stop(&s->srv);
	gd_ofi_close(&s->cli);
	gd_ofi_close(&s->srv);
	free(s->sbuf);
	free(s->cbuf);
}

/* The address QP i posts to, looked up in its domain's AV, is the peer's endpoint i. */
static void assert_dest_in_domain(struct side2 *s, uint32_t i, struct gd_ofi_dom *d)
{
	uint8_t addr[sizeof(s->si[i].fab_addr)];
	size_t len = sizeof(addr);

	assert_int_equal(fi_av_lookup(d->av, (fi_addr_t)s->q[i].fab_dest, addr, &len), 0);
	assert_int_equal(len, s->si[i].fab_addr_len);
	assert_memory_equal(addr, s->si[i].fab_addr, len);
}

/* The passive side's domains (sthreads of them): endpoint i in domain
 * i % sthreads, the key its blob sent that domain's registration's; with
 * several, a progress thread each, and the side channel's progress call
 * (gd_ofi_progress) leaves them alone: paced, it would take its turn
 * (last_ns), and it does not. */
static void assert_passive(struct side2 *s)
{
	assert_int_equal(s->srv.ndom, s->sthreads);
	assert_int_equal(s->srv.nprog, s->sthreads > 1 ? s->sthreads : 0);
	for (uint32_t i = 0; i < NQP; i++) {
		struct gd_ofi_dom *d = &s->srv.dom[i % s->sthreads];

		assert_ptr_equal(gd_ofi_dom_of(&s->srv, i), d);
		assert_true(s->si[i].fab_key == fi_mr_key(d->mr));
	}
	if (s->sthreads < 2)
		return;
	for (uint32_t t = 0; t < s->sthreads; t++)
		assert_int_equal(s->srv.prog[t].index, t);
	__atomic_store_n(&s->srv.pace_ns, 1, __ATOMIC_RELAXED);
	gd_ofi_progress(&s->srv);
	assert_true(s->srv.last_ns == 0);
}

static void assert_layout(struct side2 *s)
{
	assert_passive(s);
	assert_int_equal(s->cli.ndom, NTHR);
	for (uint32_t t = 0; t < NTHR; t++)
		for (uint32_t u = t + 1; u < NTHR; u++) {
			assert_ptr_not_equal(s->cli.dom[t].domain, s->cli.dom[u].domain);
			assert_ptr_not_equal(s->cli.dom[t].mr, s->cli.dom[u].mr);
			/* each registration its own key (asked distinct where the
			 * provider does not choose them) */
			assert_true(s->cli.dom[t].key != s->cli.dom[u].key);
		}
	for (uint32_t i = 0; i < NQP; i++) {
		struct gd_ofi_dom *d = &s->cli.dom[i % NTHR];

		assert_ptr_equal(gd_ofi_dom_of(&s->cli, i), d);
		assert_ptr_equal(s->q[i].fab_desc, fi_mr_desc(d->mr));
		assert_ptr_equal(s->q[i].fab_cq, &d->scq);
		assert_true(s->ci[i].fab_key == fi_mr_key(d->mr));
		assert_true(s->q[i].fab_key == s->si[i].fab_key);
		assert_dest_in_domain(s, i, d);
	}
}

struct thr {
	struct side2 *s;
	uint32_t t;
	int ret;
};

/* Thread t writes each of its QPs' region (QP i % NTHR == t) and waits for
 * each completion on its own domain's CQ. */
static void *writer(void *arg)
{
	struct thr *w = arg;

	for (uint32_t i = w->t; i < NQP && !w->ret; i += NTHR) {
		struct gd_qp_run *q = &w->s->q[i];
		struct ibv_sge sge = { .addr = q->local_addr, .length = SLOT };
		struct ibv_send_wr wr = { .wr_id = i + 1, .sg_list = &sge, .num_sge = 1,
					  .opcode = IBV_WR_RDMA_WRITE,
					  .send_flags = IBV_SEND_SIGNALED };
		struct gd_fab_cqe c = { 0 };
		int n = 0;

		wr.wr.rdma.remote_addr = q->remote_addr;
		memset((void *)(uintptr_t)q->local_addr, 0x40 + (int)i, SLOT);
		w->ret = gd_fabric_ofi.post_wrs(q, &wr, 1);
		for (long spin = 0; !w->ret && !n && spin < 200000000L; spin++)
			n = gd_fabric_ofi.poll(q->fab_cq, &c, 1);
		if (!w->ret)
			w->ret = n == 1 && !c.status && c.id == i + 1 ? 0 : -EIO;
	}
	return NULL;
}

/* join, or skip a provider not offered here (said on stderr) */
static struct side2 *join_or_skip(const char *prov, uint32_t sthreads, uint32_t nthr)
{
	struct side2 *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->sthreads = sthreads;
	if (join(s, prov, nthr)) {
		bool absent = s->absent;

		leave(s);
		free(s);
		if (!absent)
			fail_msg("%s: the provider opened, then a step of one domain per thread failed "
				 "(said on stderr)", prov);
		skipped++;
		skip();
	}
	return s;
}

/* One proxy thread: QP 0's write posted (as the thread does), the main thread's
 * idle hook called again and again meanwhile (the side channel waiting), then
 * the thread's own poll finds its completion: the hook took none of it. */
static void one_thread_keeps_its_cq(const char *prov)
{
	struct side2 *s = join_or_skip(prov, 1, 1);
	struct gd_qp_run *q = &s->q[0];
	struct ibv_sge sge = { .addr = q->local_addr, .length = SLOT };
	struct ibv_send_wr wr = { .wr_id = 7, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED };
	struct gd_fab_cqe c = { 0 };
	uint64_t end;
	bool landed = true;
	int n = 0;

	assert_int_equal(s->cli.ndom, 1);
	wr.wr.rdma.remote_addr = q->remote_addr;
	memset((void *)(uintptr_t)q->local_addr, 0x5a, SLOT);
	assert_int_equal(gd_fabric_ofi.post_wrs(q, &wr, 1), 0);
	end = gd_now_ns() + 200000000ull; /* 0.2 s of the hook: the write is long done */
	while (gd_now_ns() < end)
		gd_ofi_progress_tx(&s->cli);
	end = gd_now_ns() + 5000000000ull;
	while (!n && gd_now_ns() < end)
		n = gd_fabric_ofi.poll(q->fab_cq, &c, 1);
	for (uint32_t b = 0; b < SLOT; b++)
		landed = landed && s->sbuf[b] == 0x5a;
	leave(s);
	free(s);
	if (n != 1 || c.status || c.id != 7)
		fail_msg("%s: the thread's write completion is gone (%d found): the side "
			 "channel's idle hook read its send CQ", prov, n);
	assert_true(landed);
}

static void run_provider(const char *prov, uint32_t sthreads)
{
	struct side2 *s = join_or_skip(prov, sthreads, NTHR);
	struct thr w[NTHR];
	pthread_t th[NTHR];

	assert_layout(s);
	for (uint32_t t = 0; t < NTHR; t++) {
		w[t] = (struct thr){ .s = s, .t = t };
		assert_int_equal(pthread_create(&th[t], NULL, writer, &w[t]), 0);
	}
	for (uint32_t t = 0; t < NTHR; t++) {
		pthread_join(th[t], NULL);
		assert_int_equal(w[t].ret, 0);
	}
	for (uint32_t i = 0; i < NQP; i++)
		for (uint32_t b = 0; b < SLOT; b++)
			assert_int_equal(s->sbuf[i * SLOT + b], 0x40 + i);
	if (sthreads > 1) { /* joined: the caller's progress drives again */
		assert_int_equal(gd_ofi_progress_stop(&s->srv), 0);
		assert_int_equal(s->srv.nprog, 0);
		gd_ofi_progress(&s->srv);
		assert_true(s->srv.last_ns != 0);
	}
	leave(s);
	free(s);
}

static void test_shm(void **state)
{
	(void)state;
	run_provider("shm", 1);
}

static void test_tcp(void **state)
{
	(void)state;
	run_provider("tcp", 1);
}

static void test_shm_passive_threads(void **state)
{
	(void)state;
	run_provider("shm", NTHR);
}

static void test_tcp_passive_threads(void **state)
{
	(void)state;
	run_provider("tcp", NTHR);
}

static void test_one_thread_shm(void **state)
{
	(void)state;
	one_thread_keeps_its_cq("shm");
}

static void test_one_thread_tcp(void **state)
{
	(void)state;
	one_thread_keeps_its_cq("tcp");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shm),
		cmocka_unit_test(test_tcp),
		cmocka_unit_test(test_shm_passive_threads),
		cmocka_unit_test(test_tcp_passive_threads),
		cmocka_unit_test(test_one_thread_shm),
		cmocka_unit_test(test_one_thread_tcp),
	};

	int ret;

	if (gd_ofi_lib_require())
		return SKIPPED;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	return !ret && skipped == 6 ? SKIPPED : ret;
}
