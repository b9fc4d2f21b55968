#include "bench_params.h"

#include <string.h>

#include "gd.h"

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
