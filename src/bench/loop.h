/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The measurement loops and the seam where the initiator is chosen.
 *
 * The lifecycle (bench.c) resolves a plan, connects, and hands a loop what
 * it needs in struct gd_loop: its configuration (struct gd_loop_cfg, plain
 * values, no gd_bench_params), the QPs and CQs, the side channel (only to
 * notice a dead peer and to tell it of a failure) and two hooks back to the
 * lifecycle. A loop returns its measurement (struct gd_bw_result, latency
 * samples); it prints nothing itself.
 *
 * struct gd_loop_ops is the seam per initiator: gd_loop_cpu posts from this
 * thread; gd_loop_proxy (src/initiator/proxy/) through the proxy ring;
 * gd_loop_ibgda (src/initiator/ibgda/) from GPU threads. Each is the loop of
 * one entry of the initiator table (struct gd_initiator_ops below), which the
 * engine asks once per run and never branches on which initiator it is.
 *
 * Every wait has a deadline: a loop that sees no progress for the timeout
 * checks the side channel; a dead peer or a silent link ends the run.
 */
#ifndef GD_LOOP_H
#define GD_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <infiniband/verbs.h>

#include "bench_params.h"
#include "bench_result.h"
#include "bench_rt.h"
#include "bench_params.h"
#include "fabric.h"
#include "fabric_rule.h"
#include "init_opts.h"
#include "ops.h"
#include "wire.h"

struct gd_oob;
struct gd_progress;

struct gd_loop_cfg {
	enum gd_bench_kind kind;
	const struct gd_op_desc *op;	/* the per-op table entry */
	bool alt;			/* with_imm / CMP_AND_SWAP */
	bool client;
	bool initiator, receiver;	/* this side posts the operations / receives */
	uint32_t nqp, post_list;
	uint32_t tx_depth;		/* effective send window per QP */
	uint32_t cq_mod;		/* effective moderation (capped in bytes per size) */
	uint32_t rx_depth;		/* receives kept posted per QP */
	uint32_t max_inline;		/* what the QPs take; write/send at most this inline */
	uint64_t first_size;		/* the run's smallest message (-s, or -a's first) */
	uint64_t iters;			/* per QP; the cap of an adaptive size */
	uint32_t duration_s, margin_s;	/* -D, -f: timed run (0 = counted) */
	bool run_infinitely;
	bool peak;			/* measure perftest's peak (counted runs) */
	bool warm_up;			/* --perform_warm_up */
	bool rotate;			/* both regions hold GD_CYCLE_BYTES: rotate small messages */
	/* adaptive sweep: stop a size when the 95 % CI of the per-window rate
	 * is within precision (relative), after min windows and min time */
	double precision;		/* 0 = off (fixed -n / -D) */
	bool precision_by_size;		/* epsilon: gd_sweep_default_epsilon(size) */
	double max_size_s;		/* cap per size in seconds, 0 = none */
	uint64_t latency_gap_us;
	uint32_t timeout_ms;
	uint8_t qp_timeout;		/* -u: ACK timeout exponent (QPs the loop makes itself) */
	char dev_name[64];		/* for messages */
	struct gd_init_opts init;	/* --initiator and its shape (proxy, IBGDA) */
	char pin_cores[GD_BENCH_CORES_MAX]; /* --pin_cores (a proxy pins its threads) */
	int producer_cuda;		/* the proxy's GPU producer: GPU memory's GPU (by index, auto or
					 * bus id), else --use_cuda's index, else 0 */
	/* what the rule on the GPU producer's CUDA copies reads (fabric_rule.h
	 * gd_fabric_ofi_gpu_copies): the libfabric provider ("" over verbs),
	 * whether this side's buffer is GPU memory, and the target's buffer as
	 * its HELLO said (peer_known: set once HELLO is in, check_peer) */
	char provider[GD_FABRIC_PROV_MAX];
	bool gpu_mem;
	bool peer_known;
	struct gd_gpu_side peer;
	/* a latency run's first exchange is untimed: the endpoints connect on
	 * their first message each way (its trait connects_on_first_op) */
	bool warm_exchange;
	/* -e: sleep on completion events when a poll finds nothing (fabric arm/wait) */
	bool events;
	/* SW --rate_limit: the pacer's rate (bytes/s, or messages/s with pps) and
	 * its bucket in messages; 0 = no pacing */
	double pace_Bps, pace_pps;
	uint32_t pace_burst;
};

