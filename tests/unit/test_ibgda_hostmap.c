/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Host ranges mapped into the GPU for the IBGDA queues (ibgda_hostmap.c),
 * against a fake CUDA driver table that behaves as the real one does for
 * the calls used: a second cuMemHostRegister of a range already registered
 * answers CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED (712), and the GPU
 * address of mapped host memory differs from the host address (F1 and F2
 * of the desk review: two QPs in one UAR page; GetDevicePointer used). Also
 * the CUDA error -> errno mapping and names the messages print (F11).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cuda.h"
#include "ibgda_hostmap.h"

#define DEV_OFFSET 0x7f0000000000ull /* the fake GPU maps host memory elsewhere */

static struct {
	uintptr_t registered[8];
	int nreg, reg_calls, unreg_calls;
	gd_cu_result fail_with; /* 0, or what the next register answers */
} fake;

static gd_cu_result fake_register(void *p, size_t bytes, unsigned int flags)
{
	(void)bytes;
	fake.reg_calls++;
	assert_true(flags & GD_CU_MEMHOSTREGISTER_DEVICEMAP);
	if (fake.fail_with)
		return fake.fail_with;
	for (int i = 0; i < fake.nreg; i++)
		if (fake.registered[i] == (uintptr_t)p)
			return GD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	fake.registered[fake.nreg++] = (uintptr_t)p;
	return GD_CU_SUCCESS;
}

static gd_cu_result fake_unregister(void *p)
{
	fake.unreg_calls++;
	for (int i = 0; i < fake.nreg; i++)
		if (fake.registered[i] == (uintptr_t)p) {
			fake.registered[i] = fake.registered[--fake.nreg];
			return GD_CU_SUCCESS;
		}
	return GD_CU_ERROR_HOST_MEMORY_NOT_REGISTERED;
}

static gd_cu_result fake_devptr(gd_cu_ptr *d, void *p, unsigned int flags)
{
	(void)flags;
	*d = (gd_cu_ptr)(uintptr_t)p + DEV_OFFSET;
	return GD_CU_SUCCESS;
}

static struct gd_cuda_api api = {.MemHostRegister = fake_register,
				 .MemHostUnregister = fake_unregister,
				 .MemHostGetDevicePointer = fake_devptr};
static struct gd_hostmap map;
static _Alignas(4096) uint8_t page[4096], page2[4096];

static int setup(void **s)
{
	(void)s;
	memset(&fake, 0, sizeof(fake));
	memset(&map, 0, sizeof(map));
	return 0;
}

static int get(void *start, const void *addr, uint64_t *dev)
{
	char err[256];

	return gd_hostmap_get(&map, &api, start, sizeof(page), GD_CU_MEMHOSTREGISTER_DEVICEMAP,
			      addr, dev, err, sizeof(err));
}

/* libmlx5 gives QP 0 and QP 1 the registers at 0x800 and 0xa00 of one page:
 * one registration, two users, the GPU's own addresses, one unregister
 * after the last. */
static void two_qps_one_uar_page(void **s)
{
	uint64_t d0 = 0, d1 = 0;

	(void)s;
	assert_int_equal(get(page, page + 0x800, &d0), 0);
	assert_int_equal(get(page, page + 0xa00, &d1), 0);
	assert_int_equal(fake.reg_calls, 1);
	assert_int_equal(gd_hostmap_refs(&map, page), 2);
	assert_true(d0 == (uintptr_t)page + 0x800 + DEV_OFFSET);
	assert_true(d1 == (uintptr_t)page + 0xa00 + DEV_OFFSET);
	assert_int_equal(gd_hostmap_put(&map, &api, page), 0);
	assert_int_equal(fake.unreg_calls, 0); /* QP 1 still rings through it */
	assert_int_equal(gd_hostmap_put(&map, &api, page), 0);
	assert_int_equal(fake.unreg_calls, 1);
	assert_int_equal(fake.nreg, 0);
	assert_int_equal(gd_hostmap_put(&map, &api, page), -ENOENT);
}

/* A range registered by someone else (712 on our first call) is used, and
 * left registered at the end: it is not ours. */
