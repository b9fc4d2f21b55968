/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The proxy ring's 32-byte descriptor: encoder, decoder, lap bits, limits. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "desc.h"
#include "bench_params.h"
#include "init_opts.h"
#include "initiator.h"
#include "ring.h"

static struct gd_req req(uint32_t op, uint32_t ch, uint64_t size, uint64_t local, uint64_t remote,
			 uint64_t cmp, uint64_t operand)
{
	struct gd_req r = { .op = op, .channel = ch, .size = size, .local = local,
			    .remote = remote, .compare = cmp, .operand = operand };
	return r;
}

static void roundtrip(const struct gd_req *in, uint64_t lap)
{
	uint64_t w[GD_DESC_WORDS] = { 0 };
	struct gd_req out;

	assert_int_equal(gd_desc_encode(in, lap, w), 0);
	for (int k = 0; k < GD_DESC_WORDS; k++)
		assert_int_equal(w[k] & 1, lap);
	assert_true(gd_desc_ready(w, lap));
	assert_false(gd_desc_ready(w, lap ^ 1));
	assert_int_equal(gd_desc_decode(w, &out), 0);
	assert_int_equal(out.op, in->op);
	assert_int_equal(out.channel, in->channel);
	assert_int_equal(out.remote, in->remote);
	assert_int_equal(out.operand, in->operand);
	if (gd_desc_is_atomic(in->op)) {
		assert_int_equal(out.size, 8);
		assert_int_equal(out.local, in->local);
		if (in->op == GD_DESC_CAS)
			assert_int_equal(out.compare, in->compare);
	} else {
		assert_int_equal(out.size, in->size);
		assert_int_equal(out.local, in->local);
	}
}

static void every_op_roundtrips(void **state)
{
	for (uint32_t op = GD_DESC_WRITE; op < GD_DESC_OP_COUNT; op++) {
		struct gd_req r = req(op, 0xabcd, 65536, 4096, 1ull << 40, 41, 42);

		roundtrip(&r, 0);
		roundtrip(&r, 1);
	}
}

static void limits_fit(void **state)
{
	struct gd_req r = req(GD_DESC_WRITE, GD_DESC_CHANNEL_MAX, GD_DESC_SIZE_MAX, GD_DESC_VAL_MAX,
			      GD_DESC_VAL_MAX, 0, GD_DESC_VAL_MAX);
	struct gd_req cas = req(GD_DESC_CAS, 7, 8, GD_DESC_SIZE_MAX, 8, GD_DESC_VAL_MAX,
				GD_DESC_VAL_MAX);

	roundtrip(&r, 1);
	roundtrip(&cas, 0);
}

static void out_of_range_refused(void **state)
{
	uint64_t w[GD_DESC_WORDS] = { 0 };
	struct gd_req r = req(GD_DESC_WRITE, 1, 8, 0, 0, 0, 0);
	struct gd_req bad;

	bad = r; bad.size = GD_DESC_SIZE_MAX + 1;
	assert_int_equal(gd_desc_encode(&bad, 0, w), -1);
	bad = r; bad.channel = GD_DESC_CHANNEL_MAX + 1;
	assert_int_equal(gd_desc_encode(&bad, 0, w), -1);
	bad = r; bad.remote = 1ull << 63;
	assert_int_equal(gd_desc_encode(&bad, 0, w), -1);
	bad = r; bad.op = GD_DESC_NOP;
	assert_int_equal(gd_desc_encode(&bad, 0, w), -1);
	bad = r; bad.op = GD_DESC_OP_COUNT;
	assert_int_equal(gd_desc_encode(&bad, 0, w), -1);
	bad = r; bad.op = GD_DESC_FADD; bad.local = GD_DESC_SIZE_MAX + 1; /* result offset: 40 bits */
	assert_int_equal(gd_desc_encode(&bad, 0, w), -1);
}

/* A slot where only some words were rewritten on the new lap is not ready. */
static void torn_slot_not_ready(void **state)
{
	struct gd_req r = req(GD_DESC_READ, 3, 100, 1, 2, 0, 0);
	uint64_t old[GD_DESC_WORDS], neu[GD_DESC_WORDS], mix[GD_DESC_WORDS];

	assert_int_equal(gd_desc_encode(&r, 1, old), 0);
	assert_int_equal(gd_desc_encode(&r, 0, neu), 0);
	for (int k = 0; k < GD_DESC_WORDS; k++) {
		memcpy(mix, old, sizeof(mix));
		mix[k] = neu[k];
		assert_false(gd_desc_ready(mix, 0));
		assert_false(gd_desc_ready(mix, 1));
	}
	/* a zeroed ring is empty on the first lap */
	memset(mix, 0, sizeof(mix));
	assert_int_equal(gd_desc_lap(0, 4), 1);
	assert_false(gd_desc_ready(mix, gd_desc_lap(0, 4)));
}

