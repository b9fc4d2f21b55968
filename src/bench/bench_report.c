/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "config.h"

#include "bench_report.h"

#include <arpa/inet.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conn.h"
#include "fabric.h"
#include "gd.h"
#include "jsonout.h"
#include "mem.h"
#include "log.h"
#include "stats.h"
#include "table.h"
#include "version.h"

#define DASHES "---------------------------------------------------------------------------------------"

/* perftest's units: "MB/sec", which perftest computes as 2^20 bytes (its --help:
 * "MiB=2^20 byte"), or Gb/s (10^9 bits) */
double gd_report_bw_value(const struct gd_bench_params *p, double Bps)
{
	return gd_bw_in_unit(Bps, p->report_gbits);
}

void gd_bench_title(const struct gd_bench_params *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s%s", gd_bench_op_title(p->op),
		 p->op == GD_OP_ATOMIC ? " " : "",
		 p->op == GD_OP_ATOMIC ? gd_atomic_type_name(p->atomic_type) : "",
		 p->bidirectional ? " Bidirectional" : "", p->post_list > 1 ? " Post List" : "",
		 p->kind == GD_KIND_BW ? " BW Test" : " Latency Test");
}

void gd_report_waiting(const struct gd_report *r)
{
	if (!r->out)
		return;
	fprintf(r->out, "\n************************************\n"
			"* Waiting for client to connect... *\n"
			"************************************\n");
	fflush(r->out);
}

static void print_addr(const struct gd_report *r, const char *who, const struct gd_wire_conn *c)
{
	const struct gd_bench_params *p = r->p;
	char gid[80];

	fprintf(r->out, " %s address: LID %#04x QPN %#06x PSN %#06x", who, c->lid, c->qpn, c->psn);
	if (p->op == GD_OP_READ || p->op == GD_OP_ATOMIC)
		fprintf(r->out, " OUT %#04x", c->out_reads);
	if (p->op != GD_OP_SEND)
		fprintf(r->out, " RKey %#08x VAddr %#016llx", c->rkey, (unsigned long long)c->vaddr);
	fprintf(r->out, "\n");
	if (c->gid_index >= 0) {
		gd_gid_perftest_str(c->gid, gid, sizeof(gid));
		fprintf(r->out, " GID: %s\n", gid);
	}
}

/*
 * The result tables' columns (perftest 4.5's titles, to the byte): each value starts where
 * its label does (src/core/table.c, gd_cols_row), so a large value moves nothing on the
 * rows below it (newcomer 24: tabs drifted at large latencies). lab holds the labels made
 * with the unit; the count of columns is returned.
 */
#define GD_REPORT_COLS 9
static size_t bw_cols(const struct gd_report *r, struct gd_col c[GD_REPORT_COLS],
		      char lab[2][32])
{
	const char *u = r->p->report_gbits ? "Gb/sec" : "MB/sec";
	size_t n = 0;

	snprintf(lab[0], sizeof(lab[0]), "BW peak[%s]", u);
	snprintf(lab[1], sizeof(lab[1]), "BW average[%s]", u);
	c[n++] = (struct gd_col){ "#bytes", 1 };
	c[n++] = (struct gd_col){ "#iterations", 5 };
	c[n++] = (struct gd_col){ lab[0], 4 };
	c[n++] = (struct gd_col){ lab[1], 4 };
	c[n++] = (struct gd_col){ "MsgRate[Mpps]", 3 };
	if (r->adaptive)
		c[n++] = (struct gd_col){ "CI95[%]", 3 };
	if (r->p->roce.cpu_util)
		c[n++] = (struct gd_col){ "CPU_Util[%]", 4 };
	return n;
}

static const char *lat_unit(const struct gd_report *r)
{
	return r->p->report_cycles ? "nsec" : "usec";
}

