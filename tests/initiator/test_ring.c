/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The proxy ring end to end on the host: host producer threads -> rings ->
 * proxy threads -> the software transport test double, with validation of
 * every byte and counter. Built twice by make check: plainly, and with
 * ThreadSanitizer (tests/initiator/ring-tsan.sh).
 *
 * Cases: wrap (tiny rings, many laps), back-pressure (2 slots, many
 * producers), credits (every slot / a whole ring at once), send-queue
 * depth 1, quiet after every put, random sizes, many producers and proxy
 * threads with CAS sequences, an injected completion error (error word),
 * a producer deadline with no proxy (ring indices reported), stop; the
 * proxy's moderation (-Q): fewer completions, none lost at a quiet, no
 * send queue left full without a signalled request.
 * Prints one line per case; exit 0 when all pass, 1 otherwise.
 */
#include "config.h"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostprod.h"
#include "proxy.h"

static int failures;

#define CHECK(cond, ...)                                                                     \
	do {                                                                                 \
		if (!(cond)) {                                                               \
			printf("  FAIL %s:%d: ", __FILE__, __LINE__);                          \
			printf(__VA_ARGS__);                                                 \
			printf("\n");                                                        \
			failures++;                                                          \
			return -1;                                                           \
		}                                                                            \
	} while (0)

struct tc {
	const char *name;
	uint32_t op, size, proxy_threads, qps, slots, credit_batch, batch, sq_depth;
	uint32_t groups, group_size, prod_threads, regions;
	uint64_t per_group, fail_after, timeout_ms;
	bool no_proxy, stop;
	uint64_t delay_ns;
	uint64_t want_code;
	uint32_t sig_every;       /* the proxy's moderation (-Q), 0: every chain signalled */
	uint64_t max_completions; /* 0: not checked */
};

struct env {
	uint8_t *local, *peer;
	uint64_t bytes, region;
	struct gd_sw_transport *sw;
	struct gd_proxy *px;
	struct gd_ring_fail fail;
	struct gd_prod_args a;
};

static uint8_t pattern(uint64_t i)
{
	return (uint8_t)(i * 131 + 7);
}

static int setup(const struct tc *c, struct env *e)
{
	struct gd_proxy_cfg cfg = { 0 };

	memset(e, 0, sizeof(*e));
	e->region = (c->size + 63) / 64 * 64;
	e->bytes = e->region * c->regions;
	e->local = calloc(1, e->bytes);
	e->peer = calloc(1, e->bytes);
	for (uint64_t i = 0; i < e->bytes; i++) {
		e->local[i] = c->op == GD_DESC_READ ? 0 : pattern(i);
		e->peer[i] = c->op == GD_DESC_READ ? pattern(i) : 0;
	}
	e->sw = gd_sw_transport_create(e->local, e->peer, e->bytes, c->qps, c->proxy_threads,
				       c->qps * (c->sq_depth + 1) + 8, c->fail_after);
	cfg.nthreads = c->proxy_threads;
	cfg.nqps = c->qps;
	cfg.ring_slots = c->slots;
	cfg.credit_batch = c->credit_batch;
	cfg.batch = c->batch;
	cfg.sq_depth = c->sq_depth;
	cfg.sig_every = c->sig_every;
	cfg.timeout_ns = c->timeout_ms * 1000000ull;
	gd_sw_transport_set_delay(e->sw, c->delay_ns);
	cfg.tp = gd_sw_transport_tp(e->sw);
	e->px = gd_proxy_create(&cfg);
	CHECK(e->sw && e->px && e->local && e->peer, "setup");
	gd_proxy_ring_set(e->px, &e->a.set);
	e->a.op = c->op;
	e->a.group_size = c->group_size;
	e->a.ngroups = c->groups;
	e->a.nregions = c->regions;
	e->a.size = c->size;
	e->a.per_group = c->per_group;
	e->a.region_bytes = e->region;
	e->a.fail = &e->fail;
	return 0;
}

static void teardown(struct env *e)
{
	gd_proxy_destroy(e->px);
	gd_sw_transport_destroy(e->sw);
	free(e->local);
	free(e->peer);
}

