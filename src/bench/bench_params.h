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
#include <stddef.h>
#include <stdint.h>

#include "fabric_op.h" /* enum gd_bench_op, GD_CYCLE_BYTES */
#include "fabric_opts.h"
#include "init_opts.h"
#include "machine.h"
#include "roce_rate.h"
#include "mem.h" /* GD_BENCH_DEV_MAX, GD_BENCH_BDF_MAX, GD_CUDA_* */

enum gd_bench_kind { GD_KIND_BW = 0, GD_KIND_LAT, GD_KIND_COUNT };
enum gd_bench_role { GD_ROLE_SERVER = 0, GD_ROLE_CLIENT, GD_ROLE_COUNT };
enum gd_atomic_type { GD_ATOMIC_FETCH_AND_ADD = 0, GD_ATOMIC_CMP_AND_SWAP, GD_ATOMIC_COUNT };
/* Where a side's buffer sits, as its HELLO tells the peer (wire version 5): host memory,
 * or GPU memory used through MPS or not (the rule on a GPU producer's CUDA copies,
 * fabric_rule.h gd_fabric_ofi_gpu_copies) */
enum gd_buf_mem { GD_BUF_MEM_HOST = 0, GD_BUF_MEM_GPU, GD_BUF_MEM_GPU_MPS, GD_BUF_MEM_COUNT };
/* How the data QPs are connected: QP numbers over the TCP side channel, or rdma_cm (-R). */
enum gd_conn_method { GD_CONN_OOB = 0, GD_CONN_RDMA_CM, GD_CONN_COUNT };
/* -c: perftest's transport type; gdperf runs RC queue pairs only */
enum gd_qp_transport { GD_TRANSPORT_RC = 0, GD_TRANSPORT_COUNT };
/* --output: FULL is the normal header + table; the others print one bare number per size. */
enum gd_output { GD_OUTPUT_FULL = 0, GD_OUTPUT_BANDWIDTH, GD_OUTPUT_MSG_RATE, GD_OUTPUT_LATENCY,
		 GD_OUTPUT_COUNT };

#define GD_BENCH_HOST_MAX 256  /* host names and addresses, NUL included */
#define GD_BENCH_CORES_MAX 256 /* --pin_cores list */

#define GD_BENCH_DEF_PORT 18515
#define GD_BENCH_DEF_TIMEOUT_MS 10000
#define GD_BENCH_DEF_SIZE_BW 65536
#define GD_BENCH_DEF_SIZE_LAT 2
#define GD_BENCH_ATOMIC_SIZE 8
#define GD_BENCH_MAX_SIZE_ALL (1u << 23) /* -a sweeps 2 .. 2^23 as perftest */
#define GD_BENCH_PEAK_MAX_ITERS 20000    /* peak is O(N^2/cq_mod): perftest's cut-off */
#define GD_BENCH_DEF_PRECISION 1.0      /* --precision, percent: the adaptive sweep's epsilon */
#define GD_BENCH_DEF_QP_TIMEOUT 14      /* -u: ACK timeout 4.096 us x 2^14 = 67 ms (perftest's) */
#define GD_BENCH_MAX_SIZE (UINT32_MAX / 2) /* -s: the largest message (a verbs length is u32) */
#define GD_BENCH_MIN_ITERS 5            /* -n: perftest's floor */
#define GD_BENCH_MAX_DEPTH 15000        /* -t, -Q, -l: perftest's send queue limit */
#define GD_BENCH_MAX_RX_DEPTH 16384     /* -r */
#define GD_BENCH_MAX_QPS 16384          /* -q, and the QP count a CONN message may carry */
#define GD_BENCH_MAX_DURATION (86400u * 366) /* -D, -f: a year */
#define GD_BENCH_MAX_IB_PORT 255        /* -i: a verbs port number is a u8 */
/* What one run may allocate per QP besides its buffers, per work request and
 * fixed (queues, CQ entries, the driver's QP state): an estimate that errs high. */
#define GD_BENCH_WR_EST_BYTES 256
#define GD_BENCH_QP_EST_BYTES (64 * 1024)

/* GD_BENCH_DEV_MAX, GD_BENCH_BDF_MAX, GD_CUDA_NONE/AUTO: the buffer contract's (mem.h) */

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
	GD_GIVEN_CONN_RC = 1u << 15,	/* -c RC: verbs' reliable connected QPs */
};

struct gd_bench_params {
	/* what runs */
	enum gd_bench_op op;
	enum gd_bench_kind kind;
	enum gd_bench_role role;	/* CLIENT iff a HOST operand was given */
	enum gd_conn_method conn;	/* -R/--rdma_cm */
	enum gd_qp_transport transport; /* -c/--connection: RC, the only one */
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
	/* the CPUs this side runs on when it says HELLO (its affinity after
	 * pinning), carried to the peer for the noise guard (trust.h); not an option */
	char run_cpus[GD_BENCH_CORES_MAX];
	/* where this side's buffer sits when it says HELLO: host memory, or the PCI
	 * address of its GPU and whether this process is an MPS client there,
	 * carried to the peer for the rule on a GPU producer's CUDA copies
	 * (fabric_rule.h); not options */
	enum gd_buf_mem buf_mem;
	char buf_gpu[GD_BENCH_BDF_MAX];	/* "" with host memory */

