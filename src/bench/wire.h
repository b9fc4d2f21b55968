/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Messages of the benchmark side channel (TCP), encoded field by field.
 *
 * Every message is a 12-byte header followed by its payload, all integers in
 * network byte order (big endian), doubles as their IEEE-754 bits in a
 * big-endian u64, strings as a u16 length followed by the bytes (no NUL on
 * the wire, no NUL inside):
 *
 *   u32 magic   "GDPF" (0x47445046)
 *   u16 version GD_WIRE_VERSION: a peer with another version is refused
 *   u16 type    enum gd_wire_type
 *   u32 length  payload bytes, at most GD_WIRE_MAX_PAYLOAD
 *
 * Payloads (each exactly as long as its fields; trailing bytes are an error):
 *   HELLO   str tool, str version, then the list of matched parameters
 *           (gd_matched_params, bench_params.h) in its order: u8 role, op,
 *           kind, conn, atomic type, u8 flags (-b, --write_with_imm,
 *           --send_with_imm, -a, --run_infinitely, --validate,
 *           --perform_warm_up, --ipv6: bits 0..7), u64 size, u64 iters,
 *           u32 duration, qps, tx depth, rx depth, MTU, u8 initiator,
 *           u8 fabric, u8 endpoint type, str provider (version 3), str the
 *           CPUs the side runs on (version 4: the noise guard, trust.h),
 *           u8 buffer memory (enum gd_buf_mem: host, GPU outside MPS, GPU
 *           under MPS), str its GPU's PCI address, "" for host memory
 *           (version 5: the rule on a GPU producer's CUDA copies,
 *           fabric_rule.h), u32 proxy threads (version 6: over libfabric
 *           the passive side drives a domain per proxy thread of the peer)
 *   CONN    one per QP, in order: u32 qp_index, u32 qp_count, u16 lid,
 *           u32 qpn, u32 psn, u32 rkey, u64 vaddr, u64 buf_size, 16 gid,
 *           i32 gid_index, u32 out_reads, u32 mtu
 *   READY   u32 seq: barrier number, both sides count from 0
 *   RESULTS u32 status, u8 kind, then bw or lat fields (see struct)
 *   ERROR   u32 exit code (1..3), str text
 *   BYE     empty
 *   ALIVE   empty (version 4): sent every --timeout/4 from the start of the run
 *           (gd_oob_start_alive); a side silent for --timeout is stopped or hung
 *
 * Decoders check everything (magic, version, type, lengths, enum ranges,
 * counts, string bytes, finite numbers) and return -EPROTO (not our
 * protocol: magic, version, unknown type, oversized) or -EBADMSG (a
 * malformed payload), with a message naming the problem in err.
 */
#ifndef GD_WIRE_H
#define GD_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bench_params.h"
#include "fabric_conn.h" /* struct gd_wire_conn: the CONN payload */

#define GD_WIRE_MAGIC 0x47445046u /* "GDPF" */
/* 2: HELLO carries the initiator; 3: the fabric; 4: the CPUs and ALIVE; 5: the buffer's
 * memory and GPU; 6: the proxy threads. A peer of another version is refused (exit 2, both sides): a version 4
 * peer does not say whether its GPU memory is used through MPS, and a run the rule on
 * a GPU producer's CUDA copies would refuse must not crawl for want of it */
#define GD_WIRE_VERSION 6
#define GD_WIRE_HDR_LEN 12
#define GD_WIRE_MAX_PAYLOAD 4096
#define GD_WIRE_MAX_MSG (GD_WIRE_HDR_LEN + GD_WIRE_MAX_PAYLOAD)
#define GD_WIRE_TOOL_MAX 32
#define GD_WIRE_VERSION_STR_MAX 32
#define GD_WIRE_TEXT_MAX 2048
#define GD_WIRE_MAX_QPS GD_BENCH_MAX_QPS

enum gd_wire_type {
	GD_MSG_HELLO = 1,
	GD_MSG_CONN,
	GD_MSG_READY,
	GD_MSG_RESULTS,
	GD_MSG_ERROR,
	GD_MSG_BYE,
	GD_MSG_ALIVE,		/* no payload: "still here", sent every --timeout/4 during the run */
	GD_MSG_TYPE_END,
};

struct gd_wire_hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t len;
};

struct gd_wire_hello {
	char tool[GD_WIRE_TOOL_MAX];		/* "gd_write_bw" */
	char version[GD_WIRE_VERSION_STR_MAX];	/* gd_version() */
	/* role, and the fields listed by gd_params_diff() plus mtu; the rest zero */
	struct gd_bench_params params;
};


struct gd_wire_ready {
	uint32_t seq;
};

struct gd_wire_bw {
	uint64_t size, iters, ops;	/* message bytes, iterations, operations completed */
	double bw_peak, bw_avg;		/* bytes per second; peak 0 when not measured */
	double msgrate;			/* messages per second */
};

struct gd_wire_lat {
	uint64_t size, n;		/* message bytes, number of samples */
	double min, max, typical, avg, stdev;
	double p50, p90, p99, p999, p9999; /* microseconds */
};

struct gd_wire_results {
	uint32_t status;		/* 0 ok, else the sender's failing exit code */
	enum gd_bench_kind kind;
	union {
		struct gd_wire_bw bw;
		struct gd_wire_lat lat;
	};
};

struct gd_wire_error {
	uint32_t code;			/* exit code the sender uses: 1, 2 or 3 */
	char text[GD_WIRE_TEXT_MAX + 1];
};

struct gd_wire_msg {
	enum gd_wire_type type;
	union {
		struct gd_wire_hello hello;
		struct gd_wire_conn conn;
		struct gd_wire_ready ready;
		struct gd_wire_results results;
		struct gd_wire_error error;
	};
};

const char *gd_wire_type_name(unsigned type); /* "HELLO", ..., "unknown" */

/*
 * Encode m (header included) into buf. Returns the total length, or
 * -EMSGSIZE when cap is too small, -EINVAL for a value the wire cannot carry
 * (a string too long, an enum out of range).
 */
ssize_t gd_wire_encode(const struct gd_wire_msg *m, uint8_t *buf, size_t cap);

/* Decode and check a header (GD_WIRE_HDR_LEN bytes). 0, -EPROTO. */
int gd_wire_decode_hdr(const uint8_t *buf, size_t len, struct gd_wire_hdr *h, char *err,
		       size_t errlen);
/* Decode and check a payload of a header already checked. 0, -EBADMSG, -EPROTO. */
int gd_wire_decode_payload(unsigned type, const uint8_t *payload, size_t len,
			   struct gd_wire_msg *m, char *err, size_t errlen);
/* Both: buf holds exactly one whole message. */
int gd_wire_decode(const uint8_t *buf, size_t len, struct gd_wire_msg *m, char *err, size_t errlen);

/* A HELLO for this tool from the local parameters. */
void gd_wire_hello_from_params(struct gd_wire_hello *h, const struct gd_bench_params *p);

/*
 * Every parameter that must be equal on both sides and differs, one per line
 * with both values, labelled by each side's role: "message size: server 65536,
 * client 4096". Writes at most len bytes (always NUL-terminated when len > 0;
 * "..." ends a truncated list) and returns the number of differences.
 */
int gd_params_diff(const struct gd_bench_params *local, const struct gd_bench_params *remote,
		   char *buf, size_t len);

#endif
