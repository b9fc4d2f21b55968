/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "bench_params.h"

#include <errno.h>
#include <string.h>
#include <json-c/json.h>

#include "gd.h"
#include "jsonout.h"
#include "log.h"
#include "opts.h"

void gd_bench_params_defaults(struct gd_bench_params *p, enum gd_bench_op op,
			      enum gd_bench_kind kind)
{
	bool bw = kind == GD_KIND_BW;

	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];

		if (d->type != GD_PT_STR)
			gd_param_put(p, d, d->def_fn ? d->def_fn(op, kind) : d->def);
	}
	p->op = op;
	p->kind = kind;
	p->tcp_port = GD_BENCH_DEF_PORT;
	p->timeout_ms = GD_BENCH_DEF_TIMEOUT_MS;
	p->ib_port = 1;
	p->gid_index = -1;
	p->qp_timeout = GD_BENCH_DEF_QP_TIMEOUT;
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

static const char *show_test(const struct gd_bench_params *p)
{
	return gd_bench_tool_name(p->op, p->kind);
}

static bool is_atomic(const struct gd_bench_params *p) { return p->op == GD_OP_ATOMIC; }
static bool one_size(const struct gd_bench_params *p) { return !p->all_sizes; }
static bool counted(const struct gd_bench_params *p) { return !p->duration_s && !p->run_infinitely; }
/* a latency test's passive side behaves differently (no ping-pong) */

static bool is_ofi(const struct gd_bench_params *p) { return p->fab.fabric == GD_FABRIC_OFI; }
static const char *fabric_name(unsigned v) { return gd_fabric_kind_name((enum gd_fabric_kind)v); }
static const char *ep_name(unsigned v) { return gd_ep_type_name((enum gd_ep_type)v); }

static bool mtu_ok(uint64_t v) { return !v || (v >= 256 && v <= 4096 && !(v & (v - 1))); }