static size_t lat_cols(const struct gd_report *r, struct gd_col c[GD_REPORT_COLS],
		       char lab[7][32])
{
	static const char *const name[] = { "t_min", "t_max", "t_typical", "t_avg", "t_stdev",
					    "99% percentile", "99.9% percentile" };
	static const unsigned gap[] = { 4, 4, 2, 4, 4, 3, 3 };
	size_t n = 0;

	for (size_t i = 0; i < 7; i++)
		snprintf(lab[i], sizeof(lab[i]), "%s[%s]", name[i], lat_unit(r));
	c[n++] = (struct gd_col){ "#bytes", 1 };
	if (r->p->duration_s) { /* -D: the average and the transactions per second */
		c[n++] = (struct gd_col){ "#iterations", 8 };
		c[n++] = (struct gd_col){ lab[3], 7 };
		c[n++] = (struct gd_col){ "tps average", 4 };
		if (r->p->roce.cpu_util)
			c[n++] = (struct gd_col){ "CPU_Util[%]", 4 };
		return n;
	}
	c[n++] = (struct gd_col){ "#iterations", 1 };
	for (size_t i = 0; i < 7; i++)
		c[n++] = (struct gd_col){ lab[i], gap[i] };
	return n;
}

static void bw_title(const struct gd_report *r)
{
	struct gd_col c[GD_REPORT_COLS];
	char lab[2][32];

	gd_cols_title(r->out, c, bw_cols(r, c, lab), NULL);
}

static void lat_title(const struct gd_report *r)
{
	struct gd_col c[GD_REPORT_COLS];
	char lab[7][32];

	gd_cols_title(r->out, c, lat_cols(r, c, lab), r->p->duration_s ? NULL : " ");
}

static void header_queues(const struct gd_report *r)
{
	const struct gd_bench_params *p = r->p;
	const struct gd_bench_facts *f = r->f;

	if (p->role == GD_ROLE_CLIENT || p->bidirectional || p->kind == GD_KIND_LAT)
		fprintf(r->out, " TX depth        : %u\n", f->tx_depth);
	if (gd_bench_uses_recv(p))
		fprintf(r->out, " RX depth        : %u\n", p->rx_depth);
	if (p->kind == GD_KIND_BW) {
		fprintf(r->out, " CQ Moderation   : %u\n", f->cq_mod);
		fprintf(r->out, " CQE Poll Batch  : 16\n");
	}
	if (p->post_list > 1)
		fprintf(r->out, " Post List       : %u\n", p->post_list);
}

/* -S, --tclass, -T: what the device kept of them (QP 1 read back) */
static void header_av(const struct gd_report *r)
{
	const struct gd_bench_facts *f = r->f;

	fprintf(r->out, " QP addr. vector : ");
	if (f->av_sl < 0) {
		fprintf(r->out, "not read back\n");
		return;
	}
	fprintf(r->out, "SL %d", f->av_sl);
	if (f->av_tclass >= 0)
		fprintf(r->out, ", traffic class %d", f->av_tclass);
	fprintf(r->out, " (read back from %s)\n", f->device);
}

