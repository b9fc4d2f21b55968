/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Helpers shared by the CPU loops (loop_bw.c, loop_lat.c, loop_common.c). */
#ifndef GD_LOOP_INT_H
#define GD_LOOP_INT_H

#include "loop.h"

#define GD_POLL_BATCH 16

/* Deadline and liveness checks for spin loops (times in ticks). */
struct gd_watch {
	uint64_t last_progress;
	uint64_t last_check;
	uint64_t timeout;	/* ticks */
	uint64_t idle_after;	/* ticks without progress after which a check sleeps a little (UINT64_MAX: never) */
	uint64_t check_every;	/* ticks between side-channel checks */
	const char *what;
	bool stop_on_peer;	/* a timed receiver: the peer's results end the wait */
	bool stop_clean;	/* ^C ends the run cleanly, the loop handles it: this side
				 * decides when a timed run ends (a bw initiator, the
				 * client of a latency run); elsewhere ^C is an interrupt */
};

uint64_t gd_loop_ns_to_ticks(uint64_t ns);
void gd_watch_init(struct gd_watch *w, const struct gd_loop *l, const char *what);
/* 0 to go on, 1 (stop_on_peer) the peer's results are waiting, or -errno
 * with l->exit_code set. */
int gd_watch_check(struct gd_loop *l, struct gd_watch *w, uint64_t now);
/* This side was interrupted (SIGINT/SIGTERM): say so, tell the peer, exit 1;
 * returns -EINTR. */
int gd_loop_interrupted(struct gd_loop *l);
/* The watch's ^C rule, without its clock: -EINTR (gd_loop_interrupted) when ^C
 * came and does not end this run cleanly, else 0. gd_watch_check starts with it;
 * a loop that reaches the watch only after empty polls asks it once per message. */
int gd_watch_stop(struct gd_loop *l, const struct gd_watch *w);
bool gd_loop_peer_readable(struct gd_loop *l);
/* the fabric failed (a post, a poll): exit 1, after a short wait for the
 * peer's reason on the side channel (printed if it comes); returns ret */
int gd_loop_fab_failed(struct gd_loop *l, int ret);
/* Whether the peer closed, reset or sent an ERROR (printed, naming it), waiting up to
 * GD_PEER_CAUSE_MS for its word: the cause to name before a verdict of this side's own. */
bool gd_loop_peer_gone(struct gd_loop *l);
/* Up to GD_POLL_BATCH completions from cq; a failed poll ends the run. */
int gd_loop_poll(struct gd_loop *l, void *cq, struct gd_fab_cqe *wc, const char *which);
/* Up to max completions; with -e (cfg.events) a poll that finds none arms the
 * CQ and sleeps on its events for at most GD_EVENT_WAIT_MS. Count or -errno. */
#define GD_EVENT_WAIT_MS 100
int gd_loop_poll_some(struct gd_loop *l, void *cq, struct gd_fab_cqe *wc, int max);
/* Reset the QPs' counters and build the WRs for this size. */
void gd_loop_prepare(struct gd_loop *l, uint64_t size);
/* Re-post the receives QP q consumed, once at least `batch` are missing. */
int gd_loop_repost(struct gd_loop *l, struct gd_qp_run *q, uint32_t batch);

/* loop_lat.c: gd_loop_cpu's latency entry. */
int gd_loop_cpu_lat(struct gd_loop *l, uint64_t size, double **samples, size_t *n);

#endif
