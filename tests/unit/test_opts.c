/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for the option table parser and value parsers. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wordexp.h>
#include <cmocka.h>

#include "gd.h"
#include "log.h"
#include "opts.h"
#include "sysfs.h"

enum { O_DEV = 1, O_SIZE, O_FLAG, O_OPT };

static const struct gd_opt test_opts[] = {
	{ "ib-dev", 'd', GD_REQ_ARG, "DEV", "device", O_DEV },
	{ "size", 's', GD_REQ_ARG, "BYTES", "message size", O_SIZE },
	{ "flag", 'F', GD_NO_ARG, NULL, "a flag", O_FLAG },
	{ "maybe", 0, GD_OPT_ARG, "N", "optional value", O_OPT },
	{ "unsupported_thing", 'Z', GD_NO_ARG, NULL, NULL, 99 },
	{ NULL },
};
static const struct gd_opt *const tables[] = { gd_common_opts, test_opts, gd_sysfs_opts, NULL };
static const struct gd_cmd cmd = { "[options] [HOST]", "test", tables, NULL, NULL, NULL };

struct seen {
	char dev[32];
	uint64_t size;
	int flags;
	char maybe[8];
};

static int handler(void *ctx, int id, const char *arg)
{
	struct seen *s = ctx;

	switch (id) {
	case O_DEV:
		snprintf(s->dev, sizeof(s->dev), "%s", arg);
		return 0;
	case O_SIZE:
		return gd_opt_size("--size", arg, 1, 1ull << 31, &s->size);
	case O_FLAG:
		s->flags++;
		return 0;
	case O_OPT:
		snprintf(s->maybe, sizeof(s->maybe), "%s", arg ? arg : "-");
		return 0;
	}
	return -EINVAL;
}

static int parse(struct seen *s, int argc, char **argv, bool *help)
{
	memset(s, 0, sizeof(*s));
	return gd_opts_parse(&cmd, argc, argv, handler, s, help);
}

static void short_and_long_spellings(void **state)
{
	char *argv[] = { "t", "-d", "mlx5_0", "--size=64K", "-F", "--flag", "host", NULL };
	struct seen s;
	bool help;
	int idx = parse(&s, 7, argv, &help);

	assert_int_equal(idx, 6);
	assert_string_equal(argv[idx], "host");
	assert_string_equal(s.dev, "mlx5_0");
	assert_int_equal(s.size, 65536);
	assert_int_equal(s.flags, 2);
	assert_false(help);
}

static void optional_argument(void **state)
{
	char *argv[] = { "t", "--maybe", "--maybe=3", NULL };
	struct seen s;
	bool help;

	assert_int_equal(parse(&s, 3, argv, &help), 3);
	assert_string_equal(s.maybe, "3");
}

static void errors_are_negative(void **state)
{
	char *unknown[] = { "t", "--bogus", NULL };
	char *missing[] = { "t", "-d", NULL };
	char *badsize[] = { "t", "-s", "12Q", NULL };
	char *unsupported[] = { "t", "-Z", NULL };
	char *flag_value[] = { "t", "--flag=1", NULL };
	char *long_missing[] = { "t", "--size", NULL };
	struct seen s;
	bool help;

	assert_int_equal(parse(&s, 2, flag_value, &help), -EINVAL);
	assert_int_equal(s.flags, 0);
	assert_int_equal(parse(&s, 2, long_missing, &help), -EINVAL);

	assert_int_equal(parse(&s, 2, unknown, &help), -EINVAL);
	assert_int_equal(parse(&s, 2, missing, &help), -EINVAL);
	assert_int_equal(parse(&s, 3, badsize, &help), -EINVAL);
	assert_int_equal(parse(&s, 2, unsupported, &help), -ENOTSUP);
}

static void help_stops_parsing(void **state)
{
	char *argv[] = { "t", "--help", "--bogus", NULL };
	struct seen s;
	bool help;

	assert_true(parse(&s, 3, argv, &help) >= 0);
	assert_true(help);
}

static void tool_prologue(void **state)
{
	char *go[] = { "/usr/bin/gd_x", "-d", "mlx5_0", NULL };
	char *help[] = { "gd_x", "--help", NULL };
	char *version[] = { "gd_x", "--version", "stray", NULL };
	char *stray[] = { "gd_x", "-F", "stray", NULL };
	char *bad[] = { "gd_x", "--bogus", NULL };
	char *unsupported[] = { "gd_x", "-Z", NULL };
	struct gd_machine mm;
	struct seen s;

	memset(&s, 0, sizeof(s));
	assert_int_equal(gd_tool_parse(&cmd, 3, go, handler, &s, &mm), GD_TOOL_CONTINUE);
	assert_string_equal(s.dev, "mlx5_0");
	assert_string_equal(gd_progname(), "gd_x");
	assert_int_equal(gd_tool_parse(&cmd, 2, help, handler, &s, &mm), GD_EXIT_OK);
	assert_int_equal(gd_tool_parse(&cmd, 3, version, handler, &s, &mm), GD_EXIT_OK);
	assert_int_equal(gd_tool_parse(&cmd, 3, stray, handler, &s, &mm), GD_EXIT_USAGE);
	assert_int_equal(gd_tool_parse(&cmd, 2, bad, handler, &s, &mm), GD_EXIT_USAGE);
	assert_int_equal(gd_tool_parse(&cmd, 2, unsupported, handler, &s, &mm), GD_EXIT_USAGE);
}