static void header_link(const struct gd_report *r)
{
	const struct gd_bench_params *p = r->p;
	const struct gd_bench_facts *f = r->f;
	char gpu[256];
	bool port = gd_fabric_traits_of(p->fab.fabric)->port;

	if (port) {
		fprintf(r->out, " Mtu             : %u[B]\n", f->mtu);
		fprintf(r->out, " Link type       : %s\n", f->roce ? "Ethernet" : "IB");
	}
	if (f->gid_index >= 0) {
		fprintf(r->out, " GID index       : %d\n", f->gid_index);
		fprintf(r->out, " GID type        : %s%s%s%s\n", f->gid_type,
			f->gid_netdev[0] ? " on " : "", f->gid_netdev,
			!strcmp(f->gid_choice, "rdma_cm") ? " (chosen by rdma_cm)" :
			!strcmp(f->gid_choice, "auto") ? " (auto: routes to the peer)" : " (-x)");
	}
	if (port && (p->roce.sl_given || p->roce.tclass_given || p->roce.tos_given))
		header_av(r);
	if (!port)
		fprintf(r->out, " Inject size     : %u[B]\n", f->max_inline);
	else if (p->op == GD_OP_READ || p->op == GD_OP_ATOMIC)
		fprintf(r->out, " Outstand reads  : %u\n", f->out_reads);
	else
		fprintf(r->out, " Max inline data : %u[B]\n", f->max_inline);
	if (port)
		fprintf(r->out, " rdma_cm QPs\t : %s\n", p->conn == GD_CONN_RDMA_CM ? "ON" : "OFF");
	fprintf(r->out, " Data ex. method : Ethernet\n");
	if (r->buf && r->buf->ops->describe && r->buf->ops->describe(r->buf, gpu, sizeof(gpu)) == 0)
		fprintf(r->out, " Memory          : cuda: %s\n", gpu); /* the GPU, its path, the registration */
	else
		fprintf(r->out, " Memory          : %s\n", f->memory);
	fprintf(r->out, " Placement       : %s\n", f->placement);
	{
		char fab[384];

		gd_fabric_opts_header(&p->fab, fab, sizeof(fab));
		fprintf(r->out, " Fabric          : %s\n", fab);
	}
	{
		char ini[256];

		if (gd_init_opts_header(&p->init, r->ini ? r->ini->producer : GD_HOST_PRODUCER_LABEL,
					p->num_qps, ini, sizeof(ini)))
			fprintf(r->out, " Initiator       : %s\n", ini);
	}
	if (r->ini && r->ini->producer_kind)
		fprintf(r->out, " Producer        : %s (%s)\n", r->ini->producer_kind,
			r->ini->producer_why);
	if (r->ini && r->ini->nic)
		fprintf(r->out, " IBGDA           : NIC %s, queues in %s, doorbell rung by the %s, "
				"%u WQEBBs per QP, ring every %u, signal every %u\n", r->ini->nic,
			r->ini->queues, r->ini->doorbell, r->ini->nwqe, r->ini->ring_every,
			r->ini->sig_every);
}

/* The header's first block on a fabric without a port (libfabric): what it has
 * (provider, domain, endpoint type), none of verbs' fields (LID, QPN, SRQ, MTU...). */
static void header_domain(const struct gd_report *r)
{
	const struct gd_bench_params *p = r->p;

	fprintf(r->out, " Provider        : %s\t\tDomain         : %s\n", p->fab.provider,
		r->f->device);
	fprintf(r->out, " Number of qps   : %u\t\tTransport type : libfabric\n", p->num_qps);
	fprintf(r->out, " Endpoint type   : %s\t\tFabric name    : %s\n",
		p->fab.ep == GD_EP_MSG ? "MSG" : "RDM",
		p->fab.fabric_name[0] ? p->fab.fabric_name : "-");
}

/* The header's first block on a port (verbs), as perftest prints it. */
static void header_port(const struct gd_report *r)
{
	fprintf(r->out, " Dual-port       : OFF\t\tDevice         : %s\n", r->f->device);
	fprintf(r->out, " Number of qps   : %u\t\tTransport type : %s\n", r->p->num_qps,
		r->f->iwarp ? "IW" : "IB");
	fprintf(r->out, " Connection type : RC\t\tUsing SRQ      : OFF\n");
	fprintf(r->out, " PCIe relax order: OFF\t\tLock-free      : OFF\n");
	fprintf(r->out, " ibv_wr* API     : OFF\t\tUsing Enhanced Reorder      : OFF\n");
}

/* Without a port (libfabric) an endpoint's line: its MR key and offset, no LID/QPN/PSN. */
static void print_endpoint(const struct gd_report *r, const char *who,
			   const struct gd_wire_conn *c)
{
	fprintf(r->out, " %s endpoint: MR key %#llx VAddr %#016llx\n", who,
		(unsigned long long)c->fab_key, (unsigned long long)c->vaddr);
}