#define FLAG(m, b, lbl, key) { GD_PARAM_AT(m), .type = GD_PT_FLAG, .bit = (b), .max = 1, \
	.what = lbl, .label = lbl, .json = key }

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
	  .what = "connection method", .label = "connection method (-R)", .json = "connection",
	  .name = conn_name },
	{ GD_PARAM_AT(atomic_type), .type = GD_PT_ENUM, .wire = 1, .max = GD_ATOMIC_COUNT - 1,
	  .given = GD_GIVEN_ATOMIC_TYPE, .opt = "-A/--atomic_type", .what = "atomic type",
	  .label = "atomic type (-A)", .json = "atomic_type", .name = atomic_name,
	  .applies = is_atomic, .flags = GD_PF_JSON_IF_APPLIES },
	FLAG(bidirectional, 0, "bidirectional (-b)", "bidirectional"),
	FLAG(write_with_imm, 1, "--write_with_imm", "write_with_imm"),
	FLAG(send_with_imm, 2, "--send_with_imm", "send_with_imm"),
	FLAG(all_sizes, 3, "all sizes (-a)", "all_sizes"),
	FLAG(run_infinitely, 4, "--run_infinitely", "run_infinitely"),
	FLAG(validate, 5, "--validate", "validate"),
	FLAG(perform_warm_up, 6, "--perform_warm_up", "perform_warm_up"),
	FLAG(ipv6, 7, "IPv6 (--ipv6)", "ipv6"),
	{ GD_PARAM_AT(size), .type = GD_PT_SIZE, .wire = 8, .min = 1, .max = GD_BENCH_MAX_SIZE,
	  .def_fn = def_size, .given = GD_GIVEN_SIZE, .opt = "-s/--size", .what = "message size",
	  .label = "message size (-s)", .json = "size_bytes", .applies = one_size },
	{ GD_PARAM_AT(iters), .type = GD_PT_UINT, .wire = 8, .min = GD_BENCH_MIN_ITERS,
	  .max = UINT32_MAX, .def_fn = def_iters, .given = GD_GIVEN_ITERS, .opt = "-n/--iters",
	  .what = "iterations", .label = "iterations (-n)", .json = "iterations", .applies = counted },
	{ GD_PARAM_AT(duration_s), .type = GD_PT_UINT, .wire = 4, .max = GD_BENCH_MAX_DURATION,
	  .umin = 1, .given = GD_GIVEN_DURATION, .opt = "-D/--duration", .what = "duration",
	  .label = "duration in seconds (-D)", .json = "duration_s" },
	{ GD_PARAM_AT(num_qps), .type = GD_PT_UINT, .wire = 4, .min = 1, .max = GD_BENCH_MAX_QPS,
	  .def = 1, .given = GD_GIVEN_QPS, .opt = "-q/--qp", .what = "number of QPs",
	  .label = "number of QPs (-q)", .json = "qps" },
	{ GD_PARAM_AT(tx_depth), .type = GD_PT_UINT, .wire = 4, .min = 1, .max = GD_BENCH_MAX_DEPTH,
	  .def_fn = def_tx_depth, .given = GD_GIVEN_TX_DEPTH, .opt = "-t/--tx-depth",
	  .what = "tx depth", .label = "tx depth (-t)", .json = "tx_depth" },
	{ GD_PARAM_AT(rx_depth), .type = GD_PT_UINT, .wire = 4, .min = 1,
	  .max = GD_BENCH_MAX_RX_DEPTH, .def_fn = def_rx_depth, .given = GD_GIVEN_RX_DEPTH,
	  .opt = "-r/--rx-depth", .what = "rx depth", .label = "rx depth (-r)", .json = "rx_depth" },
	/* carried, not compared: the smaller of the two sides' MTUs is used */
	{ GD_PARAM_AT(mtu), .type = GD_PT_UINT, .wire = 4, .max = 4096, .umin = 256, .valid = mtu_ok,
	  .form = "256, 512, 1024, 2048 or 4096 (0: the port's active MTU)", .given = GD_GIVEN_MTU,
	  .opt = "-m/--mtu", .what = "MTU", .json = "mtu_bytes" },
	/* --initiator is parsed with the initiator's options (init_opts.c) and reported
	 * beside the initiator's shape, not under "params"; matched for every tool: the
	 * reporting side of a bandwidth pair labels its peer's numbers with it (D7) */
	{ GD_PARAM_AT(init.initiator), .type = GD_PT_ENUM, .wire = 1, .max = GD_INIT_COUNT - 1,
	  .what = "initiator", .label = "initiator (--initiator)", .name = init_name },
	/* the fabric (fabric_opts.c parses and reports them; wire version 3) */
	{ GD_PARAM_AT(fab.fabric), .type = GD_PT_ENUM, .wire = 1, .max = GD_FABRIC_COUNT - 1,
	  .what = "fabric", .label = "fabric (--fabric)", .name = fabric_name },
	{ GD_PARAM_AT(fab.ep), .type = GD_PT_ENUM, .wire = 1, .max = GD_EP_COUNT - 1,
	  .what = "endpoint type", .label = "endpoint type (--ep)", .name = ep_name,
	  .applies = is_ofi },
	{ GD_PARAM_AT(fab.provider), .type = GD_PT_STR, .max = GD_FABRIC_PROV_MAX - 1,
	  .what = "provider", .label = "libfabric provider (--provider)", .applies = is_ofi },
	/* carried, not compared: the noise guard (trust.h) tells whether both
	 * sides of one host share one CPU (wire version 4) */
	{ GD_PARAM_AT(run_cpus), .type = GD_PT_STR, .max = GD_BENCH_CORES_MAX - 1,
	  .what = "CPUs", .json = "run_cpus" },
	/* the class of the traffic, both directions (roce_opts.h; wire version 4):
	 * a responder in another class sends its ACKs and read responses there */
	{ GD_PARAM_AT(roce.sl), .type = GD_PT_UINT, .wire = 4, .max = 15, .opt = "-S/--sl",
	  .what = "service level", .label = "service level (-S)", .json = "sl" },
	{ GD_PARAM_AT(roce.tclass), .type = GD_PT_UINT, .wire = 4, .max = 255, .opt = "--tclass",
	  .what = "traffic class", .label = "traffic class (--tclass)", .json = "tclass" },
	{ GD_PARAM_AT(roce.tos), .type = GD_PT_UINT, .wire = 4, .max = 255, .opt = "-T/--tos",
	  .what = "type of service", .label = "rdma_cm type of service (-T)", .json = "tos" },
};
const size_t gd_matched_nparams = GD_ARRAY_SIZE(gd_matched_params);

const struct gd_param *gd_param_find(size_t off)
{
	for (size_t i = 0; i < gd_matched_nparams; i++)
		if (gd_matched_params[i].off == off)
			return &gd_matched_params[i];
	return NULL;
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

size_t gd_params_given_args(const struct gd_bench_params *p, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return 0;
	buf[0] = 0;
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];
		int w = d->opt ? (int)strcspn(d->opt, "/") : 0, k;

		if (!w || !(p->given & d->given) || (d->type != GD_PT_UINT && d->type != GD_PT_SIZE))
			continue;
		k = snprintf(buf + n, len - n, " %.*s %llu", w, d->opt,
			     (unsigned long long)gd_param_get(p, d));
		if (k < 0 || (size_t)k >= len - n) {
			buf[n] = 0; /* no option cut in half */
			break;
		}
		n += (size_t)k;
	}
	return n;
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

static int set_enum(struct gd_bench_params *p, const struct gd_param *d, const char *arg)
{
	const char *names[17];
	unsigned n = 0;
	int v = 0, ret;

	for (uint64_t i = d->min; i <= d->max && n < GD_ARRAY_SIZE(names) - 1; i++)
		names[n++] = d->name((unsigned)i);
	names[n] = NULL;
	ret = gd_opt_choice(d->opt, arg, names, &v);
	if (!ret)
		gd_param_put(p, d, d->min + (uint64_t)v);
	return ret;
}