static void lap_flips_each_ring_lap(void **state)
{
	assert_int_equal(gd_desc_lap(0, 3), 1);
	assert_int_equal(gd_desc_lap(7, 3), 1);
	assert_int_equal(gd_desc_lap(8, 3), 0);
	assert_int_equal(gd_desc_lap(15, 3), 0);
	assert_int_equal(gd_desc_lap(16, 3), 1);
}

static void invalid_op_decodes_as_error(void **state)
{
	uint64_t w[GD_DESC_WORDS] = { 1 | (0xfull << 1), 1, 1, 1 };
	struct gd_req out;

	assert_int_equal(gd_desc_decode(w, &out), -1);
	w[0] = 1; /* NOP */
	assert_int_equal(gd_desc_decode(w, &out), -1);
}

static void error_word_fields(void **state)
{
	uint64_t e = gd_err_make(GD_ERR_COMPLETION, 12, GD_DESC_CAS, 5, 0x123456);

	assert_true(e >> 63);
	assert_int_equal(gd_err_kind(e), GD_ERR_COMPLETION);
	assert_int_equal(gd_err_status(e), 12);
	assert_int_equal(gd_err_op(e), GD_DESC_CAS);
	assert_int_equal(gd_err_qp_index(e), 5);
	assert_int_equal(gd_err_qp_num(e), 0x123456);
}

/* The warp-coalesced write order stores every word of 32 descriptors exactly
 * once, 8 whole slots per round, and leaves the same ring as gd_ring_put. */
static void warp_coalesced_order(void **state)
{
	uint64_t a[64 * GD_DESC_WORDS] = { 0 }, b[64 * GD_DESC_WORDS] = { 0 }, head = 0;
	uint64_t w[32][GD_DESC_WORDS];
	struct gd_ring_view ra = { .slots = a, .head = &head, .log2 = 6 };
	struct gd_ring_view rb = { .slots = b, .head = &head, .log2 = 6 };
	uint64_t idx = 64 * 3 + 50; /* wraps around the end of the ring */

	for (uint32_t s = 0; s < 32; s++) {
		struct gd_req r = req(GD_DESC_WRITE, s, 100 + s, s * 64, s * 128, 0, s);

		assert_int_equal(gd_desc_encode(&r, 0, w[s]), 0);
		gd_ring_put(&ra, idx + s, w[s]);
	}
	for (uint32_t j = 0; j < GD_DESC_WORDS; j++) {
		uint64_t first = 0;

		for (uint32_t lane = 0; lane < 32; lane++) {
			uint32_t s, k;
			uint64_t *p;

			gd_ring_warp_word(j, lane, &s, &k);
			assert_true(s >= j * 8 && s < j * 8 + 8);
			p = gd_ring_word(&rb, idx + s, k);
			assert_int_equal(*p, 0); /* each word once */
			*p = (w[s][k] & ~1ull) | gd_desc_lap(idx + s, rb.log2);
			if (lane == 0)
				first = (uint64_t)(p - b);
			else if (!((idx + s) & 63) && k == 0)
				first = (uint64_t)(p - b) - lane; /* the wrap restarts the run */
			assert_int_equal((uint64_t)(p - b), first + lane); /* contiguous */
		}
	}
	assert_memory_equal(a, b, sizeof(a));
}

static void options_parse_and_check(void **state)
{
	struct gd_bench_params bp = { 0 };
	struct gd_init_opts *const op = &bp.init;

	gd_init_opts_defaults(op);
	assert_int_equal(gd_init_opts_check(op), 0);
	assert_int_equal(gd_init_opts_handle(&bp, GD_INIT_OPT_BASE, "ibgda-cpudb"), 0);
	assert_int_equal(op->initiator, GD_INIT_IBGDA_CPUDB);
	assert_int_equal(gd_init_opts_handle(&bp, GD_INIT_OPT_BASE, "gpu"), -EINVAL);
	assert_int_equal(gd_init_opts_handle(&bp, GD_INIT_OPT_BASE + 5, "1000"), -EINVAL);
	assert_int_equal(gd_init_opts_handle(&bp, 12345, "x"), 1);
	gd_init_opts_defaults(op);
	assert_int_equal(gd_init_opts_handle(&bp, GD_INIT_OPT_BASE + 2, "48"), 0); /* --threads */
	assert_int_equal(gd_init_opts_check(op), -EINVAL); /* cpu with a shape option */
	op->initiator = GD_INIT_PROXY;
	op->scope = GD_SCOPE_THREAD;
	assert_int_equal(gd_init_opts_check(op), -EINVAL); /* no initiator table handed over */
	gd_initiator_tool_prologue();
	op->scope = GD_SCOPE_WARP;
	assert_int_equal(gd_init_opts_check(op), -EINVAL); /* warp scope, 48 threads */
	op->scope = GD_SCOPE_THREAD;
	assert_int_equal(gd_init_opts_check(op), 0);
	assert_int_equal(gd_init_groups(op), 48);
	op->scope = GD_SCOPE_BLOCK;
	op->ring_slots = 32;
	assert_int_equal(gd_init_opts_check(op), -EINVAL); /* a block of 48 > 32 slots */
}