void gd_report_header(const struct gd_report *r)
{
	const struct gd_bench_params *p = r->p;
	char title[96];
	bool port;

	if (!r->out)
		return;
	gd_bench_title(p, title, sizeof(title));
	port = gd_fabric_traits_of(p->fab.fabric)->port;
	fprintf(r->out, "%s\n", DASHES);
	fprintf(r->out, "                    %s\n", title);
	(port ? header_port : header_domain)(r);
	header_queues(r);
	header_link(r);
	fprintf(r->out, "%s\n", DASHES);
	for (uint32_t i = 0; i < r->nqp; i++) {
		(port ? print_addr : print_endpoint)(r, "local", &r->local[i]);
		(port ? print_addr : print_endpoint)(r, "remote", &r->remote[i]);
	}
	fprintf(r->out, "%s\n", DASHES);
	if (p->kind == GD_KIND_BW)
		bw_title(r);
	else
		lat_title(r);
	fflush(r->out);
}

void gd_report_footer(const struct gd_report *r)
{
	if (!r->out)
		return;
	fprintf(r->out, "%s\n", DASHES);
	fflush(r->out);
}

/* --cpu_util: "cpu_util_pct" in the record's results (null when unreadable). */
static void cpu_util_json(const struct gd_report *r, const struct gd_bench_size_result *s,
			  json_object *o)
{
	json_object *res = NULL;

	if (!r->p->roce.cpu_util || !json_object_object_get_ex(o, "results", &res))
		return;
	if (s->cpu_util_pct >= 0)
		gd_json_add_double(res, "cpu_util_pct", s->cpu_util_pct);
	else
		json_object_object_add(res, "cpu_util_pct", NULL);
}

/* A doubtful result's reasons under its row (a '#' line, as the issue-rate
 * line: perftest parsers skip it); --output's bare numbers get none. */
static void trust_line(const struct gd_report *r, const struct gd_trust *t)
{
	char why[GD_TRUST_NWHY * 170];

	if (!t->why || r->p->output != GD_OUTPUT_FULL)
		return;
	gd_trust_join(t, why, sizeof(why));
	fprintf(r->out, " # doubtful: %s\n", why);
}

void gd_report_trust_summary(const struct gd_report *r, const struct gd_bench_result *res)
{
	size_t bad = 0, first = 0;

	for (size_t i = 0; i < res->nsizes; i++)
		if (res->sizes[i].trust.why && !bad++)
			first = i;
	if (!bad || !r->out || r->p->json)
		return;
	if (r->p->output != GD_OUTPUT_FULL) { /* the bare numbers stay alone on stdout */
		gd_warn("%zu of %zu results should not be believed (first: %llu bytes); run "
			"without --output to see why", bad, res->nsizes,
			(unsigned long long)res->sizes[first].size);
		return;
	}
	fprintf(r->out, " WARNING: %zu of %zu results should not be believed (trust: doubtful, "
		"reasons under their rows); do not compare them with other runs\n", bad,
		res->nsizes);
	fflush(r->out);
}

/* ---- JSON ---- */

void gd_report_signal(const struct gd_bench_params *p, FILE *out, int sig, int code)
{
	const char *name = sigabbrev_np(sig) ? sigabbrev_np(sig) : "?";

	if (!out)
		return;
	if (p->json) {
		json_object *rec = gd_json_record("interrupted");

		gd_json_add_str(rec, "signal", name);
		gd_json_add_bool(rec, "peer", false);
		gd_json_add_int(rec, "exit_code", code);
		gd_json_emit(rec, out);
		return;
	}
	fprintf(out, "# interrupted by SIG%s: %s; exit %d\n", name,
		p->run_infinitely ? "--run_infinitely ends here" :
				    "the rows above were measured before it, no size after",
		code);
}