struct gd_loop {
	struct gd_loop_cfg cfg;
	struct gd_qp_run *q;		/* cfg.nqp */
	/* the fabric seam (fabric.h): the loops post and poll through it */
	const struct gd_fabric_ops *fab;
	void *scq, *rcq;		/* the fabric's send and receive CQs */
	struct gd_oob *oob;
	/* latency ping-pong on the last byte: QP 0's target and local regions */
	uint8_t *lat_target, *lat_local;
	struct gd_progress *progress;
	/* hooks to the lifecycle */
	void *owner;
	/* my measurement is final: tell the peer now (it may be draining) */
	int (*measured)(void *owner, const struct gd_bw_result *r);
	/* --run_infinitely: one interval's line */
	void (*interval)(void *owner, const struct gd_bw_result *r);
	int exit_code;			/* set where a failure is detected */
	uint64_t untimed_ops;		/* the last latency run's exchanges outside its samples */
	void *state;			/* the initiator's own queues (attach), or NULL */
};

/* What an initiator with its own queues gets to create them (attach). */
struct gd_loop_attach {
	const struct gd_loop_cfg *cfg;
	const struct gd_machine *machine; /* for the initiator's own probe */
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint8_t port;
	bool roce;
	uint64_t max_size;		/* the largest message of the run */
	struct gd_wire_conn *local;	/* cfg->nqp records about to go to the peer */
	/* the loopback fabric (no device, bench_fabric.h): the run's buffer, which
	 * the initiator's own NIC registers (NULL otherwise) */
	void *buf;
	size_t buf_len;
	/* where the initiator prints its evidence (--dump_wqes): the report's
	 * stream, stderr with --json or without one */
	FILE *diag;
};

struct gd_report_initiator;

struct gd_loop_ops {
	const char *name;		/* "cpu" */
	/* One size. *sent: the results already went through measured(). */
	int (*run_bw)(struct gd_loop *l, uint64_t size, struct gd_bw_result *res, bool *sent);
	/* One size; *samples (malloc'ed, microseconds) and *n, none on a passive side. */
	int (*run_lat)(struct gd_loop *l, uint64_t size, double **samples, size_t *n);
	/*
	 * Initiators with their own queues (IBGDA), all optional, on the side
	 * that initiates: attach creates them once the device and buffers
	 * exist, before the exchange, and puts their QP numbers into
	 * a->local; connect moves them to RTS toward remote (this side's verbs
	 * QPs then stay unused; without connect, as the proxy whose state is its
	 * producer, the verbs QPs connect as usual); describe gives the report's initiator line;
	 * detach destroys them before the protection domain goes. The state
	 * reaches the loop as gd_loop.state.
	 */
	int (*attach)(const struct gd_loop_attach *a, void **state);
	/* Optional, on the side that initiates: what it can check alone (its
	 * producer: a GPU, host threads), asked once the device or libfabric
	 * domain is open and before this side listens or connects; 0 or a
	 * negative errno after a message. */
	int (*check_alone)(const struct gd_loop_cfg *c);
	/* Optional, on the side that initiates: the same once the peer's HELLO
	 * is in (c->peer_known, c->peer: its buffer), before the exchange; a
	 * refusal (0 or a negative errno after a message) goes to the peer as
	 * an ERROR with its exit code. */
	int (*check_peer)(const struct gd_loop_cfg *c);
	int (*connect)(void *state, const struct gd_wire_conn *remote, uint32_t n);
	const struct gd_report_initiator *(*describe)(const void *state);
	/* Optional, for an initiator that lays out its messages itself (the
	 * IBGDA test double: every QP's messages in slots of QP 0's regions):
	 * true and *bytes, the bytes at the start of QP qp's checked region (the
	 * target half for a write, the local half for a read) that its last size
	 * wrote, which --validate compares (bench_data.c); false: the engine's
	 * rule (the last size's bytes at each QP's) */
	bool (*written)(const void *state, uint32_t qp, uint64_t *bytes);
	void (*detach)(void *state);
};

extern const struct gd_loop_ops gd_loop_cpu;

struct gd_bench_result;

/*
 * One entry of the initiator table (src/initiator/initiator.c, one per
 * --initiator), handed to the engine by the tool prologue (gd_init_use_table,
 * init_opts.h). The engine asks gd_bench_check for the checks and
 * gd_bench_run_side for preparation and loop.
 */
