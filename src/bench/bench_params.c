/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "bench_params.h"

#include <errno.h>
#include <string.h>
#include <json-c/json.h>

#include "gd.h"
#include "jsonout.h"
#include "log.h"
#include "cuda.h"
#include "devname.h"
#include "fabric.h"
#include "opts.h"

void gd_bench_params_defaults(struct gd_bench_params *p, enum gd_bench_op op,
			      enum gd_bench_kind kind)
{
	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];
		double dv = d->ddef_fn ? d->ddef_fn(op, kind) : 0;

		if (d->type == GD_PT_DOUBLE)
			memcpy((char *)p + d->off, &dv, sizeof(dv));
		else if (d->type != GD_PT_STR)
			gd_param_put(p, d, d->def_fn ? d->def_fn(op, kind) : d->def);
	}
	p->op = op;
	p->kind = kind;
	gd_init_opts_defaults(&p->init);
	gd_fabric_opts_defaults(&p->fab);
}

static const char *pick(const char *const *names, size_t n, unsigned v)
{
	return v < n && names[v] ? names[v] : "?";
}

const char *gd_bench_op_name(enum gd_bench_op op)
{
	static const char *const n[] = { "write", "read", "atomic", "send" };
	return pick(n, GD_ARRAY_SIZE(n), op);
}

const char *gd_bench_op_title(enum gd_bench_op op)
{
	static const char *const n[] = { "RDMA_Write", "RDMA_Read", "Atomic", "Send" };
	return pick(n, GD_ARRAY_SIZE(n), op);
}

const char *gd_bench_kind_name(enum gd_bench_kind kind)
{
	static const char *const n[] = { "bw", "lat" };
	return pick(n, GD_ARRAY_SIZE(n), kind);
}

const char *gd_bench_role_name(enum gd_bench_role role)
{
	static const char *const n[] = { "server", "client" };
	return pick(n, GD_ARRAY_SIZE(n), role);
}

const char *gd_buf_mem_name(enum gd_buf_mem m)
{
	static const char *const n[] = { "host memory", "GPU memory outside MPS", "GPU memory under MPS" };
	return pick(n, GD_ARRAY_SIZE(n), m);
}

const char *gd_atomic_type_name(enum gd_atomic_type t)
{
	static const char *const n[] = { "FETCH_AND_ADD", "CMP_AND_SWAP" };
	return pick(n, GD_ARRAY_SIZE(n), t);
}

const char *gd_conn_method_name(enum gd_conn_method c)
{
	static const char *const n[] = { "oob", "rdma_cm" };
	return pick(n, GD_ARRAY_SIZE(n), c);
}

const char *gd_output_name(enum gd_output o)
{
	static const char *const n[] = { "full", "bandwidth", "message_rate", "latency" };
	return pick(n, GD_ARRAY_SIZE(n), o);
}

const char *gd_bench_tool_name(enum gd_bench_op op, enum gd_bench_kind kind)
{
	static const char *const n[GD_OP_COUNT][GD_KIND_COUNT] = {
		{ "gd_write_bw", "gd_write_lat" },
		{ "gd_read_bw", "gd_read_lat" },
		{ "gd_atomic_bw", "gd_atomic_lat" },
		{ "gd_send_bw", "gd_send_lat" },
	};
	if ((unsigned)op >= GD_OP_COUNT || (unsigned)kind >= GD_KIND_COUNT)
		return "?";
	return n[op][kind];
}

uint64_t gd_bench_slot_bytes(uint64_t last_size)
{
	uint64_t slot = (last_size + 63) / 64 * 64;

	return slot < GD_CYCLE_BYTES ? GD_CYCLE_BYTES : slot;
}

uint64_t gd_bench_mem_estimate(const struct gd_bench_params *p)
{
	uint64_t last = p->op == GD_OP_ATOMIC ? GD_BENCH_ATOMIC_SIZE :
			p->all_sizes ? GD_BENCH_MAX_SIZE_ALL : p->size;
	uint64_t per_qp = 2 * gd_bench_slot_bytes(last) + GD_BENCH_QP_EST_BYTES +
			  (uint64_t)(p->tx_depth + p->rx_depth) * GD_BENCH_WR_EST_BYTES;

	return per_qp * p->num_qps;
}

/* ---- the list ------------------------------------------------------------ */

static uint64_t def_size(enum gd_bench_op op, enum gd_bench_kind kind)
{
	if (op == GD_OP_ATOMIC)
		return GD_BENCH_ATOMIC_SIZE;
	return kind == GD_KIND_BW ? GD_BENCH_DEF_SIZE_BW : GD_BENCH_DEF_SIZE_LAT;
}

static uint64_t def_iters(enum gd_bench_op op, enum gd_bench_kind kind)
{
	return kind == GD_KIND_BW && op == GD_OP_WRITE ? 5000 : 1000;
}

static uint64_t def_tx_depth(enum gd_bench_op op, enum gd_bench_kind kind)
{
	(void)op;
	return kind == GD_KIND_BW ? 128 : 1;
}

static uint64_t def_rx_depth(enum gd_bench_op op, enum gd_bench_kind kind)
{
	(void)kind;
	return op == GD_OP_SEND ? 512 : 1;
}

static const char *role_name(unsigned v) { return gd_bench_role_name((enum gd_bench_role)v); }
static const char *op_name(unsigned v) { return gd_bench_op_name((enum gd_bench_op)v); }
static const char *kind_name(unsigned v) { return gd_bench_kind_name((enum gd_bench_kind)v); }
static const char *conn_name(unsigned v) { return gd_conn_method_name((enum gd_conn_method)v); }
static const char *atomic_name(unsigned v) { return gd_atomic_type_name((enum gd_atomic_type)v); }
static const char *init_name(unsigned v) { return gd_initiator_name((enum gd_initiator)v); }
static const char *buf_mem_name(unsigned v) { return gd_buf_mem_name((enum gd_buf_mem)v); }

static const char *show_test(const struct gd_bench_params *p)
{
	return gd_bench_tool_name(p->op, p->kind);
}

static bool is_atomic(const struct gd_bench_params *p) { return p->op == GD_OP_ATOMIC; }
/* the proxy over libfabric: its threads shape both sides (bench_ofi.c threads_of) */
static bool proxy_over_ofi(const struct gd_bench_params *p)
{
	return p->init.initiator == GD_INIT_PROXY && p->fab.fabric == GD_FABRIC_OFI;
}
static bool one_size(const struct gd_bench_params *p) { return !p->all_sizes; }
static bool counted(const struct gd_bench_params *p) { return !p->duration_s && !p->run_infinitely; }
/* a latency test's passive side behaves differently (no ping-pong) */

/* --provider and --ep: the fabric runs on a provider they name (its traits) */
static bool names_provider(const struct gd_bench_params *p)
{
	return gd_fabric_traits_of(p->fab.fabric)->providers;
}
static const char *fabric_name(unsigned v) { return gd_fabric_kind_name((enum gd_fabric_kind)v); }
static const char *ep_name(unsigned v) { return gd_ep_type_name((enum gd_ep_type)v); }

static double def_precision(enum gd_bench_op op, enum gd_bench_kind kind)
{
	(void)op;
	return kind == GD_KIND_BW ? GD_BENCH_DEF_PRECISION : 0;
}

static uint64_t def_cq_mod(enum gd_bench_op op, enum gd_bench_kind kind)
{
	(void)op;
	return kind == GD_KIND_BW ? 100 : 1;
}

/* lat: -1, the largest the QP takes (write and send) */
static uint64_t def_inline(enum gd_bench_op op, enum gd_bench_kind kind)
{
	(void)op;
	return kind == GD_KIND_BW ? 0 : (uint64_t)-1;
}

static const char *output_name(unsigned v) { return gd_output_name((enum gd_output)v); }
static const char *transport_name(unsigned v) { return v == GD_TRANSPORT_RC ? "RC" : "?"; }
static const char *scope_name(unsigned v) { return gd_scope_name((enum gd_scope)v); }
static const char *producer_name(unsigned v) { return gd_producer_name((enum gd_producer)v); }
static const char *nic_name(unsigned v) { return gd_ibgda_nic_name((enum gd_ibgda_nic_kind)v); }
static const char *units_name(unsigned v) { return gd_rate_units_name((enum gd_rate_units)v); }
static const char *rate_type_name(unsigned v) { return gd_rate_type_name((enum gd_rate_type)v); }
/* --rate_units' words, in enum gd_rate_units order (the JSON says Gbps, MiBps, pps) */
static const char *const rate_units_words[] = { "g", "M", "p", NULL };
static bool rate_on(const struct gd_bench_params *p) { return p->roce.rate_limit > 0; }
static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* Addresses are checked before any device or socket is opened (exit 2). */
static int bad_addr(const char *arg, const char *opt, bool names)
{
	gd_error("invalid value '%s' for %s: expected %s", gd_excerpt(arg), opt,
		 names ? "a host name or a numeric IPv4/IPv6 address (a link-local IPv6 one "
			 "with its zone: fe80::1%eth0)" : "a numeric IPv4 or IPv6 address of this host");
	return -EINVAL;
}

static int host_name_ok(const char *arg, const char *opt)
{
	return !*arg || gd_host_ok(arg, true) ? 0 : bad_addr(arg, opt, true);
}

static int host_addr_ok(const char *arg, const char *opt)
{
	return !*arg || gd_host_ok(arg, false) ? 0 : bad_addr(arg, opt, false);
}

static int cpu_list_ok(const char *arg, const char *opt)
{
	if (*arg && strspn(arg, "0123456789,-") == strlen(arg))
		return 0;
	gd_error("invalid value '%s' for %s: expected a CPU list such as 0-3,8", gd_excerpt(arg), opt);
	return -EINVAL;
}