/* Every region holds what the op must have left there. */
static int validate(const struct tc *c, const struct env *e)
{
	for (uint32_t r = 0; r < c->regions; r++) {
		uint64_t o = r * e->region, groups = 0, w;

		for (uint32_t g = r; g < c->groups; g += c->regions)
			groups++;
		if (!groups)
			continue;
		switch (c->op) {
		case GD_DESC_WRITE:
		case GD_DESC_READ:
			for (uint64_t i = o; i < o + c->size; i++)
				CHECK((c->op == GD_DESC_READ ? e->local[i] : e->peer[i]) == pattern(i),
				      "region %u byte %" PRIu64 " wrong", r, i - o);
			break;
		case GD_DESC_FADD:
		case GD_DESC_CAS:
			memcpy(&w, e->peer + o, 8);
			CHECK(w == groups * c->per_group, "region %u counter %" PRIu64 ", want %" PRIu64,
			      r, w, groups * c->per_group);
			break;
		}
	}
	return 0;
}

static int run_case(const struct tc *c)
{
	struct env e;
	uint64_t ns = 0, total = (uint64_t)c->groups * c->per_group;
	struct gd_proxy_stats st;
	char msg[512];
	int code;

	if (setup(c, &e))
		return -1;
	if (c->stop)
		gd_proxy_stop_producers(e.px);
	if (!c->no_proxy)
		CHECK(gd_proxy_start(e.px) == 0, "start");
	code = gd_host_prod_run(&e.a, c->prod_threads, NULL, 0, &ns);
	gd_proxy_join(e.px);
	gd_proxy_get_stats(e.px, &st);
	if (code)
		gd_proxy_describe_fail(&e.fail, msg, sizeof(msg));
	else
		snprintf(msg, sizeof(msg), "ok");
	CHECK((uint64_t)code == c->want_code, "%s: code %d, want %" PRIu64 " (%s)", c->name, code,
	      c->want_code, msg);
	if (!code) {
		CHECK(st.requests == total, "requests %" PRIu64 " != %" PRIu64, st.requests, total);
		CHECK(gd_sw_transport_executed(e.sw) == total, "executed");
		CHECK(st.chains <= total, "chains");
		CHECK(st.completions && (!c->max_completions || st.completions <= c->max_completions),
		      "%" PRIu64 " completions in %" PRIu64 " chains, want 1..%" PRIu64, st.completions,
		      st.chains, c->max_completions);
		if (validate(c, &e))
			return -1;
		printf("ok   %-28s %8" PRIu64 " requests, %6" PRIu64 " chains, %6" PRIu64
		       " signalled, %.2f M/s\n", c->name, total, st.chains, st.completions,
		       ns ? (double)total * 1e3 / (double)ns : 0);
	} else {
		uint64_t err = gd_proxy_error(e.px);
		char em[256];

		gd_proxy_describe(e.px, err, em, sizeof(em));
		if (c->fail_after) {
			CHECK(gd_err_kind(err) == GD_ERR_COMPLETION &&
			      gd_err_status(err) == GD_SW_STATUS_FAULT, "error word %#" PRIx64, err);
			CHECK(strstr(em, "injected fault") && strstr(em, "QP 0x"), "message: %s", em);
			/* the hint is the run's fabric's (here the double's), not verbs' list */
			CHECK(gd_proxy_hint(e.px, err) &&
			      strstr(gd_proxy_hint(e.px, err), "the test asked for this fault"),
			      "hint: %s", gd_proxy_hint(e.px, err) ? gd_proxy_hint(e.px, err) : "none");
		}
		if (c->no_proxy)
			CHECK(e.fail.code == c->want_code && e.fail.credit == 0 &&
			      e.fail.head > c->slots, "fail record: %s", msg);
		printf("ok   %-28s failed as expected: %s%s%s\n", c->name, msg, err ? "; " : "",
		       err ? em : "");
	}
	teardown(&e);
	return 0;
}

/* Random sizes: each producer thread writes requests of random length into
 * its own region; the peer region must hold the pattern up to the longest. */
struct rnd_thread {
	struct env *e;
	uint32_t index;
	uint64_t maxsize, code;
	pthread_t tid;
};

