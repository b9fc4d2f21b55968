/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "bench_params.h"

#include <errno.h>
#include <string.h>
#include <json-c/json.h>

#include "gd.h"
#include "jsonout.h"

void gd_bench_params_defaults(struct gd_bench_params *p, enum gd_bench_op op,
			      enum gd_bench_kind kind)
{
	bool bw = kind == GD_KIND_BW;

	memset(p, 0, sizeof(*p));
	p->op = op;
	p->kind = kind;
	p->role = GD_ROLE_SERVER;
	p->conn = GD_CONN_OOB;
	p->atomic_type = GD_ATOMIC_FETCH_AND_ADD;
	p->tcp_port = GD_BENCH_DEF_PORT;
	p->timeout_ms = GD_BENCH_DEF_TIMEOUT_MS;
	p->ib_port = 1;
	p->gid_index = -1;
	p->mtu = 0;
	p->qp_timeout = GD_BENCH_DEF_QP_TIMEOUT;
	if (op == GD_OP_ATOMIC)
		p->size = GD_BENCH_ATOMIC_SIZE;
	else
		p->size = bw ? GD_BENCH_DEF_SIZE_BW : GD_BENCH_DEF_SIZE_LAT;
	p->iters = (bw && op == GD_OP_WRITE) ? 5000 : 1000;
	p->num_qps = 1;
	p->tx_depth = bw ? 128 : 1;
	p->rx_depth = op == GD_OP_SEND ? 512 : 1;
	p->cq_mod = bw ? 100 : 1;
	p->inline_size = bw ? 0 : -1;
	p->post_list = 1;
	p->output = GD_OUTPUT_FULL;
	p->use_cuda = GD_CUDA_NONE;
	p->precision = bw ? GD_BENCH_DEF_PRECISION : 0;
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

bool gd_bench_uses_recv(const struct gd_bench_params *p)
{
	return p->op == GD_OP_SEND || (p->op == GD_OP_WRITE && p->write_with_imm);
}

int gd_bench_params_to_json(const struct gd_bench_params *p, struct json_object *obj)
{
	json_object *o = json_object_new_object();

	if (!o)
		return -ENOMEM;
	gd_json_add_str(o, "test", gd_bench_tool_name(p->op, p->kind));
	gd_json_add_str(o, "op", gd_bench_op_name(p->op));
	gd_json_add_str(o, "kind", gd_bench_kind_name(p->kind));
	gd_json_add_str(o, "role", gd_bench_role_name(p->role));
	gd_json_add_str(o, "connection", gd_conn_method_name(p->conn));
	if (p->op == GD_OP_ATOMIC)
		gd_json_add_str(o, "atomic_type", gd_atomic_type_name(p->atomic_type));
	gd_json_add_bool(o, "bidirectional", p->bidirectional);
	gd_json_add_bool(o, "write_with_imm", p->write_with_imm);
	gd_json_add_bool(o, "send_with_imm", p->send_with_imm);
	gd_json_add_str(o, "peer", p->peer[0] ? p->peer : NULL);
	gd_json_add_int(o, "tcp_port", p->tcp_port);
	gd_json_add_str(o, "bind", p->bind_addr[0] ? p->bind_addr : NULL);
	gd_json_add_str(o, "bind_source_ip", p->source_ip[0] ? p->source_ip : NULL);
	gd_json_add_bool(o, "ipv6", p->ipv6);
	gd_json_add_int(o, "timeout_ms", p->timeout_ms);
	gd_json_add_str(o, "device", p->dev[0] ? p->dev : NULL);
	gd_json_add_int(o, "ib_port", p->ib_port);
	gd_json_add_int(o, "gid_index", p->gid_index);
	gd_json_add_int(o, "mtu_bytes", p->mtu);
	gd_json_add_int(o, "qp_timeout_exponent", p->qp_timeout);
	gd_json_add_u64(o, "size_bytes", p->size);
	gd_json_add_bool(o, "all_sizes", p->all_sizes);
	gd_json_add_u64(o, "iterations", p->iters);
	gd_json_add_int(o, "duration_s", p->duration_s);
	gd_json_add_int(o, "margin_s", p->margin_s);
	gd_json_add_bool(o, "run_infinitely", p->run_infinitely);
	gd_json_add_double(o, "precision_pct", p->precision);
	gd_json_add_int(o, "qps", p->num_qps);
	gd_json_add_int(o, "tx_depth", p->tx_depth);
	gd_json_add_int(o, "rx_depth", p->rx_depth);
	gd_json_add_int(o, "cq_moderation", p->cq_mod);
	gd_json_add_int(o, "inline_size_bytes", p->inline_size);
	gd_json_add_int(o, "post_list", p->post_list);
	gd_json_add_int(o, "outstanding_reads", p->out_reads);
	gd_json_add_u64(o, "latency_gap_us", p->latency_gap);
	gd_json_add_bool(o, "perform_warm_up", p->perform_warm_up);
	gd_json_add_bool(o, "no_peak", p->no_peak);
	gd_json_add_bool(o, "report_gbits", p->report_gbits);
	gd_json_add_bool(o, "report_cycles", p->report_cycles);
	gd_json_add_double(o, "limit_bw", p->limit_bw);
	gd_json_add_double(o, "limit_msgrate_mpps", p->limit_msgrate);
	gd_json_add_bool(o, "validate", p->validate);
	gd_json_add_bool(o, "use_hugepages", p->use_hugepages);
	gd_json_add_str(o, "pin_cores", p->pin_cores[0] ? p->pin_cores : NULL);
	if (p->use_cuda == GD_CUDA_AUTO)
		gd_json_add_str(o, "use_cuda", "auto");
	else if (p->use_cuda >= 0)
		gd_json_add_int(o, "use_cuda", p->use_cuda);
	gd_json_add_str(o, "use_cuda_bus_id", p->cuda_bus_id[0] ? p->cuda_bus_id : NULL);
	gd_json_add_bool(o, "use_cuda_dmabuf", p->cuda_dmabuf);
	gd_json_add_bool(o, "gpu_staging", p->gpu_staging);
	json_object_object_add(obj, "params", o);
	return 0;
}
