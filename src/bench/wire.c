/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "wire.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "gd.h"
#include "version.h"

/* ---- cursors ---------------------------------------------------------- */

struct wbuf {
	uint8_t *p;
	size_t len, cap;
	bool overflow;
};

static void put_bytes(struct wbuf *w, const void *src, size_t n)
{
	if (w->overflow || w->cap - w->len < n) {
		w->overflow = true;
		return;
	}
	memcpy(w->p + w->len, src, n);
	w->len += n;
}

static void put_be(struct wbuf *w, uint64_t v, unsigned bytes)
{
	uint8_t b[8];

	for (unsigned i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
	put_bytes(w, b, bytes);
}

static void put_u8(struct wbuf *w, uint8_t v) { put_be(w, v, 1); }
static void put_u16(struct wbuf *w, uint16_t v) { put_be(w, v, 2); }
static void put_u32(struct wbuf *w, uint32_t v) { put_be(w, v, 4); }
static void put_u64(struct wbuf *w, uint64_t v) { put_be(w, v, 8); }

static void put_double(struct wbuf *w, double d)
{
	uint64_t bits;

	memcpy(&bits, &d, sizeof(bits)); /* IEEE-754 binary64 on every supported host */
	put_u64(w, bits);
}

static int put_str(struct wbuf *w, const char *s, size_t max)
{
	size_t n = strnlen(s, max + 1);

	if (n > max)
		return -EINVAL;
	put_u16(w, (uint16_t)n);
	put_bytes(w, s, n);
	return 0;
}

struct rbuf {
	const uint8_t *p;
	size_t len, off;
	char *err;
	size_t errlen;
	int ret; /* first error */
};

static void rfail(struct rbuf *r, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void rfail(struct rbuf *r, int code, const char *fmt, ...)
{
	va_list ap;

	if (r->ret)
		return;
	r->ret = code;
	if (r->err && r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err, r->errlen, fmt, ap);
		va_end(ap);
	}
}

static uint64_t get_be(struct rbuf *r, unsigned bytes, const char *what)
{
	uint64_t v = 0;

	if (r->ret)
		return 0;
	if (r->len - r->off < bytes) {
		rfail(r, -EBADMSG, "payload too short: %zu bytes end before %s", r->len, what);
		return 0;
	}
	for (unsigned i = 0; i < bytes; i++)
		v = (v << 8) | r->p[r->off + i];
	r->off += bytes;
	return v;
}

static uint8_t get_u8(struct rbuf *r, const char *what) { return (uint8_t)get_be(r, 1, what); }
static uint16_t get_u16(struct rbuf *r, const char *what) { return (uint16_t)get_be(r, 2, what); }
static uint32_t get_u32(struct rbuf *r, const char *what) { return (uint32_t)get_be(r, 4, what); }
static uint64_t get_u64(struct rbuf *r, const char *what) { return get_be(r, 8, what); }

static double get_double(struct rbuf *r, const char *what)
{
	uint64_t bits = get_u64(r, what);
	double d;

	memcpy(&d, &bits, sizeof(d));
	if (!r->ret && (!isfinite(d) || d < 0)) {
		rfail(r, -EBADMSG, "%s is not a finite non-negative number", what);
		return 0;
	}
	return d;
}

/* A string of printable ASCII, 1..max bytes (or 0.. if may_be_empty), into dst[max+1]. */
static void get_str(struct rbuf *r, char *dst, size_t max, bool may_be_empty, bool text,
		    const char *what)
{
	uint16_t n = get_u16(r, what);

	dst[0] = '\0';
	if (r->ret)
		return;
	if (n > max) {
		rfail(r, -EBADMSG, "%s is %u bytes long, the limit is %zu", what, n, max);
		return;
	}
	if (!n && !may_be_empty) {
		rfail(r, -EBADMSG, "%s is empty", what);
		return;
	}
	if (r->len - r->off < n) {
		rfail(r, -EBADMSG, "payload too short: %s announces %u bytes, %zu left", what, n,
		      r->len - r->off);
		return;
	}
	for (uint16_t i = 0; i < n; i++) {
		uint8_t c = r->p[r->off + i];
		bool ok = (c >= 0x20 && c < 0x7f) || (text && (c == '\n' || c == '\t'));

		if (!ok) {
			rfail(r, -EBADMSG, "%s holds a non-printable byte 0x%02x at offset %u", what, c, i);
			return;
		}
	}
	memcpy(dst, r->p + r->off, n);
	dst[n] = '\0';
	r->off += n;
}

static void range(struct rbuf *r, uint64_t v, uint64_t min, uint64_t max, const char *what)
{
	if (!r->ret && (v < min || v > max))
		rfail(r, -EBADMSG, "%s %" PRIu64 " is out of range %" PRIu64 "..%" PRIu64, what, v, min, max);
}

static bool valid_mtu(uint32_t mtu, bool zero_ok)
{
	if (!mtu)
		return zero_ok;
	return mtu >= 256 && mtu <= 4096 && !(mtu & (mtu - 1));
}

/* ---- names ------------------------------------------------------------ */

const char *gd_wire_type_name(unsigned type)
{
	static const char *const n[] = { NULL, "HELLO", "CONN", "READY", "RESULTS", "ERROR", "BYE" };

	return type < GD_ARRAY_SIZE(n) && n[type] ? n[type] : "unknown";
}

/* ---- HELLO ------------------------------------------------------------ */

enum hello_flags {
	HF_BIDIR = 1 << 0,
	HF_WRITE_IMM = 1 << 1,
	HF_SEND_IMM = 1 << 2,
	HF_ALL_SIZES = 1 << 3,
	HF_INFINITE = 1 << 4,
	HF_VALIDATE = 1 << 5,
	HF_WARM_UP = 1 << 6,
	HF_IPV6 = 1 << 7,
};

void gd_wire_hello_from_params(struct gd_wire_hello *h, const struct gd_bench_params *p)
{
	const struct gd_bench_params *s = p;
	struct gd_bench_params *d = &h->params;

	memset(h, 0, sizeof(*h));
	snprintf(h->tool, sizeof(h->tool), "%s", gd_bench_tool_name(p->op, p->kind));
	snprintf(h->version, sizeof(h->version), "%s", gd_version());
	d->role = s->role;
	d->op = s->op;
	d->kind = s->kind;
	d->conn = s->conn;
	d->atomic_type = s->atomic_type;
	d->bidirectional = s->bidirectional;
	d->write_with_imm = s->write_with_imm;
	d->send_with_imm = s->send_with_imm;
	d->all_sizes = s->all_sizes;
	d->run_infinitely = s->run_infinitely;
	d->validate = s->validate;
	d->perform_warm_up = s->perform_warm_up;
	d->ipv6 = s->ipv6;
	d->size = s->size;
	d->iters = s->iters;
	d->duration_s = s->duration_s;
	d->num_qps = s->num_qps;
	d->tx_depth = s->tx_depth;
	d->rx_depth = s->rx_depth;
	d->mtu = s->mtu;
	d->init.initiator = s->init.initiator;
	d->fab.fabric = s->fab.fabric;
	d->fab.ep = s->fab.ep;
	snprintf(d->fab.provider, sizeof(d->fab.provider), "%s", s->fab.provider);
}

static int encode_hello(struct wbuf *w, const struct gd_wire_hello *h)
{
	const struct gd_bench_params *p = &h->params;
	uint8_t flags = (p->bidirectional ? HF_BIDIR : 0) | (p->write_with_imm ? HF_WRITE_IMM : 0) |
			(p->send_with_imm ? HF_SEND_IMM : 0) | (p->all_sizes ? HF_ALL_SIZES : 0) |
			(p->run_infinitely ? HF_INFINITE : 0) | (p->validate ? HF_VALIDATE : 0) |
			(p->perform_warm_up ? HF_WARM_UP : 0) | (p->ipv6 ? HF_IPV6 : 0);

	if ((unsigned)p->role >= GD_ROLE_COUNT || (unsigned)p->op >= GD_OP_COUNT ||
	    (unsigned)p->kind >= GD_KIND_COUNT || (unsigned)p->conn >= GD_CONN_COUNT ||
	    (unsigned)p->atomic_type >= GD_ATOMIC_COUNT)
		return -EINVAL;
	if (put_str(w, h->tool, GD_WIRE_TOOL_MAX - 1) || put_str(w, h->version, GD_WIRE_VERSION_STR_MAX - 1))
		return -EINVAL;
	put_u8(w, (uint8_t)p->role);
	put_u8(w, (uint8_t)p->op);
	put_u8(w, (uint8_t)p->kind);
	put_u8(w, (uint8_t)p->conn);
	put_u8(w, (uint8_t)p->atomic_type);
	put_u8(w, flags);
	put_u64(w, p->size);
	put_u64(w, p->iters);
	put_u32(w, p->duration_s);
	put_u32(w, p->num_qps);
	put_u32(w, p->tx_depth);
	put_u32(w, p->rx_depth);
	put_u32(w, p->mtu);
	put_u8(w, (uint8_t)p->init.initiator);
	put_u8(w, (uint8_t)p->fab.fabric);
	put_u8(w, (uint8_t)p->fab.ep);
	return put_str(w, p->fab.provider, GD_FABRIC_PROV_MAX - 1) ? -EINVAL : 0;
}

static void decode_hello(struct rbuf *r, struct gd_wire_hello *h)
{
	struct gd_bench_params *p = &h->params;
	uint8_t v, flags;

	memset(h, 0, sizeof(*h));
	get_str(r, h->tool, GD_WIRE_TOOL_MAX - 1, false, false, "HELLO tool name");
	get_str(r, h->version, GD_WIRE_VERSION_STR_MAX - 1, false, false, "HELLO version");
	v = get_u8(r, "HELLO role");
	range(r, v, 0, GD_ROLE_COUNT - 1, "HELLO role");
	p->role = (enum gd_bench_role)v;
	v = get_u8(r, "HELLO operation");
	range(r, v, 0, GD_OP_COUNT - 1, "HELLO operation");
	p->op = (enum gd_bench_op)v;
	v = get_u8(r, "HELLO test kind");
	range(r, v, 0, GD_KIND_COUNT - 1, "HELLO test kind");
	p->kind = (enum gd_bench_kind)v;
	v = get_u8(r, "HELLO connection method");
	range(r, v, 0, GD_CONN_COUNT - 1, "HELLO connection method");
	p->conn = (enum gd_conn_method)v;
	v = get_u8(r, "HELLO atomic type");
	range(r, v, 0, GD_ATOMIC_COUNT - 1, "HELLO atomic type");
	p->atomic_type = (enum gd_atomic_type)v;
	flags = get_u8(r, "HELLO flags");
	p->bidirectional = flags & HF_BIDIR;
	p->write_with_imm = flags & HF_WRITE_IMM;
	p->send_with_imm = flags & HF_SEND_IMM;
	p->all_sizes = flags & HF_ALL_SIZES;
	p->run_infinitely = flags & HF_INFINITE;
	p->validate = flags & HF_VALIDATE;
	p->perform_warm_up = flags & HF_WARM_UP;
	p->ipv6 = flags & HF_IPV6;
	p->size = get_u64(r, "HELLO message size");
	range(r, p->size, 1, UINT32_MAX / 2, "HELLO message size");
	p->iters = get_u64(r, "HELLO iterations");
	range(r, p->iters, 1, UINT32_MAX, "HELLO iterations");
	p->duration_s = get_u32(r, "HELLO duration");
	p->num_qps = get_u32(r, "HELLO number of QPs");
	range(r, p->num_qps, 1, GD_WIRE_MAX_QPS, "HELLO number of QPs");
	p->tx_depth = get_u32(r, "HELLO tx depth");
	range(r, p->tx_depth, 1, 15000, "HELLO tx depth");
	p->rx_depth = get_u32(r, "HELLO rx depth");
	range(r, p->rx_depth, 1, 16384, "HELLO rx depth");
	p->mtu = get_u32(r, "HELLO MTU");
	if (!r->ret && !valid_mtu(p->mtu, true))
		rfail(r, -EBADMSG, "HELLO MTU %u is not 0, 256, 512, 1024, 2048 or 4096", p->mtu);
	v = get_u8(r, "HELLO initiator");
	range(r, v, 0, GD_INIT_COUNT - 1, "HELLO initiator");
	p->init.initiator = (enum gd_initiator)v;
	v = get_u8(r, "HELLO fabric");
	range(r, v, 0, GD_FABRIC_COUNT - 1, "HELLO fabric");
	p->fab.fabric = (enum gd_fabric_kind)v;
	v = get_u8(r, "HELLO endpoint type");
	range(r, v, 0, GD_EP_COUNT - 1, "HELLO endpoint type");
	p->fab.ep = (enum gd_ep_type)v;
	get_str(r, p->fab.provider, GD_FABRIC_PROV_MAX - 1, true, false, "HELLO provider");
}

/* ---- CONN, READY ------------------------------------------------------ */

static int encode_conn(struct wbuf *w, const struct gd_wire_conn *c)
{
	put_u32(w, c->qp_index);
	put_u32(w, c->qp_count);
	put_u16(w, c->lid);
	put_u32(w, c->qpn);
	put_u32(w, c->psn);
	put_u32(w, c->rkey);
	put_u64(w, c->vaddr);
	put_u64(w, c->buf_size);
	put_bytes(w, c->gid, sizeof(c->gid));
	put_u32(w, (uint32_t)c->gid_index);
	put_u32(w, c->out_reads);
	put_u32(w, c->mtu);
	if (c->fab_addr_len || c->fab_key) { /* the ofi fabric's endpoint address and key */
		put_u16(w, c->fab_addr_len);
		put_bytes(w, c->fab_addr, c->fab_addr_len);
		put_u64(w, c->fab_key);
	}
	return 0;
}

static void decode_conn(struct rbuf *r, struct gd_wire_conn *c)
{
	memset(c, 0, sizeof(*c));
	c->qp_index = get_u32(r, "CONN QP index");
	c->qp_count = get_u32(r, "CONN QP count");
	range(r, c->qp_count, 1, GD_WIRE_MAX_QPS, "CONN QP count");
	if (!r->ret && c->qp_index >= c->qp_count)
		rfail(r, -EBADMSG, "CONN QP index %u is not below the QP count %u", c->qp_index, c->qp_count);
	c->lid = get_u16(r, "CONN LID");
	c->qpn = get_u32(r, "CONN QP number");
	range(r, c->qpn, 1, 0xffffff, "CONN QP number");
	c->psn = get_u32(r, "CONN PSN");
	range(r, c->psn, 0, 0xffffff, "CONN PSN");
	c->rkey = get_u32(r, "CONN rkey");
	c->vaddr = get_u64(r, "CONN buffer address");
	c->buf_size = get_u64(r, "CONN buffer size");
	if (!r->ret && c->vaddr + c->buf_size < c->vaddr)
		rfail(r, -EBADMSG, "CONN buffer 0x%" PRIx64 " + %" PRIu64 " bytes wraps around", c->vaddr,
		      c->buf_size);
	if (!r->ret && r->len - r->off >= sizeof(c->gid)) {
		memcpy(c->gid, r->p + r->off, sizeof(c->gid));
		r->off += sizeof(c->gid);
	} else if (!r->ret) {
		rfail(r, -EBADMSG, "payload too short: %zu bytes end before CONN GID", r->len);
	}
	c->gid_index = (int32_t)get_u32(r, "CONN GID index");
	if (!r->ret && (c->gid_index < -1 || c->gid_index > 255))
		rfail(r, -EBADMSG, "CONN GID index %d is out of range -1..255", c->gid_index);
	c->out_reads = get_u32(r, "CONN outstanding reads");
	range(r, c->out_reads, 0, 65535, "CONN outstanding reads");
	c->mtu = get_u32(r, "CONN MTU");
	if (!r->ret && !valid_mtu(c->mtu, false))
		rfail(r, -EBADMSG, "CONN MTU %u is not 256, 512, 1024, 2048 or 4096", c->mtu);
	if (r->ret || r->off == r->len)
		return; /* verbs: no fabric address */
	c->fab_addr_len = get_u16(r, "CONN fabric address length");
	range(r, c->fab_addr_len, 1, GD_WIRE_FAB_ADDR_MAX, "CONN fabric address length");
	if (!r->ret && r->len - r->off >= c->fab_addr_len) {
		memcpy(c->fab_addr, r->p + r->off, c->fab_addr_len);
		r->off += c->fab_addr_len;
	} else if (!r->ret) {
		rfail(r, -EBADMSG, "payload too short: %zu bytes end before the CONN fabric address",
		      r->len);
	}
	c->fab_key = get_u64(r, "CONN fabric key");
}

/* ---- RESULTS ---------------------------------------------------------- */

static int encode_results(struct wbuf *w, const struct gd_wire_results *res)
{
	put_u32(w, res->status);
	if (res->kind == GD_KIND_BW) {
		const struct gd_wire_bw *b = &res->bw;

		put_u8(w, GD_KIND_BW);
		put_u64(w, b->size);
		put_u64(w, b->iters);
		put_u64(w, b->ops);
		put_double(w, b->bw_peak);
		put_double(w, b->bw_avg);
		put_double(w, b->msgrate);
	} else if (res->kind == GD_KIND_LAT) {
		const struct gd_wire_lat *l = &res->lat;

		put_u8(w, GD_KIND_LAT);
		put_u64(w, l->size);
		put_u64(w, l->n);
		put_double(w, l->min);
		put_double(w, l->max);
		put_double(w, l->typical);
		put_double(w, l->avg);
		put_double(w, l->stdev);
		put_double(w, l->p50);
		put_double(w, l->p90);
		put_double(w, l->p99);
		put_double(w, l->p999);
		put_double(w, l->p9999);
	} else {
		return -EINVAL;
	}
	return 0;
}

static void decode_results(struct rbuf *r, struct gd_wire_results *res)
{
	uint8_t kind;

	memset(res, 0, sizeof(*res));
	res->status = get_u32(r, "RESULTS status");
	range(r, res->status, 0, 3, "RESULTS status");
	kind = get_u8(r, "RESULTS kind");
	range(r, kind, 0, GD_KIND_COUNT - 1, "RESULTS kind");
	if (r->ret)
		return;
	res->kind = (enum gd_bench_kind)kind;
	if (res->kind == GD_KIND_BW) {
		struct gd_wire_bw *b = &res->bw;

		b->size = get_u64(r, "RESULTS message size");
		b->iters = get_u64(r, "RESULTS iterations");
		b->ops = get_u64(r, "RESULTS operations");
		b->bw_peak = get_double(r, "RESULTS peak bandwidth");
		b->bw_avg = get_double(r, "RESULTS average bandwidth");
		b->msgrate = get_double(r, "RESULTS message rate");
	} else {
		struct gd_wire_lat *l = &res->lat;

		l->size = get_u64(r, "RESULTS message size");
		l->n = get_u64(r, "RESULTS sample count");
		l->min = get_double(r, "RESULTS t_min");
		l->max = get_double(r, "RESULTS t_max");
		l->typical = get_double(r, "RESULTS t_typical");
		l->avg = get_double(r, "RESULTS t_avg");
		l->stdev = get_double(r, "RESULTS t_stdev");
		l->p50 = get_double(r, "RESULTS p50");
		l->p90 = get_double(r, "RESULTS p90");
		l->p99 = get_double(r, "RESULTS p99");
		l->p999 = get_double(r, "RESULTS p99.9");
		l->p9999 = get_double(r, "RESULTS p99.99");
		if (!r->ret && l->n && (l->min > l->max || l->typical < l->min || l->typical > l->max))
			rfail(r, -EBADMSG, "RESULTS latencies are inconsistent (min %g, typical %g, max %g)",
			      l->min, l->typical, l->max);
	}
}

/* ---- ERROR ------------------------------------------------------------ */

static int encode_error(struct wbuf *w, const struct gd_wire_error *e)
{
	if (e->code < 1 || e->code > 3)
		return -EINVAL;
	put_u32(w, e->code);
	return put_str(w, e->text, GD_WIRE_TEXT_MAX);
}

static void decode_error(struct rbuf *r, struct gd_wire_error *e)
{
	e->code = get_u32(r, "ERROR code");
	range(r, e->code, 1, 3, "ERROR code");
	get_str(r, e->text, GD_WIRE_TEXT_MAX, false, true, "ERROR text");
}

/* ---- messages --------------------------------------------------------- */

ssize_t gd_wire_encode(const struct gd_wire_msg *m, uint8_t *buf, size_t cap)
{
	struct wbuf w = { .p = buf, .cap = cap };
	size_t payload_len;
	int ret = 0;

	put_u32(&w, GD_WIRE_MAGIC);
	put_u16(&w, GD_WIRE_VERSION);
	put_u16(&w, (uint16_t)m->type);
	put_u32(&w, 0); /* length, patched below */
	switch (m->type) {
	case GD_MSG_HELLO:
		ret = encode_hello(&w, &m->hello);
		break;
	case GD_MSG_CONN:
		ret = encode_conn(&w, &m->conn);
		break;
	case GD_MSG_READY:
		put_u32(&w, m->ready.seq);
		break;
	case GD_MSG_RESULTS:
		ret = encode_results(&w, &m->results);
		break;
	case GD_MSG_ERROR:
		ret = encode_error(&w, &m->error);
		break;
	case GD_MSG_BYE:
		break;
	default:
		return -EINVAL;
	}
	if (ret)
		return ret;
	if (w.overflow)
		return -EMSGSIZE;
	payload_len = w.len - GD_WIRE_HDR_LEN;
	if (payload_len > GD_WIRE_MAX_PAYLOAD)
		return -EMSGSIZE;
	for (int i = 0; i < 4; i++)
		buf[8 + i] = (uint8_t)(payload_len >> (8 * (3 - i)));
	return (ssize_t)w.len;
}

/* Quote the first bytes of something that is not our protocol, for the message. */
static void quote(const uint8_t *b, size_t n, char *out, size_t outlen)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 < outlen; i++)
		o += (size_t)snprintf(out + o, outlen - o, (b[i] >= 0x20 && b[i] < 0x7f && b[i] != '"')
					  ? "%c" : "\\x%02x", b[i]);
	out[o] = '\0';
}