static int pci_ok(const char *arg, const char *opt)
{
	if (!gd_pci_normalize(arg, (char[GD_CUDA_BUSID_LEN]){ 0 }, GD_CUDA_BUSID_LEN))
		return 0;
	gd_error("invalid value '%s' for %s: expected a PCI address such as 0000:18:00.0 or "
		 "18:00.0 (nvidia-smi -q | grep Bus)", gd_excerpt(arg), opt);
	return -EINVAL;
}

/* --use_cuda: "auto", an index, or left out (none) */
static void cuda_json(const struct gd_bench_params *p, const struct gd_param *d, json_object *o)
{
	if (p->use_cuda == GD_CUDA_AUTO)
		gd_json_add_str(o, d->json, d->word);
	else if (p->use_cuda >= 0)
		gd_json_add_int(o, d->json, p->use_cuda);
}

/* --burst_size: 0 (not given) is one message */
static void burst_json(const struct gd_bench_params *p, const struct gd_param *d, json_object *o)
{
	gd_json_add_int(o, d->json, p->roce.burst_size ? p->roce.burst_size : 1);
}

static bool mtu_ok(uint64_t v) { return !v || (v >= 256 && v <= 4096 && !(v & (v - 1))); }

#define FLAG(m, b, o, lbl, key) { GD_PARAM_AT(m), .type = GD_PT_FLAG, .bit = (b), .max = 1, \
	.opt = o, .what = lbl, .label = lbl, .json = key
/* this side's own (not in HELLO) */
#define LFLAG(m, o, key) { GD_PARAM_AT(m), .type = GD_PT_FLAG, .max = 1, .opt = o, .what = o, \
	.json = key
#define LUINT(m, lo, hi, o, w, key) { GD_PARAM_AT(m), .type = GD_PT_UINT, .min = lo, .max = hi, \
	.opt = o, .what = w, .json = key
#define LDBL(m, lo, hi, o, w, key) { GD_PARAM_AT(m), .type = GD_PT_DOUBLE, .dmin = lo, \
	.dmax = hi, .opt = o, .what = w, .json = key
#define LSTR(m, o, w, key) { GD_PARAM_AT(m), .type = GD_PT_STR, .max = sizeof(((struct \
	gd_bench_params *)0)->m) - 1, .opt = o, .what = w, .json = key
#define LENUM(m, hi, o, w) { GD_PARAM_AT(m), .type = GD_PT_ENUM, .max = hi, .opt = o, .what = w
/* the end of an entry of this side's own, and with more flags */
#define END , .flags = GD_PF_LOCAL }
#define END_F(f) , .flags = GD_PF_LOCAL | (f) }

