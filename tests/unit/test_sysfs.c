/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for the rooted sysfs reader, on a tree made in a temporary directory. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "readfile.h"
#include "sysfs.h"

static char tmpl[] = "/tmp/gd_sysfs_XXXXXX";
static struct gd_machine tm;

static void put(const char *rel, const char *content)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", tmpl, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static int setup(void **state)
{
	char path[512];

	if (!mkdtemp(tmpl))
		return -1;
	snprintf(path, sizeof(path), "%s/sys", tmpl);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/dev", tmpl);
	mkdir(path, 0755);
	put("/sys/dev/str", "hello world\n");
	put("/sys/dev/num", "4096\n");
	put("/sys/dev/hex", "0x10de\n");
	put("/sys/dev/garbage", "12abc\n");
	put("/sys/dev/negative", "-5\n");
	put("/sys/dev/empty", "");
	snprintf(path, sizeof(path), "%s/sys/bad", tmpl);
	mkdir(path, 0755);
	put("/sys/bad/octal", "010\n");
	put("/sys/bad/twohex", "0x0x10\n");
	put("/sys/bad/plus", "+5\n");
	snprintf(path, sizeof(path), "%s/sys/bad/fifo", tmpl);
	mkfifo(path, 0600);
	snprintf(path, sizeof(path), "%s/sys/bad/zero", tmpl);
	symlink("/dev/zero", path);
	snprintf(path, sizeof(path), "%s/sys/bad/loop", tmpl);
	symlink("loop", path);
	snprintf(path, sizeof(path), "%s/sys/link", tmpl);
	symlink("dev/str", path);
	assert_int_equal(gd_machine_init(&tm, tmpl), 0);
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	return system(cmd);
}

static void reads_strings_and_trims(void **state)
{
	char buf[64];

	assert_int_equal(gd_sysfs_read_str(&tm, buf, sizeof(buf), "/sys/dev/%s", "str"), 0);
	assert_string_equal(buf, "hello world");
	assert_int_equal(gd_sysfs_read_str(&tm, buf, sizeof(buf), "/sys/dev/empty"), 0);
	assert_string_equal(buf, "");
}

static void short_buffer_is_an_error(void **state)
{
	char buf[4];

	assert_int_equal(gd_sysfs_read_str(&tm, buf, sizeof(buf), "/sys/dev/str"), -ENOSPC);
}

/* FIFOs, devices and looping links are refused at once, naming the file; never read */
static void hostile_files_are_refused(void **state)
{
	char buf[64], *text = NULL;
	int v;

	assert_int_equal(gd_sysfs_read_str(&tm, buf, sizeof(buf), "/sys/bad/fifo"), -GD_ENOTREG);
	assert_non_null(strstr(gd_sysfs_errpath(), "/sys/bad/fifo"));
	assert_int_equal(gd_sysfs_read_int(&tm, &v, "/sys/bad/zero"), -GD_ENOTREG);
	assert_int_equal(gd_sysfs_read_text(&tm, &text, "/sys/bad/zero"), -GD_ENOTREG);
	assert_int_equal(gd_sysfs_read_str(&tm, buf, sizeof(buf), "/sys/bad/loop"), -ELOOP);
	assert_int_equal(gd_sysfs_read_str(&tm, buf, sizeof(buf), "/sys/dev"), -EISDIR);
	assert_non_null(strstr(gd_strerror(-GD_ENOTREG), "not a regular file"));
	assert_int_equal(gd_readfile_alloc("/dev/zero", 100, &text, NULL), -GD_ENOTREG);
	snprintf(buf, sizeof(buf), "%s/sys/dev/str", tmpl);
	assert_int_equal(gd_readfile_alloc(buf, 5, &text, NULL), -EFBIG);
	assert_int_equal(gd_readfile_alloc(buf, 12, &text, NULL), 0);
	assert_string_equal(text, "hello world\n");
	free(text);
}

/* sysfs numbers are decimal, or hex after 0x: never octal */
static void numbers_are_never_octal(void **state)
{
	uint64_t v;
	int i;

	assert_int_equal(gd_sysfs_read_u64(&tm, &v, "/sys/bad/octal"), 0);
	assert_int_equal(v, 10);
	assert_int_equal(gd_sysfs_read_int(&tm, &i, "/sys/bad/octal"), 0);
	assert_int_equal(i, 10);
	assert_int_equal(gd_sysfs_read_u64(&tm, &v, "/sys/bad/twohex"), -EINVAL);
	assert_int_equal(gd_sysfs_read_u64(&tm, &v, "/sys/bad/plus"), -EINVAL);
	assert_int_equal(gd_sysfs_read_int(&tm, &i, "/sys/bad/plus"), -EINVAL);
}

