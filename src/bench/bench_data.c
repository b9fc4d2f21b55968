/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The payload pattern and --validate, driven by the per-op table: where the
 * pattern is written before the run (the initiator's source for write and
 * send, the target's region for read), where it is compared after (the
 * target or receiver for write and send, the initiator for read), and the
 * atomic counters (their sum must equal the operations the peer completed).
 */
#include <errno.h>

#include "bench_int.h"
#include "gd.h"
#include "log.h"

static size_t off_of(struct gd_bench *b, const uint8_t *at)
{
	return (size_t)(at - (uint8_t *)b->buf.addr);
}

/* Do I hold the data of `where` for this test? */
static bool mine(const struct gd_bench *b, enum gd_op_data where)
{
	const struct gd_mem_roles *r = &b->plan.roles;

	switch (where) {
	case GD_DATA_INITIATOR:
		return r->initiator;
	case GD_DATA_TARGET:
		return r->target || r->receiver;
	default:
		return false;
	}
}

int gd_bench_fill(struct gd_bench *b)
{
	const struct gd_op_desc *d = b->plan.op;

	/* memory the CPU cannot touch is filled only when it is checked */
	if (!b->buf.ops->host_visible && !b->p.validate)
		return 0;
	if (!mine(b, d->fill))
		return 0;
	for (uint32_t i = 0; i < b->p.num_qps; i++) {
		uint8_t *at = d->fill == GD_DATA_TARGET ? gd_bench_target(b, i) : gd_bench_local(b, i);
		int ret = gd_buf_fill(&b->buf, off_of(b, at), b->plan.slot, 0);

		if (ret)
			return ret;
	}
	return 0;
}

static int bad_byte(struct gd_bench *b, uint32_t i, size_t off, size_t bad)
{
	uint8_t got = 0; /* through gd_buf_read: the buffer may be GPU memory */

	gd_buf_read(&b->buf, off + bad, &got, 1);
	gd_error("validation failed: QP %u, first bad byte at offset %zu of the %s buffer: got "
		 "0x%02x, expected 0x%02x", i, bad, b->plan.op->check == GD_DATA_INITIATOR ?
		 "read" : "received", got, gd_pattern_byte(bad));
	return -EBADMSG;
}

/* The bytes of QP i's region to compare: len, or what an initiator that lays
 * out its messages itself says its last size wrote there (loop.h written). */
static size_t written_by(struct gd_bench *b, uint32_t i, size_t len)
{
	const struct gd_loop_ops *ops = b->plan.loop_ops;
	uint64_t n;

	if (b->ini_state && ops->written && ops->written(b->ini_state, i, &n))
		return (size_t)n;
	return len;
}

static int check_payload(struct gd_bench *b, uint64_t last_size, uint64_t *checked)
{
	const struct gd_op_desc *d = b->plan.op;
	const struct gd_bench_params *p = &b->p;
	/* write latency: the last byte carries the ping-pong counter */
	bool counter_byte = p->kind == GD_KIND_LAT && d->check == GD_DATA_TARGET && d->remote &&
			    !b->plan.alt;
	size_t len = counter_byte ? last_size - 1 : last_size;

	if (!mine(b, d->check))
		return 0;
	/* write_with_imm: a receiver that is not a target holds no data */
	if (d->check == GD_DATA_TARGET && d->remote && !b->plan.roles.target)
		return 0;
	for (uint32_t i = 0; i < p->num_qps; i++) {
		uint8_t *at = d->check == GD_DATA_TARGET ? gd_bench_target(b, i) : gd_bench_local(b, i);
		size_t bad = 0, off = off_of(b, at), n = written_by(b, i, len);
		int ret = n ? gd_buf_verify(&b->buf, off, n, 0, &bad) : 0;

		if (ret == -EBADMSG)
			return bad_byte(b, i, off, bad);
		if (ret)
			return ret;
		*checked += n;
	}
	return 0;
}

/* The words the peer's atomics hit: one, or every GD_CYCLE_STEP of the
 * cycle when it rotated; the others stay 0. */
static int check_counters(struct gd_bench *b, uint64_t peer_ops, uint64_t *checked)
{
	uint64_t sum = 0;

	if (!b->plan.roles.target)
		return 0;
	*checked = peer_ops;
	for (uint32_t i = 0; i < b->p.num_qps; i++) {
		size_t base = off_of(b, gd_bench_target(b, i));

		for (size_t w = 0; w + 8 <= GD_CYCLE_BYTES && w + 8 <= b->plan.slot;
		     w += GD_CYCLE_STEP) {
			uint64_t v = 0;
			int ret = gd_buf_get_u64(&b->buf, base + w, &v);

			if (ret)
				return ret;
			sum += v;
		}
	}
	if (sum != peer_ops) {
		gd_error("validation failed: the atomic counters hold %llu but the peer completed "
			 "%llu %s operations (the target buffer's words, every %d bytes of its first "
			 "%d)", (unsigned long long)sum, (unsigned long long)peer_ops,
			 gd_atomic_type_name(b->p.atomic_type), GD_CYCLE_STEP, GD_CYCLE_BYTES);
		return -EBADMSG;
	}
	return 0;
}

int gd_bench_validate(struct gd_bench *b, uint64_t last_size, uint64_t peer_ops,
		      uint64_t *checked, bool *atomics)
{
	int ret;

	*checked = 0;
	*atomics = b->plan.op->check_counter;
	ret = *atomics ? check_counters(b, peer_ops, checked) :
			 check_payload(b, last_size, checked);
	if (ret)
		*checked = 0;
	return ret;
}
