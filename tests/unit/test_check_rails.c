/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A node's rails (check_rails.h): its RDMA devices sorted by name, a test's device alone, a
 * libfabric test's domain alone; none is -ENOENT with why. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "check_rails.h"
#include "check_sched.h"

static void verbs_devices(void **state)
{
	struct gd_hca h[3];
	struct gd_ck_machine m = { .hcas = h, .nhcas = 3 };
	struct gd_ck_test t = { 0 };
	struct gd_fabric_opts f = { .fabric = GD_FABRIC_VERBS };
	char names[GD_CK_MAX_RAILS][GD_CK_RAIL_NAME], why[128];

	(void)state;
	memset(h, 0, sizeof(h));
	snprintf(h[0].name, sizeof(h[0].name), "mlx5_2");
	snprintf(h[1].name, sizeof(h[1].name), "mlx5_0");
	snprintf(h[2].name, sizeof(h[2].name), "mlx5_1");
	assert_int_equal(gd_ck_rails(&m, &t, &f, names, GD_CK_MAX_RAILS, why, sizeof(why)), 3);
	assert_string_equal(names[0], "mlx5_0"); /* rail i: the same name on nodes of one SKU */
	assert_string_equal(names[1], "mlx5_1");
	assert_string_equal(names[2], "mlx5_2");
	assert_int_equal(gd_ck_rails(&m, &t, &f, names, 2, why, sizeof(why)), 2); /* at most max */
	snprintf(t.device, sizeof(t.device), "mlx5_1"); /* a test's device: that one rail */
	assert_int_equal(gd_ck_rails(&m, &t, &f, names, GD_CK_MAX_RAILS, why, sizeof(why)), 1);
	assert_string_equal(names[0], "mlx5_1");
	t.device[0] = 0;
	m.nhcas = 0;
	assert_int_equal(gd_ck_rails(&m, &t, &f, names, GD_CK_MAX_RAILS, why, sizeof(why)),
			 -ENOENT);
	assert_non_null(strstr(why, "no RDMA device"));
}

static void ofi_domain(void **state)
{
	struct gd_ck_machine m = { 0 };
	struct gd_ck_test t = { 0 };
	struct gd_fabric_opts f = { .fabric = GD_FABRIC_OFI };
	char names[GD_CK_MAX_RAILS][GD_CK_RAIL_NAME], why[128];

	(void)state;
	snprintf(f.provider, sizeof(f.provider), "tcp");
	snprintf(f.domain, sizeof(f.domain), "eth1"); /* a test's domain: that one rail */
	assert_int_equal(gd_ck_rails(&m, &t, &f, names, GD_CK_MAX_RAILS, why, sizeof(why)), 1);
	assert_string_equal(names[0], "eth1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verbs_devices), cmocka_unit_test(ofi_domain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
