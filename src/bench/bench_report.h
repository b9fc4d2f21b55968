/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the benchmark tools print: perftest's header block and result tables
 * (same columns, order and units, so scripts that parse perftest keep
 * working), --output=bandwidth|message_rate|latency (one bare number per
 * size), and --json (one JSON object per result, through jsonout.h).
 *
 * The report reads the result model (bench.h: the plan facts and one
 * struct gd_bench_size_result per size) and the parameters for the display
 * options; it knows nothing of the engine's state.
 */
#ifndef GD_BENCH_REPORT_H
#define GD_BENCH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_params.h"
#include "bench_result.h"
#include "bench_rt.h"
#include "wire.h"

struct gd_buf;

/* Who produced the operations when the initiator is not the CPU: a GPU's
 * name (else the host-producer label) and, for IBGDA, the queue backend
 * and its shape (the header's "IBGDA" line, JSON "ibgda"). */
struct gd_report_initiator {
	const char *producer;
	const char *producer_kind; /* proxy: "gpu" or "host", NULL for IBGDA */
	const char *producer_why;  /* proxy: "--producer gpu", "default: CUDA found a device"... */
	const char *nic;         /* "software NIC (test double)", "ConnectX (mlx5 DEVX)" */
	bool nic_test_double;
	const char *doorbell;    /* "gpu" (the GPU rings), "cpu" (ibgda-cpudb) */
	const char *queues;      /* where the queues live: "host memory", "GPU memory" */
	uint32_t nwqe, ring_every, sig_every;
};

struct gd_report {
	FILE *out;				/* NULL: print nothing */
	const struct gd_bench_params *p;	/* the test and the display options */
	const struct gd_bench_facts *f;		/* what the run used */
	const struct gd_buf *buf;		/* its backend describes GPU memory (JSON "gpu") */
	bool passive;				/* the peer measured (write/read/atomic server) */
	bool adaptive;				/* -a with --precision: the interval column */
	/* the header's address lines: my and the peer's data per QP */
	const struct gd_wire_conn *local, *remote;
	uint32_t nqp;
	const struct gd_report_initiator *ini; /* NULL: host producers, no IBGDA */
};

/* The server's banner while it waits for its client. */
void gd_report_waiting(const struct gd_report *r);
/* The header block (device, QPs, MTU, GID...) and the table title. */
void gd_report_header(const struct gd_report *r);
void gd_report_footer(const struct gd_report *r);
/* After the footer: a closing warning when any result is doubtful (trust.h);
 * on stderr with --output, nothing with --json (each record carries "trust"). */
void gd_report_trust_summary(const struct gd_report *r, const struct gd_bench_result *res);
/* A signal stopped the tool: a line after the rows measured before it (or an
 * "interrupted" JSON record) naming the signal and the exit code. out may be NULL. */
void gd_report_signal(const struct gd_bench_params *p, FILE *out, int sig, int code);
/* The peer said a signal stopped it (gd_oob_peer_interrupted): the same mark for the rows
 * this side reported ("interrupted" record, signal null, peer true). */
void gd_report_peer_signal(const struct gd_bench_params *p, FILE *out, int code);
/* --validate passed: "validation: passed (N bytes checked)" or N atomics, or "checked
 * by the peer" (checked 0), or a JSON "validation" record. out may be NULL. */
void gd_report_validation(const struct gd_bench_params *p, FILE *out, uint64_t checked,
			  bool atomics);
/* One size of a bandwidth test. */
void gd_report_bw(const struct gd_report *r, const struct gd_bench_size_result *s);
/* --run_infinitely: one interval's line. */
void gd_report_bw_interval(const struct gd_report *r, const struct gd_bw_result *res);
/* One size of a latency test; samples (usec, sorted) and the unsorted copy for -U. */
void gd_report_lat(const struct gd_report *r, const struct gd_bench_size_result *s,
		   const double *sorted, const double *unsorted, size_t n);
/* Bytes/s in the report's unit (MiB/s, or Gb/s with --report_gbits). */
double gd_report_bw_value(const struct gd_bench_params *p, double Bps);

/* perftest's title: "RDMA_Write BW Test", "Atomic CMP_AND_SWAP Latency Test"... */
void gd_bench_title(const struct gd_bench_params *p, char *buf, size_t len);

#endif
