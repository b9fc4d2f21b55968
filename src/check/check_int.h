/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Internals of gd_check shared by the files of src/check. */
#ifndef GD_CHECK_INT_H
#define GD_CHECK_INT_H

#include <stdint.h>

#include "bench_params.h"
#include "check.h"

/* One run of a test: a device and a memory (host on a NUMA node, or a GPU). */
struct gd_ck_run {
	const struct gd_ck_test *t;
	char dev[64];
	int port;
	int gpu;		/* index into the topology's GPUs, -1: host memory */
	char gpu_bdf[32];
	int numa;		/* host memory: its NUMA node, -1: the NIC's (engine default) */
	char cpus[256];		/* CPUs of that node, for --pin_cores */
	char cls[8];		/* path class NIC-to-memory: PIX..SYS, "local", "N/A" */
	double line_gbps;	/* port rate, 0 unknown */
	double pcie_gbps;	/* narrowest PCIe link on the path, 0 unknown */
	char pcie_why[96];	/* how pcie_gbps was found, or why it is unknown */
	char peer_ip[64];	/* where the client finds the server (the device's own address) */
	bool addr_unknown;	/* dev has no sysfs entry (a --topology XML's NIC): peer_ip is
				 * 127.0.0.1, not the device's address; the line rate unknown */
	uint16_t tcp_port;
	char label[128];	/* "rxe0 host(node0)", "mlx5_0 GPU3", "ofi:tcp loopback" */
	struct gd_fabric_opts fab;	/* resolved: VERBS (dev) or OFI (provider, dev "") */
};

/* The engine's parameters for one side of run at size. */
void gd_ck_params(const struct gd_ck_run *run, uint64_t size, enum gd_bench_role role,
		  struct gd_bench_params *p);
/* The two command lines that reproduce the run (server; client). */
void gd_ck_command(const struct gd_ck_run *run, uint64_t size, char *buf, size_t len);
/*
 * Run the test at one size, loopback: the server side in a forked child,
 * the client here, both through gd_bench_run_side(). m gets one more size.
 * Returns the exit code of the pair (0 ok).
 */
int gd_ck_loopback(const struct gd_ck_run *run, uint64_t size, struct gd_ck_measure *m);

/* Append the engine's per-size results to m. */
struct gd_bench_result;
/* check_test.c: a test's sizes (one, or the sweep's powers of two; at most
 * max) and the seconds a run of it is expected to take (the up-front estimate). */
size_t gd_ck_test_sizes(const struct gd_ck_test *t, uint64_t *v, size_t max);
double gd_ck_estimate(const struct gd_ck_test *t);
/* The seconds after which gd_check ends one size of a run (from its duration or its iterations
 * and size, never a fixed alarm), and the next side-channel port from p in [base, 65000). */
unsigned gd_ck_deadline_s(const struct gd_ck_test *t, uint64_t size);
uint16_t gd_ck_next_port(uint16_t base, uint16_t p);
/* A TCP port from *port on that no listener holds (probed on the wildcard address, as the
 * engine's server binds); *port is the one found. 0, or -EADDRINUSE after 200 ports. */
int gd_ck_free_port(uint16_t base, uint16_t *port);
void gd_ck_take(const struct gd_bench_result *res, struct gd_ck_measure *m);
/* check_repeat.c: out from n runs of one test (repeat: n), each statistic of each size the
 * median of the runs the noise guard trusted (when more than half; else of all, doubted); a
 * run that failed or stopped short is out as it is. */
void gd_ck_repeat_median(const struct gd_ck_measure *v, size_t n, struct gd_ck_measure *out);

/* Byte counters of a bond's slaves (check_bond.c). */
struct gd_ck_bond_sample {
	char bond[32];
	size_t n;
	char slave[8][32];
	uint64_t bytes[8];	/* tx + rx of each slave */
	char source[64];	/* where the numbers come from */
};
/* The bond under an RDMA device's port, -ENOENT when it is not bonded. */
struct gd_machine;
int gd_ck_bond_sample(const struct gd_machine *m, const char *dev, int port,
		      struct gd_ck_bond_sample *s);