/* In wire order: changing the order, a width or a flag bit changes HELLO. */
const struct gd_param gd_matched_params[] = {
	{ GD_PARAM_AT(role), .type = GD_PT_ENUM, .wire = 1, .max = GD_ROLE_COUNT - 1,
	  .what = "role", .label = "role", .json = "role", .name = role_name,
	  .flags = GD_PF_MUST_DIFFER },
	{ GD_PARAM_AT(op), .type = GD_PT_ENUM, .wire = 1, .max = GD_OP_COUNT - 1,
	  .what = "operation", .label = "test", .json = "op", .name = op_name, .show = show_test },
	{ GD_PARAM_AT(kind), .type = GD_PT_ENUM, .wire = 1, .max = GD_KIND_COUNT - 1,
	  .what = "test kind", .json = "kind", .name = kind_name }, /* compared as the test */
	{ GD_PARAM_AT(conn), .type = GD_PT_ENUM, .wire = 1, .max = GD_CONN_COUNT - 1,
	  .opt = "-R/--rdma_cm", .what = "connection method", .label = "connection method (-R)",
	  .json = "connection", .name = conn_name,
	  .help = "connect the QPs with rdma_cm instead of the side channel",
	  .man = "Connect the QPs with rdma_cm instead of the side channel (see above)." },
	{ GD_PARAM_AT(atomic_type), .type = GD_PT_ENUM, .wire = 1, .max = GD_ATOMIC_COUNT - 1,
	  .given = GD_GIVEN_ATOMIC_TYPE, .opt = "-A/--atomic_type", .what = "atomic type",
	  .label = "atomic type (-A)", .json = "atomic_type", .name = atomic_name,
	  .applies = is_atomic, .flags = GD_PF_JSON_IF_APPLIES,
	  .help = "CMP_AND_SWAP or FETCH_AND_ADD (default)",
	  .man = "CMP_AND_SWAP or FETCH_AND_ADD (default) for the atomic tests." },
	FLAG(bidirectional, 0, "-b/--bidirectional", "bidirectional (-b)", "bidirectional"),
	      .help = "both sides send; the reports are exchanged and summed",
	      .man = "Both sides send; each measures its own traffic; the reports are exchanged\n"
		     "and the printed line is their sum, as perftest (the JSON keeps both)." },
	FLAG(write_with_imm, 1, "--write_with_imm", "--write_with_imm", "write_with_imm"),
	      .help = "RDMA write with immediate (the receiver gets a completion)",
	      .man = "RDMA write with immediate data: the receiver gets a completion per message." },
	FLAG(send_with_imm, 2, "--send_with_imm", "--send_with_imm", "send_with_imm"),
	      .help = "send with immediate data" },
	FLAG(all_sizes, 3, "-a/--all", "all sizes (-a)", "all_sizes"),
	      .help = "run every size from 2 to 2^23 bytes",
	      .man = "Run every size from 2 to 2^23 bytes (not for atomic tests).\n"
		     "Bandwidth tests sweep adaptively (see \\fB\\-\\-precision\\fR and ADAPTIVE SWEEP):\n"
		     "\\fB\\-n\\fR or \\fB\\-D\\fR become a cap per size." },
	FLAG(run_infinitely, 4, "--run_infinitely", "--run_infinitely", "run_infinitely"),
	      .help = "run until interrupted, reporting every -D seconds (default 5)",
	      .man = "Bandwidth tests: run until interrupted (SIGINT), printing one line every\n"
		     "\\fB\\-D\\fR seconds (default 5); the first ^C ends the run and still\n"
		     "exchanges and prints the results, a second one gives up at once.\n"
		     "The same holds for ^C to the side that decides when a timed run (\\fB\\-D\\fR)\n"
		     "ends: the client (the posting side of a bandwidth test, the pinging side of a\n"
		     "latency test). ^C anywhere else (a bandwidth server, a latency server, an\n"
		     "untimed run) is an interrupt: that side exits 1 and tells its peer, which\n"
		     "exits 1 with \"the server (...) reported: the peer was interrupted\"." },
	FLAG(validate, 5, "--validate", "--validate", "validate"),
	      .help = "the receiver checks the payload (or the final atomic counter)",
	      .man = "After a write, read or send run the receiving side checks the payload\n"
		     "pattern; after an atomic run the target checks that its counters equal the\n"
		     "number of operations the initiator completed.\n"
		     "A mismatch fails both sides (exit 1) and names the first bad offset.\n"
		     "A passed check is reported after the table: \"validation: passed (N bytes\n"
		     "checked)\", \"(N atomics checked)\", or \"(checked by the peer ...)\" on the side\n"
		     "that holds no data to check; with \\fB\\-\\-json\\fR a \\fBvalidation\\fR record.\n"
		     "The write latency test leaves out the last byte of each message (it carries\n"
		     "the ping-pong counter)." },
	FLAG(perform_warm_up, 6, "--perform_warm_up", "--perform_warm_up", "perform_warm_up"),
	      .help = "post one queue of messages before measuring",
	      .man = "Post one queue of messages per QP before measuring (write, read and atomic\n"
		     "bandwidth tests)." },
	FLAG(ipv6, 7, "--ipv6", "IPv6 (--ipv6)", "ipv6"),
	      .help = "prefer IPv6 GIDs and addresses (default IPv4)" },
	{ GD_PARAM_AT(size), .type = GD_PT_SIZE, .wire = 8, .min = 1, .max = GD_BENCH_MAX_SIZE,
	  .def_fn = def_size, .given = GD_GIVEN_SIZE, .opt = "-s/--size", .what = "message size",
	  .label = "message size (-s)", .json = "size_bytes", .applies = one_size,
	  .help = "message size, K/M suffixes allowed (default 65536 bw, 2 lat, 8 atomic)",
	  .man = "Message size, K and M suffixes allowed (default 65536 for bandwidth, 2 for\n"
		 "latency; atomic tests always use 8)." },
	{ GD_PARAM_AT(iters), .type = GD_PT_UINT, .wire = 8, .min = GD_BENCH_MIN_ITERS,
	  .max = UINT32_MAX, .def_fn = def_iters, .given = GD_GIVEN_ITERS, .opt = "-n/--iters",
	  .what = "iterations", .label = "iterations (-n)", .json = "iterations", .applies = counted,
	  .help = "iterations (default 5000 write bw, 1000 others; at least 5)",
	  .man = "Iterations (default 5000 for gd_write_bw, 1000 for the others; at least 5)." },
	{ GD_PARAM_AT(duration_s), .type = GD_PT_UINT, .wire = 4, .max = GD_BENCH_MAX_DURATION,
	  .umin = 1, .given = GD_GIVEN_DURATION, .opt = "-D/--duration", .what = "duration",
	  .label = "duration in seconds (-D)", .json = "duration_s",
	  .help = "run for SEC seconds instead of a number of iterations",
	  .man = "Run for SEC seconds instead of a number of iterations\n"
		 "(with \\fB\\-a\\fR: at most SEC seconds per size)." },
	{ GD_PARAM_AT(num_qps), .type = GD_PT_UINT, .wire = 4, .min = 1, .max = GD_BENCH_MAX_QPS,
	  .def = 1, .given = GD_GIVEN_QPS, .opt = "-q/--qp", .what = "number of QPs",
	  .label = "number of QPs (-q)", .json = "qps",
	  .help = "number of QPs (default 1)",
	  .man = "Number of QPs (bandwidth tests; default 1).\n"
		 "Over libfabric each QP is an endpoint whose memory is the provider's (tcp's\n"
		 "ofi_rxm took 68 MiB each on one Debian 12 host): the second endpoint's cost\n"
		 "times \\fIN\\fR is estimated before the rest are created, and a run that\n"
		 "needs more than three quarters of the available memory is refused (exit 3)\n"
		 "with the \\fB\\-q\\fR that fits." },
	{ GD_PARAM_AT(tx_depth), .type = GD_PT_UINT, .wire = 4, .min = 1, .max = GD_BENCH_MAX_DEPTH,
	  .def_fn = def_tx_depth, .given = GD_GIVEN_TX_DEPTH, .opt = "-t/--tx-depth",
	  .what = "tx depth", .label = "tx depth (-t)", .json = "tx_depth",
	  .help = "outstanding sends per QP (default 128)",
	  .man = "Outstanding sends per QP (default 128 for bandwidth, 1 for latency; at most\n"
		 "the number of iterations)." },
	{ GD_PARAM_AT(rx_depth), .type = GD_PT_UINT, .wire = 4, .min = 1,
	  .max = GD_BENCH_MAX_RX_DEPTH, .def_fn = def_rx_depth, .given = GD_GIVEN_RX_DEPTH,
	  .opt = "-r/--rx-depth", .what = "rx depth", .label = "rx depth (-r)", .json = "rx_depth",
	  .help = "receive queue depth (send and --write_with_imm; default 512)",
	  .man = "Receive queue depth (send and \\fB\\-\\-write_with_imm\\fR; default 512)." },
	/* carried, not compared: the smaller of the two sides' MTUs is used */
	{ GD_PARAM_AT(mtu), .type = GD_PT_UINT, .wire = 4, .max = 4096, .umin = 256, .valid = mtu_ok,
	  .form = "256, 512, 1024, 2048 or 4096 (0: the port's active MTU)", .given = GD_GIVEN_MTU,
	  .opt = "-m/--mtu", .what = "MTU", .json = "mtu_bytes",
	  .help = "path MTU 256, 512, 1024, 2048 or 4096 (default the port's active MTU)" },
	/* --initiator is reported beside the initiator's shape (init_opts.c), not under
	 * "params"; matched for every tool: the reporting side of a bandwidth pair labels
	 * its peer's numbers with it (D7) */
	{ GD_PARAM_AT(init.initiator), .type = GD_PT_ENUM, .wire = 1, .max = GD_INIT_COUNT - 1,
	  .opt = "--initiator", .what = "initiator", .label = "initiator (--initiator)",
	  .name = init_name,
	  .help = "who issues the operations: cpu (default), proxy (producers write a ring, CPU proxy threads post), ibgda, ibgda-cpudb",
	  .man = "\\fBcpu\\fR (the default): the CPU posts the work requests, as perftest.\n"
		 "\\fBproxy\\fR: producers write 32\\-byte request descriptors into rings in\n"
		 "pinned host memory and CPU proxy threads post them (the IBRC\\-proxy design\n"
		 "of NVSHMEM and UCCL\\-EP): one chain of work requests per QP and pass with\n"
		 "one doorbell; one chain in the default \\fB\\-Q\\fR's requests signalled (as\n"
		 "the CPU initiator signals; every chain where \\fB\\-Q\\fR is at most the\n"
		 "chain's 64), and the last before the ring runs dry; completions polled in\n"
		 "batches, credits returned to the producers in batches.\n"
		 "The producers are the CUDA producer kernel or, on a machine without a GPU\n"
		 "(\\fB\\-\\-producer\\fR), host threads compiled from the same source, labelled\n"
		 "\"host producer (no GPU)\" in the header and JSON.\n"
		 "A bandwidth test issues \\fB\\-n\\fR \\(mu \\fB\\-q\\fR requests and ends with one\n"
		 "quiet; the time from the first reservation to the end of the quiet gives\n"
		 "the bandwidth and the message rate (MsgRate column, msg_rate_mpps).\n"
		 "A latency test reports the round trip of one put followed by a quiet,\n"
		 "with percentiles; the client alone puts (the server is its target, or the\n"
		 "receiver that re\\-posts its receives).\n"
		 "Both sides of every test, bandwidth too, must give the same\n"
		 "\\fB\\-\\-initiator\\fR (the parameter check names a difference, exit 2): the\n"
		 "server of a bandwidth pair prints its client's numbers under its own\n"
		 "Initiator line.\n"
		 "Buffers may be host or GPU memory (\\fB\\-\\-use_cuda\\fR).\n"
		 "Not with \\fB\\-b\\fR, \\fB\\-D\\fR, \\fB\\-\\-run_infinitely\\fR, \\fB\\-l\\fR,\n"
		 "\\fB\\-Q\\fR or \\fB\\-\\-perform_warm_up\\fR (the proxy chains and signals by\n"
		 "itself).\n"
		 "A completion error ends the run with exit 1 and names the status, the\n"
		 "operation and the QP; a producer or proxy wait that passes\n"
		 "\\fB\\-\\-timeout\\fR prints the ring indices (head, credit, done) and the\n"
		 "work requests in flight per QP.\n"
		 "\\fBibgda\\fR and \\fBibgda\\-cpudb\\fR (GPU threads write mlx5 WQEs) first run\n"
		 "the IBGDA probe on the device and print each step with its reason (mlx5?\n"
		 "DEVX, HCA caps, GPU, dma\\-buf/legacy/host umem for the queues, the doorbell\n"
		 "page mapped into the GPU); a device that is not mlx5 (rxe, EFA) exits 3\n"
		 "naming \\fB\\-\\-initiator=proxy\\fR, a missing prerequisite exits 3 naming the\n"
		 "fix and the \\fBgd_doctor\\fR check. On a ConnectX the tools' DEVX data path\n"
		 "is not wired into the two\\-sided run yet: a device that passes the probe\n"
		 "also exits 3.\n"
		 "The data path itself (queue backend, kernels, report) runs on the\n"
		 "\\fBsoftware NIC test double\\fR, selected only by\n"
		 "\\fB\\-\\-ibgda_nic=software\\-test\\-double\\fR (or, without the option, the\n"
		 "environment variable \\fBGDPERF_IBGDA_NIC\\fR): for machines with a GPU and\n"
		 "no ConnectX. It is a test double, not a NIC: one process, no device, no\n"
		 "peer; the GPU kernels write mlx5 WQEs into queues in pinned host memory,\n"
		 "ring (or, with ibgda\\-cpudb, a CPU thread rings) and poll a collapsed CQ,\n"
		 "and a CPU thread executes the WQEs on this side's buffer (a loopback: the\n"
		 "run is the engine's, this side its own target) and writes the CQEs. The\n"
		 "header (\"Device: swnic (test double)\", \"IBGDA: NIC software NIC (test\n"
		 "double)\") and the JSON (\\fBibgda.nic_is_test_double\\fR) say so; its figures measure the GPU side and the test double, never a NIC.\n"
		 "\\fBgd_write_bw\\fR, \\fBgd_read_bw\\fR, \\fBgd_write_lat\\fR and\n"
		 "\\fBgd_read_lat\\fR: a bandwidth test posts \\fB\\-n\\fR \\(mu \\fB\\-q\\fR WQEs of\n"
		 "\\fB\\-s\\fR bytes (rounded up to whole rounds of the grid) and one quiet\n"
		 "per QP, timed from the launch to the end of the quiet (as the proxy mode);\n"
		 "\\fB\\-a\\fR runs \\fB\\-n\\fR per size. A latency test is one GPU thread, one\n"
		 "signalled WQE at a time, from the reservation to its completion.\n"
		 "\\fB\\-\\-validate\\fR checks the bytes the last size's WQEs moved (on the\n"
		 "test double each message has a slot of its own while they fit); a wait\n"
		 "without progress for \\fB\\-\\-timeout\\fR (on the GPU's %globaltimer) ends\n"
		 "the run with exit 1 and prints the QPN and the queue indices; an error CQE\n"
		 "prints its syndrome.\n"
		 "Not with \\fB\\-b\\fR, \\fB\\-D\\fR, \\fB\\-\\-run_infinitely\\fR, \\fB\\-l\\fR,\n"
		 "\\fB\\-Q\\fR, \\fB\\-\\-perform_warm_up\\fR, \\fB\\-w\\fR, \\fB\\-y\\fR, send or\n"
		 "atomic tests (exit 2); \\fB\\-\\-threads\\fR in whole warps; each QP needs its\n"
		 "own warp (scope thread or warp) or CTA (scope block)." },
	/* the fabric (wire version 3): parsed by the fabric's one parser (fabric_opts.c,
	 * which includes nothing of bench/) and reported by it */
	{ GD_PARAM_AT(fab.fabric), .type = GD_PT_ENUM, .wire = 1, .max = GD_FABRIC_COUNT - 1,
	  .opt = "--fabric", .what = "fabric", .label = "fabric (--fabric)", .name = fabric_name,
	  .man = "\\fBverbs\\fR: libibverbs RC queue pairs (mlx5, rxe, ...). \\fBofi\\fR:\n"
		 "libfabric endpoints (EFA, Slingshot cxi, tcp, shm, verbs through libfabric).\n"
		 "Without it one rule decides, and the header's \\fBFabric\\fR line and the JSON\n"
		 "field \\fBfabric_reason\\fR say why: verbs when an RDMA device that speaks RC\n"
		 "exists; ofi with the \\fBefa\\fR provider when the only RDMA devices are EFA\n"
		 "(SRD, no RC: EFA is the machine's NIC, and the \\fBFabric\\fR line says so).\n"
		 "With no RDMA device at all the tools do not fall back to libfabric on their\n"
		 "own (a node whose NIC driver failed to load would report a TCP figure as the\n"
		 "NIC's): they exit 3 with\n"
		 ".BR gd_devinfo (1)'s\n"
		 "fix, \"or run over libfabric with \\-\\-fabric ofi [\\-\\-provider tcp|shm]\";\n"
		 "\\fB\\-\\-fabric ofi\\fR (whose default provider is \\fBtcp\\fR: loopback or Ethernet,\n"
		 "no kernel module, no root, no VM) or \\fB\\-\\-provider\\fR, which implies it, runs there.\n"
		 "Both sides must run the same fabric, provider and endpoint type (the\n"
		 "parameter check names a difference, exit 2).\n"
		 "Each side opens its libfabric domain (the provider, domain and endpoint type\n"
		 "as fi_getinfo offers them) before it listens or connects: one this machine\n"
		 "lacks is refused at once (exit 2), by a server too, before any client came.\n"
		 "So is, on either fabric, memory this machine cannot give (\\fB\\-\\-use_cuda\\fR\n"
		 "without a CUDA driver or GPU, \\fB\\-\\-use_hugepages\\fR without free huge pages:\n"
		 "the run's buffer is taken once, before listening, and kept for the run; over\n"
		 "libfabric the endpoints are created before it, so that \\fB\\-q\\fR's memory estimate\n"
		 "refuses a run that does not fit first; exit 3), and on the\n"
		 "initiating side a \\fB\\-\\-producer gpu\\fR that CUDA cannot run (exit 3).\n"
		 "With \\fBofi\\fR, \\fB\\-R\\fR, \\fB\\-c RC\\fR and \\fB\\-\\-initiator\\fR=\\fBibgda\\fR or\n"
		 "\\fBibgda\\-cpudb\\fR are refused (exit 2; \\fB\\-\\-initiator=proxy\\fR runs over\n"
		 "libfabric, see Initiator); \\fB\\-d\\fR,\n"
		 "\\fB\\-i\\fR, \\fB\\-x\\fR, \\fB\\-m\\fR are verbs' and have no effect.\n"
		 "A build without libfabric refuses \\fB\\-\\-fabric ofi\\fR (exit 2).\n"
		 "libfabric is loaded when first used (\\fBlibfabric.so.1\\fR, found as the\n"
		 "dynamic linker finds libraries: \\fBLD_LIBRARY_PATH\\fR picks another build,\n"
		 "e.g. one with CUDA for \\fB\\-\\-use_cuda\\fR); a run over verbs never loads it.\n"
		 "When it cannot be loaded, \\fB\\-\\-fabric ofi\\fR exits 3 at once naming the\n"
		 "cause and the fix." },
	{ GD_PARAM_AT(fab.ep), .type = GD_PT_ENUM, .wire = 1, .max = GD_EP_COUNT - 1,
	  .opt = "--ep", .what = "endpoint type", .label = "endpoint type (--ep)", .name = ep_name,
	  .applies = names_provider,
	  .man = "The libfabric endpoint type: \\fBrdm\\fR (FI_EP_RDM, reliable datagram, the\n"
		 "default; addresses go into an address vector) or \\fBmsg\\fR (FI_EP_MSG,\n"
		 "connected: the server listens on a passive endpoint, the client connects,\n"
		 "each within \\fB\\-\\-timeout\\fR)." },
	{ GD_PARAM_AT(fab.provider), .type = GD_PT_STR, .max = GD_FABRIC_PROV_MAX - 1,
	  .opt = "--provider", .what = "provider", .label = "libfabric provider (--provider)",
	  .applies = names_provider,
	  .man = "The libfabric provider as \\fBfi_info \\-l\\fR names it: \\fBtcp\\fR,\n"
		 "\\fBshm\\fR (one host), \\fBefa\\fR, \\fBcxi\\fR, \\fBverbs\\fR.\n"
		 "Implies \\fB\\-\\-fabric ofi\\fR when \\fB\\-\\-fabric\\fR is not given.\n"
		 "A provider that does not exist, or has no endpoint with what the test\n"
		 "needs (FI_RMA for write and read, FI_MSG for send, FI_ATOMIC for atomics,\n"
		 "remote CQ data for \\fB\\-\\-write_with_imm\\fR), exits 2 on both sides naming\n"
		 "the provider and what it offers." },
	/* carried, not compared: the noise guard (trust.h) tells whether both
	 * sides of one host share one CPU (wire version 4) */
	{ GD_PARAM_AT(run_cpus), .type = GD_PT_STR, .max = GD_BENCH_CORES_MAX - 1,
	  .what = "CPUs", .json = "run_cpus" },
	/* carried, not compared: where this side's buffer sits, for the rule on a
	 * GPU producer's CUDA copies (fabric_rule.h; wire version 5; wire.c checks
	 * the two agree: host memory names no GPU, GPU memory its PCI address) */
	{ GD_PARAM_AT(buf_mem), .type = GD_PT_ENUM, .wire = 1, .max = GD_BUF_MEM_COUNT - 1,
	  .what = "buffer memory", .name = buf_mem_name },
	{ GD_PARAM_AT(buf_gpu), .type = GD_PT_STR, .max = GD_BENCH_BDF_MAX - 1,
	  .what = "buffer's GPU" },
	/* the class of the traffic, both directions (roce_opts.h; wire version 4):
	 * a responder in another class sends its ACKs and read responses there */
	{ GD_PARAM_AT(roce.sl), .type = GD_PT_UINT, .wire = 4, .max = 15, .opt = "-S/--sl",
	  .what = "service level", .label = "service level (-S)", .json = "sl",
	  .help = "service level of the QPs, 0-15 (default 0); both sides give the same",
	  .man = "Service level of the QPs' address vector, 0-15 (default 0). On InfiniBand the\n"
		 "SL of every packet. On RoCE there is no SL field: the NIC maps the SL to the\n"
		 "Ethernet priority, the PCP of a VLAN-tagged packet (an untagged RoCE v2 packet\n"
		 "has no field for it), and where the ports trust DSCP the traffic class\n"
		 "(\\fB\\-\\-tclass\\fR) decides the queue, not the SL. What the tool verifies: after\n"
		 "connecting it reads QP 1's address vector back from the device (ibv_query_qp),\n"
		 "prints it (\\fBQP addr. vector\\fR in the header when \\fB\\-S\\fR, \\fB\\-\\-tclass\\fR or\n"
		 "\\fB\\-T\\fR is given; JSON \\fBav_sl\\fR, \\fBav_traffic_class\\fR) and warns when the\n"
		 "device did not keep what was asked. It cannot see the priority a NIC puts on the\n"
		 "wire. Soft-RoCE keeps no service level (it reads back 0, with the warning) and takes\n"
		 "no VLAN netdev: there \\fB\\-S\\fR has no effect. Not with \\fB\\-R\\fR (rdma_cm takes\n"
		 "the SL from the route: on RoCE from \\fB\\-T\\fR through the netdev's priority map,\n"
		 "0 without one; read back likewise) nor over libfabric (exit 2)." },
	{ GD_PARAM_AT(roce.tclass), .type = GD_PT_UINT, .wire = 4, .max = 255, .opt = "--tclass",
	  .what = "traffic class", .label = "traffic class (--tclass)", .json = "tclass",
	  .help = "traffic class of the GRH, 0-255: DSCP << 2 | ECN (default 0); both sides give the same",
	  .man = "Traffic class of the GRH, 0-255: DSCP << 2 | ECN (default 0); on RoCE v2 the\n"
		 "IP header's DS field, which decides the switch queue (for instance 106:\n"
		 "DSCP 26, ECN-capable; seen so on every packet of both directions in a capture\n"
		 "of the Soft-RoCE guest's link). Not with \\fB\\-R\\fR (give \\fB\\-T\\fR). Over libfabric\n"
		 "the DSCP goes to the endpoint's traffic class (FI_TC_DSCP); ECN bits are\n"
		 "refused there (exit 2)." },
	{ GD_PARAM_AT(roce.tos), .type = GD_PT_UINT, .wire = 4, .max = 255, .opt = "-T/--tos",
	  .what = "type of service", .label = "rdma_cm type of service (-T)", .json = "tos",
	  .help = "with -R: type of service of rdma_cm's QPs, 0-255 (default the kernel's)",
	  .man = "With \\fB\\-R\\fR: the type of service of rdma_cm's ids (rdma_set_option\n"
		 "RDMA_OPTION_ID_TOS), 0-255, on both the connecting and the accepting side:\n"
		 "RoCE v2's DS byte of the RC packets of both directions (seen so for 106 and 184\n"
		 "in a capture of the Soft-RoCE guest's link) and the traffic class QP 1 reads back\n"
		 "(\\fBQP addr. vector\\fR, a warning where it differs); rdma_cm takes the SL from it\n"
		 "(\\fB\\-S\\fR). Without \\fB\\-R\\fR exit 2 (perftest: only with \\fB\\-R\\fR)." },
	/* the proxy's threads (wire version 6): over libfabric the passive side of its
	 * bandwidth test opens a domain and runs a progress thread per proxy thread of
	 * the peer (bench_ofi.c threads_of), so both sides give the same */
	{ GD_PARAM_AT(init.proxy_threads), .type = GD_PT_UINT, .wire = 4, .min = 1,
	  .max = GD_INIT_MAX_PROXY_THREADS, .opt = "--proxy_threads", .what = "proxy threads",
	  .label = "proxy threads (--proxy_threads)", .applies = proxy_over_ofi,
	  .def = GD_INIT_DEF_PROXY_THREADS,
	  .help = "proxy: CPU proxy threads, one ring each, 1-32 (default 1; at most -q)",
	  .man = "CPU proxy threads, one ring each, 1 to 32 (default 1, at most \\fB\\-q\\fR).\n"
		 "QP q is driven by proxy thread q % N.\n"
		 "With \\fB\\-\\-pin_cores\\fR proxy thread i runs on the i\\-th CPU of the list.\n"
		 "Over \\fB\\-\\-fabric ofi\\fR each proxy thread of the initiating side has a\n"
		 "libfabric domain of its own, opened FI_THREAD_DOMAIN (the provider's lock\\-free\n"
		 "path), with its completion queues, address vector and registration of the\n"
		 "buffer; its QPs' endpoints live there. The passive side of a bandwidth test\n"
		 "(write, read, atomic: the target that posts nothing) opens as many domains,\n"
		 "endpoint i in domain i % N as on the initiating side, and drives each from a\n"
		 "progress thread of its own while the run lasts (each paced as one passive\n"
		 "side is): one thread there could not keep up with N. So over libfabric both\n"
		 "sides give the same \\fB\\-\\-proxy_threads\\fR (the parameter check names a\n"
		 "difference, exit 2). A receiver (send, \\fB\\-\\-write_with_imm\\fR) counts its\n"
		 "completions in one loop: one domain." },

	/* ---- this side's own, in the order of their JSON keys ---- */
	LSTR(peer, "HOST", "server's host", "peer"), .check = host_name_ok END, /* the HOST operand */
	LUINT(tcp_port, 1, 65535, "-p/--port", "side-channel port", "tcp_port"),
	      .def = GD_BENCH_DEF_PORT,
	      .help = "TCP port of the side channel, also rdma_cm's (default 18515)" END,
	LSTR(bind_addr, "--bind", "listening address", "bind"), .check = host_name_ok,
	      .help = "server: listen on this local address only (default all)" END,
	LSTR(source_ip, "--bind_source_ip", "source address", "bind_source_ip"),
	     .check = host_addr_ok,
	      .help = "local source address of the connection (default from routing)",
	      .man = "Local source address of the connection (default from routing);\n"
		     "\\fB\\-\\-source_ip\\fR is older perftest's spelling." END,
	LUINT(timeout_ms, 1000, 3600000, "--timeout", "side-channel deadline", "timeout_ms"),
	      .scale = 1000, .def = GD_BENCH_DEF_TIMEOUT_MS,
	      .help = "deadline of each side-channel step, connect included (default 10)",
	      .man = "Deadline of each side-channel step, the client's connect included, of\n"
		     "rdma_cm steps, and of a run that sees no progress (default 10)." END,
	LSTR(dev, "-d/--ib-dev", "RDMA device", "device"), .check = gd_dev_name_check,
	      .help = "RDMA device (default the first one)",
	      .man = "RDMA device (default the first one with the port ACTIVE)." END,
	LUINT(ib_port, 1, GD_BENCH_MAX_IB_PORT, "-i/--ib-port", "device port", "ib_port"),
	      .def = 1,
	      .help = "port of the RDMA device (default 1)" END,
	{ GD_PARAM_AT(gid_index), .type = GD_PT_INT, .min = (uint64_t)-1, .max = 255,
	  .def = (uint64_t)-1, .given = GD_GIVEN_GID, .opt = "-x/--gid-index", .what = "GID index",
	  .json = "gid_index", .flags = GD_PF_LOCAL,
	  .help = "GID index (default on RoCE: the v2 GID that routes to the peer)" }, /* -1: auto, the v2 GID routing to the peer */
	LUINT(qp_timeout, 0, 31, "-u/--qp-timeout", "QP ACK timeout exponent",
	      "qp_timeout_exponent"), .def = GD_BENCH_DEF_QP_TIMEOUT,
	      .help = "ACK timeout of the QPs, 4.096 us x 2^N, 0-31, 0 = none (default 14)",
	      .man = "ACK timeout of the QPs (local ACK timeout, also through rdma_cm), 4.096 us\n"
		     "times 2^\\fIN\\fR, 0 to 31; 0 means none (default 14, about 67 ms, as\n"
		     "perftest). A longer timeout keeps a slow or stalled peer (a virtual machine\n"
		     "whose vCPU does not run) from causing spurious retransmissions; each side\n"
		     "sets its own." END,
	LUINT(margin_s, 0, GD_BENCH_MAX_DURATION, "-f/--margin", "margin", "margin_s"),
	      .given = GD_GIVEN_MARGIN,
	      .help = "with -D: seconds left out at start and end (default duration/4)",
	      .man = "With \\fB\\-D\\fR: seconds left out at the start and the end (default a quarter\n"
		     "of the duration)." END,
	LDBL(precision, 0, 100, "--precision", "precision", "precision_pct"), .ddef_fn = def_precision,
	     .form = "a percentage from 0 (off) to 100", .given = GD_GIVEN_PRECISION,
	      .help = "-a: stop a size when the 95% interval of its rate is within PCT % (default by size, from perftest's run-to-run spread; 0: run -n each)",
	      .man = "Bandwidth tests with \\fB\\-a\\fR: stop a size as soon as the 95% confidence\n"
		     "interval of its per-window message rate is within PCT percent of the mean\n"
		     "(default: by size, from perftest's measured run-to-run spread, see ADAPTIVE\n"
		     "SWEEP); 0 runs exactly \\fB\\-n\\fR messages per size, as perftest." END,
	LUINT(cq_mod, 1, GD_BENCH_MAX_DEPTH, "-Q/--cq-mod", "CQ moderation", "cq_moderation"),
	      .def_fn = def_cq_mod, .given = GD_GIVEN_CQ_MOD,
	      .help = "one signalled completion every N posts (default 100; 1 above 8 KiB, but not for writes over libfabric)",
	      .man = "One signalled completion every N posts (default 100; 1 above 8 KiB, but not\n"
		     "for writes over libfabric: there a signalled write may ask delivery\n"
		     "completion, which the tcp provider answers with an acknowledgement per\n"
		     "write, so large writes keep the default 100, bounded by the 1 MiB rule below)." END,
	{ GD_PARAM_AT(inline_size), .type = GD_PT_INT, .min = (uint64_t)-1, .max = 1024,
	  .def_fn = def_inline, .given = GD_GIVEN_INLINE, .opt = "-I/--inline_size",
	  .what = "inline size", .json = "inline_size_bytes", .flags = GD_PF_LOCAL,
	  .help = "largest message sent inline, 0-1024 (write and send)",
	  .man = "Largest message sent inline, 0\\-1024 (write and send; latency tests default\n"
		 "to the largest size the device takes)." },
	LUINT(post_list, 1, GD_BENCH_MAX_DEPTH, "-l/--post_list", "post list", "post_list"),
	      .def = 1, .given = GD_GIVEN_POST_LIST,
	      .help = "post N work requests per call (default 1)",
	      .man = "Post N work requests per call (default 1); CQ moderation becomes N." END,
	LUINT(out_reads, 0, 65535, "-o/--outs", "outstanding reads", "outstanding_reads"),
	      .umin = 1, .given = GD_GIVEN_OUT_READS,
	      .help = "outstanding reads/atomics per QP (default the device maximum)",
	      .man = "Outstanding reads or atomics per QP (default the device maximum, and at most\n"
		     "the peer's)." END, /* 0: the device's maximum */
	LUINT(latency_gap, 0, 10000000, "--latency_gap", "latency gap", "latency_gap_us"),
	      .help = "wait USEC microseconds between two latency samples" END,
	LFLAG(no_peak, "-N/--noPeak", "no_peak"),
	      .help = "do not compute the peak bandwidth" END,
	LFLAG(report_gbits, "--report_gbits", "report_gbits"),
	      .help = "report bandwidth in Gb/s (10^9 bit) instead of MiB/s (2^20 byte)",
	      .man = "Report bandwidth in Gb/s (10^9 bit) instead of MiB/s (2^20 byte), with 6\n"
		     "decimals at every size of the run (one format per column: a small message's Gb/s\n"
		     "on a slow link is below 0.01); MiB/s have 2, as perftest's." END,
	LFLAG(report_cycles, "-C/--report-cycles", "report_cycles"),
	      .help = "report latency in nanoseconds instead of microseconds (perftest: cycles)",
	      .man = "Report latency in nanoseconds instead of microseconds (perftest reports CPU\n"
		     "cycles; gdperf's clock counts nanoseconds)." END,
	LDBL(limit_bw, 0, 1e12, "-w/--limit_bw", "bandwidth floor", "limit_bw"),
	      .help = "fail (exit 1) when the average bandwidth is below BW (report unit)",
	      .man = "Fail (exit 1) when the average bandwidth is below BW (in the report unit);\n"
		     "judged on both sides, like \\fB\\-y\\fR: a server judges the numbers it prints\n"
		     "(its client's, for write, read and atomic)." END,
	LDBL(limit_msgrate, 0, 1e12, "-y/--limit_msgrate", "message rate floor",
	     "limit_msgrate_mpps"),
	      .help = "fail (exit 1) when the message rate is below MPPS",
	      .man = "Fail (exit 1) when the message rate is below MPPS (independently of\n"
		     "\\fB\\-w\\fR, unlike perftest)." END,
	LFLAG(use_hugepages, "--use_hugepages", "use_hugepages"),
	      .help = "allocate the buffers from 2 MiB huge pages",
	      .man = "Allocate the buffers from 2 MiB huge pages (needs /proc/sys/vm/nr_hugepages)." END,
	LSTR(pin_cores, "--pin_cores", "CPU list", "pin_cores"), .check = cpu_list_ok,
	      .help = "run on these CPUs, e.g. 0-3,8 (default the NIC's NUMA node)",
	      .man = "Run on these CPUs, e.g. 0\\-3,8 (default the NIC's NUMA node when it has one)." END,
	{ GD_PARAM_AT(use_cuda), .type = GD_PT_INT, .min = (uint64_t)GD_CUDA_AUTO, .max = 1023,
	  .word = "auto", .def = (uint64_t)GD_CUDA_NONE, .opt = "--use_cuda", .what = "CUDA device",
	  .json = "use_cuda", .to_json = cuda_json, .flags = GD_PF_LOCAL,
	  .help = "buffers in the memory of CUDA device N, or of the GPU nearest the NIC" },
	LSTR(cuda_bus_id, "--use_cuda_bus_id", "GPU's PCI address", "use_cuda_bus_id"),
	     .check = pci_ok,
	      .help = "buffers in the memory of the CUDA device at this PCI address" END,
	LFLAG(cuda_dmabuf, "--use_cuda_dmabuf", "use_cuda_dmabuf"),
	      .help = "register GPU memory through dma-buf (with --use_cuda)",
	      .man = "Register GPU memory through dma-buf (with \\fB\\-\\-use_cuda\\fR)." END,
	LFLAG(gpu_staging, "--gpu_staging", "gpu_staging"),
	      .help = "stage GPU data through host memory (with --use_cuda)",
	      .man = "Stage GPU data through host memory (with \\fB\\-\\-use_cuda\\fR)." END,
	LFLAG(roce.events, "-e/--events", "events"),
	      .help = "sleep on completion events instead of polling (verbs)",
	      .man = "Sleep on completion events (a completion channel, ibv_req_notify_cq,\n"
		     "ibv_get_cq_event, each wait bounded by 100 ms) instead of busy polling.\n"
		     "Verbs and the CPU initiator only; not the write tools, as perftest; over\n"
		     "libfabric exit 2. The noise guard does not judge the CPU time of an\n"
		     "event-driven loop." END,
	LFLAG(roce.cpu_util, "--cpu_util", "cpu_util"),
	      .help = "with -D: report the CPU utilisation of the host over the run, percent",
	      .man = "With \\fB\\-D\\fR (else exit 2, as perftest): the host's CPU utilisation, percent\n"
		     "of all CPUs' time not idle (/proc/stat: user, nice, system, irq, softirq,\n"
		     "steal over all jiffies), over the size's whole run, margins included: a\n"
		     "column \"CPU_Util[%]\" in the table, cpu_util_pct in JSON." END,
	LDBL(roce.rate_limit, 0, 1e9, "--rate_limit", "rate limit", "rate_limit"),
	     .applies = rate_on,
	      .help = "send at most RATE (in --rate_units), default unlimited",
	      .man = "Bandwidth tools: send at most RATE, in \\fB\\-\\-rate_units\\fR. With\n"
		     "\\fB\\-\\-rate_limit_type HW\\fR (the default, as perftest) every QP gets\n"
		     "ibv_modify_qp_rate_limit (kbps; a device without packet pacing is exit 3\n"
		     "naming the fix, SW); with \\fBSW\\fR the posting loop paces itself: a token\n"
		     "bucket of \\fB\\-\\-burst_size\\fR messages filled at RATE, on any fabric.\n"
		     "\\fBPP\\fR (mlx5 packet pacing with a typical packet size) is refused (exit 2)." END_F(GD_PF_ABOVE_MIN | GD_PF_JSON_IF_APPLIES),
	LENUM(roce.rate_units, GD_RATE_UNITS_COUNT - 1, "--rate_units", "rate units"),
	      .choices = rate_units_words, .name = units_name, .json = "rate_units",
	      .applies = rate_on,
	      .help = "unit of --rate_limit: MiB/s (M), Gb/s (g, default) or messages/s (p)",
	      .man = "Unit of \\fB\\-\\-rate_limit\\fR: MiB/s, Gb/s (default) or messages per second\n"
		     "(not with HW, as perftest)." END_F(GD_PF_JSON_IF_APPLIES),
	LENUM(roce.rate_type, GD_RATE_TYPE_COUNT - 1, "--rate_limit_type", "rate limit type"),
	      .umin = GD_RATE_HW, .name = rate_type_name, .json = "rate_limit_type",
	      .applies = rate_on,
	      .help = "the QP's packet pacing (HW, default) or a software pacer (SW)",
	      .man = "How the rate is held (see \\fB\\-\\-rate_limit\\fR)." END_F(GD_PF_JSON_IF_APPLIES),
	LUINT(roce.burst_size, 0, 65536, "--burst_size", "burst size", "burst_size"), .umin = 1,
	      .applies = rate_on, .to_json = burst_json,
	      .help = "with --rate_limit: messages one burst may hold (default 1)",
	      .man = "Messages one burst may hold (default 1): the software pacer's bucket, or\n"
		     "the hardware limit's max_burst_sz in messages of the size." END_F(GD_PF_JSON_IF_APPLIES), /* 0: one message */

	/* ---- this side's own, not in "params" ---- */
	LFLAG(histogram, "-H/--report-histogram", NULL),
	      .help = "print every sample, sorted",
	      .man = "Print every latency sample, sorted; \\fB\\-\\-report\\-histogrm\\fR is perftest's\n"
		     "spelling." END,
	LFLAG(unsorted, "-U/--report-unsorted", NULL),
	      .help = "print every sample in order (implies -H)",
	      .man = "Print every latency sample in order (implies \\fB\\-H\\fR)." END,
	LFLAG(cpu_freq_quiet, "-F/--CPU-freq", NULL),
	      .help = "accepted for perftest compatibility (gdperf does not measure the CPU frequency)",
	      .man = "Accepted for perftest compatibility: gdperf does not measure the CPU\n"
		     "frequency, so there is no warning to silence." END,
	LFLAG(json, "--json", NULL),
	      .help = "print one JSON object per result (JSON Lines) instead of tables",
	      .man = "Print one JSON object per result (JSON Lines) instead of tables; see JSON\n"
		     "OUTPUT. It cannot be combined with \\fB\\-\\-output\\fR or\n"
		     "\\fB\\-H\\fR/\\fB\\-U\\fR (exit 2): the record carries the percentiles, the\n"
		     "sample list is text only." END,
	LFLAG(mpi, "--mpi", NULL),
	      .help = "under mpirun/srun with 2 ranks: a server and a client, rank 0 prints the report (MPI passes the server's address)",
	      .man = "Under \\fBmpirun\\fR/\\fBmpiexec\\fR (Open MPI) or \\fBsrun\\fR (Slurm) with 2 ranks:\n"
		     "one rank is the server, the other the client, and rank 0 prints the report:\n"
		     "for the bandwidth tools rank 0 is the server (it prints the client's numbers),\n"
		     "for the latency tools the client (it times the round trips). The client\n"
		     "connects to the server rank's address (the IP of the GID the device and GID\n"
		     "rules choose there, else its host name), which MPI passes; the side channel\n"
		     "is the usual TCP one and the data path RDMA. At the end both ranks\n"
		     "exit with one code (rank 0's, else rank 1's). Give no \\fIHOST\\fR. Needs a\n"
		     "build configured with MPI (configure's with-mpi option; exit 3 otherwise);\n"
		     "exit 2 outside a launcher or with another number of ranks. See EXAMPLES." END,
	LENUM(output, GD_OUTPUT_COUNT - 1, "--output", "output"), .umin = 1,
	      .name = output_name,
	      .help = "print only one number per size: bandwidth, message_rate or latency",
	      .man = "Print only one number per size, no header: \\fBbandwidth\\fR (average, in the\n"
		     "report unit), \\fBmessage_rate\\fR (Mpps) or \\fBlatency\\fR (average usec)." END,
	LENUM(transport, GD_TRANSPORT_COUNT - 1, "-c/--connection", "transport type"),
	      .name = transport_name, .given = GD_GIVEN_CONN_RC,
	      .help = "transport type: RC only (perftest's default; UC, UD, XRC, DC and SRD are refused)",
	      .man = "Transport type, accepted for perftest compatibility: gdperf runs reliable\n"
		     "connected (RC) queue pairs, perftest's default. UC, UD, XRC, DC and SRD are\n"
		     "refused (exit 2) with the reason; with \\fB\\-\\-fabric ofi\\fR, \\fB\\-c RC\\fR is\n"
		     "refused too (libfabric's endpoint type is \\fB\\-\\-ep\\fR). Without\n"
		     "\\fB\\-\\-fabric\\fR, \\fB\\-c RC\\fR chooses verbs, as \\fB\\-d\\fR does." END,
	/* the initiator's shape: reported beside the initiator (init_opts.c) */
	LUINT(init.ctas, 1, GD_INIT_MAX_CTAS, "--ctas", "producer CTAs", NULL),
	      .def = GD_INIT_DEF_CTAS,
	      .help = "proxy/IBGDA: producer CTAs (host producers: threads) (default 1)",
	      .man = "Producer CTAs (host producers: one thread per CTA), default 1." END,
	LUINT(init.threads, 1, GD_INIT_MAX_THREADS, "--threads", "threads per CTA", NULL),
	      .def = GD_INIT_DEF_THREADS,
	      .help = "proxy/IBGDA: threads per CTA, 1-1024 (default 32)",
	      .man = "Threads per CTA, 1 to 1024 (default 32)." END,
	LENUM(init.scope, GD_SCOPE_COUNT - 1, "--scope", "scope"), .name = scope_name,
	      .def = GD_SCOPE_WARP,
	      .help = "proxy/IBGDA: who issues one reservation: thread, warp (default) or block",
	      .man = "Who issues one reservation of ring slots: each thread (one descriptor per\n"
		     "system fence), each warp (32 descriptors per fence, the default) or each\n"
		     "CTA.\n"
		     "Each issuing group writes on its own channel; channel g uses QP g % \\fB\\-q\\fR,\n"
		     "so a bandwidth test needs at least \\fB\\-q\\fR groups (exactly \\fB\\-q\\fR for\n"
		     "CMP_AND_SWAP, whose compare values form one sequence per QP)." END,
	LUINT(init.ring_slots, 2, GD_INIT_MAX_RING_SLOTS, "--ring_slots", "ring slots", NULL),
	      .def = GD_INIT_DEF_RING_SLOTS, .valid = pow2,
	      .form = "a power of two (2 to 16M), e.g. 1024",
	      .help = "proxy: descriptors per ring, a power of two (default 1024)",
	      .man = "Descriptors per ring, a power of two (default 1024)." END,
	LENUM(init.producer, GD_PRODUCER_COUNT - 1, "--producer", "producer"),
	      .name = producer_name,
	      .help = "proxy: who writes the ring: gpu (the CUDA producer kernel; default when CUDA finds a device) or host (producer threads)",
	      .man = "With \\fB\\-\\-initiator=proxy\\fR: who writes the ring on the initiating side:\n"
		     "the CUDA producer kernel (on the \\fB\\-\\-use_cuda\\fR GPU, else CUDA device 0)\n"
		     "or host producer threads (one per CTA; at most 4 per CPU, or 256 on a smaller host:\n"
		     "more is exit 2). Default: gpu when CUDA finds a device, host otherwise.\n"
		     "Over a libfabric provider that moves GPU memory with CUDA copies (shm, sm2,\n"
		     "tcp, udp, sockets), the GPU producer with GPU memory runs reads, send latency,\n"
		     "and writes and sends of 64 KiB or more (its kernels run on a non\\-blocking\n"
		     "stream, which the provider's copies do not wait for). Atomics, smaller\n"
		     "writes, and smaller sends of a bandwidth test wait for CUDA copies in the target's process, which get\n"
		     "the GPU only at a time slice of the running kernel's (about 2.4 ms each): for them\n"
		     "\\fB\\-\\-producer gpu\\fR is exit 3 naming the\n"
		     "reason and the fix, and the default takes host producers. Over shm under MPS\n"
		     "(both sides started with one \\fBnvidia\\-cuda\\-mps\\-control \\-d\\fR) the\n"
		     "processes share one GPU context and every op runs. Each side tells its peer\n"
		     "where its buffer sits (host memory, or its GPU and whether it is an MPS client\n"
		     "there: CU_DEVICE_ATTRIBUTE_MPS_ENABLED), and the initiating side judges the\n"
		     "target's: a target whose buffer is on the producer's GPU outside the MPS daemon\n"
		     "the initiating side runs under is exit 3 on both sides, naming the fix (start\n"
		     "it under the same daemon); a target's buffer in host memory, on another GPU or\n"
		     "another host shares no time slice with the kernel. The header's Producer line and JSON \"producer_kind\" and\n"
		     "\"producer_reason\" say which and why; a GPU producer that cannot run exits 3.\n"
		     "Under each bandwidth row the issue rate and the completion rate are printed\n"
		     "apart (requests per second on the producers' clock, per message)." END,
	LENUM(init.ibgda_nic, GD_IBGDA_NIC_COUNT - 1, "--ibgda_nic", "IBGDA NIC"),
	      .name = nic_name,
	      .help = "ibgda: the queue backend: devx (a ConnectX; default) or software-test-double (a CPU thread plays the NIC, a loopback, for machines without a ConnectX); without the option, the environment's " GD_IBGDA_NIC_ENV,
	      .man = "With the IBGDA initiators: the queue backend. \\fBdevx\\fR (the default) is a\n"
		     "ConnectX through mlx5 DEVX; \\fBsoftware\\-test\\-double\\fR is the software\n"
		     "NIC test double (a CPU thread executes the GPU's WQEs on local buffers, a\n"
		     "loopback; see \\fB\\-\\-initiator\\fR). Without the option the tools take the\n"
		     "environment variable \\fBGDPERF_IBGDA_NIC\\fR (a default the tools read, not\n"
		     "the library); the option wins over it. Any other value, given either way, is\n"
		     "exit 2 naming both. The header's Initiator line ends with \"NIC devx\" or \"NIC\n"
		     "software\\-test\\-double\", and the JSON record carries \\fBibgda_nic\\fR." END,
	LFLAG(init.ibgda_fallback, "--ibgda_fallback", NULL),
	      .help = "ibgda: when the GPU cannot map the NIC doorbell, run ibgda-cpudb (a CPU rings) instead of exiting 3",
	      .man = "With \\fB\\-\\-initiator=ibgda\\fR: when the GPU cannot map the NIC's doorbell\n"
		     "page (no \\fBPeerMappingOverride=1\\fR), run ibgda\\-cpudb (a CPU thread rings\n"
		     "the doorbell) instead of exiting 3. The probe lines say so." END,
	LUINT(init.dump_wqes, 0, GD_INIT_MAX_DUMP_WQES, "--dump_wqes", "WQEs to print", NULL),
	      .help = "ibgda: print the first N send WQEs decoded (debugging on real hardware)",
	      .man = "With the IBGDA initiators: print the first \\fIN\\fR send WQEs decoded\n"
		     "(opcode, QPN, ds, signalled, addresses, keys, operands), for debugging on real\n"
		     "hardware: QP 0's first \\fIN\\fR WQEBB slots as the run left them (the ring\n"
		     "wraps, so each slot holds its latest WQE), after the table (to standard\n"
		     "error with \\fB\\-\\-json\\fR)." END,
	/* the fabric's own (fabric_opts.c parses and reports them) */
	LSTR(fab.domain, "--domain", "libfabric domain", NULL),
	  .man = "The libfabric domain (e.g. \\fBlo\\fR, \\fBeth0\\fR, \\fBrdmap0s6\\-rdm\\fR) as\n"
		 "\\fBfi_info \\-p\\fR \\fIPROV\\fR lists them; default the provider's first.\n"
		 "One that the provider does not have exits 2." END,
	LSTR(fab.fabric_name, "--fabric-name", "libfabric fabric name", NULL),
	  .man = "The libfabric fabric (e.g. \\fB127.0.0.1/32\\fR) as \\fBfi_info \\-p\\fR\n"
		 "\\fIPROV\\fR lists it; default the provider's first.\n"
		 "One that the provider does not have exits 2." END,
};
const size_t gd_matched_nparams = GD_ARRAY_SIZE(gd_matched_params);