void gd_report_peer_signal(const struct gd_bench_params *p, FILE *out, int code)
{
	if (!out)
		return;
	if (p->json) {
		json_object *rec = gd_json_record("interrupted");

		json_object_object_add(rec, "signal", NULL);
		gd_json_add_bool(rec, "peer", true);
		gd_json_add_int(rec, "exit_code", code);
		gd_json_emit(rec, out);
		return;
	}
	fprintf(out, "# interrupted: the %s was stopped by SIGINT or SIGTERM: the rows above were "
		"measured before it, no size after; exit %d\n",
		p->role == GD_ROLE_SERVER ? "client" : "server", code);
}

void gd_report_validation(const struct gd_bench_params *p, FILE *out, uint64_t checked,
			  bool atomics)
{
	const char *what = !checked ? "none" : atomics ? "atomics" : "bytes";

	if (!out || p->output != GD_OUTPUT_FULL)
		return;
	if (p->json) {
		json_object *rec = gd_json_record("validation");

		gd_json_add_str(rec, "result", "passed");
		gd_json_add_str(rec, "checked", what);
		gd_json_add_int(rec, "count", (int64_t)checked);
		gd_json_emit(rec, out);
	} else if (!checked) {
		fprintf(out, " validation: passed (checked by the peer: this side holds no data "
			     "to check)\n");
	} else {
		fprintf(out, " validation: passed (%llu %s checked)\n", (unsigned long long)checked,
			what);
	}
	fflush(out);
}

static void ibgda_json(const struct gd_report_initiator *ini, json_object *o)
{
	json_object *j = json_object_new_object();

	gd_json_add_str(j, "nic", ini->nic);
	gd_json_add_bool(j, "nic_is_test_double", ini->nic_test_double);
	gd_json_add_str(j, "queues", ini->queues);
	gd_json_add_str(j, "doorbell", ini->doorbell);
	gd_json_add_int(j, "wqebbs_per_qp", ini->nwqe);
	gd_json_add_int(j, "ring_every", ini->ring_every);
	gd_json_add_int(j, "signal_every", ini->sig_every);
	json_object_object_add(o, "ibgda", j);
}

/* Now, UTC, ISO 8601 with milliseconds ("2026-11-29T15:14:03.123Z"). */
static const char *utc_now(char *buf, size_t len)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return gd_json_utc(buf, len, &ts);
}

