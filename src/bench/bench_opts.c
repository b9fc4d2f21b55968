/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "bench_opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "devname.h"
#include "fabric.h"
#include "gd.h"
#include "host_limits.h"
#include "init_opts.h"
#include "log.h"
#include "loop.h"
#include "rdma_types.h"
#include "roce_opts.h"

enum {
	/* every benchmark */
	B_PORT = 1, B_BIND, B_DEV, B_IB_PORT, B_GID, B_IPV6, B_MTU, B_SIZE, B_ALL, B_ITERS,
	B_DURATION, B_MARGIN, B_INLINE, B_RDMA_CM, B_CPU_FREQ, B_OUTPUT, B_HUGEPAGES,
	B_SOURCE_IP, B_PIN_CORES, B_WARM_UP, B_JSON, B_TIMEOUT, B_VALIDATE,
	B_USE_CUDA, B_CUDA_BUS_ID, B_CUDA_DMABUF, B_GPU_STAGING, B_QP_TIMEOUT, B_MPI, B_CONNECTION,
	/* bandwidth */
	B_BIDIR, B_QPS, B_TX_DEPTH, B_CQ_MOD, B_POST_LIST, B_NO_PEAK, B_GBITS, B_INFINITE,
	B_LIMIT_BW, B_LIMIT_MSGRATE, B_PRECISION,
	/* latency */
	B_CYCLES, B_HIST, B_UNSORTED, B_LAT_GAP,
	/* per op */
	B_RX_DEPTH, B_OUTS, B_ATOMIC, B_WRITE_IMM, B_SEND_IMM,
	B_UNSUPPORTED = 1000,
};

static const char *const outputs[] = { "bandwidth", "message_rate", "latency", NULL };
static const struct gd_opt_words output_words[] = { { "output", outputs }, { NULL, NULL } };
/* the words of the bench tools' choices (--completion=options) */
static const struct gd_opt_words *const bench_words[] = {
	output_words, gd_initiator_opt_words, gd_fabric_opt_words, NULL,
};

static /* the --help lines are the parameter list's (bench_params.c) */
#define LISTED gd_opt_help_listed

const struct gd_opt common_opts[] = {
	{ "port", 'p', GD_REQ_ARG, "PORT", LISTED, B_PORT },
	{ "bind", 0, GD_REQ_ARG, "ADDR", LISTED, B_BIND },
	{ "ib-dev", 'd', GD_REQ_ARG, "DEV", LISTED, B_DEV },
	{ "ib-port", 'i', GD_REQ_ARG, "PORT", LISTED, B_IB_PORT },
	{ "gid-index", 'x', GD_REQ_ARG, "INDEX", LISTED, B_GID },
	{ "ipv6", 0, GD_NO_ARG, NULL, LISTED, B_IPV6 },
	{ "mtu", 'm', GD_REQ_ARG, "MTU", LISTED, B_MTU },
	{ "connection", 'c', GD_REQ_ARG, "TYPE", LISTED, B_CONNECTION },
	{ "qp-timeout", 'u', GD_REQ_ARG, "N", LISTED, B_QP_TIMEOUT },
	{ "size", 's', GD_REQ_ARG, "BYTES", LISTED, B_SIZE },
	{ "all", 'a', GD_NO_ARG, NULL, LISTED, B_ALL },
	{ "iters", 'n', GD_REQ_ARG, "N", LISTED, B_ITERS },
	{ "duration", 'D', GD_REQ_ARG, "SEC", LISTED, B_DURATION },
	{ "margin", 'f', GD_REQ_ARG, "SEC", LISTED, B_MARGIN },
	{ "inline_size", 'I', GD_REQ_ARG, "BYTES", LISTED, B_INLINE },
	{ "rdma_cm", 'R', GD_NO_ARG, NULL, LISTED, B_RDMA_CM },
	{ "CPU-freq", 'F', GD_NO_ARG, NULL, LISTED, B_CPU_FREQ },
	{ "output", 0, GD_REQ_ARG, "WHAT", LISTED, B_OUTPUT },
	{ "use_hugepages", 0, GD_NO_ARG, NULL, LISTED, B_HUGEPAGES },
	{ "bind_source_ip", 0, GD_REQ_ARG, "ADDR", LISTED, B_SOURCE_IP },
	{ "source_ip", 0, GD_REQ_ARG, "ADDR", "older perftest spelling of --bind_source_ip", B_SOURCE_IP },
	{ "pin_cores", 0, GD_REQ_ARG, "LIST", LISTED, B_PIN_CORES },
	{ "perform_warm_up", 0, GD_NO_ARG, NULL, LISTED, B_WARM_UP },
	{ "json", 0, GD_NO_ARG, NULL, LISTED, B_JSON },
	{ "timeout", 0, GD_REQ_ARG, "SEC", LISTED, B_TIMEOUT },
	{ "mpi", 0, GD_NO_ARG, NULL, LISTED, B_MPI },
	{ "validate", 0, GD_NO_ARG, NULL, LISTED, B_VALIDATE },
	{ "use_cuda", 0, GD_REQ_ARG, "N|auto", LISTED, B_USE_CUDA },
	{ "use_cuda_bus_id", 0, GD_REQ_ARG, "BDF", LISTED, B_CUDA_BUS_ID },
	{ "use_cuda_dmabuf", 0, GD_NO_ARG, NULL, LISTED, B_CUDA_DMABUF },
	{ "gpu_staging", 0, GD_NO_ARG, NULL, LISTED, B_GPU_STAGING },
	{ NULL },
};