int gd_wire_decode_hdr(const uint8_t *buf, size_t len, struct gd_wire_hdr *h, char *err,
		       size_t errlen)
{
	struct rbuf r = { .p = buf, .len = len, .err = err, .errlen = errlen };
	char q[64];

	if (len < GD_WIRE_HDR_LEN) {
		rfail(&r, -EPROTO, "truncated header: %zu of %d bytes", len, GD_WIRE_HDR_LEN);
		return r.ret;
	}
	h->magic = get_u32(&r, "header magic");
	h->version = get_u16(&r, "header version");
	h->type = get_u16(&r, "header type");
	h->len = get_u32(&r, "header length");
	if (h->magic != GD_WIRE_MAGIC) {
		quote(buf, GD_WIRE_HDR_LEN, q, sizeof(q));
		rfail(&r, -EPROTO, "not a gdperf side-channel message (it starts with \"%s\"): is the peer "
		      "another program, e.g. perftest, or something else on this port?", q);
	} else if (h->version != GD_WIRE_VERSION) {
		rfail(&r, -EPROTO, "the peer speaks side-channel protocol version %u, this gdperf speaks "
		      "version %u: run the same gdperf release on both sides", h->version, GD_WIRE_VERSION);
	} else if (h->type == 0 || h->type >= GD_MSG_TYPE_END) {
		rfail(&r, -EPROTO, "unknown message type %u", h->type);
	} else if (h->len > GD_WIRE_MAX_PAYLOAD) {
		rfail(&r, -EPROTO, "%s message announces %u payload bytes, the limit is %u",
		      gd_wire_type_name(h->type), h->len, GD_WIRE_MAX_PAYLOAD);
	}
	return r.ret;
}