	/* GPU memory (options defined here, implemented by the GPU memory feature) */
	int use_cuda;			/* --use_cuda=N|auto: GD_CUDA_NONE, GD_CUDA_AUTO or an index */
	char cuda_bus_id[GD_BENCH_BDF_MAX]; /* --use_cuda_bus_id=BDF, "" = none */
	bool cuda_dmabuf;		/* --use_cuda_dmabuf */
	bool gpu_staging;		/* --gpu_staging: bounce through host memory */

	/* who issues the operations: --initiator and its shape (init_opts.h) */
	struct gd_init_opts init;

	/* RoCE bring-up: -S, --tclass, -T, -e, --cpu_util, --rate_limit (roce_opts.h) */
	struct gd_roce_opts roce;

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
const char *gd_buf_mem_name(enum gd_buf_mem m);	  /* "host memory", "GPU memory under MPS" */
const char *gd_conn_method_name(enum gd_conn_method c);   /* "oob" / "rdma_cm" */
const char *gd_output_name(enum gd_output o);		  /* "full", "bandwidth", ... */
/* perftest's title word: "RDMA_Write", "RDMA_Read", "Atomic", "Send" */
const char *gd_bench_op_title(enum gd_bench_op op);
/* "gd_write_bw" etc. */
const char *gd_bench_tool_name(enum gd_bench_op op, enum gd_bench_kind kind);

/*
 * ---- Every parameter of a run: ONE list ----
 *
 * gd_matched_params[] (bench_params.c) lists every parameter of a run and every
 * option that sets one, and says for each: the member, its option (its
 * spelling in messages, and which row of the option table it is: the row whose
 * long name is the one after "--"), the values it takes (the one range the
 * option parser, the wire decoder and gd_bench_check apply), its default, its
 * JSON key under "params", its words for messages, and whether the side
 * channel carries it. The parameters both sides must agree on come first, in
 * wire order (HELLO); each says when two sides must agree on it. Then this
 * side's own (GD_PF_LOCAL: not in HELLO), in the order of their JSON keys.
 * From the list come the HELLO copy, encode and decode with the range checks
 * (wire.c), the difference report (gd_params_diff), the defaults, the option
 * values' checks and the JSON. tests/unit/test_bench_opts.c walks every tool's
 * option table: each option has its entry here (but the pure actions it names).
 * Adding one (doc/engine.md): an entry in the list, an option row in
 * bench_opts.c and a handler line there:
 *   case B_X: return gd_param_set(p, GD_PARAM(x), arg);
 * then its place in the man page's OPTIONS (src/bench/man_options.c) and
 * make man-update (tests/man-options.sh compares the page with the list).
 * Adding one that HELLO carries changes HELLO: bump GD_WIRE_VERSION (wire.h).
 */
enum gd_param_type {
	GD_PT_ENUM,	/* a small enum: u8 on the wire, name() for JSON and messages */
	GD_PT_FLAG,	/* a bool: one bit (bit) of HELLO's flags byte; keep the flags together */
	GD_PT_UINT,	/* an unsigned integer: wire = 4 or 8 bytes */
	GD_PT_SIZE,	/* the same, given with K/M/G suffixes on the command line */
	GD_PT_STR,	/* a char array: u16 length + printable ASCII on the wire, "" allowed */
	GD_PT_INT,	/* a signed int (local): min, max and umin are int64_t values */
	GD_PT_DOUBLE,	/* a double (local): dmin..dmax, a decimal number on the command line */
};

enum gd_param_flags {
	GD_PF_JSON_IF_APPLIES = 1 << 0, /* JSON only when applies() (atomic_type) */
	GD_PF_MUST_DIFFER = 1 << 1,	/* the sides must differ (role: a server and a client) */
	GD_PF_LOCAL = 1 << 2,		/* this side's: not in HELLO, not compared */
	GD_PF_ABOVE_MIN = 1 << 3,	/* GD_PT_DOUBLE: the option takes more than dmin only */
};

struct json_object;
struct gd_param {
	size_t off, len;		/* the member: GD_PARAM_AT(member) */
	enum gd_param_type type;
	uint8_t wire;			/* bytes on the wire (1, 4, 8); 0 for flags and strings */
	uint8_t bit;			/* GD_PT_FLAG: its bit in the flags byte */
	uint64_t min, max;		/* the values taken everywhere (strings: length) */
	uint64_t umin;			/* the option's floor when above min (-D 0 is "counted"), else 0 */
	double dmin, dmax;		/* GD_PT_DOUBLE: the values taken */
	uint32_t scale;			/* the option's value x scale is stored (--timeout: ms), 0: 1 */
	bool (*valid)(uint64_t v);	/* a further rule (-m: a power of two), NULL: none */
	const char *form;		/* the values valid() takes, in words */
	/* GD_PT_STR: the option's further rule, 0 or -EINVAL after a message naming opt */
	int (*check)(const char *arg, const char *opt);
	const char *word;		/* a word the option takes for the value min ("auto") */
	/* GD_PT_ENUM: the option's words for the values from its floor on, NULL: name()'s */
	const char *const *choices;
	uint64_t def;			/* the default, or */
	uint64_t (*def_fn)(enum gd_bench_op op, enum gd_bench_kind kind); /* by tool */
	double (*ddef_fn)(enum gd_bench_op op, enum gd_bench_kind kind); /* GD_PT_DOUBLE's */
	uint32_t given;			/* GD_GIVEN_* bit its option sets, 0 none */
	const char *opt;		/* "-s/--size" (option messages), NULL: no option here */
	const char *what;		/* "message size" (wire messages: "HELLO message size ...") */
	const char *label;		/* "message size (-s)" in the difference report, NULL: not compared */
	const char *json;		/* "size_bytes" under "params", NULL: not there */
	const char *help;		/* its --help line (the row says gd_opt_help_listed) */
	/* its man page entry (roff, the body under the option's heading), NULL: the
	 * help line expanded (gd_param_man); make man-update writes it into man/gd_bench.1 */
	const char *man;
	const char *(*name)(unsigned v); /* GD_PT_ENUM: the value's name */
	/* the value in the difference report when not name(v): the test compares op and kind */
	const char *(*show)(const struct gd_bench_params *p);
	/* compared only when both sides' parameters apply (e.g. -s without -a), NULL: always */
	bool (*applies)(const struct gd_bench_params *p);
	/* the JSON when not the plain value (--use_cuda: "auto" or left out), NULL: plain */
	void (*to_json)(const struct gd_bench_params *p, const struct gd_param *d,
			struct json_object *o);
	unsigned flags;			/* enum gd_param_flags */
};

#define GD_PARAM(member) offsetof(struct gd_bench_params, member)
#define GD_PARAM_AT(member) .off = GD_PARAM(member), \
	.len = sizeof(((struct gd_bench_params *)0)->member)

extern const struct gd_param gd_matched_params[];
extern const size_t gd_matched_nparams;

/* The entry of the member at off (GD_PARAM(member)), NULL when not in the list. */
const struct gd_param *gd_param_find(size_t off);
/* The entry whose option's long name is name ("size" for "-s/--size"), NULL: none. */
const struct gd_param *gd_param_by_option(const char *name);
/* The --help line of an option row whose help is gd_opt_help_listed ("" when none). */
const char *gd_param_help(const struct gd_opt *o);
/*
 * The man page entry of an option row of the bench tools (roff): its entry's
 * man, else its help line (the entry's, or the row's own) expanded: a capital,
 * a full stop, "\-" for each "-", written into buf (len bytes); else the bench
 * tools' text of a row every tool shares (-h, -V, -v, --completion,
 * --sysfs-root). NULL: none (man_options.c refuses such a row).
 */
const char *gd_param_man(const struct gd_opt *o, char *buf, size_t len);
/* HELLO carries it (not GD_PF_LOCAL). */
bool gd_param_on_wire(const struct gd_param *d);
/* A numeric entry's value in p (any integer width), and its setter. */
uint64_t gd_param_get(const struct gd_bench_params *p, const struct gd_param *d);
void gd_param_put(struct gd_bench_params *p, const struct gd_param *d, uint64_t v);
/* v is one of the values d takes (range and valid()). */
bool gd_param_ok(const struct gd_param *d, uint64_t v);
/* The option handler of a listed parameter: parse arg into p (range, umin,
 * valid, names, K/M/G for sizes), set its given bit. 0 or -errno after a message. */
int gd_param_set(struct gd_bench_params *p, size_t off, const char *arg);
/* Every value HELLO carries in its range (callers without a command line,
 * gd_check): 0 or -EINVAL after a message. gd_bench_check() asks it. This
 * side's own values are checked where their options are given. */
int gd_params_check(const struct gd_bench_params *p);

/*
 * Add every effective parameter to obj under "params" (JSON keys carry their
 * units: "size_bytes", "timeout_ms"...). obj is a json-c object.
 */
int gd_bench_params_to_json(const struct gd_bench_params *p, struct json_object *obj);

/* Bytes of each half of a QP's region for messages up to last_size: at least
 * the rotation cycle, in cache lines. */
uint64_t gd_bench_slot_bytes(uint64_t last_size);
/* The memory a run of these parameters takes on one side: the buffers (two
 * halves per QP) and an estimate of the queues (GD_BENCH_*_EST_BYTES). */
uint64_t gd_bench_mem_estimate(const struct gd_bench_params *p);

/* True when the sender of this op posts receives (send, write_with_imm). */
bool gd_bench_uses_recv(const struct gd_bench_params *p);

#endif