static const struct gd_opt bw_opts[] = {
	{ "bidirectional", 'b', GD_NO_ARG, NULL, LISTED, B_BIDIR },
	{ "qp", 'q', GD_REQ_ARG, "N", LISTED, B_QPS },
	{ "tx-depth", 't', GD_REQ_ARG, "N", LISTED, B_TX_DEPTH },
	{ "cq-mod", 'Q', GD_REQ_ARG, "N", LISTED, B_CQ_MOD },
	{ "post_list", 'l', GD_REQ_ARG, "N", LISTED, B_POST_LIST },
	{ "noPeak", 'N', GD_NO_ARG, NULL, LISTED, B_NO_PEAK },
	{ "report_gbits", 0, GD_NO_ARG, NULL, LISTED, B_GBITS },
	{ "run_infinitely", 0, GD_NO_ARG, NULL, LISTED, B_INFINITE },
	{ "limit_bw", 'w', GD_REQ_ARG, "BW", LISTED, B_LIMIT_BW },
	{ "limit_msgrate", 'y', GD_REQ_ARG, "MPPS", LISTED, B_LIMIT_MSGRATE },
	{ "precision", 0, GD_REQ_ARG, "PCT", LISTED, B_PRECISION },
	{ NULL },
};

static const struct gd_opt lat_opts[] = {
	{ "report-cycles", 'C', GD_NO_ARG, NULL, LISTED, B_CYCLES },
	{ "report-histogram", 'H', GD_NO_ARG, NULL, LISTED, B_HIST },
	{ "report-histogrm", 0, GD_NO_ARG, NULL, "perftest's spelling of --report-histogram", B_HIST },
	{ "report-unsorted", 'U', GD_NO_ARG, NULL, LISTED, B_UNSORTED },
	{ "latency_gap", 0, GD_REQ_ARG, "USEC", LISTED, B_LAT_GAP },
	{ NULL },
};

static const struct gd_opt rx_opts[] = {
	{ "rx-depth", 'r', GD_REQ_ARG, "N", LISTED, B_RX_DEPTH },
	{ NULL },
};
static const struct gd_opt outs_opts[] = {
	{ "outs", 'o', GD_REQ_ARG, "N", LISTED, B_OUTS },
	{ NULL },
};
static const struct gd_opt atomic_opts[] = {
	{ "atomic_type", 'A', GD_REQ_ARG, "TYPE", LISTED, B_ATOMIC },
	{ NULL },
};
static const struct gd_opt write_imm_opts[] = {
	{ "write_with_imm", 0, GD_NO_ARG, NULL, LISTED, B_WRITE_IMM },
	{ NULL },
};
static const struct gd_opt send_imm_opts[] = {
	{ "send_with_imm", 0, GD_NO_ARG, NULL, LISTED, B_SEND_IMM },
	{ NULL },
};

