/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for the libfabric flags of one work request (gd_ofi_post_flags,
 * fabric_ofi.c): a signalled write waits for the target's placement
 * (FI_DELIVERY_COMPLETE) unless its transmit completion already follows it;
 * on shm (placed_above: its inject size) an inline write with remote CQ data
 * is treated as a send (its target takes a completion for every write):
 * injected, no delivery acknowledgement (that acknowledgement got the next
 * inject refused until it came back); on tcp (UINT64_MAX) it stays a write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <infiniband/verbs.h>
#include <errno.h>
#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include "bench_int.h"
#include "fabric_ofi.h"
#include "gd.h"

#define SHM_INJECT 4096 /* a placed_above as shm's: its inject size */

static uint64_t flags_of(enum ibv_wr_opcode op, uint32_t len, unsigned int send_flags,
			 uint64_t placed_above)
{
	struct ibv_sge sge = { .length = len };
	struct ibv_send_wr wr = { .opcode = op, .sg_list = &sge, .num_sge = 1,
				  .send_flags = send_flags };
	struct gd_ofi_target t = { .placed_above = placed_above };

	return gd_ofi_post_flags(&t, &wr);
}

static void test_imm_inline_signalled_is_injected(void **state)
{
	(void)state;
	assert_int_equal(flags_of(IBV_WR_RDMA_WRITE_WITH_IMM, 8, IBV_SEND_SIGNALED | IBV_SEND_INLINE,
				  SHM_INJECT),
			 FI_COMPLETION | FI_INJECT);
	assert_int_equal(flags_of(IBV_WR_RDMA_WRITE_WITH_IMM, 8, IBV_SEND_INLINE, SHM_INJECT),
			 FI_INJECT);
}

static void test_imm_inline_elsewhere_waits_for_placement(void **state)
{
	(void)state;
	/* tcp (no length placed on transmit completion) and an unknown target (0) */
	assert_int_equal(flags_of(IBV_WR_RDMA_WRITE_WITH_IMM, 8, IBV_SEND_SIGNALED | IBV_SEND_INLINE,
				  UINT64_MAX),
			 FI_COMPLETION | FI_DELIVERY_COMPLETE);
	assert_int_equal(flags_of(IBV_WR_RDMA_WRITE_WITH_IMM, 8, IBV_SEND_SIGNALED | IBV_SEND_INLINE, 0),
			 FI_COMPLETION | FI_DELIVERY_COMPLETE);
	assert_int_equal(flags_of(IBV_WR_RDMA_WRITE_WITH_IMM, 8, IBV_SEND_INLINE, UINT64_MAX),
			 FI_INJECT);
}

static void test_plain_write_waits_for_placement(void **state)
{
	(void)state;
	/* a plain write has no completion at its target: the initiator's says placed */
	assert_int_equal(flags_of(IBV_WR_RDMA_WRITE, 8, IBV_SEND_SIGNALED | IBV_SEND_INLINE, 0),
			 FI_COMPLETION | FI_DELIVERY_COMPLETE);
	assert_int_equal(flags_of(IBV_WR_RDMA_WRITE, 8, IBV_SEND_SIGNALED | IBV_SEND_INLINE,
				  SHM_INJECT),
			 FI_COMPLETION | FI_DELIVERY_COMPLETE);
	assert_int_equal(flags_of(IBV_WR_RDMA_WRITE, 65536, IBV_SEND_SIGNALED, SHM_INJECT),
			 FI_COMPLETION | FI_TRANSMIT_COMPLETE);
	assert_int_equal(flags_of(IBV_WR_RDMA_WRITE, 8, IBV_SEND_INLINE, 0), FI_INJECT);
}

static void test_imm_not_inline_keeps_the_write_rule(void **state)
{
	(void)state;
	assert_int_equal(flags_of(IBV_WR_RDMA_WRITE_WITH_IMM, 65536, IBV_SEND_SIGNALED, UINT64_MAX),
			 FI_COMPLETION | FI_DELIVERY_COMPLETE);
	assert_int_equal(flags_of(IBV_WR_RDMA_WRITE_WITH_IMM, 65536, IBV_SEND_SIGNALED, SHM_INJECT),
			 FI_COMPLETION | FI_TRANSMIT_COMPLETE);
}

/* a bandwidth loop's moderation write (its completion frees the window; the
 * QP's last one asks delivery): inject completion only, on every target, never
 * FI_INJECT (efa-direct refuses it for writes); shm's inline write with data
 * keeps the send's rule; the size's last signalled write keeps the rule above */
static uint64_t moderating_flags(enum ibv_wr_opcode op, uint32_t len, unsigned int send_flags,
				 uint64_t placed_above)
{
	struct ibv_sge sge = { .length = len };
	struct ibv_send_wr wr = { .opcode = op, .sg_list = &sge, .num_sge = 1,
				  .send_flags = send_flags };
	struct gd_ofi_target t = { .placed_above = placed_above, .moderating = true };

	return gd_ofi_post_flags(&t, &wr);
}

