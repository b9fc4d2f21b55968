/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "bench_report.h"

#include <arpa/inet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_int.h"
#include "gd.h"
#include "gid.h"
#include "gpu_mem.h"
#include "jsonout.h"
#include "log.h"
#include "proxy_bench.h"
#include "stats.h"

#define DASHES "---------------------------------------------------------------------------------------"

/* perftest's units: MiB/s (2^20 bytes) or Gb/s (10^9 bits) */
double gd_bench_report_bw_value(const struct gd_bench *b, double Bps)
{
	return gd_bw_in_unit(Bps, b->p.report_gbits);
}

void gd_bench_title(const struct gd_bench_params *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s%s", gd_bench_op_title(p->op),
		 p->op == GD_OP_ATOMIC ? " " : "",
		 p->op == GD_OP_ATOMIC ? gd_atomic_type_name(p->atomic_type) : "",
		 p->bidirectional ? " Bidirectional" : "", p->post_list > 1 ? " Post List" : "",
		 p->kind == GD_KIND_BW ? " BW Test" : " Latency Test");
}

void gd_bench_report_waiting(struct gd_bench *b)
{
	if (!b->out)
		return;
	fprintf(b->out, "\n************************************\n"
			"* Waiting for client to connect... *\n"
			"************************************\n");
	fflush(b->out);
}

static void print_addr(struct gd_bench *b, const char *who, const struct gd_wire_conn *c)
{
	const struct gd_bench_params *p = &b->p;
	char gid[80];

	fprintf(b->out, " %s address: LID %#04x QPN %#06x PSN %#06x", who, c->lid, c->qpn, c->psn);
	if (p->op == GD_OP_READ || p->op == GD_OP_ATOMIC)
		fprintf(b->out, " OUT %#04x", c->out_reads);
	if (p->op != GD_OP_SEND)
		fprintf(b->out, " RKey %#08x VAddr %#016llx", c->rkey, (unsigned long long)c->vaddr);
	fprintf(b->out, "\n");
	if (c->gid_index >= 0) {
		gd_gid_perftest_str(c->gid, gid, sizeof(gid));
		fprintf(b->out, " GID: %s\n", gid);
	}
}

static void bw_title(struct gd_bench *b)
{
	if (b->p.report_gbits)
		fprintf(b->out, " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   "
				"MsgRate[Mpps]\n");
	else
		fprintf(b->out, " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   "
				"MsgRate[Mpps]\n");
}

static const char *lat_unit(const struct gd_bench *b)
{
	return b->p.report_cycles ? "nsec" : "usec";
}

static void lat_title(struct gd_bench *b)
{
	const char *u = lat_unit(b);

	if (b->p.duration_s) {
		fprintf(b->out, " #bytes        #iterations       t_avg[%s]    tps average\n", u);
		return;
	}
	fprintf(b->out, " #bytes #iterations    t_min[%s]    t_max[%s]  t_typical[%s]    "
			"t_avg[%s]    t_stdev[%s]   99%% percentile[%s]   99.9%% percentile[%s] \n",
		u, u, u, u, u, u, u);
}