/* perftest options gdperf refuses ("not supported", exit 2). */
#define NS(name, letter, arg) { name, letter, arg, NULL, NULL, B_UNSUPPORTED }
static const struct gd_opt unsupported_opts[] = {
	NS("flow_label", 0, GD_REQ_ARG),
	NS("retry_count", 0, GD_REQ_ARG), NS("pkey_index", 0, GD_REQ_ARG), NS("dlid", 0, GD_REQ_ARG),
	NS("force-link", 0, GD_REQ_ARG), NS("com_rdma_cm", 'z', GD_NO_ARG),
	NS("comm_rdma_cm", 0, GD_NO_ARG), NS("dont_xchg_versions", 0, GD_NO_ARG),
	NS("dualport", 'O', GD_NO_ARG), NS("use_ooo", 0, GD_NO_ARG),
	NS("no_enhanced_reorder", 0, GD_NO_ARG), NS("disable_pcie_relaxed", 0, GD_NO_ARG),
	NS("recv_post_list", 0, GD_REQ_ARG), NS("cqe_poll", 0, GD_REQ_ARG),
	NS("disable_dynamic_polling", 0, GD_NO_ARG),
	NS("vector", 'X', GD_REQ_ARG), NS("use-srq", 0, GD_NO_ARG), NS("connectionless", 0, GD_NO_ARG),
	NS("mcg", 'g', GD_NO_ARG), NS("MGID", 'M', GD_REQ_ARG), NS("use_old_post_send", 0, GD_NO_ARG),
	NS("no_lock", 0, GD_NO_ARG), NS("mr_per_qp", 0, GD_NO_ARG), NS("use-null-mr", 0, GD_NO_ARG),
	NS("wait_destroy", 0, GD_REQ_ARG), NS("log_dci_streams", 0, GD_REQ_ARG),
	NS("log_active_dci_streams", 0, GD_REQ_ARG), NS("use_cuda_pcie_mapping", 0, GD_NO_ARG),
	NS("use_data_direct", 0, GD_NO_ARG), NS("cuda_mem_type", 0, GD_REQ_ARG),
	NS("gpu_touch", 0, GD_REQ_ARG), NS("use_rocm", 0, GD_REQ_ARG),
	NS("use_rocm_dmabuf", 0, GD_NO_ARG), NS("use_musa", 0, GD_REQ_ARG),
	NS("use_musa_dmabuf", 0, GD_NO_ARG), NS("use_neuron", 0, GD_REQ_ARG),
	NS("use_neuron_dmabuf", 0, GD_NO_ARG), NS("use_hl", 0, GD_REQ_ARG),
	NS("use_mlu", 0, GD_REQ_ARG), NS("use_mlu_dmabuf", 0, GD_NO_ARG),
	NS("use_opencl", 0, GD_REQ_ARG), NS("opencl_platform_id", 0, GD_REQ_ARG),
	NS("use_ib_dm_dmabuf", 0, GD_REQ_ARG), NS("mmap", 0, GD_REQ_ARG),
	NS("mmap-offset", 0, GD_REQ_ARG), NS("odp", 0, GD_NO_ARG), NS("tph_mem", 0, GD_REQ_ARG),
	NS("cpu_id", 0, GD_REQ_ARG), NS("ph", 0, GD_REQ_ARG), NS("numa_node", 0, GD_REQ_ARG),
	NS("disable_numa", 0, GD_NO_ARG), NS("out_json", 0, GD_NO_ARG),
	NS("out_json_file", 0, GD_REQ_ARG), NS("report-both", 0, GD_NO_ARG),
	NS("report-per-port", 0, GD_NO_ARG),
	NS("report-counters", 'W', GD_REQ_ARG), NS("reversed", 0, GD_NO_ARG),
	NS("typical_pkt_size", 0, GD_REQ_ARG), NS("unsolicited_write", 0, GD_NO_ARG),
	NS("payload_file_path", 0, GD_REQ_ARG), NS("data_validation", 0, GD_NO_ARG),
	NS("data_validation_debug", 0, GD_NO_ARG), NS("aes_xts", 0, GD_NO_ARG),
	NS("encrypt_on_tx", 0, GD_NO_ARG), NS("sig_before", 0, GD_NO_ARG),
	NS("aes_block_size", 0, GD_REQ_ARG), NS("data_enc_keys_number", 0, GD_REQ_ARG),
	NS("kek_path", 0, GD_REQ_ARG), NS("credentials_path", 0, GD_REQ_ARG),
	NS("data_enc_key_app_path", 0, GD_REQ_ARG), NS("sig_offload", 0, GD_NO_ARG),
	NS("congest_type", 0, GD_REQ_ARG), NS("ipv6-addr", 0, GD_NO_ARG),
	NS("hop_limit", 'L', GD_REQ_ARG),
	{ NULL },
};
#undef NS

/*
 * Options of a sibling tool, refused on this one: copies of the fragment with
 * help=NULL (so --help does not list them and parsing says "not supported"),
 * followed by a hint naming the tools that have them.
 */
struct sibling {
	const struct gd_opt *table;
	const char *where;
};

#define MAX_TABLES 15
#define SIBLING_MAX 32

struct bench_cmd {
	struct gd_cmd cmd;
	const struct gd_opt *tables[MAX_TABLES];
	struct gd_opt refused[SIBLING_MAX + 1];
	struct sibling siblings[8];
	size_t nsiblings;
	bool built;
};

static struct bench_cmd cmds[GD_OP_COUNT][GD_KIND_COUNT];

static void refuse(struct bench_cmd *bc, size_t *nref, const struct gd_opt *table, const char *where)
{
	for (const struct gd_opt *o = table; o->name && *nref < SIBLING_MAX; o++) {
		bc->refused[*nref] = *o;
		bc->refused[*nref].help = NULL;
		bc->refused[*nref].id = B_UNSUPPORTED;
		(*nref)++;
	}
	bc->siblings[bc->nsiblings++] = (struct sibling){ table, where };
}

static void build_cmd(struct bench_cmd *bc, enum gd_bench_op op, enum gd_bench_kind kind)
{
	size_t nt = 0, nref = 0;
	bool bw = kind == GD_KIND_BW;

	bc->cmd.synopsis = "[options] [HOST]";
	bc->cmd.summary = bw ? "RDMA bandwidth test: a server without HOST, a client with the server's HOST"
			     : "RDMA latency test: a server without HOST, a client with the server's HOST";
	bc->tables[nt++] = gd_common_opts;
	bc->tables[nt++] = common_opts;
	bc->tables[nt++] = bw ? bw_opts : lat_opts;
	bc->tables[nt++] = gd_initiator_opts;
	bc->tables[nt++] = gd_fabric_opt_table;
	bc->tables[nt++] = gd_roce_opts;
	refuse(bc, &nref, bw ? lat_opts : bw_opts,
	       bw ? "the latency tools (gd_*_lat)" : "the bandwidth tools (gd_*_bw)");
	if (bw)
		bc->tables[nt++] = gd_rate_opts;
	else
		refuse(bc, &nref, gd_rate_opts, "the bandwidth tools (gd_*_bw)");
	if (op != GD_OP_WRITE)
		bc->tables[nt++] = gd_events_opts;
	else
		refuse(bc, &nref, gd_events_opts, "gd_read_*, gd_atomic_* and gd_send_* (as perftest)");
	if (op == GD_OP_SEND || op == GD_OP_WRITE)
		bc->tables[nt++] = rx_opts;
	else
		refuse(bc, &nref, rx_opts, "gd_send_* and gd_write_* with --write_with_imm");
	if (op == GD_OP_READ || op == GD_OP_ATOMIC)
		bc->tables[nt++] = outs_opts;
	else
		refuse(bc, &nref, outs_opts, "gd_read_* and gd_atomic_*");
	if (op == GD_OP_ATOMIC)
		bc->tables[nt++] = atomic_opts;
	else
		refuse(bc, &nref, atomic_opts, "gd_atomic_bw and gd_atomic_lat");
	if (op == GD_OP_WRITE)
		bc->tables[nt++] = write_imm_opts;
	else
		refuse(bc, &nref, write_imm_opts, "gd_write_bw and gd_write_lat");
	if (op == GD_OP_SEND)
		bc->tables[nt++] = send_imm_opts;
	else
		refuse(bc, &nref, send_imm_opts, "gd_send_bw and gd_send_lat");
	bc->tables[nt++] = gd_sysfs_opts;
	bc->tables[nt++] = bc->refused;
	bc->tables[nt++] = unsupported_opts;
	bc->tables[nt] = NULL;
	bc->cmd.tables = bc->tables;
	bc->cmd.words = bench_words;
	bc->cmd.help = gd_param_help;
	bc->built = true;
}

