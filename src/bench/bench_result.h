/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The benchmark engine's result model: what one side of a run measured and
 * what it really used (the plan facts), per message size. The engine fills
 * it (bench.c gd_bench_run_side), the report prints it (bench_report.c), the
 * loops and initiators hand their numbers in through it (loop.h), gd_check
 * reads it. The lifecycle (gd_bench_main, gd_bench_run_side, --mpi) is
 * bench.h's; this header names nothing of it, so whatever reads results
 * needs no include of the lifecycle.
 */
#ifndef GD_BENCH_RESULT_H
#define GD_BENCH_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "trust.h"

/* Results of one bandwidth measurement (one side, one size). */
struct gd_bw_result {
	uint64_t size;
	uint64_t iters;		/* messages counted (all QPs) */
	uint64_t ops;		/* operations completed in the whole run (atomic --validate) */
	double peak_Bps;	/* 0 when not measured */
	double avg_Bps;
	double msg_rate;	/* messages per second */
	double seconds;		/* measured window */
	/* GPU-initiated runs (--initiator=proxy): requests per second on the
	 * producers' clock, issue (start to the last descriptor written) and
	 * completion (start to the end of the quiet) apart; 0 = not measured */
	double issue_rate, completion_rate;
	/* adaptive sweep (-a with --precision > 0), measured by an initiator */
	uint32_t windows;	/* windows kept (the first is dropped) */
	double ci95_rel;	/* 95 % CI half-width / mean of the per-window rate, 0 = none */
	bool converged;		/* stopped by the precision rule, not by the cap */
	double epsilon;		/* the relative half-width this size had to reach */
};

/* ---- the result model of a run ---- */

#define GD_BENCH_MAX_SIZES 24 /* -a: 2 .. 2^23 */

/*
 * What the run really used, resolved from the parameters, the device and the
 * peer (the "plan facts"). Strings are always NUL-terminated; "" = none.
 */
struct gd_bench_facts {
	char device[64];		/* RDMA device, e.g. "mlx5_0", "rxe0" */
	uint8_t port;
	bool roce;			/* link layer Ethernet */
	bool iwarp;			/* transport iWARP (else IB/RoCE) */
	int gid_index;			/* -1: no GRH (InfiniBand LID routing) */
	char gid[46];			/* the GID as an IPv6 address */
	char gid_type[16];		/* "RoCE v2", "RoCE v1", "IB" */
	char gid_netdev[32];
	char gid_choice[8];		/* "auto" (routes to the peer), "user" (-x), "rdma_cm" */
	uint32_t mtu;			/* path MTU in bytes (the smaller of both sides) */
	int av_sl, av_tclass;		/* QP 1's address vector read back: SL, traffic class; -1 unknown */
	char memory[16];		/* "host", "hugepage", "cuda" (device or staging) */
	char gpu[256];			/* cuda: "GPU 0 NAME (BDF, PIX to mlx5_0), device memory via dma-buf" */
	char gpu_path_class[8];		/* cuda: "PIX".."SYS" between the GPU and the NIC, "" unknown */
	char registration[16];		/* how the NIC reaches the memory: "host", "dma-buf", "peer-memory" */
	bool staging;			/* cuda: GPU data staged through pinned host memory */
	uint32_t tx_depth;		/* effective values (clamped by the engine) */
	uint32_t rx_depth;
	uint32_t cq_mod;
	uint32_t max_inline;
	uint32_t out_reads;
	char host[256];			/* this host's name */
	char peer[300];			/* the side channel's peer, "10.0.0.1:18515" */
	char placement[320];		/* this side's CPUs and why: "CPUs 0-3 (--pin_cores)" */
};

/* One message size of a run, as this side reports it. */
struct gd_bench_size_result {
	uint64_t size;			/* message bytes */
	uint64_t iters;			/* messages counted */
	/* bandwidth tests: the reported numbers (both directions summed with -b;
	 * on a passive side, the numbers its peer measured) */
	double bw_peak_Bps;		/* bytes per second, 0 when not measured */
	double bw_avg_Bps;
	double msg_rate;		/* messages per second */
	double ci95_rel;		/* adaptive sweep: 95 % CI half-width / mean of the
					 * per-window rate; 0 when not measured */
	uint32_t windows;		/* adaptive sweep: windows measured (first dropped) */
	bool converged;			/* adaptive sweep: stopped by the precision rule */
	double epsilon;			/* adaptive sweep: the half-width it had to reach */
	bool has_local, has_peer;
	struct gd_bw_result local;	/* my own measurement (has_local) */
	struct gd_bw_result peer;	/* the peer's (has_peer) */
	/* latency tests (has_lat): microseconds */
	bool has_lat;
	struct gd_lat_stats lat;
	/* the noise guard's verdict (trust.h): ok, or doubtful with its reasons */
	struct gd_trust trust;
	/* --cpu_util: the host's CPU utilisation over the size's run, percent;
	 * -1 when not measured */
	double cpu_util_pct;
};

struct gd_bench_result {
	int exit_code;			/* 0 ok, 1 failed, 2 usage/peer, 3 environment */
	bool facts_valid;		/* setup got far enough to fill facts */
	struct gd_bench_facts facts;
	size_t nsizes;
	struct gd_bench_size_result sizes[GD_BENCH_MAX_SIZES];
};

/*
 * perftest's peak from raw stamps: tp[g] is the tick of post g (post_list
 * messages each, nposts posts), tc[c] the tick of completion c and tn[c]
 * the number of messages complete after it (non-decreasing). The cheapest
 * per-message cost over any window from a post to a later completion:
 * min over g, c with tn[c] > g * post_list of
 * (tc[c] - tp[g]) / (tn[c] - g * post_list).
 * Returns messages per second, 0 when there is no such pair.
 */
double gd_bw_peak_rate(const uint64_t *tp, uint64_t nposts, uint32_t post_list,
		       const uint64_t *tc, const uint64_t *tn, uint64_t ncomp, double ns_per_tick);

#endif