static json_object *json_common(const struct gd_report *r, const char *type)
{
	const struct gd_bench_facts *f = r->f;
	json_object *o = gd_json_record(type);
	json_object *params = NULL;
	char when[40];

	gd_json_add_str(o, "role", gd_bench_role_name(r->p->role));
	/* each record stands alone in a log: when and by which version (newcomer 22) */
	gd_json_add_str(o, "time", utc_now(when, sizeof(when)));
	gd_json_add_str(o, "gdperf_version", gd_version());
	gd_json_add_str(o, "host", f->host);
	gd_json_add_str(o, "peer", f->peer);
	gd_json_add_str(o, "device", f->device); /* ofi: the libfabric domain */
	if (gd_fabric_traits_of(r->p->fab.fabric)->port) { /* a port's: left out under libfabric */
		gd_json_add_int(o, "port", f->port);
		gd_json_add_str(o, "link_layer", f->roce ? "Ethernet" : "InfiniBand");
		gd_json_add_int(o, "mtu_bytes", f->mtu);
		if (f->av_sl >= 0) /* QP 1's address vector, read back from the device */
			gd_json_add_int(o, "av_sl", f->av_sl);
		if (f->av_tclass >= 0)
			gd_json_add_int(o, "av_traffic_class", f->av_tclass);
	}
	gd_json_add_str(o, "placement", f->placement);
	gd_json_add_int(o, "gid_index", f->gid_index);
	if (f->gid_index >= 0) {
		gd_json_add_str(o, "gid", f->gid);
		gd_json_add_str(o, "gid_type", f->gid_type);
		gd_json_add_str(o, "gid_netdev", f->gid_netdev);
		gd_json_add_str(o, "gid_choice", f->gid_choice);
	}
	gd_json_add_str(o, "memory", f->memory);
	if (r->buf && r->buf->ops->json)
		r->buf->ops->json(r->buf, o); /* "gpu": index, name, pci, path_class, registration */
	gd_fabric_opts_to_json(&r->p->fab, o);
	gd_init_opts_to_json(&r->p->init, r->ini ? r->ini->producer : GD_HOST_PRODUCER_LABEL,
			     r->p->num_qps, o);
	if (r->ini && r->ini->nic)
		ibgda_json(r->ini, o);
	if (r->ini && r->ini->producer_kind) {
		gd_json_add_str(o, "producer_kind", r->ini->producer_kind);
		gd_json_add_str(o, "producer_reason", r->ini->producer_why);
	}
	/* "params": every parameter, and the values the engine clamped (it was
	 * nested twice, "params": {"params": ...}, before) */
	gd_bench_params_to_json(r->p, o);
	if (!json_object_object_get_ex(o, "params", &params))
		return o;
	gd_json_add_int(params, "tx_depth_effective", f->tx_depth);
	gd_json_add_int(params, "cq_mod_effective", f->cq_mod);
	gd_json_add_int(params, "max_inline_effective", f->max_inline);
	gd_json_add_int(params, "out_reads_effective", f->out_reads);
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
	if (r->issue_rate > 0) {
		gd_json_add_double(o, "issue_rate_mpps", r->issue_rate / 1e6);
		gd_json_add_double(o, "completion_rate_mpps", r->completion_rate / 1e6);
	}
	if (r->windows) {
		gd_json_add_int(o, "windows", r->windows);
		gd_json_add_double(o, "ci95_rel", r->ci95_rel);
		gd_json_add_bool(o, "converged", r->converged);
		gd_json_add_double(o, "epsilon_rel", r->epsilon);
	}
	return o;
}

/* The reported numbers of a size as one gd_bw_result. */
static struct gd_bw_result shown(const struct gd_bench_size_result *s)
{
	struct gd_bw_result b = s->has_local ? s->local : s->peer;

	b.size = s->size;
	b.iters = s->iters;
	b.peak_Bps = s->bw_peak_Bps;
	b.avg_Bps = s->bw_avg_Bps;
	b.msg_rate = s->msg_rate;
	b.windows = s->windows;
	b.ci95_rel = s->ci95_rel;
	b.converged = s->converged;
	b.epsilon = s->epsilon;
	return b;
}

/* trust: a finished result (the periodic lines of --run_infinitely carry none) */
static void bw_json_line(const struct gd_report *r, const struct gd_bench_size_result *s, bool trust)
{
	json_object *o = json_common(r, "bw_result");
	struct gd_bw_result sum = shown(s);
	bool both = r->p->bidirectional;

	/* a passive side (server of a write/read/atomic test) prints the
	 * numbers its client measured, as perftest */
	gd_json_add_str(o, "measured_by", r->passive ? "peer" : both ? "both" : "self");
	json_object_object_add(o, "results", bw_json(&sum));
	if (!r->passive)
		json_object_object_add(o, "local_results", bw_json(&s->local));
	if (both)
		json_object_object_add(o, "peer_results", bw_json(&s->peer));
	if (trust)
		gd_trust_to_json(&s->trust, o);
	cpu_util_json(r, s, o);
	gd_json_emit(o, r->out);
}