int gd_wire_decode_payload(unsigned type, const uint8_t *payload, size_t len,
			   struct gd_wire_msg *m, char *err, size_t errlen)
{
	struct rbuf r = { .p = payload, .len = len, .err = err, .errlen = errlen };

	memset(m, 0, sizeof(*m));
	m->type = (enum gd_wire_type)type;
	switch (type) {
	case GD_MSG_HELLO:
		decode_hello(&r, &m->hello);
		break;
	case GD_MSG_CONN:
		decode_conn(&r, &m->conn);
		break;
	case GD_MSG_READY:
		m->ready.seq = get_u32(&r, "READY sequence number");
		break;
	case GD_MSG_RESULTS:
		decode_results(&r, &m->results);
		break;
	case GD_MSG_ERROR:
		decode_error(&r, &m->error);
		break;
	case GD_MSG_BYE:
		break;
	default:
		rfail(&r, -EPROTO, "unknown message type %u", type);
	}
	if (!r.ret && r.off != r.len)
		rfail(&r, -EBADMSG, "%s payload has %zu unexpected trailing bytes", gd_wire_type_name(type),
		      r.len - r.off);
	return r.ret;
}

int gd_wire_decode(const uint8_t *buf, size_t len, struct gd_wire_msg *m, char *err, size_t errlen)
{
	struct gd_wire_hdr h;
	int ret = gd_wire_decode_hdr(buf, len, &h, err, errlen);

	if (ret)
		return ret;
	if (len - GD_WIRE_HDR_LEN != h.len) {
		snprintf(err, errlen, "%s message announces %u payload bytes but %zu follow",
			 gd_wire_type_name(h.type), h.len, len - GD_WIRE_HDR_LEN);
		return -EBADMSG;
	}
	return gd_wire_decode_payload(h.type, buf + GD_WIRE_HDR_LEN, h.len, m, err, errlen);
}

