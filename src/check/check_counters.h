/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The port counters of a test's run, judged (doc/check.md, "Port counters"): sampled before
 * its first attempt and after its last (port_counters.h), one item "TEST RUN: counters" per
 * run. An error counter that moved beyond what the test tolerates FAILs it, naming the
 * counter, the port and the change, even when the thresholds passed; informational counters
 * are reported; a counter that could not be read is said (once a port, on stderr), not judged.
 */
#ifndef GD_CHECK_COUNTERS_H
#define GD_CHECK_COUNTERS_H

#include "check_int.h"
#include "port_counters.h"

struct gd_ck_ctr_run {
	struct gd_pc_sample before;
	bool sampled;		/* gd_ck_counters_before ran: an item follows */
	int err;		/* the port could not be sampled (negative errno), 0 */
	char dev[64];
	int port;
};

/* The RDMA port a run's traffic crosses, the one rule every run asks: fabric verbs, its
 * device and port; ofi, the test's counters_port, else the domain when it names an RDMA
 * device (verbs;ofi_rxm's "mlx5_0", efa's "rdmap16s27-rdm"). 0, or -ENOENT: none that
 * gd_check can name (libfabric tcp or shm without counters_port): no counters item. */
int gd_ck_counters_port(const struct gd_machine *m, const struct gd_ck_run *run, char *dev,
			size_t len, int *port);
/* Before a run's first attempt. */
void gd_ck_counters_before(const struct gd_machine *m, const struct gd_ck_run *run,
			   struct gd_ck_ctr_run *c);
/* After its last attempt: the run's counters item (nothing when there was no sample). */
void gd_ck_counters_item(struct gd_ck_report *r, const struct gd_machine *m,
			 const struct gd_ck_run *run, const struct gd_ck_measure *ms, double seconds,
			 struct gd_ck_ctr_run *c);
/* One side of a pair between ranks (check_mpi.c): judged on its own rank, where its port is,
 * and sent to rank 0 whole. */
struct gd_ck_ctr_side {
	bool judged;		/* the side sampled a port: an item follows */
	enum gd_ck_status status;
	char measured[96], expected[96], message[640];
	double errors;		/* error counters that moved */
	struct gd_ck_ctrs ctr;
};
/* After a side's run: its verdict into out ("who" names the side in the message). */
void gd_ck_counters_side(const struct gd_machine *m, const struct gd_ck_run *run,
			 struct gd_ck_ctr_run *c, const char *who, struct gd_ck_ctr_side *out);
/* Rank 0: the item "TEST PAIR: counters WHO" of a side's verdict. */
void gd_ck_counters_side_item(struct gd_ck_report *r, const struct gd_ck_run *run,
			      const struct gd_ck_measure *ms, double seconds, const char *who,
			      const struct gd_ck_ctr_side *s);
/* The judgement of one item from two samples of its port (it->name set): exposed for the
 * unit test. */
void gd_ck_counters_judge(struct gd_ck_item *it, const struct gd_ck_test *t,
			  const struct gd_pc_sample *before, const struct gd_pc_sample *after);

/* A moved counter's class for the reports: "error", "congestion" or "info". */
const char *gd_ck_ctr_class(const struct gd_ck_ctr *x);

#endif