void gd_bench_report_header(struct gd_bench *b)
{
	const struct gd_bench_params *p = &b->p;
	const struct gd_conn *c = &b->conn;
	bool rd = p->op == GD_OP_READ || p->op == GD_OP_ATOMIC;
	char title[96], gpu[256];

	if (!b->out)
		return;
	gd_bench_title(p, title, sizeof(title));
	fprintf(b->out, "%s\n", DASHES);
	fprintf(b->out, "                    %s\n", title);
	fprintf(b->out, " Dual-port       : OFF\t\tDevice         : %s\n", c->dev_name);
	fprintf(b->out, " Number of qps   : %u\t\tTransport type : %s\n", p->num_qps,
		c->ctx && c->ctx->device->transport_type == IBV_TRANSPORT_IWARP ? "IW" : "IB");
	fprintf(b->out, " Connection type : RC\t\tUsing SRQ      : OFF\n");
	fprintf(b->out, " PCIe relax order: OFF\t\tLock-free      : OFF\n");
	fprintf(b->out, " ibv_wr* API     : OFF\t\tUsing Enhanced Reorder      : OFF\n");
	if (p->role == GD_ROLE_CLIENT || p->bidirectional || p->kind == GD_KIND_LAT)
		fprintf(b->out, " TX depth        : %u\n", b->tx_depth);
	if (gd_bench_uses_recv(p))
		fprintf(b->out, " RX depth        : %u\n", p->rx_depth);
	if (p->kind == GD_KIND_BW) {
		fprintf(b->out, " CQ Moderation   : %u\n", b->cq_mod);
		fprintf(b->out, " CQE Poll Batch  : 16\n");
	}
	if (p->post_list > 1)
		fprintf(b->out, " Post List       : %u\n", p->post_list);
	fprintf(b->out, " Mtu             : %u[B]\n",
		b->remote ? GD_MIN(c->mtu, b->remote[0].mtu ? b->remote[0].mtu : c->mtu) : (uint32_t)c->mtu);
	fprintf(b->out, " Link type       : %s\n", c->roce ? "Ethernet" : "IB");
	if (c->gid_index >= 0) {
		fprintf(b->out, " GID index       : %d\n", c->gid_index);
		fprintf(b->out, " GID type        : %s%s%s%s\n", gd_gid_type_str(c->gid_type),
			c->gid_netdev[0] ? " on " : "", c->gid_netdev,
			p->conn == GD_CONN_RDMA_CM ? " (chosen by rdma_cm)" :
			c->gid_auto ? " (auto: routes to the peer)" : " (-x)");
	}
	if (rd)
		fprintf(b->out, " Outstand reads  : %u\n", c->out_reads);
	else
		fprintf(b->out, " Max inline data : %u[B]\n", c->max_inline);
	fprintf(b->out, " rdma_cm QPs\t : %s\n", p->conn == GD_CONN_RDMA_CM ? "ON" : "OFF");
	fprintf(b->out, " Data ex. method : Ethernet\n");
	if (b->buf.kind == GD_BUF_CUDA && gd_gpu_buf_describe(&b->buf, gpu, sizeof(gpu)) == 0)
		fprintf(b->out, " Memory          : cuda: %s\n", gpu); /* the GPU, its path, the registration */
	else
		fprintf(b->out, " Memory          : %s\n", gd_buf_kind_name(b->buf.kind));
	if (p->init.initiator != GD_INIT_CPU) {
		char ini[256];

		gd_init_opts_header(&p->init, gd_proxy_bench_producer(p), p->num_qps, ini, sizeof(ini));
		fprintf(b->out, " Initiator       : %s\n", ini);
	}
	fprintf(b->out, "%s\n", DASHES);
	for (uint32_t i = 0; i < p->num_qps; i++) {
		print_addr(b, "local", &b->local[i]);
		print_addr(b, "remote", &b->remote[i]);
	}
	fprintf(b->out, "%s\n", DASHES);
	if (p->kind == GD_KIND_BW)
		bw_title(b);
	else
		lat_title(b);
	fflush(b->out);
}

void gd_bench_report_footer(struct gd_bench *b)
{
	if (!b->out)
		return;
	fprintf(b->out, "%s\n", DASHES);
	fflush(b->out);
}

/* ---- JSON ---- */