const struct gd_cmd *gd_bench_cmd(enum gd_bench_op op, enum gd_bench_kind kind)
{
	struct bench_cmd *bc;

	if ((unsigned)op >= GD_OP_COUNT || (unsigned)kind >= GD_KIND_COUNT)
		return NULL;
	bc = &cmds[op][kind];
	if (!bc->built)
		build_cmd(bc, op, kind);
	return &bc->cmd;
}

/* "-b" or "--bidirectional" or "--bidirectional=x" names option o? */
static bool arg_names(const char *arg, const struct gd_opt *o)
{
	size_t n;

	if (arg[0] != '-')
		return false;
	if (arg[1] != '-')
		return o->letter && arg[1] == o->letter;
	n = strlen(o->name);
	return !strncmp(arg + 2, o->name, n) && (arg[2 + n] == '\0' || arg[2 + n] == '=');
}

static void sibling_hint(const struct bench_cmd *bc, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return;
		for (size_t s = 0; s < bc->nsiblings; s++)
			for (const struct gd_opt *o = bc->siblings[s].table; o->name; o++)
				if (arg_names(argv[i], o)) {
					gd_info("--%s is an option of %s", o->name, bc->siblings[s].where);
					return;
				}
	}
}

/* -c/--connection: perftest's transport type. gdperf runs RC queue pairs (perftest's
 * default); the others are named and refused, not run as RC. */
static int connection_opt(struct gd_bench_params *p, const char *arg)
{
	static const char *const others[] = { "UC", "UD", "XRC", "DC", "SRD", NULL };

	if (!strcmp(arg, "RC"))
		return gd_param_set(p, GD_PARAM(transport), arg);
	for (size_t i = 0; others[i]; i++)
		if (!strcmp(arg, others[i])) {
			gd_error("-c/--connection %s is not supported: gdperf runs reliable connected "
				 "(RC) queue pairs only, perftest's default; use perftest for %s, or "
				 "drop -c", arg, arg);
			return -EINVAL;
		}
	gd_error("invalid value '%s' for -c/--connection: expected RC (perftest's spelling, "
		 "upper case)", gd_excerpt(arg));
	return -EINVAL;
}

/* Side channel, device and addressing options; 1 when id is not one of them. */
static int handle_link(struct gd_bench_params *p, int id, const char *arg)
{
	switch (id) {
	case B_PORT: return gd_param_set(p, GD_PARAM(tcp_port), arg);
	case B_BIND: return gd_param_set(p, GD_PARAM(bind_addr), arg);
	case B_DEV: return gd_param_set(p, GD_PARAM(dev), arg);
	case B_IB_PORT: return gd_param_set(p, GD_PARAM(ib_port), arg);
	case B_GID: return gd_param_set(p, GD_PARAM(gid_index), arg);
	case B_IPV6: return gd_param_set(p, GD_PARAM(ipv6), arg);
	case B_MTU: return gd_param_set(p, GD_PARAM(mtu), arg);
	case B_RDMA_CM: return gd_param_set(p, GD_PARAM(conn), gd_conn_method_name(GD_CONN_RDMA_CM));
	case B_SOURCE_IP: return gd_param_set(p, GD_PARAM(source_ip), arg);
	case B_TIMEOUT: return gd_param_set(p, GD_PARAM(timeout_ms), arg);
	case B_QP_TIMEOUT: return gd_param_set(p, GD_PARAM(qp_timeout), arg);
	case B_MPI: return gd_param_set(p, GD_PARAM(mpi), arg);
	case B_CONNECTION: return connection_opt(p, arg);
	}
	return 1;
}

/* Sizes, length of the run and reporting; 1 when id is not one of them. */
static int handle_run(struct gd_bench_params *p, int id, const char *arg)
{
	switch (id) {
	case B_SIZE: return gd_param_set(p, GD_PARAM(size), arg);
	case B_ALL: return gd_param_set(p, GD_PARAM(all_sizes), arg);
	case B_ITERS: return gd_param_set(p, GD_PARAM(iters), arg);
	case B_DURATION: return gd_param_set(p, GD_PARAM(duration_s), arg);
	case B_MARGIN: return gd_param_set(p, GD_PARAM(margin_s), arg);
	case B_INLINE: return gd_param_set(p, GD_PARAM(inline_size), arg);
	case B_CPU_FREQ: return gd_param_set(p, GD_PARAM(cpu_freq_quiet), arg);
	case B_OUTPUT: return gd_param_set(p, GD_PARAM(output), arg);
	case B_WARM_UP: return gd_param_set(p, GD_PARAM(perform_warm_up), arg);
	case B_JSON: return gd_param_set(p, GD_PARAM(json), arg);
	case B_VALIDATE: return gd_param_set(p, GD_PARAM(validate), arg);
	}
	return 1;
}