static void reads_numbers(void **state)
{
	uint64_t v;
	int i;

	assert_int_equal(gd_sysfs_read_u64(&tm, &v, "/sys/dev/num"), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(gd_sysfs_read_u64(&tm, &v, "/sys/dev/hex"), 0);
	assert_int_equal(v, 0x10de);
	assert_int_equal(gd_sysfs_read_int(&tm, &i, "/sys/dev/negative"), 0);
	assert_int_equal(i, -5);
}

static void malformed_numbers_name_the_file(void **state)
{
	uint64_t v = 7;

	assert_int_equal(gd_sysfs_read_u64(&tm, &v, "/sys/dev/garbage"), -EINVAL);
	assert_int_equal(v, 7);
	assert_non_null(strstr(gd_sysfs_errpath(), "/sys/dev/garbage"));
	assert_int_equal(gd_sysfs_read_u64(&tm, &v, "/sys/dev/negative"), -EINVAL);
	assert_int_equal(gd_sysfs_read_u64(&tm, &v, "/sys/dev/empty"), -EINVAL);
}

static void missing_file_is_enoent(void **state)
{
	char buf[8];

	assert_int_equal(gd_sysfs_read_str(&tm, buf, sizeof(buf), "/sys/dev/nope"), -ENOENT);
	assert_false(gd_sysfs_exists(&tm, "/sys/dev/nope"));
	assert_true(gd_sysfs_exists(&tm, "/sys/dev/num"));
}

static void links_and_realpath_stay_rooted(void **state)
{
	char buf[256];

	assert_int_equal(gd_sysfs_link_name(&tm, buf, sizeof(buf), "/sys/link"), 0);
	assert_string_equal(buf, "str");
	assert_int_equal(gd_sysfs_realpath(&tm, buf, sizeof(buf), "/sys/link"), 0);
	assert_string_equal(buf, "/sys/dev/str");
}

static void lists_sorted(void **state)
{
	char **names;
	size_t n;

	assert_int_equal(gd_sysfs_list(&tm, &names, &n, "/sys/dev"), 0);
	assert_int_equal(n, 6);
	assert_string_equal(names[0], "empty");
	assert_string_equal(names[5], "str");
	gd_sysfs_free_list(names, n);
	assert_int_equal(gd_sysfs_list(&tm, &names, &n, "/sys/none"), -ENOENT);
}

static void root_must_be_a_directory(void **state)
{
	struct gd_machine x;
	char path[512];

	assert_int_equal(gd_machine_init(&x, tmpl), 0);
	assert_true(x.fixture);
	snprintf(path, sizeof(path), "%s/sys/dev/str", tmpl);
	assert_int_equal(gd_machine_init(&x, path), -ENOTDIR);
	snprintf(path, sizeof(path), "%s/none", tmpl);
	assert_int_equal(gd_machine_init(&x, path), -ENOENT);
	assert_int_equal(gd_machine_init(&x, "/"), 0);
	assert_false(x.fixture);
	assert_string_equal(x.root, "");
	assert_int_equal(gd_machine_init(&x, NULL), 0);
	assert_false(x.fixture);
	snprintf(path, sizeof(path), "%s//", tmpl);
	assert_int_equal(gd_machine_init(&x, path), 0);
	assert_string_equal(x.root, tmpl);
}

/* Two machines side by side: each reader reads its own root. */
static void two_machines(void **state)
{
	struct gd_machine live;
	char buf[64], *text = NULL;

	gd_machine_live(&live);
	assert_int_equal(gd_sysfs_read_str(&tm, buf, sizeof(buf), "/sys/dev/str"), 0);
	assert_int_equal(gd_sysfs_read_str(&live, buf, sizeof(buf), "/sys/dev/str"), -ENOENT);
	assert_int_equal(gd_sysfs_read_text(&tm, &text, "/sys/dev/%s", "str"), 0);
	assert_string_equal(text, "hello world\n");
	free(text);
	assert_int_equal(gd_sysfs_read_text(&tm, &text, "/sys/dev/none"), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_strings_and_trims),
		cmocka_unit_test(short_buffer_is_an_error),
		cmocka_unit_test(reads_numbers),
		cmocka_unit_test(hostile_files_are_refused),
		cmocka_unit_test(numbers_are_never_octal),
		cmocka_unit_test(malformed_numbers_name_the_file),
		cmocka_unit_test(missing_file_is_enoent),
		cmocka_unit_test(links_and_realpath_stay_rooted),
		cmocka_unit_test(lists_sorted),
		cmocka_unit_test(root_must_be_a_directory),
		cmocka_unit_test(two_machines),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