static json_object *json_common(struct gd_bench *b, const char *type)
{
	const struct gd_conn *c = &b->conn;
	json_object *o = gd_json_record(type);
	json_object *params = json_object_new_object();
	char gid[INET6_ADDRSTRLEN] = "";

	gd_json_add_str(o, "role", gd_bench_role_name(b->p.role));
	gd_json_add_str(o, "host", b->host);
	gd_json_add_str(o, "peer", b->peer);
	gd_json_add_str(o, "device", c->dev_name);
	gd_json_add_int(o, "port", c->port);
	gd_json_add_str(o, "link_layer", c->roce ? "Ethernet" : "InfiniBand");
	gd_json_add_int(o, "gid_index", c->gid_index);
	if (c->gid_index >= 0) {
		inet_ntop(AF_INET6, c->gid.raw, gid, sizeof(gid));
		gd_json_add_str(o, "gid", gid);
		gd_json_add_str(o, "gid_type", gd_gid_type_str(c->gid_type));
		gd_json_add_str(o, "gid_netdev", c->gid_netdev);
		gd_json_add_str(o, "gid_choice", b->p.conn == GD_CONN_RDMA_CM ? "rdma_cm" :
				c->gid_auto ? "auto" : "user");
	}
	gd_json_add_int(o, "mtu_bytes", b->remote ? GD_MIN(c->mtu, b->remote[0].mtu) : (uint32_t)c->mtu);
	gd_json_add_str(o, "memory", gd_buf_kind_name(b->buf.kind));
	if (b->buf.kind == GD_BUF_CUDA)
		gd_gpu_buf_json(&b->buf, o); /* "gpu": index, name, pci, path_class, registration */
	gd_init_opts_to_json(&b->p.init, gd_proxy_bench_producer(&b->p), b->p.num_qps, o);
	gd_bench_params_to_json(&b->p, params);
	/* the effective values where the engine clamped them */
	gd_json_add_int(params, "tx_depth_effective", b->tx_depth);
	gd_json_add_int(params, "cq_mod_effective", b->cq_mod);
	gd_json_add_int(params, "max_inline_effective", c->max_inline);
	gd_json_add_int(params, "out_reads_effective", c->out_reads);
	json_object_object_add(o, "params", params);
	return o;
}

static json_object *bw_json(const struct gd_bw_result *r)
{
	json_object *o = json_object_new_object();

	gd_json_add_u64(o, "size_bytes", r->size);
	gd_json_add_u64(o, "iterations", r->iters);
	if (r->peak_Bps > 0) {
		gd_json_add_double(o, "bw_peak_mib_per_s", r->peak_Bps / 1048576.0);
		gd_json_add_double(o, "bw_peak_gbit_per_s", r->peak_Bps * 8 / 1e9);
	}
	gd_json_add_double(o, "bw_avg_mib_per_s", r->avg_Bps / 1048576.0);
	gd_json_add_double(o, "bw_avg_gbit_per_s", r->avg_Bps * 8 / 1e9);
	gd_json_add_double(o, "msg_rate_mpps", r->msg_rate / 1e6);
	return o;
}

void gd_bench_report_bw_line(struct gd_bench *b, const struct gd_bw_result *mine,
			     const struct gd_bw_result *peer)
{
	struct gd_bw_result sum = *mine;
	double peak, avg;

	if (!b->out)
		return;
	if (peer) { /* bidirectional: perftest adds both directions */
		sum.avg_Bps += peer->avg_Bps;
		sum.msg_rate += peer->msg_rate;
		sum.peak_Bps = mine->peak_Bps > 0 && peer->peak_Bps > 0 ?
			       mine->peak_Bps + peer->peak_Bps : 0;
		sum.iters = mine->iters;
	}
	if (b->p.json) {
		json_object *o = json_common(b, "bw_result");
		bool passive = !b->roles.initiator && !b->roles.receiver;

		/* a passive side (server of a write/read/atomic test) prints the
		 * numbers its client measured, as perftest */
		gd_json_add_str(o, "measured_by", passive ? "peer" : peer ? "both" : "self");
		json_object_object_add(o, "results", bw_json(&sum));
		if (!passive)
			json_object_object_add(o, "local_results", bw_json(mine));
		if (peer)
			json_object_object_add(o, "peer_results", bw_json(peer));
		gd_json_emit(o, b->out);
		return;
	}
	peak = gd_bench_report_bw_value(b, sum.peak_Bps);
	avg = gd_bench_report_bw_value(b, sum.avg_Bps);
	switch (b->p.output) {
	case GD_OUTPUT_BANDWIDTH:
		fprintf(b->out, "%f\n", avg);
		return;
	case GD_OUTPUT_MSG_RATE:
		fprintf(b->out, "%f\n", sum.msg_rate / 1e6);
		return;
	case GD_OUTPUT_LATENCY:
	case GD_OUTPUT_FULL:
	case GD_OUTPUT_COUNT:
		break;
	}
	if (b->p.report_gbits && avg < 0.1)
		fprintf(b->out, " %-7llu    %-10llu       %-7.6lf            %-7.6lf\t\t     %-7.6lf\n",
			(unsigned long long)sum.size, (unsigned long long)sum.iters, peak, avg,
			sum.msg_rate / 1e6);
	else
		fprintf(b->out, " %-7llu    %-10llu       %-7.2lf            %-7.2lf\t\t     %-7.6lf\n",
			(unsigned long long)sum.size, (unsigned long long)sum.iters, peak, avg,
			sum.msg_rate / 1e6);
	fflush(b->out);
}