/* ---- parameter comparison --------------------------------------------- */

struct diff {
	char *buf;
	size_t len, off;
	int count;
	const char *lrole, *rrole;
};

static void add_diff(struct diff *d, const char *what, const char *lv, const char *rv)
{
	int n;

	d->count++;
	if (!d->len || d->off >= d->len)
		return;
	n = snprintf(d->buf + d->off, d->len - d->off, "%s%s: %s %s, %s %s", d->off ? "\n" : "", what,
		     d->lrole, lv, d->rrole, rv);
	if (n < 0 || (size_t)n >= d->len - d->off) {
		/* truncated: end with "..." if it fits */
		if (d->len >= 4)
			memcpy(d->buf + d->len - 4, "...", 4);
		d->off = d->len;
		return;
	}
	d->off += (size_t)n;
}

static void diff_u64(struct diff *d, const char *what, uint64_t l, uint64_t r)
{
	char a[24], b[24];

	if (l == r)
		return;
	snprintf(a, sizeof(a), "%" PRIu64, l);
	snprintf(b, sizeof(b), "%" PRIu64, r);
	add_diff(d, what, a, b);
}

static void diff_bool(struct diff *d, const char *what, bool l, bool r)
{
	if (l != r)
		add_diff(d, what, l ? "on" : "off", r ? "on" : "off");
}