/* Shares of before->after in msg; returns the smallest share in percent (-1: no traffic). */
double gd_ck_bond_shares(const struct gd_ck_bond_sample *before,
			 const struct gd_ck_bond_sample *after, char *msg, size_t len);

/* The bond verdict of a run from the slaves' shares (check_run.c): appended to the run's
 * last item, or a bond-balance item. */
void gd_ck_bond_verdict(struct gd_ck_report *r, const struct gd_ck_run *run,
			const struct gd_ck_measure *m, const char *msg, double min, double total,
			const char *bond);

/* A test's run against one measurement (check_eval.c): the path it ran (expect:), then its
 * thresholds, one item each (or one "runs" item without thresholds). */
void gd_ck_evaluate(struct gd_ck_report *r, const struct gd_ck_run *run,
		    const struct gd_ck_measure *m, double seconds);
void gd_ck_thresholds(struct gd_ck_report *r, const struct gd_ck_run *run,
		      const struct gd_ck_measure *m, double seconds);
/* The item "TEST RUN: what" with what every item of a run shares (time, path, command). */
struct gd_ck_item *gd_ck_run_item(struct gd_ck_report *r, const struct gd_ck_run *run,
				  const struct gd_ck_measure *m, double seconds, const char *what);
/* A run that did not end with results, judged (FAIL, or ERROR: could not run): 1, else 0. */
int gd_ck_unfinished(struct gd_ck_item *it, const struct gd_ck_measure *m);
/* The expect: item of a run (check_expect.c): what ran against what the spec requires;
 * nothing when the test has no expect. */
void gd_ck_expect_item(struct gd_ck_report *r, const struct gd_ck_run *run,
		       const struct gd_ck_measure *m, double seconds);

/* Attempts of a run (check_attempt.c): each judged on its own, in a scratch report. */
struct gd_ck_tries {
	size_t n, nitems;
	bool retry;		/* the last attempt ran and missed a threshold */
	struct gd_ck_attempt a[GD_CK_MAX_THRESH][GD_CK_MAX_ATTEMPTS];
};
/* Keep attempt tr->n of test t: tmp holds the items its judge made of it (in the order of
 * the final items), ran says it ran (every measurement came back with results). True when
 * a threshold was missed by a run that ran: worth another attempt. Never for a run that
 * could not run, or failed otherwise. */
bool gd_ck_tries_keep(struct gd_ck_tries *tr, const struct gd_ck_test *t,
		      const struct gd_ck_report *tmp, double seconds, bool ran);
/* Keep attempt m (seconds long) of run, judged by gd_ck_thresholds; as gd_ck_tries_keep. */
bool gd_ck_tries_add(struct gd_ck_tries *tr, const struct gd_ck_run *run,
		     const struct gd_ck_measure *m, double seconds);
/* Run (another) attempt of test t: the first unless a lower rung failed; another when the
 * last one ran and missed, its retries are not used up and no signal came. */
bool gd_ck_tries_again(const struct gd_ck_spec *s, const struct gd_ck_test *t,
		       const struct gd_ck_report *r, const struct gd_ck_tries *tr);
/* Attach the attempts to the run's final items r->items[first..]. */
void gd_ck_tries_attach(struct gd_ck_report *r, size_t first, const struct gd_ck_tries *tr);
/* The retries of test t in spec s (its own, the spec's, or the default). */
int gd_ck_retries(const struct gd_ck_spec *s, const struct gd_ck_test *t);
/* Fill it->where from the run and its measurement (check_where.c). */
void gd_ck_where_set(struct gd_ck_item *it, const struct gd_ck_run *run,
		     const struct gd_ck_measure *m);
/* Formatting helpers. */
void gd_ck_fmt_value(enum gd_ck_metric m, double v, char *buf, size_t len);

#endif
