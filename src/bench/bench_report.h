/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the benchmark tools print: perftest's header block and result tables
 * (same columns, order and units, so scripts that parse perftest keep
 * working), --output=bandwidth|message_rate|latency (one bare number per
 * size), and --json (one JSON object per result, through jsonout.h).
 */
#ifndef GD_BENCH_REPORT_H
#define GD_BENCH_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

struct gd_bench;

/* The server's banner while it waits for its client. */
void gd_bench_report_waiting(struct gd_bench *b);
/* The header block (device, QPs, MTU, GID...) and the table title. */
void gd_bench_report_header(struct gd_bench *b);
void gd_bench_report_footer(struct gd_bench *b);
/* One bandwidth result; peer != NULL in bidirectional runs (the line shows the sum). */
void gd_bench_report_bw_line(struct gd_bench *b, const struct gd_bw_result *mine,
			     const struct gd_bw_result *peer);
/* Latency statistics of n samples (usec, sorted in place), -H/-U histograms. */
void gd_bench_report_lat(struct gd_bench *b, uint64_t size, double *samples, size_t n);
/* Bytes/s in the report's unit (MiB/s, or Gb/s with --report_gbits). */
double gd_bench_report_bw_value(const struct gd_bench *b, double Bps);

/* perftest's title: "RDMA_Write BW Test", "Atomic CMP_AND_SWAP Latency Test"... */
void gd_bench_title(const struct gd_bench_params *p, char *buf, size_t len);

#endif