/* --ibgda_nic (GD_INIT_OPT_BASE + 9): the option, its environment default
 * (the tools' parser calls gd_init_opts_env_default), the header and JSON. */
static void ibgda_nic_option(void **state)
{
	struct gd_bench_params bp = { 0 };
	struct gd_init_opts *const op = &bp.init;
	struct json_object *j = json_object_new_object(), *v;
	char hdr[256];

	(void)state;
	gd_initiator_tool_prologue();
	gd_init_opts_defaults(op);
	assert_int_equal(op->ibgda_nic, GD_IBGDA_NIC_DEVX);
	assert_int_equal(gd_init_opts_handle(&bp, GD_INIT_OPT_BASE + 9, "cx9"), -EINVAL);
	assert_int_equal(gd_init_opts_handle(&bp, GD_INIT_OPT_BASE + 9, "software-test-double"), 0);
	assert_int_equal(op->ibgda_nic, GD_IBGDA_NIC_SWNIC);
	assert_int_equal(gd_init_opts_check(op), -EINVAL); /* --ibgda_nic with the CPU initiator */
	op->initiator = GD_INIT_IBGDA;
	assert_int_equal(gd_init_opts_check(op), 0);
	gd_init_opts_set_nic_default("devx", "GDPERF_IBGDA_NIC");
	assert_int_equal(gd_init_opts_env_default(op), 0);
	assert_int_equal(op->ibgda_nic, GD_IBGDA_NIC_SWNIC); /* the option wins */
	assert_true(gd_init_opts_header(op, "GPU", 1, hdr, sizeof(hdr)));
	assert_non_null(strstr(hdr, ", NIC software-test-double"));
	gd_init_opts_to_json(op, "GPU", 1, j);
	assert_true(json_object_object_get_ex(j, "ibgda_nic", &v));
	assert_string_equal(json_object_get_string(v), "software-test-double");
	json_object_put(j);

	gd_init_opts_defaults(op);
	op->initiator = GD_INIT_IBGDA_CPUDB;
	gd_init_opts_set_nic_default("software-test-double", "GDPERF_IBGDA_NIC");
	assert_int_equal(gd_init_opts_env_default(op), 0); /* the environment's default */
	assert_int_equal(op->ibgda_nic, GD_IBGDA_NIC_SWNIC);
	gd_init_opts_set_nic_default("cx9", "GDPERF_IBGDA_NIC");
	assert_int_equal(gd_init_opts_env_default(op), -EINVAL);
	op->initiator = GD_INIT_CPU;
	assert_int_equal(gd_init_opts_env_default(op), 0); /* read for IBGDA only */
	gd_init_opts_set_nic_default(NULL, NULL);
	gd_init_opts_defaults(op);
	op->initiator = GD_INIT_IBGDA;
	assert_int_equal(gd_init_opts_env_default(op), 0);
	assert_int_equal(op->ibgda_nic, GD_IBGDA_NIC_DEVX);
	assert_true(gd_init_opts_header(op, "GPU", 1, hdr, sizeof(hdr)));
	assert_non_null(strstr(hdr, ", NIC devx"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_op_roundtrips),
		cmocka_unit_test(limits_fit),
		cmocka_unit_test(out_of_range_refused),
		cmocka_unit_test(torn_slot_not_ready),
		cmocka_unit_test(lap_flips_each_ring_lap),
		cmocka_unit_test(invalid_op_decodes_as_error),
		cmocka_unit_test(error_word_fields),
		cmocka_unit_test(warp_coalesced_order),
		cmocka_unit_test(options_parse_and_check),
		cmocka_unit_test(ibgda_nic_option),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