static void *rnd_main(void *arg)
{
	struct rnd_thread *t = arg;
	const struct gd_prod_args *a = &t->e->a;
	uint32_t ring = gd_ring_of_channel(&a->set, t->index);
	uint64_t cache = 0, seed = 0x9e3779b97f4a7c15ull * (t->index + 1);

	for (int i = 0; i < 3000 && !t->code; i++) {
		struct gd_req r = { .op = GD_DESC_WRITE, .channel = t->index };
		uint64_t w[GD_DESC_WORDS] = { 0 }, idx;
		struct gd_ring_fail f = { 0 };

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		r.size = 1 + (seed >> 33) % t->e->region;
		r.local = r.remote = t->index * t->e->region;
		if (r.size > t->maxsize)
			t->maxsize = r.size;
		gd_desc_encode(&r, 0, w);
		idx = gd_ring_reserve(&a->set.ring[ring], 1);
		t->code = gd_ring_wait_space(&a->set, ring, idx, 1, &cache, &f);
		if (!t->code)
			gd_ring_put(&a->set.ring[ring], idx, w);
	}
	return NULL;
}

static int random_sizes(void)
{
	struct tc c = { "random sizes", GD_DESC_WRITE, 1000, 2, 4, 16, 0, 0, 32, 6, 1, 6, 6, 0,
			0, 20000 };
	struct rnd_thread th[6];
	struct gd_ring_fail f = { 0 };
	struct env e;

	if (setup(&c, &e))
		return -1;
	CHECK(gd_proxy_start(e.px) == 0, "start");
	for (uint32_t i = 0; i < 6; i++) {
		th[i] = (struct rnd_thread){ .e = &e, .index = i };
		pthread_create(&th[i].tid, NULL, rnd_main, &th[i]);
	}
	for (uint32_t i = 0; i < 6; i++)
		pthread_join(th[i].tid, NULL);
	CHECK(gd_ring_quiet(&e.a.set, &f) == 0, "quiet");
	gd_proxy_join(e.px);
	for (uint32_t i = 0; i < 6; i++) {
		uint64_t o = i * e.region;

		CHECK(!th[i].code, "producer %u: code %" PRIu64, i, th[i].code);
		for (uint64_t k = 0; k < e.region; k++)
			CHECK(e.peer[o + k] == (k < th[i].maxsize ? pattern(o + k) : 0),
			      "region %u byte %" PRIu64, i, k);
	}
	printf("ok   %-28s %8u requests, sizes 1..%" PRIu64 "\n", c.name, 6 * 3000, e.region);
	teardown(&e);
	return 0;
}

/* Put + quiet round trips: after each quiet, done has reached head (with
 * moderation too: the last chain before the ring runs dry is signalled). */
static int quiet_each(uint32_t sig_every)
{
	struct tc c = { sig_every ? "quiet after every put, -Q 100" : "quiet after every put",
			GD_DESC_WRITE, 64, 1, 1, 8, 0, 0, 16, 1, 1, 1, 1, 0, 0, 20000,
			.sig_every = sig_every };
	uint64_t s[2000];
	struct env e;

	if (setup(&c, &e))
		return -1;
	CHECK(gd_proxy_start(e.px) == 0, "start");
	CHECK(gd_host_prod_lat(&e.a, 2000, s) == 0, "lat");
	CHECK(gd_hd_load_acq(e.a.set.ring[0].done) == 2000 &&
	      gd_hd_load_acq(e.a.set.ring[0].head) == 2000, "done/head after the last quiet");
	gd_proxy_join(e.px);
	printf("ok   %-28s %8u round trips\n", c.name, 2000);
	teardown(&e);
	return 0;
}