static void histogram(struct gd_bench *b, const double *s, size_t n)
{
	fprintf(b->out, "#, %s\n", lat_unit(b));
	for (size_t i = 0; i < n; i++)
		fprintf(b->out, "%zu, %.3f\n", i + 1, b->p.report_cycles ? s[i] * 1000 : s[i]);
}

void gd_bench_report_lat(struct gd_bench *b, uint64_t size, double *samples, size_t n)
{
	struct gd_lat_stats st;
	double k = b->p.report_cycles ? 1000.0 : 1.0; /* -C: nanoseconds */
	double *copy = NULL;

	if (!n || !b->out) /* the passive side of a read/atomic test: the client reports */
		return;
	if (b->p.unsorted && !b->p.json) {
		copy = malloc(n * sizeof(*copy));
		if (copy)
			memcpy(copy, samples, n * sizeof(*copy));
	}
	gd_lat_stats_compute(samples, n, &st); /* sorts samples */
	if (b->p.json) {
		json_object *o = json_common(b, "lat_result");
		json_object *r = json_object_new_object();

		gd_json_add_u64(r, "size_bytes", size);
		gd_json_add_u64(r, "iterations", b->p.duration_s ? n : b->p.iters);
		gd_json_add_u64(r, "samples", n);
		gd_json_add_double(r, "t_min_usec", st.min);
		gd_json_add_double(r, "t_max_usec", st.max);
		gd_json_add_double(r, "t_typical_usec", st.typical);
		gd_json_add_double(r, "t_avg_usec", st.avg);
		gd_json_add_double(r, "t_stdev_usec", st.stdev);
		for (int q = 0; q < GD_PCT_COUNT; q++) {
			char key[32];
			snprintf(key, sizeof(key), "p%s_usec", gd_pct_label(q));
			for (char *c = key; *c; c++)
				if (*c == '.')
					*c = '_';
			gd_json_add_double(r, key, st.pct[q]);
			if (st.at_max & (1u << q)) {
				strcat(key, "_is_max");
				gd_json_add_bool(r, key, 1);
			}
		}
		json_object_object_add(o, "results", r);
		gd_json_emit(o, b->out);
		return;
	}
	if (b->p.output != GD_OUTPUT_FULL) { /* perftest prints the average latency */
		fprintf(b->out, "%f\n", st.avg * k);
		return;
	}
	if (b->p.duration_s) {
		double tps = st.avg > 0 ? 1e6 / (st.avg * (b->p.op == GD_OP_WRITE ||
						b->p.op == GD_OP_SEND ? 2 : 1)) : 0;
		fprintf(b->out, " %-7llu       %-10llu        %-7.2f        %-7.2f\n",
			(unsigned long long)size, (unsigned long long)n, st.avg * k, tps);
	} else {
		fprintf(b->out, " %-7llu %-10llu   %-7.2lf        %-7.2lf      %-7.2lf  \t       "
				"%-7.2lf     \t%-7.2lf \t\t%-7.2lf \t\t%-7.2lf\n",
			(unsigned long long)size, (unsigned long long)b->p.iters, st.min * k, st.max * k,
			st.typical * k, st.avg * k, st.stdev * k, st.pct[GD_P99] * k, st.pct[GD_P999] * k);
	}
	if (b->p.unsorted && copy)
		histogram(b, copy, n);
	else if (b->p.histogram)
		histogram(b, samples, n);
	free(copy);
	fflush(b->out);
}