/* Memory and placement; 1 when id is not one of them. */
static int handle_memory(struct gd_bench_params *p, int id, const char *arg)
{
	switch (id) {
	case B_HUGEPAGES: return gd_param_set(p, GD_PARAM(use_hugepages), arg);
	case B_PIN_CORES: return gd_param_set(p, GD_PARAM(pin_cores), arg);
	case B_USE_CUDA: return gd_param_set(p, GD_PARAM(use_cuda), arg);
	case B_CUDA_BUS_ID: return gd_param_set(p, GD_PARAM(cuda_bus_id), arg);
	case B_CUDA_DMABUF: return gd_param_set(p, GD_PARAM(cuda_dmabuf), arg);
	case B_GPU_STAGING: return gd_param_set(p, GD_PARAM(gpu_staging), arg);
	}
	return 1;
}

/* Per-op options (-r, -o, -A, _with_imm); 1 when id is not one of them. */
static int handle_per_op(struct gd_bench_params *p, int id, const char *arg)
{
	switch (id) {
	case B_RX_DEPTH: return gd_param_set(p, GD_PARAM(rx_depth), arg);
	case B_OUTS: return gd_param_set(p, GD_PARAM(out_reads), arg);
	case B_ATOMIC: return gd_param_set(p, GD_PARAM(atomic_type), arg);
	case B_WRITE_IMM: return gd_param_set(p, GD_PARAM(write_with_imm), arg);
	case B_SEND_IMM: return gd_param_set(p, GD_PARAM(send_with_imm), arg);
	}
	return 1;
}

static int handle_common(struct gd_bench_params *p, int id, const char *arg)
{
	int ret = handle_link(p, id, arg);

	if (ret == 1)
		ret = handle_run(p, id, arg);
	if (ret == 1)
		ret = handle_memory(p, id, arg);
	return ret == 1 ? handle_per_op(p, id, arg) : ret; /* 1: not a common option */
}

static int handle_kind(struct gd_bench_params *p, int id, const char *arg)
{
	switch (id) {
	case B_BIDIR: return gd_param_set(p, GD_PARAM(bidirectional), arg);
	case B_QPS: return gd_param_set(p, GD_PARAM(num_qps), arg);
	case B_TX_DEPTH: return gd_param_set(p, GD_PARAM(tx_depth), arg);
	case B_CQ_MOD: return gd_param_set(p, GD_PARAM(cq_mod), arg);
	case B_POST_LIST: return gd_param_set(p, GD_PARAM(post_list), arg);
	case B_NO_PEAK: return gd_param_set(p, GD_PARAM(no_peak), arg);
	case B_GBITS: return gd_param_set(p, GD_PARAM(report_gbits), arg);
	case B_INFINITE: return gd_param_set(p, GD_PARAM(run_infinitely), arg);
	case B_LIMIT_BW: return gd_param_set(p, GD_PARAM(limit_bw), arg);
	case B_LIMIT_MSGRATE: return gd_param_set(p, GD_PARAM(limit_msgrate), arg);
	case B_PRECISION: return gd_param_set(p, GD_PARAM(precision), arg);
	case B_CYCLES: return gd_param_set(p, GD_PARAM(report_cycles), arg);
	case B_HIST: return gd_param_set(p, GD_PARAM(histogram), arg);
	case B_UNSORTED: /* implies -H */
		p->histogram = true;
		return gd_param_set(p, GD_PARAM(unsorted), arg);
	case B_LAT_GAP: return gd_param_set(p, GD_PARAM(latency_gap), arg);
	}
	gd_error("internal: unhandled option id %d", id);
	return -EINVAL;
}

int gd_init_opts_handle(struct gd_bench_params *p, int id, const char *arg)
{
	struct gd_init_opts *o = &p->init;

	switch (id) {
	case GD_INIT_O_IBGDA_FALLBACK: return gd_param_set(p, GD_PARAM(init.ibgda_fallback), arg);
	case GD_INIT_O_DUMP_WQES: return gd_param_set(p, GD_PARAM(init.dump_wqes), arg);
	case GD_INIT_O_PRODUCER:
		o->given |= GD_INIT_GIVEN_PRODUCER;
		return gd_param_set(p, GD_PARAM(init.producer), arg);
	case GD_INIT_O_IBGDA_NIC:
		o->given |= GD_INIT_GIVEN_IBGDA_NIC;
		return gd_param_set(p, GD_PARAM(init.ibgda_nic), arg);
	case GD_INIT_O_INITIATOR: return gd_param_set(p, GD_PARAM(init.initiator), arg);
	case GD_INIT_O_CTAS:
		o->given |= GD_INIT_GIVEN_CTAS;
		return gd_param_set(p, GD_PARAM(init.ctas), arg);
	case GD_INIT_O_THREADS:
		o->given |= GD_INIT_GIVEN_THREADS;
		return gd_param_set(p, GD_PARAM(init.threads), arg);
	case GD_INIT_O_SCOPE:
		o->given |= GD_INIT_GIVEN_SCOPE;
		return gd_param_set(p, GD_PARAM(init.scope), arg);
	case GD_INIT_O_PROXY_THREADS:
		o->given |= GD_INIT_GIVEN_PROXY_THREADS;
		return gd_param_set(p, GD_PARAM(init.proxy_threads), arg);
	case GD_INIT_O_RING_SLOTS:
		o->given |= GD_INIT_GIVEN_RING_SLOTS;
		return gd_param_set(p, GD_PARAM(init.ring_slots), arg);
	}
	return 1;
}

