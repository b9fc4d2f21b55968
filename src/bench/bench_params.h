/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Every effective parameter of one benchmark run (gd_{write,read,atomic,send}_{bw,lat}).
 *
 * Filled by gd_bench_params_defaults() (perftest's defaults for the tool),
 * then by gd_bench_parse() (bench_opts.h) from the command line, then
 * checked for conflicts. The engine reads it; the side channel (wire.h)
 * carries the fields that must match on both sides and gd_params_diff()
 * names every difference.
 *
 * Only plain data: no pointers, so it can be copied and compared. Strings
 * are fixed arrays, always NUL-terminated.
 */
#ifndef GD_BENCH_PARAMS_H
#define GD_BENCH_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric_opts.h"
#include "initiator.h"
#include "machine.h"

enum gd_bench_op { GD_OP_WRITE = 0, GD_OP_READ, GD_OP_ATOMIC, GD_OP_SEND, GD_OP_COUNT };
enum gd_bench_kind { GD_KIND_BW = 0, GD_KIND_LAT, GD_KIND_COUNT };
enum gd_bench_role { GD_ROLE_SERVER = 0, GD_ROLE_CLIENT, GD_ROLE_COUNT };
enum gd_atomic_type { GD_ATOMIC_FETCH_AND_ADD = 0, GD_ATOMIC_CMP_AND_SWAP, GD_ATOMIC_COUNT };
/* How the data QPs are connected: QP numbers over the TCP side channel, or rdma_cm (-R). */
enum gd_conn_method { GD_CONN_OOB = 0, GD_CONN_RDMA_CM, GD_CONN_COUNT };
/* --output: FULL is the normal header + table; the others print one bare number per size. */
enum gd_output { GD_OUTPUT_FULL = 0, GD_OUTPUT_BANDWIDTH, GD_OUTPUT_MSG_RATE, GD_OUTPUT_LATENCY,
		 GD_OUTPUT_COUNT };

#define GD_BENCH_HOST_MAX 256  /* host names and addresses, NUL included */
#define GD_BENCH_DEV_MAX 64    /* IBV_SYSFS_NAME_MAX */
#define GD_BENCH_CORES_MAX 256 /* --pin_cores list */
#define GD_BENCH_BDF_MAX 32    /* --use_cuda_bus_id, e.g. 0000:1b:00.0 */

#define GD_BENCH_DEF_PORT 18515
#define GD_BENCH_DEF_TIMEOUT_MS 10000
#define GD_BENCH_DEF_SIZE_BW 65536
#define GD_BENCH_DEF_SIZE_LAT 2
#define GD_BENCH_ATOMIC_SIZE 8
#define GD_BENCH_MAX_SIZE_ALL (1u << 23) /* -a sweeps 2 .. 2^23 as perftest */
#define GD_BENCH_PEAK_MAX_ITERS 20000    /* peak is O(N^2/cq_mod): perftest's cut-off */
#define GD_BENCH_DEF_PRECISION 1.0      /* --precision, percent: the adaptive sweep's epsilon */
#define GD_BENCH_DEF_QP_TIMEOUT 14      /* -u: ACK timeout 4.096 us x 2^14 = 67 ms (perftest's) */

/* --use_cuda values besides a device index */
#define GD_CUDA_NONE (-1)
#define GD_CUDA_AUTO (-2) /* pick the GPU nearest to the NIC (topology feature) */

/*
 * Bits of gd_bench_params.given: which values the user set on the command
 * line (the rest are defaults). Used for derived defaults (e.g. cq_mod) and
 * conflict messages.
 */
enum gd_bench_given {
	GD_GIVEN_SIZE = 1u << 0,
	GD_GIVEN_ITERS = 1u << 1,
	GD_GIVEN_DURATION = 1u << 2,
	GD_GIVEN_TX_DEPTH = 1u << 3,
	GD_GIVEN_RX_DEPTH = 1u << 4,
	GD_GIVEN_CQ_MOD = 1u << 5,
	GD_GIVEN_INLINE = 1u << 6,
	GD_GIVEN_POST_LIST = 1u << 7,
	GD_GIVEN_OUT_READS = 1u << 8,
	GD_GIVEN_ATOMIC_TYPE = 1u << 9,
	GD_GIVEN_MARGIN = 1u << 10,
	GD_GIVEN_GID = 1u << 11,
	GD_GIVEN_MTU = 1u << 12,
	GD_GIVEN_QPS = 1u << 13,
	GD_GIVEN_PRECISION = 1u << 14,
};

struct gd_bench_params {
	/* what runs */
	enum gd_bench_op op;
	enum gd_bench_kind kind;
	enum gd_bench_role role;	/* CLIENT iff a HOST operand was given */
	enum gd_conn_method conn;	/* -R/--rdma_cm */
	enum gd_atomic_type atomic_type; /* -A, atomic tools only */
	bool bidirectional;		/* -b, bw tools only */
	bool write_with_imm;		/* --write_with_imm, write tools only */
	bool send_with_imm;		/* --send_with_imm, send tools only */

	/* side channel and addressing */
	char peer[GD_BENCH_HOST_MAX];	/* client: the server's host; server: "" */
	uint16_t tcp_port;		/* -p, default 18515 (also the rdma_cm port) */
	char bind_addr[GD_BENCH_HOST_MAX]; /* --bind: listening address (server), "" = any */
	char source_ip[GD_BENCH_HOST_MAX]; /* --bind_source_ip: local address (client/rdma_cm) */
	bool ipv6;			/* --ipv6: prefer IPv6 GIDs and addresses */
	uint32_t timeout_ms;		/* --timeout (seconds on the command line): every side-channel step */
	bool mpi;			/* --mpi: under mpirun/srun, rank 0 serves, rank 1 connects to it */

	/* device */
	char dev[GD_BENCH_DEV_MAX];	/* -d, "" = first device */
	uint8_t ib_port;		/* -i, default 1 */
	int gid_index;			/* -x, -1 = auto (RoCE v2 GID routing to the peer) */
	uint32_t mtu;			/* -m in bytes (256..4096), 0 = the port's active MTU */
	uint8_t qp_timeout;		/* -u: local ACK timeout 4.096 us x 2^N, 0 = infinite */

	/* sizes and length of the run */
	uint64_t size;			/* -s bytes; bw 65536, lat 2, atomic 8 */
	bool all_sizes;			/* -a: 2 .. 2^23 */
	uint64_t iters;			/* -n; write_bw 5000, others 1000 */
	uint32_t duration_s;		/* -D, 0 = iteration-based */
	uint32_t margin_s;		/* -f, with -D; default duration/4 */
	bool run_infinitely;		/* --run_infinitely (bw): report every duration_s */
	double precision;		/* --precision, percent (bw with -a): adaptive sweep, 0 = off */

	/* queues and posting */
	uint32_t num_qps;		/* -q, bw only, default 1 */
	uint32_t tx_depth;		/* -t, bw 128 / lat 1, clamped to iters by the engine */
	uint32_t rx_depth;		/* -r, send and write_with_imm 512, others 1 */
	uint32_t cq_mod;		/* -Q, bw 100 (1 when size > 8192 and not given), lat 1 */
	int32_t inline_size;		/* -I, bw 0, lat -1 = the largest the QP takes (write/send) */
	uint32_t post_list;		/* -l, default 1 */
	uint32_t out_reads;		/* -o, 0 = device max_qp_rd_atom (read/atomic) */
	uint64_t latency_gap;		/* --latency_gap, microseconds between latency posts */
	bool perform_warm_up;		/* --perform_warm_up */

	/* reporting (display only: need not match the peer) */
	bool no_peak;			/* -N */
	bool histogram;			/* -H */
	bool unsorted;			/* -U (implies -H) */
	bool report_cycles;		/* -C: latency in ns (gdperf's clock is CLOCK_MONOTONIC_RAW, not cycles) */
	bool report_gbits;		/* --report_gbits */
	bool cpu_freq_quiet;		/* -F: accepted, no effect (no CPU-frequency measurement) */
	bool json;			/* --json */
	enum gd_output output;		/* --output=bandwidth|message_rate|latency */
	double limit_bw;		/* -w/--limit_bw, in the report's unit (MiB/s or Gb/s), 0 = none */
	double limit_msgrate;		/* -y/--limit_msgrate, Mpps, 0 = none */
	bool validate;			/* --validate: the receiver checks the payload / final counter */

	/* host memory and CPU placement */
	bool use_hugepages;		/* --use_hugepages */
	char pin_cores[GD_BENCH_CORES_MAX]; /* --pin_cores=LIST, "" = NIC's NUMA node */

	/* GPU memory (options defined here, implemented by the GPU memory feature) */
	int use_cuda;			/* --use_cuda=N|auto: GD_CUDA_NONE, GD_CUDA_AUTO or an index */
	char cuda_bus_id[GD_BENCH_BDF_MAX]; /* --use_cuda_bus_id=BDF, "" = none */
	bool cuda_dmabuf;		/* --use_cuda_dmabuf */
	bool gpu_staging;		/* --gpu_staging: bounce through host memory */

	/* who issues the operations: --initiator and its shape (initiator.h) */
	struct gd_init_opts init;

	/* which fabric carries the operations: --fabric, --provider, --domain,
	 * --fabric-name, --ep (fabric_opts.h); resolved by gd_bench_check */
	struct gd_fabric_opts fab;

	uint32_t given;			/* enum gd_bench_given bits */

	/* the machine whose sysfs names the NIC's NUMA node, GIDs and GPU
	 * locality (--sysfs-root, else $GDPERF_SYSFS_ROOT, else live); verbs
	 * opens the live device of the same name */
	struct gd_machine machine;
};

/* perftest's defaults for this tool, role SERVER, nothing given. */
void gd_bench_params_defaults(struct gd_bench_params *p, enum gd_bench_op op,
			      enum gd_bench_kind kind);

/* Names for messages, headers and JSON ("write", "bw", "server", ...).
 * Out-of-range values give "?". */
const char *gd_bench_op_name(enum gd_bench_op op);
const char *gd_bench_kind_name(enum gd_bench_kind kind);
const char *gd_bench_role_name(enum gd_bench_role role);
const char *gd_atomic_type_name(enum gd_atomic_type t);   /* "FETCH_AND_ADD" */
const char *gd_conn_method_name(enum gd_conn_method c);   /* "oob" / "rdma_cm" */
const char *gd_output_name(enum gd_output o);		  /* "full", "bandwidth", ... */
/* perftest's title word: "RDMA_Write", "RDMA_Read", "Atomic", "Send" */
const char *gd_bench_op_title(enum gd_bench_op op);
/* "gd_write_bw" etc. */
const char *gd_bench_tool_name(enum gd_bench_op op, enum gd_bench_kind kind);

/*
 * Add every effective parameter to obj under "params" (JSON keys carry their
 * units: "size_bytes", "timeout_ms"...). obj is a json-c object.
 */
struct json_object;
int gd_bench_params_to_json(const struct gd_bench_params *p, struct json_object *obj);

/* True when the sender of this op posts receives (send, write_with_imm). */
bool gd_bench_uses_recv(const struct gd_bench_params *p);

#endif