static void registered_elsewhere(void **s)
{
	uint64_t d = 0;

	(void)s;
	assert_int_equal(fake_register(page2, sizeof(page2), GD_CU_MEMHOSTREGISTER_DEVICEMAP), 0);
	assert_int_equal(get(page2, page2 + 0x800, &d), 0);
	assert_true(d == (uintptr_t)page2 + 0x800 + DEV_OFFSET);
	assert_int_equal(gd_hostmap_put(&map, &api, page2), 0);
	assert_int_equal(fake.unreg_calls, 0);
	assert_int_equal(fake.nreg, 1);
}

/* Two pages: counted apart. */
static void pages_apart(void **s)
{
	uint64_t d = 0;

	(void)s;
	assert_int_equal(get(page, page, &d), 0);
	assert_int_equal(get(page2, page2 + 8, &d), 0);
	assert_int_equal(fake.reg_calls, 2);
	assert_int_equal(gd_hostmap_refs(&map, page), 1);
	assert_int_equal(gd_hostmap_refs(&map, page2), 1);
	assert_int_equal(gd_hostmap_put(&map, &api, page), 0);
	assert_int_equal(gd_hostmap_put(&map, &api, page2), 0);
	assert_int_equal(fake.unreg_calls, 2);
}

/* A real failure is named with the CUresult, and mapped to an errno that
 * says what it is (not EPERM for everything). */
static void failure_named(void **s)
{
	char err[256];
	uint64_t d = 0;

	(void)s;
	fake.fail_with = GD_CU_ERROR_NOT_SUPPORTED;
	assert_int_equal(gd_hostmap_get(&map, &api, page, sizeof(page),
					GD_CU_MEMHOSTREGISTER_DEVICEMAP, page, &d, err, sizeof(err)),
			 -EOPNOTSUPP);
	assert_non_null(strstr(err, "cuMemHostRegister: CUDA_ERROR_NOT_SUPPORTED"));
	assert_int_equal(gd_hostmap_refs(&map, page), 0);
	/* a driver without the calls */
	struct gd_cuda_api none = {0};

	assert_int_equal(gd_hostmap_get(&map, &none, page, sizeof(page), 0, page, &d, err,
					sizeof(err)),
			 -ENOSYS);
	assert_int_equal(gd_hostmap_get(&map, &api, page, sizeof(page), 0, page2, &d, err,
					sizeof(err)),
			 -EINVAL);
}

static void cuda_errno_mapping(void **s)
{
	char buf[200];

	(void)s;
	assert_int_equal(gd_cuda_errno(GD_CU_SUCCESS), 0);
	assert_int_equal(gd_cuda_errno(GD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED), -EEXIST);
	assert_int_equal(gd_cuda_errno(GD_CU_ERROR_HOST_MEMORY_NOT_REGISTERED), -ENOENT);
	assert_int_equal(gd_cuda_errno(GD_CU_ERROR_NOT_PERMITTED), -EPERM);
	assert_int_equal(gd_cuda_errno(GD_CU_ERROR_OUT_OF_MEMORY), -ENOMEM);
	assert_int_equal(gd_cuda_errno(GD_CU_ERROR_NOT_SUPPORTED), -EOPNOTSUPP);
	assert_int_equal(gd_cuda_errno(GD_CU_ERROR_INVALID_VALUE), -EINVAL);
	assert_int_equal(gd_cuda_errno(GD_CU_ERROR_NO_DEVICE), -ENODEV);
	assert_int_equal(gd_cuda_errno(999), -EIO);
	/* no driver loaded here: the names come from gdperf's own table */
	assert_non_null(strstr(gd_cuda_strerror(712, buf, sizeof(buf)),
			       "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"));
	assert_non_null(strstr(gd_cuda_strerror(800, buf, sizeof(buf)), "CUDA_ERROR_NOT_PERMITTED"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(two_qps_one_uar_page, setup),
		cmocka_unit_test_setup(registered_elsewhere, setup),
		cmocka_unit_test_setup(pages_apart, setup),
		cmocka_unit_test_setup(failure_named, setup),
		cmocka_unit_test_setup(cuda_errno_mapping, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