static int handler(void *ctx, int id, const char *arg)
{
	struct gd_bench_params *p = ctx;
	int ret = gd_init_opts_handle(p, id, arg);

	if (ret <= 0 || (ret = gd_fabric_opts_handle(&p->fab, id, arg)) <= 0 ||
	    (ret = gd_roce_opts_handle(p, id, arg)) <= 0)
		return ret;
	ret = handle_common(ctx, id, arg);
	return ret <= 0 ? ret : handle_kind(ctx, id, arg);
}

static int conflict(const char *a, const char *b, const char *why)
{
	gd_error("%s and %s cannot be used together: %s", a, b, why);
	return -EINVAL;
}

static int check_sizes(struct gd_bench_params *p)
{
	bool size_given = p->given & GD_GIVEN_SIZE;

	if (p->all_sizes && size_given)
		return conflict("-a/--all", "-s/--size", "-a runs every size from 2 to 8388608 bytes; give one of them");
	if (p->op == GD_OP_ATOMIC && p->all_sizes) {
		gd_error("-a/--all does not apply to atomic tools: atomic operations are always 8 bytes");
		return -EINVAL;
	}
	if (p->op == GD_OP_ATOMIC && p->size != GD_BENCH_ATOMIC_SIZE) {
		gd_error("-s/--size %llu: atomic operations are always 8 bytes (leave -s out or use -s 8)",
			 (unsigned long long)p->size);
		return -EINVAL;
	}
	if (p->all_sizes && p->duration_s && !(p->precision > 0 && p->kind == GD_KIND_BW))
		return conflict("-a/--all", "-D/--duration", p->kind == GD_KIND_BW ?
				"with --precision 0 a timed run takes one message size" :
				"a timed latency run takes one message size");
	if (p->all_sizes && p->run_infinitely)
		return conflict("-a/--all", "--run_infinitely", "an endless run takes one message size");
	if (p->inline_size > 0 && (p->op == GD_OP_READ || p->op == GD_OP_ATOMIC)) {
		gd_error("-I/--inline_size applies to write and send: %s sends no payload inline",
			 gd_bench_op_name(p->op));
		return -EINVAL;
	}
	return 0;
}

static int check_length(struct gd_bench_params *p)
{
	if (p->duration_s && (p->given & GD_GIVEN_ITERS))
		return conflict("-D/--duration", "-n/--iters", "a run is either timed or counted");
	if (p->run_infinitely && (p->given & GD_GIVEN_ITERS))
		return conflict("--run_infinitely", "-n/--iters", "an endless run has no iteration count");
	if ((p->given & GD_GIVEN_MARGIN) && !p->duration_s)
		return conflict("-f/--margin", "a counted run (no -D)", "the margin applies to timed runs; add -D SEC");
	if (p->run_infinitely && !p->duration_s)
		p->duration_s = 5; /* the report period, as perftest */
	if (p->duration_s && !(p->given & GD_GIVEN_MARGIN))
		p->margin_s = p->duration_s / 4;
	if (p->duration_s && !p->run_infinitely && 2ull * p->margin_s >= p->duration_s) {
		gd_error("-f/--margin %u and -D/--duration %u: the duration must exceed twice the margin",
			 p->margin_s, p->duration_s);
		return -EINVAL;
	}
	if (p->duration_s || p->run_infinitely)
		p->no_peak = true; /* perftest: no peak on timed runs */
	return 0;
}

static int check_queues(struct gd_bench_params *p)
{
	uint32_t g = p->given;

	if (p->post_list > 1) {
		if (!(g & GD_GIVEN_CQ_MOD))
			p->cq_mod = p->post_list;
		else if (p->cq_mod % p->post_list)
			return conflict("-Q/--cq-mod", "-l/--post_list", "the CQ moderation must be a multiple of the post list");
		if (!p->duration_s && !p->run_infinitely && p->iters % p->post_list) {
			gd_error("-n/--iters %llu is not a multiple of -l/--post_list %u",
				 (unsigned long long)p->iters, p->post_list);
			return -EINVAL;
		}
		if (p->post_list > p->tx_depth) {
			gd_error("-l/--post_list %u exceeds -t/--tx-depth %u%s: the post list must fit in the "
				 "send queue; lower -l or raise -t", p->post_list, p->tx_depth,
				 g & GD_GIVEN_TX_DEPTH ? "" : " (the default)");
			return -EINVAL;
		}
	}
	if (p->cq_mod > p->tx_depth) {
		if (g & GD_GIVEN_CQ_MOD) {
			gd_error("-Q/--cq-mod %u exceeds -t/--tx-depth %u%s: the CQ moderation must not "
				 "exceed the send queue depth; lower -Q or raise -t", p->cq_mod, p->tx_depth,
				 g & GD_GIVEN_TX_DEPTH ? "" : " (the default)");
			return -EINVAL;
		}
		p->cq_mod = p->tx_depth;
	}
	if ((g & GD_GIVEN_RX_DEPTH) && !gd_bench_uses_recv(p)) {
		gd_error("-r/--rx-depth applies to send and --write_with_imm: a plain RDMA write posts no receives");
		return -EINVAL;
	}
	if (p->write_with_imm && !(g & GD_GIVEN_RX_DEPTH))
		p->rx_depth = 512;
	if (p->iters > GD_BENCH_PEAK_MAX_ITERS)
		p->no_peak = true; /* peak is O(N^2): perftest's cut-off */
	return 0;
}