static void tool_sysfs_root(void **state)
{
	char *missing[] = { "gd_x", "--sysfs-root", "/nonexistent/gd_x", NULL };
	char *file[] = { "gd_x", "--sysfs-root=/dev/null", NULL };
	char *dir[] = { "gd_x", "--sysfs-root", "/tmp/", NULL };
	char *none[] = { "gd_x", NULL };
	struct gd_machine mm;
	struct seen s;

	unsetenv(GD_SYSFS_ROOT_ENV);
	assert_int_equal(gd_tool_parse(&cmd, 3, missing, handler, &s, &mm), GD_EXIT_USAGE);
	assert_string_equal(mm.root, "/nonexistent/gd_x");
	assert_int_equal(gd_tool_parse(&cmd, 2, file, handler, &s, &mm), GD_EXIT_USAGE);
	assert_int_equal(gd_tool_parse(&cmd, 3, dir, handler, &s, &mm), GD_TOOL_CONTINUE);
	assert_string_equal(mm.root, "/tmp");
	assert_true(mm.fixture);
	/* a later parse without the option reads this machine again */
	assert_int_equal(gd_tool_parse(&cmd, 1, none, handler, &s, &mm), GD_TOOL_CONTINUE);
	assert_false(mm.fixture);
	setenv(GD_SYSFS_ROOT_ENV, "/nonexistent/env", 1);
	assert_int_equal(gd_tool_parse(&cmd, 1, none, handler, &s, &mm), GD_EXIT_USAGE);
	assert_int_equal(gd_tool_parse(&cmd, 3, dir, handler, &s, &mm), GD_TOOL_CONTINUE);
	assert_string_equal(mm.root, "/tmp"); /* the option wins over the variable */
	setenv(GD_SYSFS_ROOT_ENV, "/tmp", 1);
	assert_int_equal(gd_tool_parse(&cmd, 1, none, handler, &s, &mm), GD_TOOL_CONTINUE);
	assert_true(mm.fixture);
	unsetenv(GD_SYSFS_ROOT_ENV);
}

static void value_parsers(void **state)
{
	uint64_t v;
	int i;
	const char *const choices[] = { "bandwidth", "latency", NULL };

	assert_int_equal(gd_opt_size("-s", "2M", 1, UINT64_MAX, &v), 0);
	assert_int_equal(v, 2u << 20);
	assert_int_equal(gd_opt_size("-s", "0", 1, 10, &v), -ERANGE);
	assert_int_equal(gd_opt_u64("-n", "-1", 0, 10, &v), -EINVAL);
	/* decimal everywhere: 010 is ten, hex and signs are refused */
	assert_int_equal(gd_opt_u64("-n", "0x10", 0, 100, &v), -EINVAL);
	assert_int_equal(gd_opt_u64("-n", "010", 0, 100, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(gd_opt_u64("-n", "+1", 0, 100, &v), -EINVAL);
	assert_int_equal(gd_opt_u64("-n", " 1", 0, 100, &v), -EINVAL);
	assert_int_equal(gd_opt_u64("-n", "99999999999999999999999", 0, 100, &v), -ERANGE);
	assert_int_equal(gd_opt_int("-p", "010", 1, 65535, &i), 0);
	assert_int_equal(i, 10);
	assert_int_equal(gd_opt_int("-p", "-0x1", -5, 5, &i), -EINVAL);
	assert_int_equal(gd_opt_size("-s", "64K", 1, 1024, &v), -ERANGE);
	assert_int_equal(gd_opt_int("-p", "70000", 1, 65535, &i), -ERANGE);
	assert_int_equal(gd_opt_choice("--output", "latency", choices, &i), 0);
	assert_int_equal(i, 1);
	assert_int_equal(gd_opt_choice("--output", "x", choices, &i), -EINVAL);
}

/* A value on a printed command line is one shell word: as it is when plain, else quoted so
 * that a shell reads back the same bytes (wordexp, command substitution refused). */
static void shell_words(void **state)
{
	static const char *const vals[] = { "tcp", "0-47,96-143", "verbs;ofi_rxm", "a b",
		"it's", "$(reboot)", "`id`", "x|y&z", "", "~root", "*", NULL };
	char w[128];
	wordexp_t we;

	(void)state;
	assert_int_equal(gd_shell_word("0000:2a:00.0", w, sizeof(w)), 12);
	assert_string_equal(w, "0000:2a:00.0");
	assert_int_equal(gd_shell_word("verbs;ofi_rxm", w, sizeof(w)), 15);
	assert_string_equal(w, "'verbs;ofi_rxm'");
	for (int i = 0; vals[i]; i++) {
		assert_true(gd_shell_word(vals[i], w, sizeof(w)) > 0);
		assert_int_equal(wordexp(w, &we, WRDE_NOCMD | WRDE_UNDEF), 0);
		assert_int_equal(we.we_wordc, 1);
		assert_string_equal(we.we_wordv[0], vals[i]);
		wordfree(&we);
	}
	/* too small: nothing half-written */
	assert_int_equal(gd_shell_word("it's", w, 6), -ENOSPC);
	assert_string_equal(w, "");
	assert_int_equal(gd_shell_word("abc", w, 3), -ENOSPC);
	assert_int_equal(gd_shell_word("abc", w, 4), 3);
	assert_int_equal(gd_shell_word("a;c", w, 5), -ENOSPC);
	assert_int_equal(gd_shell_word("a;c", w, 6), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(short_and_long_spellings),
		cmocka_unit_test(optional_argument),
		cmocka_unit_test(errors_are_negative),
		cmocka_unit_test(help_stops_parsing),
		cmocka_unit_test(tool_prologue),
		cmocka_unit_test(tool_sysfs_root),
		cmocka_unit_test(value_parsers),
		cmocka_unit_test(shell_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