static void diff_str(struct diff *d, const char *what, const char *l, const char *r)
{
	if (strcmp(l, r))
		add_diff(d, what, l, r);
}

int gd_params_diff(const struct gd_bench_params *l, const struct gd_bench_params *r, char *buf,
		   size_t len)
{
	bool same_role = l->role == r->role;
	struct diff d = { .buf = buf, .len = len,
			  .lrole = same_role ? "local" : gd_bench_role_name(l->role),
			  .rrole = same_role ? "remote" : gd_bench_role_name(r->role) };
	bool timed = l->duration_s || r->duration_s || l->run_infinitely || r->run_infinitely;

	if (len)
		buf[0] = '\0';
	if (same_role)
		add_diff(&d, "role", gd_bench_role_name(l->role), gd_bench_role_name(r->role));
	diff_str(&d, "test", gd_bench_tool_name(l->op, l->kind), gd_bench_tool_name(r->op, r->kind));
	diff_str(&d, "connection method (-R)", gd_conn_method_name(l->conn), gd_conn_method_name(r->conn));
	if (l->op == GD_OP_ATOMIC && r->op == GD_OP_ATOMIC)
		diff_str(&d, "atomic type (-A)", gd_atomic_type_name(l->atomic_type),
			 gd_atomic_type_name(r->atomic_type));
	diff_bool(&d, "bidirectional (-b)", l->bidirectional, r->bidirectional);
	diff_bool(&d, "--write_with_imm", l->write_with_imm, r->write_with_imm);
	diff_bool(&d, "--send_with_imm", l->send_with_imm, r->send_with_imm);
	diff_bool(&d, "all sizes (-a)", l->all_sizes, r->all_sizes);
	if (!l->all_sizes && !r->all_sizes)
		diff_u64(&d, "message size (-s)", l->size, r->size);
	diff_u64(&d, "duration in seconds (-D)", l->duration_s, r->duration_s);
	diff_bool(&d, "--run_infinitely", l->run_infinitely, r->run_infinitely);
	if (!timed)
		diff_u64(&d, "iterations (-n)", l->iters, r->iters);
	diff_u64(&d, "number of QPs (-q)", l->num_qps, r->num_qps);
	diff_u64(&d, "tx depth (-t)", l->tx_depth, r->tx_depth);
	diff_u64(&d, "rx depth (-r)", l->rx_depth, r->rx_depth);
	diff_bool(&d, "--validate", l->validate, r->validate);
	diff_bool(&d, "--perform_warm_up", l->perform_warm_up, r->perform_warm_up);
	diff_bool(&d, "IPv6 (--ipv6)", l->ipv6, r->ipv6);
	/* a latency test's passive side behaves differently (no ping-pong) */
	diff_str(&d, "fabric (--fabric)", gd_fabric_kind_name(l->fab.fabric),
		 gd_fabric_kind_name(r->fab.fabric));
	if (l->fab.fabric == GD_FABRIC_OFI && r->fab.fabric == GD_FABRIC_OFI) {
		diff_str(&d, "libfabric provider (--provider)", l->fab.provider, r->fab.provider);
		diff_str(&d, "endpoint type (--ep)", gd_ep_type_name(l->fab.ep),
			 gd_ep_type_name(r->fab.ep));
	}
	if (l->kind == GD_KIND_LAT && r->kind == GD_KIND_LAT)
		diff_str(&d, "initiator (--initiator)", gd_initiator_name(l->init.initiator),
			 gd_initiator_name(r->init.initiator));
	return d.count;
}