static int check_report(struct gd_bench_params *p)
{
	if (p->json && p->output != GD_OUTPUT_FULL)
		return conflict("--json", "--output", "choose JSON records or one bare number");
	if (p->json && p->histogram) /* --json is honoured or refused, never ignored */
		return conflict("--json", "-H/-U", "the JSON record carries the percentiles; the "
				"sample list is text only");
	if (p->kind == GD_KIND_BW && p->output == GD_OUTPUT_LATENCY) {
		gd_error("--output=latency applies to the latency tools (gd_*_lat)");
		return -EINVAL;
	}
	if (p->kind == GD_KIND_LAT && (p->output == GD_OUTPUT_BANDWIDTH || p->output == GD_OUTPUT_MSG_RATE)) {
		gd_error("--output=%s applies to the bandwidth tools (gd_*_bw)", gd_output_name(p->output));
		return -EINVAL;
	}
	if (p->histogram && p->duration_s)
		return conflict("-H/-U", "-D/--duration", "a timed latency run keeps no samples; use -n");
	if (p->bidirectional && p->run_infinitely)
		return conflict("-b/--bidirectional", "--run_infinitely", "the periodic reports are one-sided");
	if (p->bind_addr[0] && p->role == GD_ROLE_CLIENT) {
		gd_error("--bind is the server's listening address; on the client use --bind_source_ip");
		return -EINVAL;
	}
	return 0;
}

/* ini: the initiator's table entry (NULL when none was handed over: then the
 * CPU initiator is the one that can run) */
static int check_memory(struct gd_bench_params *p, const struct gd_initiator_ops *ini)
{
	bool cuda = p->use_cuda != GD_CUDA_NONE || p->cuda_bus_id[0];
	uint64_t need = gd_bench_mem_estimate(p), max = gd_host_mem_max();

	if (!cuda && need > max) { /* refused before anything is taken (issue 19, L10) */
		gd_error("-q %u QPs of %s need about %llu MiB (buffers and queues), more than the "
			 "%llu MiB one run may take (half of this host's memory); lower -q%s",
			 p->num_qps, p->all_sizes ? "messages up to 8 MiB (-a)" : "messages of -s",
			 (unsigned long long)(need >> 20), (unsigned long long)(max >> 20),
			 p->all_sizes ? " or drop -a" : " or -s");
		return -EINVAL;
	}

	if (p->use_cuda != GD_CUDA_NONE && p->cuda_bus_id[0])
		return conflict("--use_cuda", "--use_cuda_bus_id", "both choose the GPU; give one of them");
	if (cuda && p->use_hugepages)
		return conflict("--use_cuda", "--use_hugepages", "the buffers are either GPU or host memory");
	if (p->cuda_dmabuf && !cuda) {
		gd_error("--use_cuda_dmabuf needs --use_cuda or --use_cuda_bus_id (in any order)");
		return -EINVAL;
	}
	if (p->gpu_staging && !cuda) {
		gd_error("--gpu_staging needs --use_cuda or --use_cuda_bus_id");
		return -EINVAL;
	}
	/* the CPU loop's write ping-pong spins on the last byte of its buffer */
	if (cuda && !p->gpu_staging && p->kind == GD_KIND_LAT && p->op == GD_OP_WRITE &&
	    !p->write_with_imm && (!ini || ini->lat_polls_buffer)) {
		gd_error("--use_cuda: the write ping-pong polls the last byte of its buffer from the CPU, "
			 "which cannot read GPU memory (it crashed); add --write_with_imm (each reply "
			 "is a completion) or --gpu_staging, or use gd_send_lat");
		return -EINVAL;
	}
	return 0;
}

/* No RDMA device and no --fabric: the rule's libfabric tcp would report a TCP figure as
 * the NIC's (a node whose driver failed to load), so it runs only on the user's word. */
static int refuse_no_device(void)
{
	gd_error("no RDMA devices found (/sys/class/infiniband is empty or absent); the benchmark "
		 "does not fall back to libfabric tcp on its own");
	gd_info("%s, %s", GD_RDMA_NODEV_FIX, GD_FABRIC_NODEV_OFI_FIX);
	return -ENODEV;
}

/* The fabric (fabric_opts.h): the rule's default, and what ofi does not take
 * (ini: the initiator's table entry, NULL when none was handed over). */
const char *gd_bench_verbs_why(const struct gd_bench_params *p)
{
	const struct gd_initiator_ops *ini = gd_init_ops(&p->init);

	return p->dev[0] ? "-d names verbs" :
		p->conn == GD_CONN_RDMA_CM ? "-R names verbs" :
		(p->given & GD_GIVEN_CONN_RC) ? "-c RC names verbs" :
		ini && ini->verbs_first ? "--initiator names verbs" : NULL;
}

