/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The noise guard: whether a result should be believed.
 *
 * Every result of the benchmark tools carries a trust verdict, "ok" or
 * "doubtful" with its reasons, decided here from what the engine saw of the
 * run (one rule, one place: the report prints it, gd_check retries on it):
 *
 *   cap_wide     an adaptive size (-a with --precision) stopped at its window
 *                cap with a 95 % interval wider than GD_TRUST_CI_WIDE
 *   avg_tail     latency: the average is more than GD_TRUST_AVG_MEDIAN times
 *                the median (a few very slow samples: preemption, interrupts)
 *   p999_is_max  latency: p99.9 equals the maximum although there are enough
 *                samples (1000) to rank it below: the slowest 0.1 % sit at
 *                one value (a repeated stall, a coarse clock)
 *   cpu_starved  the measuring thread ran on a CPU less than
 *                GD_TRUST_ONCPU_MIN of the measured interval of a busy-polling
 *                loop: the host is busier than its cores (load average given)
 *   shared_cpu   both sides of one host are pinned to the same single CPU:
 *                they take turns, every number measures the scheduler
 *
 * gd_trust_assess() is a pure function of struct gd_trust_in, so unit tests
 * drive every rule; gd_trust_sample() reads the thread's CPU time and the
 * clock, gd_trust_host_load() /proc/loadavg and the online CPUs of the
 * machine context.
 */
#ifndef GD_BENCH_TRUST_H
#define GD_BENCH_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

#define GD_TRUST_CI_WIDE 0.10	   /* cap_wide: relative 95 % half-width */
#define GD_TRUST_AVG_MEDIAN 1.5	   /* avg_tail: avg / median */
#define GD_TRUST_ONCPU_MIN 0.80	   /* cpu_starved: CPU time / wall time */
#define GD_TRUST_MIN_WINDOW_NS 20000000ull /* cpu_starved: judged on 20 ms or more */

enum gd_trust_why {
	GD_TRUST_CAP_WIDE = 1u << 0,
	GD_TRUST_AVG_TAIL = 1u << 1,
	GD_TRUST_P999_MAX = 1u << 2,
	GD_TRUST_CPU_STARVED = 1u << 3,
	GD_TRUST_SHARED_CPU = 1u << 4,
	GD_TRUST_NWHY = 5,
};

struct gd_trust {
	unsigned why;		/* enum gd_trust_why bits, 0: ok */
	char reason[GD_TRUST_NWHY][160]; /* the reason of bit 1 << i in words */
};

/* A thread's CPU time and the wall clock at one instant. */
struct gd_trust_sample {
	uint64_t cpu_ns, wall_ns;
};

/* What the engine saw of one result. */
struct gd_trust_in {
	/* adaptive sweep (windows >= 2) */
	uint32_t windows;
	bool converged;
	double ci95_rel;
	/* latency (NULL for bandwidth) */
	const struct gd_lat_stats *lat;
	/* the measuring thread's busy-polling interval (both 0: not measured) */
	struct gd_trust_sample t0, t1;
	double loadavg;		/* 1-minute load average, < 0 unknown */
	int ncpus;		/* online CPUs, 0 unknown */
	/* the CPU each side is pinned to, -1 when not pinned to exactly one */
	int my_cpu, peer_cpu;
	bool same_host;		/* the side channel's two ends have one address */
};

/* Decide the verdict of one result. */
void gd_trust_assess(const struct gd_trust_in *in, struct gd_trust *t);

/* The reasons in words, "; " between them, "" when ok. */
void gd_trust_join(const struct gd_trust *t, char *buf, size_t len);
/* "ok" or "doubtful". */
const char *gd_trust_verdict(const struct gd_trust *t);
/* The JSON name of one reason bit ("cap_wide"...), NULL for an unknown bit. */
const char *gd_trust_why_name(unsigned bit);

/* Now, for the calling thread. */
void gd_trust_sample(struct gd_trust_sample *s);

/* The only CPU a list such as "3" or "3-3" names, else -1 ("0-3", "", garbage). */
int gd_trust_single_cpu(const char *list);
/* The calling thread's CPU affinity as a list ("0-3,8") in buf; "" on error. */
void gd_trust_affinity(char *buf, size_t len);

struct gd_machine;
/* 1-minute load average (-1 unknown) and online CPUs (0 unknown) of the machine. */
void gd_trust_host_load(const struct gd_machine *m, double *loadavg, int *ncpus);

/* The host's CPU time from /proc/stat's "cpu" line, in jiffies: busy (user,
 * nice, system, irq, softirq, steal) and total (busy + idle + iowait). 0 or
 * -errno. --cpu_util is 100 x the busy delta over the total delta. */
struct gd_cpu_stat {
	uint64_t busy, total;
};
int gd_cpu_stat_read(const struct gd_machine *m, struct gd_cpu_stat *s);
/* Percent busy between two reads, -1 when nothing elapsed. */
double gd_cpu_util_pct(const struct gd_cpu_stat *a, const struct gd_cpu_stat *b);

/* Add "trust": {"verdict": "ok"|"doubtful", "reasons": [{"id", "text"}...]} to obj. */
struct json_object;
void gd_trust_to_json(const struct gd_trust *t, struct json_object *obj);

#endif
