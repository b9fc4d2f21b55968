/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The GPU tier of the proxy ring: producers (the CUDA kernel, or host
 * threads) -> rings -> proxy threads -> the SOFTWARE TRANSPORT TEST DOUBLE
 * (memcpy and atomics on a peer buffer in this process: the GPU machine has
 * no NIC). Prints one result line; --validate checks every region.
 *
 *   gd_proxy_gpu [--producer gpu|host] [--op write|read|fadd|cas] [--size N]
 *                [--scope thread|warp|block] [--ctas N] [--threads N]
 *                [--proxy_threads N] [--ring_slots N] [--requests N per group]
 *                [--validate] [--lat N] [--timeout SEC] [--fail_after N]
 *                [--pin_cores LIST] [--trap_after N] [--fence] [--provider P]
 * --provider P: the proxy posts through libfabric provider P (shm, tcp) to a
 * second endpoint set in this process (proxy_loop_ofi.h) instead of the
 * software transport test double: the tools' transport, one proxy thread.
 * --fence: one system fence per reservation (prod.h fence_payload), what a
 * producer that writes its payload in the kernel pays; gdperf's do not.
 * --trap_after N: FAULT INJECTION, group 0 of the GPU producer traps at its
 * N-th request (the kernel fails; the program must exit 1, the GPU stay usable).
 *
 * Exit: 0 ok, 1 failed (validation, fault, deadline), 2 usage, 3 no GPU or
 * built without nvcc (GPU producer only).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gd.h"
#include "gpu_prod.h"
#include "hostprod.h"
#ifdef HAVE_LIBFABRIC
#include "proxy_loop_ofi.h"
#endif
#include "log.h"
#include "proxy.h"

struct cfg {
	bool gpu, validate, fence;
	char provider[32];	/* "" = the software transport test double */
	uint32_t op, size, ctas, threads, proxy_threads, slots, ncores;
	enum gd_scope scope;
	uint64_t requests, lat, timeout_s, fail_after, trap_after;
	int cores[GD_RING_MAX];
};

struct env {
	struct cfg *c;
	struct gd_gpu_prod *gp;
	uint8_t *local, *peer;
	uint64_t region, bytes;
	uint32_t groups, nregions;
	struct gd_sw_transport *sw;
	struct gd_ofi_loop *ofi;
	char tp_name[64];
	struct gd_proxy *px;
	struct gd_ring_fail *fail, *fail_dev;
	struct gd_prod_clock *clock; /* host view; after the failure record */
	struct gd_prod_args a;
};

/* What the producers write besides the ring (mapped memory for the GPU). */
struct shared {
	struct gd_ring_fail fail;
	struct gd_prod_clock clock;
};

static uint8_t pattern(uint64_t i)
{
	return (uint8_t)(i * 131 + 7);
}

static int usage(const char *why)
{
	fprintf(stderr, "gd_proxy_gpu: %s\nusage: gd_proxy_gpu [--producer gpu|host] [--op "
		"write|read|fadd|cas] [--size N] [--scope thread|warp|block] [--ctas N] [--threads N] "
		"[--proxy_threads N] [--ring_slots N] [--requests N] [--validate] [--lat N] "
		"[--timeout SEC] [--fail_after N] [--trap_after N] [--pin_cores LIST] [--fence] "
		"[--provider P]\n", why);
	return GD_EXIT_USAGE;
}

static int pick(const char *arg, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(arg, names[i]))
			return i;
	return -1;
}