struct gd_initiator_ops {
	const struct gd_loop_ops *loop;
	/* it posts through verbs unless told otherwise: with no --fabric given it
	 * takes verbs before the machine's fabric rule (as -d and -R do) */
	bool verbs_first;
	/* a latency sample is one put and its quiet, timed by the producer: the
	 * client alone puts, the server is its target (or the receiver that
	 * re-posts), never a ping-pong. Both putting at once left nobody
	 * re-posting receives (send_lat stalled once rx_depth ran out) and, over
	 * libfabric, nobody driving the progress a delivery-complete write waits
	 * for on its target. */
	bool put_quiet_lat;
	/* its write latency ping-pong polls the last byte of the buffer from the
	 * CPU (gd_loop_cpu): GPU memory needs --write_with_imm or --gpu_staging */
	bool lat_polls_buffer;
	/* its loop posts and polls from threads of its own (the proxy's, one or more),
	 * not from the thread that waits on the side channel: while they run, the
	 * initiating side's fabric objects are theirs (gd_bench_plan.own_threads) */
	bool own_threads;
	/* option conflicts of this initiator: 0 or -EINVAL after a message (NULL: none) */
	int (*check)(const struct gd_bench_params *p);
	/* why it cannot run over libfabric with p (NULL: it can), and *option, the
	 * option that says so; asked once the fabric is --fabric ofi */
	const char *(*ofi_conflict)(const struct gd_bench_params *p, const char **option);
	/* before anything is opened (NULL: nothing to do): an exit code when the
	 * initiator has decided the run (a refusal, a test double's whole run),
	 * or -1 to go on with the engine's run */
	int (*prepare)(const struct gd_bench_params *p, FILE *out, struct gd_bench_result *res);
	/* a run that is its own target, with no peer: its NIC is a test double
	 * (the loopback fabric, bench_fabric.h); NULL (or it returns NULL): a
	 * run with a peer */
	const struct gd_loopback_nic *(*loopback)(const struct gd_bench_params *p);
};

/* The NIC test double of a loopback run: the header's device, and the NIC's
 * name for its peer line ("none (loopback in the NIC)"). */
struct gd_loopback_nic {
	const char *device, *nic;
};

/* The CPU initiator (gd_loop_cpu): the table's first entry, and the engine's
 * own when a program hands no table. */
extern const struct gd_initiator_ops gd_initiator_cpu;

/*
 * The shape of gd_loop_cpu's bandwidth loop at one size (pure, for tests):
 * sig_every  messages per signalled WR: -Q, but a completion at least every
 *            1 MiB of payload (or every message above that), so that one is
 *            due well within --timeout on a slow link;
 * depth      send window per QP: -t, or in an adaptive sweep at most 2 MiB
 *            in flight (at least 2 messages);
 * window     messages per adaptive window: about depth, at most 1 MiB,
 *            whole signalling intervals.
 */
struct gd_loop_bw_shape {
	uint32_t sig_every, depth;
	uint64_t window;
};
void gd_loop_bw_shape(const struct gd_loop_cfg *c, uint64_t size, struct gd_loop_bw_shape *s);

/*
 * A bandwidth post that only moderates (ops.h moderating): signalled, in a run
 * of a set count, not the size's last post, and not where completions are timed
 * or a stop may end on it: -D (endless), the adaptive windows, the peak's
 * stamps, a stop under way (a signal's, an adaptive size's time up).
 */
struct gd_loop_bw_post {
	bool signal, last, stopping, adaptive, endless, peak;
};
bool gd_loop_bw_moderates(struct gd_loop_bw_post p);

/*
 * What a timed bandwidth run measured: the sample window (between the
 * warm-up and cool-down margins) when it holds messages and time; otherwise
 * the whole run (the loop first looked at the clock after the window had
 * closed: a device that sends while it posts, -q 8 on the TCG guest's rxe).
 * Returns false when neither holds a message and a tick: the run measured
 * nothing, which is a failure, never a rate of 0.
 */
struct gd_bw_span {
	uint64_t msgs, ticks;
};
bool gd_bw_timed_span(const struct gd_bw_span *sample, const struct gd_bw_span *run,
		      struct gd_bw_span *out);

/* For loop implementations: print a failed completion (op, QP, side, status,
 * most likely cause), tell the peer, set l->exit_code; returns -EIO. */
int gd_loop_wc_failed(struct gd_loop *l, const struct gd_fab_cqe *wc, bool recv);

/* Set by the tool's SIGINT handler (bench.h); a timed run ends cleanly. */

#endif