const struct gd_param *gd_param_find(size_t off)
{
	for (size_t i = 0; i < gd_matched_nparams; i++)
		if (gd_matched_params[i].off == off)
			return &gd_matched_params[i];
	return NULL;
}

const struct gd_param *gd_param_by_option(const char *name)
{
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const char *o = gd_matched_params[i].opt, *l = o ? strstr(o, "--") : NULL;

		if (l && !strcmp(l + 2, name))
			return &gd_matched_params[i];
	}
	return NULL;
}

const char *gd_param_help(const struct gd_opt *o)
{
	const struct gd_param *d = gd_param_by_option(o->name);

	return d && d->help ? d->help : "";
}

/* The bench tools' man text of the rows every tool shares (core's opts.c), which
 * the list does not hold: not parameters of a run. */
static const struct {
	const char *name, *man;
} shared_man[] = {
	{ "sysfs-root",
	  "Read sysfs under \\fIDIR\\fR, a copy of a machine's sys/ and proc/ (also\n"
	  "\\fBGDPERF_SYSFS_ROOT\\fR; the option wins): the NIC's NUMA node for the\n"
	  "default CPU placement, the GID table the GID is chosen from and the GPU\n"
	  "placement for \\fB\\-\\-use_cuda=auto\\fR are read there.\n"
	  "Verbs still opens this machine's device of the chosen name and confirms the\n"
	  "GID, so this is for testing the choices, not for running against another\n"
	  "machine. A \\fIDIR\\fR that is not a directory is a usage error (exit 2)." },
	{ "help",
	  "Show the options of this tool and exit 0." },
	{ "version",
	  "Show the version (from \\fBgit describe\\fR, or the release tarball) and the\n"
	  "optional features built (CUDA kernels, MPI, YAML specs), and exit 0. With\n"
	  "\\fB\\-\\-json\\fR (anywhere on the line): one \\fBversion\\fR record\n"
	  "instead (doc/json.md)." },
	{ "completion",
	  "Print words for shell completion, one per line, and exit: \\fBoptions\\fR\n"
	  "prints this tool's option table (one line per option: its name, its argument\n"
	  "(\\fB\\-\\fR for a flag) and, for an option that takes one of a list, the\n"
	  "words of that list), the table \\fB\\-\\-help\\fR prints; the bash\n"
	  "completion installed with gdperf reads it." },
	{ "verbose",
	  "Print debugging detail on stderr." },
};