int main(void)
{
	const struct tc cases[] = {
		{ "wrap, warp scope", GD_DESC_WRITE, 256, 1, 1, 32, 0, 0, 64, 4, 32, 4, 4, 3000 },
		{ "back-pressure, 2 slots", GD_DESC_FADD, 8, 1, 1, 2, 1, 0, 16, 8, 1, 8, 8, 2000 },
		{ "credits once per ring", GD_DESC_WRITE, 64, 1, 2, 64, 64, 0, 128, 6, 32, 3, 6, 500 },
		{ "send queue depth 1", GD_DESC_WRITE, 8, 2, 2, 32, 4, 64, 1, 4, 1, 4, 4, 2000 },
		{ "read, block scope", GD_DESC_READ, 4096, 2, 4, 256, 0, 0, 32, 8, 64, 4, 8, 200 },
		/* a send's place rides in the WR's rdma field (transport.c build_wr) */
		{ "send, block scope", GD_DESC_SEND, 256, 2, 4, 256, 0, 0, 32, 8, 64, 4, 8, 200 },
		{ "cas, 4 proxy x 8 QPs", GD_DESC_CAS, 8, 4, 8, 64, 0, 0, 64, 16, 1, 8, 16, 2000 },
		{ "fadd, many producers", GD_DESC_FADD, 8, 3, 6, 128, 0, 16, 32, 24, 32, 12, 5, 300 },
		{ "injected completion error", GD_DESC_WRITE, 64, 2, 2, 64, 0, 0, 16, 4, 1, 4, 4,
		  100000, 500, 5000, .want_code = GD_RING_FAULT },
		{ "producer deadline, no proxy", GD_DESC_WRITE, 64, 1, 1, 16, 0, 0, 16, 2, 1, 2, 2, 100,
		  0, 300, .no_proxy = true, .want_code = GD_RING_TIMEOUT_SPACE },
		/* 2048 x 2 ms = 4 s of steady progress against a 2 s no-progress deadline
		 * (2 s, not less: on a loaded 2-core machine one step stalled past 1 s,
		 * stop 26); the ring holds every request, so only quiet waits */
		{ "slow link, 2 s deadline", GD_DESC_WRITE, 64, 1, 1, 2048, 0, 0, 64, 1, 32, 1, 1,
		  2048, 0, 2000, .delay_ns = 2000000 },
		{ "stop", GD_DESC_WRITE, 64, 1, 1, 4, 0, 0, 16, 2, 1, 2, 2, 100, 0, 5000,
		  .no_proxy = true, .stop = true, .want_code = GD_RING_STOPPED },
		/* moderation (-Q, proxy.c chain_signalled). 6400 requests on a ring that
		 * holds them all, a slow link so that the ring stays full: one chain in
		 * 100 requests signalled (64), a few more where the proxy caught up with
		 * the producer; signalling every chain of 64 is 100 */
		{ "-Q 100, 1 QP", GD_DESC_WRITE, 8, 1, 1, 8192, 0, 64, 128, 1, 1, 1, 1, 6400,
		  .delay_ns = 2000, .sig_every = 100, .max_completions = 90 },
		/* -Q above the send queue: the chain that fills it is signalled */
		{ "-Q 100, send queue 8", GD_DESC_WRITE, 8, 1, 1, 64, 0, 64, 8, 4, 32, 4, 4, 1000,
		  .sig_every = 100 },
		/* several QPs a thread: a chain of each waits for a later one of its own;
		 * 64000 requests, 1600 at -Q 40, ~8000 signalling every chain of 16 */
		{ "-Q 40, 4 proxy x 8 QPs, cas", GD_DESC_CAS, 8, 4, 8, 256, 0, 16, 64, 16, 1, 8, 16,
		  4000, .delay_ns = 2000, .sig_every = 40, .max_completions = 3000 },
		{ "-Q 20, 2 proxy x 6 QPs, read", GD_DESC_READ, 4096, 2, 6, 256, 0, 8, 32, 12, 64, 4,
		  12, 200, .sig_every = 20 },
		/* at most the batch: every chain signalled, as without moderation */
		{ "-Q 16, batch 16, cas", GD_DESC_CAS, 8, 1, 2, 64, 0, 16, 64, 4, 1, 4, 4, 2000,
		  .sig_every = 16 },
	};

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tc c = cases[i];

		if (!c.timeout_ms)
			c.timeout_ms = 20000;
		run_case(&c);
	}
	random_sizes();
	quiet_each(0);
	quiet_each(100);
	printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
	return failures ? 1 : 0;
}