int gd_param_set(struct gd_bench_params *p, size_t off, const char *arg)
{
	const struct gd_param *d = gd_param_find(off);
	uint64_t v = 1;
	int ret = 0;

	if (!d || !d->opt) {
		gd_error("internal: option of an unlisted parameter (offset %zu)", off);
		return -EINVAL;
	}
	p->given |= d->given;
	if (d->type == GD_PT_STR) {
		if (!arg || !*arg || strlen(arg) > d->max || strlen(arg) >= d->len) {
			gd_error("invalid value '%s' for %s: expected 1 to %llu characters",
				 gd_excerpt(arg), d->opt, (unsigned long long)GD_MIN(d->max, d->len - 1));
			return -EINVAL;
		}
		memcpy((char *)p + d->off, arg, strlen(arg) + 1);
		return 0;
	}
	if (d->type == GD_PT_ENUM)
		return set_enum(p, d, arg);
	if (d->type == GD_PT_SIZE)
		ret = gd_opt_size(d->opt, arg, GD_MAX(d->min, d->umin), d->max, &v);
	else if (d->type == GD_PT_UINT)
		ret = gd_opt_u64(d->opt, arg, GD_MAX(d->min, d->umin), d->max, &v);
	if (ret)
		return ret;
	if (d->valid && !d->valid(v)) {
		gd_error("invalid value '%s' for %s: expected %s", gd_excerpt(arg), d->opt, d->form);
		return -EINVAL;
	}
	gd_param_put(p, d, v);
	return 0;
}

int gd_params_check(const struct gd_bench_params *p)
{
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];
		uint64_t v;

		if (d->type == GD_PT_STR || d->type == GD_PT_FLAG)
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

/* The listed parameters that have a JSON key. */
static void params_json(const struct gd_bench_params *p, json_object *o)
{
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];
		const char *s = (const char *)p + d->off;
		uint64_t v = d->type == GD_PT_STR ? 0 : gd_param_get(p, d);

		if (!d->json || ((d->flags & GD_PF_JSON_IF_APPLIES) && !d->applies(p)))
			continue;
		switch (d->type) {
		case GD_PT_ENUM: gd_json_add_str(o, d->json, d->name((unsigned)v)); break;
		case GD_PT_FLAG: gd_json_add_bool(o, d->json, v != 0); break;
		case GD_PT_STR: gd_json_add_str(o, d->json, s[0] ? s : NULL); break;
		default:
			if (d->wire == 8)
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
	gd_json_add_str(o, "peer", p->peer[0] ? p->peer : NULL);
	gd_json_add_int(o, "tcp_port", p->tcp_port);
	gd_json_add_str(o, "bind", p->bind_addr[0] ? p->bind_addr : NULL);
	gd_json_add_str(o, "bind_source_ip", p->source_ip[0] ? p->source_ip : NULL);
	gd_json_add_int(o, "timeout_ms", p->timeout_ms);
	gd_json_add_str(o, "device", p->dev[0] ? p->dev : NULL);
	gd_json_add_int(o, "ib_port", p->ib_port);
	gd_json_add_int(o, "gid_index", p->gid_index);
	gd_json_add_int(o, "qp_timeout_exponent", p->qp_timeout);
	gd_json_add_int(o, "margin_s", p->margin_s);
	gd_json_add_double(o, "precision_pct", p->precision);
	gd_json_add_int(o, "cq_moderation", p->cq_mod);
	gd_json_add_int(o, "inline_size_bytes", p->inline_size);
	gd_json_add_int(o, "post_list", p->post_list);
	gd_json_add_int(o, "outstanding_reads", p->out_reads);
	gd_json_add_u64(o, "latency_gap_us", p->latency_gap);
	gd_json_add_bool(o, "no_peak", p->no_peak);
	gd_json_add_bool(o, "report_gbits", p->report_gbits);
	gd_json_add_bool(o, "report_cycles", p->report_cycles);
	gd_json_add_double(o, "limit_bw", p->limit_bw);
	gd_json_add_double(o, "limit_msgrate_mpps", p->limit_msgrate);
	gd_json_add_bool(o, "use_hugepages", p->use_hugepages);
	gd_json_add_str(o, "pin_cores", p->pin_cores[0] ? p->pin_cores : NULL);
	if (p->use_cuda == GD_CUDA_AUTO)
		gd_json_add_str(o, "use_cuda", "auto");
	else if (p->use_cuda >= 0)
		gd_json_add_int(o, "use_cuda", p->use_cuda);
	gd_json_add_str(o, "use_cuda_bus_id", p->cuda_bus_id[0] ? p->cuda_bus_id : NULL);
	gd_json_add_bool(o, "use_cuda_dmabuf", p->cuda_dmabuf);
	gd_json_add_bool(o, "gpu_staging", p->gpu_staging);
	gd_json_add_bool(o, "events", p->roce.events);
	gd_json_add_bool(o, "cpu_util", p->roce.cpu_util);
	if (p->roce.rate_limit > 0) {
		gd_json_add_double(o, "rate_limit", p->roce.rate_limit);
		gd_json_add_str(o, "rate_units", gd_rate_units_name(p->roce.rate_units));
		gd_json_add_str(o, "rate_limit_type", gd_rate_type_name(p->roce.rate_type));
		gd_json_add_int(o, "burst_size", p->roce.burst_size ? p->roce.burst_size : 1);
	}
	json_object_object_add(obj, "params", o);
	return 0;
}