/* help expanded into a man entry: a capital, a full stop, each "-" a minus */
static const char *man_from_help(const char *help, char *buf, size_t len)
{
	size_t n = 0;

	for (const char *s = help; *s && n + 3 < len; s++) {
		if (*s == '-')
			buf[n++] = '\\';
		buf[n++] = s == help && *s >= 'a' && *s <= 'z' ? (char)(*s - 'a' + 'A') : *s;
	}
	if (n + 1 < len)
		buf[n++] = '.';
	buf[n < len ? n : len - 1] = '\0';
	return buf;
}

const char *gd_param_man(const struct gd_opt *o, char *buf, size_t len)
{
	const struct gd_param *d = gd_param_by_option(o->name);
	const char *help = o->help == gd_opt_help_listed ? gd_param_help(o) : o->help;

	if (d && d->man)
		return d->man;
	for (size_t i = 0; i < GD_ARRAY_SIZE(shared_man); i++)
		if (!strcmp(shared_man[i].name, o->name))
			return shared_man[i].man;
	return help && *help && len ? man_from_help(help, buf, len) : NULL;
}

bool gd_param_on_wire(const struct gd_param *d)
{
	return !(d->flags & GD_PF_LOCAL);
}

uint64_t gd_param_get(const struct gd_bench_params *p, const struct gd_param *d)
{
	const unsigned char *m = (const unsigned char *)p + d->off;
	uint64_t v64 = 0;
	uint32_t v32 = 0;
	uint16_t v16 = 0;
	uint8_t v8 = 0;

	switch (d->len) { /* enums are int-sized here, bools one byte */
	case 8: memcpy(&v64, m, 8); return v64;
	case 4: memcpy(&v32, m, 4); return v32;
	case 2: memcpy(&v16, m, 2); return v16;
	case 1: memcpy(&v8, m, 1); return v8;
	default: return 0;
	}
}