/* One bandwidth row under bw_title's columns. */
static void bw_cells(const struct gd_report *r, const struct gd_bw_result *b, double cpu,
		     const char *peak, int prec, double avg)
{
	struct gd_col c[GD_REPORT_COLS];
	char lab[2][32], v[GD_REPORT_COLS][48];
	const char *cell[GD_REPORT_COLS];
	size_t n = bw_cols(r, c, lab), k = 0;

	snprintf(v[k++], sizeof(v[0]), "%llu", (unsigned long long)b->size);
	snprintf(v[k++], sizeof(v[0]), "%llu", (unsigned long long)b->iters);
	snprintf(v[k++], sizeof(v[0]), "%s", peak);
	snprintf(v[k++], sizeof(v[0]), "%.*f", prec, avg);
	snprintf(v[k++], sizeof(v[0]), "%.6f", b->msg_rate / 1e6);
	if (r->adaptive && b->windows >= 2)
		snprintf(v[k++], sizeof(v[0]), "%.2f%s", b->ci95_rel * 100,
			 b->converged ? "" : " (cap)");
	else if (r->adaptive)
		snprintf(v[k++], sizeof(v[0]), "-");
	if (r->p->roce.cpu_util)
		snprintf(v[k++], sizeof(v[0]), cpu >= 0 ? "%.2f" : "-", cpu);
	for (size_t i = 0; i < n; i++)
		cell[i] = v[i];
	gd_cols_row(r->out, c, n, cell);
}

/* cpu: --cpu_util's percent, < 0 none */
static void bw_text_line(const struct gd_report *r, const struct gd_bw_result *b, double cpu)
{
	double avg = gd_report_bw_value(r->p, b->avg_Bps);
	/* one format per column for the whole run (newcomer 24: 0.000293 and 0.12 in one
	 * column): Gb/s with 6 decimals (a small message's Gb/s on a slow link is below
	 * 0.01), MiB/s with 2, as perftest */
	int prec = r->p->report_gbits ? 6 : 2;
	char peak[32] = "-"; /* not measured (-D, adaptive sizes, -N): "-", never 0.00 */

	if (b->peak_Bps > 0)
		snprintf(peak, sizeof(peak), "%.*f", prec, gd_report_bw_value(r->p, b->peak_Bps));

	switch (r->p->output) {
	case GD_OUTPUT_BANDWIDTH:
		fprintf(r->out, "%f\n", avg);
		return;
	case GD_OUTPUT_MSG_RATE:
		fprintf(r->out, "%f\n", b->msg_rate / 1e6);
		return;
	default:
		break;
	}
	bw_cells(r, b, cpu, peak, prec, avg);
	fflush(r->out);
}

void gd_report_bw(const struct gd_report *r, const struct gd_bench_size_result *s)
{
	struct gd_bw_result b;

	if (!r->out)
		return;
	if (r->p->json) {
		bw_json_line(r, s, true);
		return;
	}
	b = shown(s);
	bw_text_line(r, &b, s->cpu_util_pct);
	trust_line(r, &s->trust);
	if (b.issue_rate > 0 && r->p->output == GD_OUTPUT_FULL)
		fprintf(r->out, " # issue rate %.4g Mreq/s, completion rate %.4g Mreq/s (%llu B per "
			"message, %llu messages, producer %s)\n", b.issue_rate / 1e6,
			b.completion_rate / 1e6, (unsigned long long)b.size,
			(unsigned long long)b.iters, r->ini && r->ini->producer_kind ?
			r->ini->producer_kind : "host");
}

void gd_report_bw_interval(const struct gd_report *r, const struct gd_bw_result *res)
{
	if (!r->out)
		return;
	if (r->p->json) {
		struct gd_bench_size_result s;

		memset(&s, 0, sizeof(s));
		s.size = res->size;
		s.iters = res->iters;
		s.bw_avg_Bps = res->avg_Bps;
		s.msg_rate = res->msg_rate;
		s.has_local = true;
		s.local = *res;
		bw_json_line(r, &s, false);
		return;
	}
	bw_text_line(r, res, -1);
}

static void histogram(const struct gd_report *r, const double *s, size_t n)
{
	fprintf(r->out, "#, %s\n", lat_unit(r));
	for (size_t i = 0; i < n; i++)
		fprintf(r->out, "%zu, %.3f\n", i + 1, r->p->report_cycles ? s[i] * 1000 : s[i]);
}