static int check_fabric(struct gd_bench_params *p, const struct gd_initiator_ops *ini)
{
	const char *verbs_why = gd_bench_verbs_why(p);
	bool rule = p->fab.fabric == GD_FABRIC_AUTO && (p->fab.given || !verbs_why);
	const char *why, *option;
	int ret;

	ret = gd_fabric_decide(&p->fab, &p->machine, verbs_why);
	if (!ret && rule && p->fab.no_device) /* nothing silent (issue 30): the user's word only */
		return refuse_no_device();
	if (ret || p->fab.fabric != GD_FABRIC_OFI)
		return ret;
	if (p->conn == GD_CONN_RDMA_CM)
		return conflict("--fabric ofi", "-R/--rdma_cm", "libfabric connects its own "
				"endpoints (--ep msg is its connected type)");
	if (p->given & GD_GIVEN_CONN_RC)
		return conflict("--fabric ofi", "-c RC", "RC names verbs' queue pairs; libfabric's "
				"endpoint type is --ep rdm|msg");
	if (ini && ini->ofi_conflict && (why = ini->ofi_conflict(p, &option)))
		return conflict("--fabric ofi", option, why);
	return 0;
}

int gd_bench_check_exit(int err)
{
	return err == -ENODEV ? GD_EXIT_ENV : GD_EXIT_USAGE;
}

/* Above 8 KiB a bandwidth test signals every message (perftest's default for
 * large ones), unless -Q, -l or -a say otherwise, or the op is a write
 * (with or without immediate) on a fabric whose signalled write may cost the
 * target an acknowledgement (its trait moderates_writes, fabric.h: libfabric): it keeps
 * the moderation, bounded by loop_bw.c's signal_every (a completion at least
 * every MiB: 16 messages at 64 KiB) and -t. After check_fabric: the fabric is
 * resolved; after check_queues: 1 needs no clamp. */
static void default_moderation(struct gd_bench_params *p)
{
	if (p->kind != GD_KIND_BW || (p->given & GD_GIVEN_CQ_MOD) || p->all_sizes ||
	    p->size <= GD_SIGNAL_EACH_ABOVE || p->post_list != 1)
		return;
	if (p->op == GD_OP_WRITE && gd_fabric_traits_of(p->fab.fabric)->moderates_writes)
		return;
	p->cq_mod = 1;
}

int gd_bench_check(struct gd_bench_params *p)
{
	const struct gd_initiator_ops *ini = gd_init_ops(&p->init); /* the initiator's entry */
	int ret;

	if (p->dev[0] && gd_dev_name_check(p->dev, "-d/--ib-dev (the device)"))
		return -EINVAL;
	if (gd_params_check(p)) /* the listed ranges, for callers without a command line */
		return -EINVAL;
	if ((ret = check_sizes(p)) || (ret = check_length(p)) || (ret = check_queues(p)) ||
	    (ret = check_report(p)) || (ret = check_memory(p, ini)) ||
	    (ret = gd_init_opts_check(&p->init)) || (ini && ini->check && (ret = ini->check(p))) ||
	    (ret = check_fabric(p, ini)) || (ret = gd_roce_opts_check(p)))
		return ret;
	default_moderation(p);
	return 0;
}

/*
 * glibc's getopt keeps a pointer into the previous argv when a parse stopped
 * inside a cluster of short options ("-bq" failing at b); optind = 1 (what
 * gd_opts_parse sets) does not clear it, optind = 0 does. A second parse in
 * one process (tests, fuzzing) would otherwise read freed memory: found by
 * tests/fuzz/fuzz_opts.c.
 */
static void reset_getopt(void)
{
	char *argv[] = { (char *)"", NULL };

	optind = 0;
	opterr = 0;
	getopt(1, argv, "");
}

int gd_bench_parse(int argc, char **argv, enum gd_bench_op op, enum gd_bench_kind kind,
		   struct gd_bench_params *p)
{
	const struct gd_cmd *cmd = gd_bench_cmd(op, kind);
	bool help = false;
	int idx;

	if (!cmd)
		return -EINVAL;
	gd_bench_params_defaults(p, op, kind);
	reset_getopt();
	idx = gd_opts_parse(cmd, argc, argv, handler, p, &help);
	if (idx == -ENOTSUP)
		sibling_hint(&cmds[op][kind], argc, argv);
	if (idx < 0)
		return idx;
	if (help)
		return 1;
	if (gd_init_opts_env_default(&p->init)) /* --ibgda_nic's default from the environment */
		return -EINVAL;
	if (gd_tool_machine(&p->machine) != GD_TOOL_CONTINUE)
		return -EINVAL;
	if (idx < argc) {
		if (gd_param_set(p, GD_PARAM(peer), argv[idx]))
			return -EINVAL;
		p->role = GD_ROLE_CLIENT;
		if (idx + 1 < argc) {
			gd_error("unexpected argument '%s': give one HOST (the server)",
				 gd_excerpt(argv[idx + 1]));
			return -EINVAL;
		}
	}
	if (p->mpi && p->role == GD_ROLE_CLIENT) /* gd_bench_launch_start makes rank 1 a client */
		return conflict("--mpi", "HOST", "under --mpi rank 1 connects to rank 0's address; "
				"give no HOST");
	return gd_bench_check(p);
}
