/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The option conflicts of --initiator=proxy in the benchmark tools (proxy_bench.h);
 * apart from proxy_bench.c so that the option parser links without the engine. */
#include "config.h"

#include <errno.h>

#include "bench_params.h"
#include "host_limits.h"
#include "init_opts.h"
#include "log.h"
#include "proxy.h"
#include "proxy_bench.h"

/* What the run will take, against what the proxy and this host can give:
 * QPs, producer threads, ring memory (issue 19: H2, M2, L9). */
static int check_resources(const struct gd_bench_params *p)
{
	const struct gd_init_opts *o = &p->init;
	uint64_t ring = gd_proxy_ring_bytes(o->proxy_threads, o->ring_slots), mem = gd_host_mem_max();

	if (p->num_qps > GD_PROXY_MAX_QPS) {
		gd_error("-q/--qp %u with --initiator=proxy: a proxy drives at most %u QPs; lower -q "
			 "to %u", p->num_qps, GD_PROXY_MAX_QPS, GD_PROXY_MAX_QPS);
		return -EINVAL;
	}
	if (ring > mem) {
		gd_error("--proxy_threads %u x --ring_slots %u x %u bytes: %llu MiB of ring memory, "
			 "more than the %llu MiB one run may take (half of this host's memory); lower "
			 "--ring_slots or --proxy_threads", o->proxy_threads, o->ring_slots,
			 GD_DESC_BYTES, (unsigned long long)(ring >> 20),
			 (unsigned long long)(mem >> 20));
		return -EINVAL;
	}
	return 0;
}

int gd_proxy_bench_check(const struct gd_bench_params *p)
{
	const struct gd_init_opts *o = &p->init;
	uint32_t groups = gd_init_groups(o);

	if (check_resources(p))
		return -EINVAL;
	if (p->bidirectional || p->duration_s || p->run_infinitely) {
		gd_error("--initiator=proxy runs a number of iterations in one direction: drop %s "
			 "(use -n)", p->bidirectional ? "-b" : "-D/--run_infinitely");
		return -EINVAL;
	}
	if (p->given & (GD_GIVEN_POST_LIST | GD_GIVEN_CQ_MOD) || p->perform_warm_up) {
		gd_error("--initiator=proxy: the proxy chains work requests and moderates their "
			 "completions itself (one chain in the default -Q's requests); drop "
			 "-l/--post_list, -Q/--cq-mod and --perform_warm_up");
		return -EINVAL;
	}
	if (o->proxy_threads > p->num_qps) {
		gd_error("--proxy_threads %u exceeds the QPs (%u): every proxy thread drives its own "
			 "QPs; raise -q or lower --proxy_threads", o->proxy_threads, p->num_qps);
		return -EINVAL;
	}
	if (p->kind == GD_KIND_BW && groups < p->num_qps) {
		gd_error("--initiator=proxy: %u issuing groups (%u CTAs x %u threads, scope %s) for %u "
			 "QPs; each QP needs a group: raise --ctas or --threads, or use --scope thread",
			 groups, o->ctas, o->threads, gd_scope_name(o->scope), p->num_qps);
		return -EINVAL;
	}
	if (p->kind == GD_KIND_BW && groups && (p->iters * p->num_qps) % groups) {
		gd_error("--initiator=proxy: -n x -q (%llu) is not a multiple of the %u issuing groups: "
			 "each group issues the same number of requests; adjust -n",
			 (unsigned long long)(p->iters * p->num_qps), groups);
		return -EINVAL;
	}
	if (p->kind == GD_KIND_BW && p->op == GD_OP_ATOMIC &&
	    p->atomic_type == GD_ATOMIC_CMP_AND_SWAP && groups != p->num_qps) {
		gd_error("--initiator=proxy with CMP_AND_SWAP needs one issuing group per QP (%u "
			 "groups, %u QPs): each QP's compare values form one sequence", groups,
			 p->num_qps);
		return -EINVAL;
	}
	return 0;
}