void gd_param_put(struct gd_bench_params *p, const struct gd_param *d, uint64_t v)
{
	unsigned char *m = (unsigned char *)p + d->off;
	uint32_t v32 = (uint32_t)v;
	uint16_t v16 = (uint16_t)v;
	uint8_t v8 = (uint8_t)v;

	if (d->type == GD_PT_FLAG) {
		bool b = v != 0;

		memcpy(m, &b, sizeof(b));
		return;
	}
	switch (d->len) {
	case 8: memcpy(m, &v, 8); break;
	case 4: memcpy(m, &v32, 4); break;
	case 2: memcpy(m, &v16, 2); break;
	case 1: memcpy(m, &v8, 1); break;
	}
}

bool gd_param_ok(const struct gd_param *d, uint64_t v)
{
	return v >= d->min && v <= d->max && (!d->valid || d->valid(v));
}

/* The option's words: choices, or name() from the option's floor on. */
static int set_enum(struct gd_bench_params *p, const struct gd_param *d, const char *arg)
{
	uint64_t floor = GD_MAX(d->min, d->umin);
	const char *names[17];
	unsigned n = 0;
	int v = 0, ret;

	for (uint64_t i = floor; i <= d->max && n < GD_ARRAY_SIZE(names) - 1; i++)
		names[n++] = d->choices ? d->choices[i - floor] : d->name((unsigned)i);
	names[n] = NULL;
	ret = gd_opt_choice(d->opt, arg, names, &v);
	if (!ret)
		gd_param_put(p, d, floor + (uint64_t)v);
	return ret;
}