static int parse(int argc, char **argv, struct cfg *c)
{
	static const char *const ops[] = { "write", "read", "fadd", "cas" };
	static const uint32_t opv[] = { GD_DESC_WRITE, GD_DESC_READ, GD_DESC_FADD, GD_DESC_CAS };
	static const char *const scopes[] = { "thread", "warp", "block" };
	static const struct option lo[] = {
		{ "producer", 1, 0, 'P' }, { "op", 1, 0, 'o' }, { "size", 1, 0, 's' },
		{ "scope", 1, 0, 'S' }, { "ctas", 1, 0, 'c' }, { "threads", 1, 0, 't' },
		{ "proxy_threads", 1, 0, 'p' }, { "ring_slots", 1, 0, 'r' },
		{ "requests", 1, 0, 'n' }, { "validate", 0, 0, 'v' }, { "lat", 1, 0, 'l' },
		{ "timeout", 1, 0, 'T' }, { "fail_after", 1, 0, 'f' }, { "pin_cores", 1, 0, 'C' },
		{ "trap_after", 1, 0, 'X' }, { "fence", 0, 0, 'F' }, { "provider", 1, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	int o, i;

	*c = (struct cfg){ .gpu = true, .op = GD_DESC_WRITE, .size = 8, .ctas = 1, .threads = 32,
			   .proxy_threads = 1, .slots = 1024, .scope = GD_SCOPE_WARP,
			   .requests = 4096, .timeout_s = 10 };
	while ((o = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (o) {
		case 'P': c->gpu = !strcmp(optarg, "gpu"); if (!c->gpu && strcmp(optarg, "host")) return usage("--producer: gpu or host"); break;
		case 'o': if ((i = pick(optarg, ops, 4)) < 0) return usage("--op: write, read, fadd or cas"); c->op = opv[i]; break;
		case 's': c->size = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'S': if ((i = pick(optarg, scopes, 3)) < 0) return usage("--scope: thread, warp or block"); c->scope = (enum gd_scope)i; break;
		case 'c': c->ctas = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 't': c->threads = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'p': c->proxy_threads = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'r': c->slots = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'n': c->requests = strtoull(optarg, NULL, 0); break;
		case 'v': c->validate = true; break;
		case 'l': c->lat = strtoull(optarg, NULL, 0); break;
		case 'T': c->timeout_s = strtoull(optarg, NULL, 0); break;
		case 'f': c->fail_after = strtoull(optarg, NULL, 0); break;
		case 'X': c->trap_after = strtoull(optarg, NULL, 0); break;
		case 'F': c->fence = true; break;
		case 'V': snprintf(c->provider, sizeof(c->provider), "%s", optarg); break;
		case 'C': for (char *s = optarg; *s && c->ncores < GD_RING_MAX; s++) { c->cores[c->ncores++] = (int)strtol(s, &s, 10); if (!*s) break; } break;
		default: return usage("unknown option");
		}
	}
	if (!c->size || !c->ctas || !c->threads || c->threads > 1024 || !c->requests ||
	    !c->timeout_s || (c->scope == GD_SCOPE_WARP && c->threads % 32))
		return usage("sizes, counts and the timeout must be positive; --threads 1-1024, "
			     "a multiple of 32 for --scope warp");
	if (c->provider[0] && (c->proxy_threads != 1 || c->fail_after))
		return usage("--provider runs one proxy thread (its domain is FI_THREAD_DOMAIN, as "
			     "the tools' with one proxy thread) and no --fail_after (a test "
			     "double's fault)");
	return 0;
}

static uint32_t group_size(const struct cfg *c)
{
	return c->scope == GD_SCOPE_THREAD ? 1 : c->scope == GD_SCOPE_WARP ? 32 : c->threads;
}

/* The software transport test double, or libfabric provider c->provider
 * with the tools' send queue depth (128) and chain length (64). */
static int open_transport(struct env *e, const struct cfg *c, struct gd_proxy_cfg *pc)
{
	if (!c->provider[0]) {
		e->sw = gd_sw_transport_create(e->local, e->peer, e->bytes, c->proxy_threads,
					       c->proxy_threads, 4 * 1024 + 8, c->fail_after);
		if (!e->sw)
			return -ENOMEM;
		pc->tp = gd_sw_transport_tp(e->sw);
		pc->sq_depth = 4096;
		snprintf(e->tp_name, sizeof(e->tp_name), "software transport (test double)");
		return 0;
	}
#ifdef HAVE_LIBFABRIC
	pc->sq_depth = 128;
	pc->batch = 64;
	snprintf(e->tp_name, sizeof(e->tp_name), "libfabric %s (in-process loopback)", c->provider);
	return gd_ofi_loop_open(&e->ofi, c->provider, c->op, 1, e->local, e->peer, e->bytes,
				pc->batch, &pc->tp);
#else
	fprintf(stderr, "gd_proxy_gpu: --provider: built without libfabric\n");
	return -ENOTSUP;
#endif
}

static int setup(struct env *e, struct cfg *c)
{
	struct gd_proxy_cfg pc = { 0 };
	void *dev = NULL;

	e->c = c;
	e->groups = c->lat ? 1 : c->ctas * (c->threads / group_size(c));
	e->nregions = c->op == GD_DESC_CAS ? e->groups : GD_MIN(e->groups, 4096u);
	e->region = (c->size + 63) / 64 * 64;
	e->bytes = e->region * e->nregions;
	e->local = malloc(e->bytes);
	e->peer = malloc(e->bytes);
	if (!e->local || !e->peer)
		return -ENOMEM;
	for (uint64_t i = 0; i < e->bytes; i++) {
		e->local[i] = c->op == GD_DESC_READ ? 0 : pattern(i);
		e->peer[i] = c->op == GD_DESC_READ ? pattern(i) : 0;
	}
	if (open_transport(e, c, &pc))
		return -EINVAL;
	pc.nthreads = c->proxy_threads;
	pc.nqps = c->proxy_threads;
	pc.ring_slots = c->slots;
	pc.timeout_ns = c->timeout_s * 1000000000ull;
	pc.cores = c->ncores ? c->cores : NULL;
	pc.ncores = c->ncores;
	pc.mem = e->gp ? gd_gpu_prod_ring_mem(e->gp) : NULL;
	e->px = gd_proxy_create(&pc);
	if (!e->px)
		return -EINVAL;
	if (e->gp)
		e->fail = gd_gpu_prod_mapped(e->gp, sizeof(struct shared), &dev);
	else
		e->fail = dev = calloc(1, sizeof(struct shared));
	if (!e->fail)
		return -ENOMEM;
	e->fail_dev = &((struct shared *)dev)->fail;
	e->clock = &((struct shared *)e->fail)->clock;
	gd_proxy_ring_set(e->px, &e->a.set);
	e->a = (struct gd_prod_args){ .set = e->a.set, .op = c->op, .group_size = group_size(c),
				      .ngroups = e->groups, .nregions = e->nregions, .size = c->size,
				      .per_group = c->lat ? c->lat : c->requests,
				      .region_bytes = e->region, .fail = e->fail_dev,
				      .clock = &((struct shared *)dev)->clock,
				      .trap_after = c->trap_after, .fence_payload = c->fence };
	return gd_proxy_start(e->px);
}

static void teardown(struct env *e)
{
	gd_proxy_destroy(e->px);
	gd_sw_transport_destroy(e->sw);
#ifdef HAVE_LIBFABRIC
	gd_ofi_loop_close(e->ofi);
#endif
	if (e->gp)
		gd_gpu_prod_free_mapped(e->gp, e->fail);
	else
		free(e->fail);
	free(e->local);
	free(e->peer);
}

static int validate(const struct env *e)
{
	const struct cfg *c = e->c;

	for (uint32_t r = 0; r < e->nregions; r++) {
		uint64_t o = r * e->region, groups = 0, w;

		for (uint32_t g = r; g < e->groups; g += e->nregions)
			groups++;
		if (c->op == GD_DESC_WRITE || c->op == GD_DESC_READ) {
			const uint8_t *b = c->op == GD_DESC_READ ? e->local : e->peer;

			for (uint64_t i = o; i < o + c->size; i++)
				if (b[i] != pattern(i)) {
					gd_error("validation failed: region %u byte %" PRIu64 " is 0x%02x, "
						 "expected 0x%02x", r, i - o, b[i], pattern(i));
					return -1;
				}
		} else {
			memcpy(&w, e->peer + o, 8);
			if (w != groups * e->a.per_group) {
				gd_error("validation failed: region %u counter %" PRIu64 ", expected %"
					 PRIu64, r, w, groups * e->a.per_group);
				return -1;
			}
		}
	}
	return 0;
}

/* The error word or the producers' failure record, with the ring indices. */
static int fault(struct env *e, int code)
{
	uint64_t err = gd_proxy_error(e->px);
	char msg[512];

	if (err)
		gd_proxy_describe(e->px, err, msg, sizeof(msg));
	else if (e->fail->code)
		gd_proxy_describe_fail(e->fail, msg, sizeof(msg));
	else
		snprintf(msg, sizeof(msg), "producers ended with code %d", code);
	printf("FAULT: %s\n", msg);
	gd_proxy_dump(e->px, stdout);
	return GD_EXIT_FAIL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static const char *producer_name(const struct env *e)
{
	return e->gp ? gd_gpu_prod_name(e->gp) : GD_HOST_PRODUCER_LABEL;
}

static int run_lat(struct env *e)
{
	uint64_t n = e->c->lat, *s, *dev = NULL, max = e->c->timeout_s * 1000000000ull * 3;
	int code;

	s = e->gp ? gd_gpu_prod_mapped(e->gp, n * sizeof(*s), (void **)&dev) : calloc(n, sizeof(*s));
	if (!s)
		return GD_EXIT_ENV;
	code = e->gp ? gd_gpu_prod_lat(e->gp, &e->a, n, dev, e->px, max) :
		       gd_host_prod_lat(&e->a, n, s);
	gd_proxy_join(e->px);
	if (code || gd_proxy_error(e->px) || e->fail->code)
		return fault(e, code);
	qsort(s, n, sizeof(*s), cmp_u64);
	printf("lat producer=\"%s\" transport=\"%s\" fence=%s "
	       "round_trips=%" PRIu64 " min_us=%.3f p50_us=%.3f p90_us=%.3f p99_us=%.3f max_us=%.3f\n",
	       producer_name(e), e->tp_name, e->c->fence ? "per-put" : "none", n, s[0] / 1e3,
	       s[n / 2] / 1e3, s[n * 9 / 10] / 1e3, s[n * 99 / 100] / 1e3, s[n - 1] / 1e3);
	if (e->gp)
		gd_gpu_prod_free_mapped(e->gp, s);
	else
		free(s);
	return 0;
}

static int run_rate(struct env *e)
{
	const struct cfg *c = e->c;
	uint64_t ns = 0, total = (uint64_t)e->groups * e->a.per_group;
	uint64_t max = c->timeout_s * 1000000000ull + total * 1000ull; /* >= 1 us per request */
	uint64_t issue, done;
	struct gd_proxy_stats st;
	int code;

	code = e->gp ? gd_gpu_prod_run(e->gp, &e->a, c->scope, c->ctas, c->threads, e->px, max, &ns)
		     : gd_host_prod_run(&e->a, c->ctas, NULL, 0, &ns);
	gd_proxy_join(e->px);
	gd_proxy_get_stats(e->px, &st);
	if (code || gd_proxy_error(e->px) || e->fail->code)
		return fault(e, code);
	if (st.requests != total || (e->sw && gd_sw_transport_executed(e->sw) != total)) {
		printf("FAIL: %" PRIu64 " requests issued, the proxy took %" PRIu64 "\n", total,
		       st.requests);
		return GD_EXIT_FAIL;
	}
	if (c->validate && validate(e))
		return GD_EXIT_FAIL;
	/* issue and completion apart, on the producers' clock (prod.h) */
	issue = e->clock->issued > e->clock->start ? e->clock->issued - e->clock->start : 0;
	done = e->clock->quiet > e->clock->start ? e->clock->quiet - e->clock->start : 0;
	printf("rate producer=\"%s\" transport=\"%s\" op=%s size=%u "
	       "scope=%s ctas=%u threads=%u proxy_threads=%u ring_slots=%u requests=%" PRIu64
	       " ms=%.3f Mreq_per_s=%.2f issue_Mreq_per_s=%.2f completion_Mreq_per_s=%.2f "
	       "per_doorbell=%.1f validate=%s\n", producer_name(e), e->tp_name,
	       gd_desc_op_name(c->op), c->size, gd_scope_name(c->scope), c->ctas, c->threads,
	       c->proxy_threads, c->slots, total, ns / 1e6, ns ? total * 1e3 / ns : 0,
	       issue ? total * 1e3 / issue : 0, done ? total * 1e3 / done : 0,
	       st.chains ? (double)st.requests / st.chains : 0, c->validate ? "ok" : "off");
	return 0;
}

int main(int argc, char **argv)
{
	struct cfg c;
	struct env e = { 0 };
	int ret;

	gd_log_init(argv[0]);
	if ((ret = parse(argc, argv, &c)))
		return ret;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (c.gpu) {
		ret = gd_gpu_prod_open(0, &e.gp);
		if (ret) {
			printf("SKIP: no GPU producer here (%s)\n", ret == -ENOSYS ?
			       "built without nvcc" : "no usable CUDA GPU");
			return GD_EXIT_ENV;
		}
	}
	ret = setup(&e, &c);
	if (ret) {
		gd_error("setup failed: %s", strerror(-ret));
		ret = GD_EXIT_ENV;
	} else {
		ret = c.lat ? run_lat(&e) : run_rate(&e);
	}
	teardown(&e);
	gd_gpu_prod_close(e.gp);
	return ret;
}
