/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "wire.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cuda.h" /* gd_pci_normalize */
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
	static const char *const n[] = { NULL, "HELLO", "CONN", "READY", "RESULTS", "ERROR", "BYE",
						 "ALIVE" };

	return type < GD_ARRAY_SIZE(n) && n[type] ? n[type] : "unknown";
}

/* ---- HELLO: generated from the list of matched parameters (bench_params.h) ---- */

void gd_wire_hello_from_params(struct gd_wire_hello *h, const struct gd_bench_params *p)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->tool, sizeof(h->tool), "%s", gd_bench_tool_name(p->op, p->kind));
	snprintf(h->version, sizeof(h->version), "%s", gd_version());
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];

		if (!gd_param_on_wire(d))
			continue;
		if (d->type == GD_PT_STR)
			memcpy((char *)&h->params + d->off, (const char *)p + d->off, d->len);
		else
			gd_param_put(&h->params, d, gd_param_get(p, d));
	}
}

/* The flags byte: every GD_PT_FLAG entry's bit. */
static uint8_t hello_flags(const struct gd_bench_params *p)
{
	uint8_t flags = 0;

	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];

		if (d->type == GD_PT_FLAG && gd_param_on_wire(d) && gd_param_get(p, d))
			flags |= (uint8_t)(1u << d->bit);
	}
	return flags;
}

static int encode_hello(struct wbuf *w, const struct gd_wire_hello *h)
{
	const struct gd_bench_params *p = &h->params;

	if (put_str(w, h->tool, GD_WIRE_TOOL_MAX - 1) || put_str(w, h->version, GD_WIRE_VERSION_STR_MAX - 1))
		return -EINVAL;
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];
		const char *s = (const char *)p + d->off;
		uint64_t v;

		if (!gd_param_on_wire(d))
			continue;
		if (d->type == GD_PT_STR) {
			if (strnlen(s, d->len) >= d->len || put_str(w, s, GD_MIN(d->max, d->len - 1)))
				return -EINVAL;
			continue;
		}
		if (d->type == GD_PT_FLAG) { /* one byte for all, where the first one is */
			if (d->bit == 0)
				put_u8(w, hello_flags(p));
			continue;
		}
		v = gd_param_get(p, d);
		if (!gd_param_ok(d, v)) /* a value the peer would refuse */
			return -EINVAL;
		put_be(w, v, d->wire);
	}
	return 0;
}

static void decode_param(struct rbuf *r, struct gd_bench_params *p, const struct gd_param *d)
{
	char what[64];
	uint64_t v;

	if (!gd_param_on_wire(d))
		return;
	snprintf(what, sizeof(what), "HELLO %s", d->what);
	if (d->type == GD_PT_STR) {
		get_str(r, (char *)p + d->off, GD_MIN(d->max, d->len - 1), true, false, what);
		return;
	}
	if (d->type == GD_PT_FLAG) {
		if (d->bit)
			return;
		v = get_u8(r, "HELLO flags");
		for (size_t i = 0; i < gd_matched_nparams; i++)
			if (gd_matched_params[i].type == GD_PT_FLAG &&
			    gd_param_on_wire(&gd_matched_params[i]))
				gd_param_put(p, &gd_matched_params[i], v >> gd_matched_params[i].bit & 1);
		return;
	}
	v = get_be(r, d->wire, what);
	range(r, v, d->min, d->max, what);
	if (!r->ret && d->valid && !d->valid(v))
		rfail(r, -EBADMSG, "%s %" PRIu64 " is not %s", what, v, d->form);
	gd_param_put(p, d, v);
}

/* The buffer's two fields agree (version 5): host memory names no GPU, GPU
 * memory the PCI address of one, as sysfs writes it ("0000:18:00.0"). */
static void check_buffer(struct rbuf *r, const struct gd_bench_params *p)
{
	char pci[GD_BENCH_BDF_MAX];
	bool gpu = p->buf_mem != GD_BUF_MEM_HOST;

	if (gpu != (p->buf_gpu[0] != '\0'))
		rfail(r, -EBADMSG, "HELLO buffer memory is %s but names %s GPU%s%s", gd_buf_mem_name(p->buf_mem),
		      gpu ? "no" : "a", gpu ? "" : " ", p->buf_gpu);
	else if (gpu && (gd_pci_normalize(p->buf_gpu, pci, sizeof(pci)) || strcmp(pci, p->buf_gpu)))
		rfail(r, -EBADMSG, "HELLO buffer's GPU '%s' is not a PCI address such as 0000:18:00.0",
		      p->buf_gpu);
}

static void decode_hello(struct rbuf *r, struct gd_wire_hello *h)
{
	memset(h, 0, sizeof(*h));
	get_str(r, h->tool, GD_WIRE_TOOL_MAX - 1, false, false, "HELLO tool name");
	get_str(r, h->version, GD_WIRE_VERSION_STR_MAX - 1, false, false, "HELLO version");
	for (size_t i = 0; i < gd_matched_nparams && !r->ret; i++)
		decode_param(r, &h->params, &gd_matched_params[i]);
	if (!r->ret)
		check_buffer(r, &h->params);
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
	case GD_MSG_ALIVE:
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
	case GD_MSG_ALIVE:
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

/* The value of a listed parameter as the report shows it. */
static const char *show(const struct gd_param *d, const struct gd_bench_params *p, char *buf,
			size_t len)
{
	uint64_t v;

	if (d->show)
		return d->show(p);
	if (d->type == GD_PT_STR)
		return (const char *)p + d->off;
	v = gd_param_get(p, d);
	if (d->type == GD_PT_ENUM)
		return d->name((unsigned)v);
	if (d->type == GD_PT_FLAG)
		return v ? "on" : "off";
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

int gd_params_diff(const struct gd_bench_params *l, const struct gd_bench_params *r, char *buf,
		   size_t len)
{
	bool same_role = l->role == r->role;
	struct diff d = { .buf = buf, .len = len,
			  .lrole = same_role ? "local" : gd_bench_role_name(l->role),
			  .rrole = same_role ? "remote" : gd_bench_role_name(r->role) };

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *e = &gd_matched_params[i];
		char a[GD_BENCH_HOST_MAX], b[GD_BENCH_HOST_MAX];
		const char *lv, *rv;
		bool differ;

		if (!e->label || !gd_param_on_wire(e) ||
		    (e->applies && !(e->applies(l) && e->applies(r))))
			continue;
		lv = show(e, l, a, sizeof(a));
		rv = show(e, r, b, sizeof(b));
		differ = strcmp(lv, rv) != 0;
		if (differ != !(e->flags & GD_PF_MUST_DIFFER))
			continue;
		add_diff(&d, e->label, lv, rv);
	}
	return d.count;
}