static int set_str(struct gd_bench_params *p, const struct gd_param *d, const char *arg)
{
	if (arg && d->check && d->check(arg, d->opt))
		return -EINVAL;
	if (!arg || !*arg || strlen(arg) > d->max || strlen(arg) >= d->len) {
		gd_error("invalid value '%s' for %s: expected 1 to %llu characters",
			 gd_excerpt(arg), d->opt, (unsigned long long)GD_MIN(d->max, d->len - 1));
		return -EINVAL;
	}
	memcpy((char *)p + d->off, arg, strlen(arg) + 1);
	return 0;
}

/* A bound as people write it: 100, 1e9 (not %g's 1e+09). */
static const char *bound(double v, char *buf, size_t len)
{
	char *e;

	snprintf(buf, len, "%g", v);
	e = strchr(buf, 'e');
	if (e && e[1] == '+')
		memmove(e + 1, e + 2 + (e[2] == '0'), strlen(e + 2 + (e[2] == '0')) + 1);
	return buf;
}

/* A decimal number: strtod would also take "nan", "inf", hex floats and spaces. */
static int set_double(struct gd_bench_params *p, const struct gd_param *d, const char *arg)
{
	bool above = d->flags & GD_PF_ABOVE_MIN;
	char *end = NULL, lo[32], hi[32];
	double v = 0;

	if (arg && *arg >= '0' && *arg <= '9' && strspn(arg, "0123456789.eE+-") == strlen(arg)) {
		errno = 0;
		v = strtod(arg, &end);
	}
	if (!end || *end) {
		gd_error("invalid value '%s' for %s: expected a %s decimal number", gd_excerpt(arg),
			 d->opt, above ? "positive" : "non-negative");
		return -EINVAL;
	}
	if (errno || v < d->dmin || (above && !(v > d->dmin)) || v > d->dmax) {
		gd_error("invalid value '%s' for %s: out of range; %s %s%s %s%s%s%s", gd_excerpt(arg),
			 d->opt, above ? "more than" : "must be between", bound(d->dmin, lo, 32),
			 above ? ", at most" : " and", bound(d->dmax, hi, 32), d->form ? " (" : "",
			 d->form ? d->form : "", d->form ? ")" : "");
		return -ERANGE;
	}
	memcpy((char *)p + d->off, &v, sizeof(v));
	return 0;
}