static void test_moderating_write_asks_inject_completion(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++) {
		uint64_t target = i == 0 ? 0 : i == 1 ? SHM_INJECT : UINT64_MAX;

		assert_int_equal(moderating_flags(IBV_WR_RDMA_WRITE, 8,
						  IBV_SEND_SIGNALED | IBV_SEND_INLINE, target),
				 FI_COMPLETION | FI_INJECT_COMPLETE);
		/* shm's inline write with data stays a send (as above) */
		assert_int_equal(moderating_flags(IBV_WR_RDMA_WRITE_WITH_IMM, 8,
						  IBV_SEND_SIGNALED | IBV_SEND_INLINE, target),
				 i == 1 ? FI_COMPLETION | FI_INJECT : FI_COMPLETION | FI_INJECT_COMPLETE);
		assert_int_equal(moderating_flags(IBV_WR_RDMA_WRITE, 65536, IBV_SEND_SIGNALED, target),
				 FI_COMPLETION | FI_INJECT_COMPLETE);
	}
	/* an unsignalled write, a send and a read: as without moderation */
	assert_int_equal(moderating_flags(IBV_WR_RDMA_WRITE, 8, IBV_SEND_INLINE, UINT64_MAX), FI_INJECT);
	assert_int_equal(moderating_flags(IBV_WR_SEND, 65536, IBV_SEND_SIGNALED, UINT64_MAX),
			 FI_COMPLETION);
	assert_int_equal(moderating_flags(IBV_WR_RDMA_READ, 8, IBV_SEND_SIGNALED, SHM_INJECT),
			 FI_COMPLETION);
}

static void test_send_and_read(void **state)
{
	(void)state;
	assert_int_equal(flags_of(IBV_WR_SEND, 8, IBV_SEND_SIGNALED | IBV_SEND_INLINE, 0),
			 FI_COMPLETION | FI_INJECT);
	assert_int_equal(flags_of(IBV_WR_SEND, 65536, IBV_SEND_SIGNALED, 0), FI_COMPLETION);
	assert_int_equal(flags_of(IBV_WR_RDMA_READ, 8, IBV_SEND_SIGNALED, 0), FI_COMPLETION);
}

/* gd_ofi_cq_depth: our queues, raised to the provider's (shm 1.22: 1024 and
 * 1024 a side), capped at GD_OFI_CQ_MAX */
static size_t depth_of(uint32_t nqp, uint32_t tx, uint32_t rx, size_t ptx, size_t prx)
{
	struct gd_ofi_cfg c = { .nqp = nqp, .tx_depth = tx, .rx_depth = rx };
	struct fi_tx_attr ta = { .size = ptx };
	struct fi_rx_attr ra = { .size = prx };
	struct fi_info info = { .tx_attr = &ta, .rx_attr = &ra };

	return gd_ofi_cq_depth(&c, &info);
}

static void test_cq_depth(void **state)
{
	(void)state;
	assert_int_equal(depth_of(1, 128, 512, 1024, 1024), 2112); /* shm's queues, not our 704 */
	assert_int_equal(depth_of(1, 128, 512, 256, 256), 704);	   /* ours when larger */
	assert_int_equal(depth_of(4, 4096, 4096, 256, 256), 4 * 8192 + 64); /* ours, no cap */
	assert_int_equal(depth_of(64, 16, 16, 1024, 1024), GD_OFI_CQ_MAX); /* the provider's, capped */
}

/* One exit code for one cause (issue 30): a libfabric call refused while a side sets up is
 * the provider's or the device's, exit 3 as gd_check calls it; fi_enable's EINVAL on rxe under
 * verbs;ofi_rxm was exit 2 (usage) from the bench tools. Memory: 3; the port taken: 2. */
static void test_setup_refusal_exit(void **state)
{
	(void)state;
	assert_int_equal(gd_bench_setup_exit_code(gd_ofi_setup_err(-FI_EINVAL)), GD_EXIT_ENV);
	assert_int_equal(gd_bench_setup_exit_code(gd_ofi_setup_err(-FI_ENOSYS)), GD_EXIT_ENV);
	assert_int_equal(gd_bench_setup_exit_code(gd_ofi_setup_err(-FI_EOPNOTSUPP)), GD_EXIT_ENV);
	assert_int_equal(gd_bench_setup_exit_code(gd_ofi_setup_err(-FI_ENOMEM)), GD_EXIT_ENV);
	assert_int_equal(gd_bench_setup_exit_code(gd_ofi_setup_err(-FI_EADDRINUSE)), GD_EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_imm_inline_signalled_is_injected),
		cmocka_unit_test(test_imm_inline_elsewhere_waits_for_placement),
		cmocka_unit_test(test_plain_write_waits_for_placement),
		cmocka_unit_test(test_imm_not_inline_keeps_the_write_rule),
		cmocka_unit_test(test_moderating_write_asks_inject_completion),
		cmocka_unit_test(test_send_and_read),
		cmocka_unit_test(test_cq_depth),
		cmocka_unit_test(test_setup_refusal_exit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