static void lat_json(const struct gd_report *r, const struct gd_bench_size_result *s)
{
	const struct gd_lat_stats *st = &s->lat;
	json_object *o = json_common(r, "lat_result");
	json_object *j = json_object_new_object();

	gd_json_add_u64(j, "size_bytes", s->size);
	gd_json_add_u64(j, "iterations", s->iters);
	gd_json_add_u64(j, "samples", st->n);
	gd_json_add_double(j, "t_min_usec", st->min);
	gd_json_add_double(j, "t_max_usec", st->max);
	gd_json_add_double(j, "t_typical_usec", st->typical);
	gd_json_add_double(j, "t_avg_usec", st->avg);
	gd_json_add_double(j, "t_stdev_usec", st->stdev);
	for (int q = 0; q < GD_PCT_COUNT; q++) {
		char key[32];

		snprintf(key, sizeof(key), "p%s_usec", gd_pct_label(q));
		for (char *c = key; *c; c++)
			if (*c == '.')
				*c = '_';
		gd_json_add_double(j, key, st->pct[q]);
		if (st->at_max & (1u << q)) {
			strcat(key, "_is_max");
			gd_json_add_bool(j, key, 1);
		}
	}
	json_object_object_add(o, "results", j);
	gd_trust_to_json(&s->trust, o);
	cpu_util_json(r, s, o);
	gd_json_emit(o, r->out);
}

static void lat_text(const struct gd_report *r, const struct gd_bench_size_result *s)
{
	const struct gd_lat_stats *st = &s->lat;
	double k = r->p->report_cycles ? 1000.0 : 1.0; /* -C: nanoseconds */
	bool pingpong = r->p->op == GD_OP_WRITE || r->p->op == GD_OP_SEND;
	struct gd_col c[GD_REPORT_COLS];
	char lab[7][32], v[GD_REPORT_COLS][48];
	const char *cell[GD_REPORT_COLS];
	size_t n = lat_cols(r, c, lab), i = 0;

	snprintf(v[i++], sizeof(v[0]), "%llu", (unsigned long long)s->size);
	if (r->p->duration_s) {
		double tps = st->avg > 0 ? 1e6 / (st->avg * (pingpong ? 2 : 1)) : 0;

		snprintf(v[i++], sizeof(v[0]), "%llu", (unsigned long long)st->n);
		snprintf(v[i++], sizeof(v[0]), "%.2f", st->avg * k);
		snprintf(v[i++], sizeof(v[0]), "%.2f", tps);
		if (r->p->roce.cpu_util)
			snprintf(v[i++], sizeof(v[0]), s->cpu_util_pct >= 0 ? "%.2f" : "-",
				 s->cpu_util_pct);
	} else {
		const double x[] = { st->min, st->max, st->typical, st->avg, st->stdev,
				     st->pct[GD_P99], st->pct[GD_P999] };

		snprintf(v[i++], sizeof(v[0]), "%llu", (unsigned long long)s->iters);
		for (size_t j = 0; j < 7; j++)
			snprintf(v[i++], sizeof(v[0]), "%.2f", x[j] * k);
	}
	for (i = 0; i < n; i++)
		cell[i] = v[i];
	gd_cols_row(r->out, c, n, cell);
}

void gd_report_lat(const struct gd_report *r, const struct gd_bench_size_result *s,
		   const double *sorted, const double *unsorted, size_t n)
{
	if (!r->out || !s->has_lat) /* the passive side of a read/atomic test: the client reports */
		return;
	if (r->p->json) {
		lat_json(r, s);
		return;
	}
	if (r->p->output != GD_OUTPUT_FULL) { /* perftest prints the average latency */
		fprintf(r->out, "%f\n", s->lat.avg * (r->p->report_cycles ? 1000.0 : 1.0));
		return;
	}
	lat_text(r, s);
	trust_line(r, &s->trust);
	if (r->p->unsorted && unsorted)
		histogram(r, unsorted, n);
	else if (r->p->histogram)
		histogram(r, sorted, n);
	fflush(r->out);
}