/* GD_PT_INT: the option's word (min), else an integer from the option's floor. */
static int set_int(struct gd_bench_params *p, const struct gd_param *d, const char *arg)
{
	int64_t floor = GD_MAX((int64_t)d->min, (int64_t)d->umin);
	int v = 0, ret;

	if (d->word && arg && !strcmp(arg, d->word)) {
		gd_param_put(p, d, d->min);
		return 0;
	}
	ret = gd_opt_int(d->opt, arg, (int)floor, (int)d->max, &v);
	if (!ret)
		gd_param_put(p, d, (uint64_t)(int64_t)v);
	return ret;
}

static int set_uint(struct gd_bench_params *p, const struct gd_param *d, const char *arg)
{
	uint64_t scale = d->scale ? d->scale : 1, v = 1;
	uint64_t lo = (GD_MAX(d->min, d->umin) + scale - 1) / scale, hi = d->max / scale;
	int ret = 0;

	if (d->type == GD_PT_SIZE)
		ret = gd_opt_size(d->opt, arg, lo, hi, &v);
	else if (d->type == GD_PT_UINT)
		ret = gd_opt_u64(d->opt, arg, lo, hi, &v);
	if (ret)
		return ret;
	if (d->valid && !d->valid(v)) {
		gd_error("invalid value '%s' for %s: expected %s", gd_excerpt(arg), d->opt, d->form);
		return -EINVAL;
	}
	gd_param_put(p, d, v * scale);
	return 0;
}

int gd_param_set(struct gd_bench_params *p, size_t off, const char *arg)
{
	const struct gd_param *d = gd_param_find(off);

	if (!d || !d->opt) {
		gd_error("internal: option of an unlisted parameter (offset %zu)", off);
		return -EINVAL;
	}
	p->given |= d->given;
	switch (d->type) {
	case GD_PT_STR: return set_str(p, d, arg);
	case GD_PT_ENUM: return set_enum(p, d, arg);
	case GD_PT_DOUBLE: return set_double(p, d, arg);
	case GD_PT_INT: return set_int(p, d, arg);
	default: return set_uint(p, d, arg); /* a flag: set */
	}
}

int gd_params_check(const struct gd_bench_params *p)
{
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];
		uint64_t v;

		if (d->type == GD_PT_STR || d->type == GD_PT_FLAG || !gd_param_on_wire(d))
			continue;
		v = gd_param_get(p, d);
		if (!gd_param_ok(d, v)) {
			gd_error("%s %llu is out of range: %llu to %llu%s%s", d->opt ? d->opt : d->what,
				 (unsigned long long)v, (unsigned long long)d->min,
				 (unsigned long long)d->max, d->form ? ", " : "", d->form ? d->form : "");
			return -EINVAL;
		}
	}
	return 0;
}

bool gd_bench_uses_recv(const struct gd_bench_params *p)
{
	return p->op == GD_OP_SEND || (p->op == GD_OP_WRITE && p->write_with_imm);
}

/* The listed parameters that have a JSON key, in the list's order. */
static void params_json(const struct gd_bench_params *p, json_object *o)
{
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];
		const char *s = (const char *)p + d->off;
		uint64_t v = d->type == GD_PT_STR || d->type == GD_PT_DOUBLE ? 0 : gd_param_get(p, d);
		double dv;

		if (!d->json || ((d->flags & GD_PF_JSON_IF_APPLIES) && !d->applies(p)))
			continue;
		if (d->to_json) {
			d->to_json(p, d, o);
			continue;
		}
		switch (d->type) {
		case GD_PT_ENUM: gd_json_add_str(o, d->json, d->name((unsigned)v)); break;
		case GD_PT_FLAG: gd_json_add_bool(o, d->json, v != 0); break;
		case GD_PT_STR: gd_json_add_str(o, d->json, s[0] ? s : NULL); break;
		case GD_PT_INT: gd_json_add_int(o, d->json, (int32_t)(uint32_t)v); break;
		case GD_PT_DOUBLE:
			memcpy(&dv, s, sizeof(dv));
			gd_json_add_double(o, d->json, dv);
			break;
		default:
			if (d->len == 8)
				gd_json_add_u64(o, d->json, v);
			else
				gd_json_add_int(o, d->json, (int64_t)v);
		}
	}
}

int gd_bench_params_to_json(const struct gd_bench_params *p, struct json_object *obj)
{
	json_object *o = json_object_new_object();

	if (!o)
		return -ENOMEM;
	gd_json_add_str(o, "test", gd_bench_tool_name(p->op, p->kind));
	params_json(p, o);
	json_object_object_add(obj, "params", o);
	return 0;
}
