/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for the NVLink file parser and the NV# counting rule. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "nvlink.h"

static void busids_parse_and_normalise(void **state)
{
	struct gd_busid a, b;
	char buf[32];

	assert_int_equal(gd_busid_parse("0000:18:00.0", &a), 0);
	assert_int_equal(gd_busid_parse("00000000:18:00.0", &b), 0); /* NVML's 8-digit domain */
	assert_true(gd_busid_eq(&a, &b));
	assert_int_equal(gd_busid_parse("0000:AB:1f.7", &a), 0);
	gd_busid_format(&a, buf, sizeof(buf));
	assert_string_equal(buf, "0000:ab:1f.7");
	assert_int_equal(gd_busid_parse("FFFFFFFF:FF:FF.0", &a), 0);
	assert_true(gd_busid_hidden_switch(&a));
	gd_busid_format(&a, buf, sizeof(buf));
	assert_string_equal(buf, "FFFFFFFF:FF:FF.0");
	assert_int_equal(gd_busid_parse("0000:18:20.0", &a), -EINVAL); /* device > 31 */
	assert_int_equal(gd_busid_parse("0000:18:00.8", &a), -EINVAL); /* function > 7 */
	assert_int_equal(gd_busid_parse("0000:18:00", &a), -EINVAL);
	assert_int_equal(gd_busid_parse("18:00.0", &a), -EINVAL);
	assert_int_equal(gd_busid_parse("0000:18:00.0x", &a), -EINVAL);
	assert_int_equal(gd_busid_parse("123456789:18:00.0", &a), -EINVAL);
}

static void parses_comments_blanks_and_sums(void **state)
{
	/* a repeated pair is warned about and ignored: the first line stands */
	const char *text = "# header\n\n0000:18:00.0 FFFFFFFF:FF:FF.0 10   # not summed\n"
			   "\t0000:18:00.0\tFFFFFFFF:FF:FF.0\t8\r\n0000:2a:00.0 0000:18:00.0 4";
	struct gd_nvlinks l;
	char err[256] = "";
	int line = 0;

	assert_int_equal(gd_nvlink_parse(text, "f.txt", &l, err, sizeof(err), &line), 0);
	assert_true(l.known);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.v[0].count, 10);
	assert_int_equal(l.v[1].count, 4);
	gd_nvlink_free(&l);
}

static bool first_two_are_gpus(const struct gd_busid *id, void *ctx)
{
	(void)ctx;
	return id->domain == 0 && (id->bus == 0x18 || id->bus == 0x2a);
}

/* lines the topology contradicts are dropped: non-GPUs, directions that disagree */
static void validate_drops_contradictions(void **state)
{
	const char *text = "0000:18:00.0 0000:2a:00.0 4\n0000:2a:00.0 0000:18:00.0 2\n"
			   "0000:77:00.0 FFFFFFFF:FF:FF.0 18\n0000:18:00.0 FFFFFFFF:FF:FF.0 6\n"
			   "0000:2a:00.0 FFFFFFFF:FF:FF.0 6\n";
	struct gd_nvlinks l;
	char err[256] = "";

	(void)state;
	assert_int_equal(gd_nvlink_parse(text, "f.txt", &l, err, sizeof(err), NULL), 0);
	assert_int_equal(l.n, 5);
	assert_int_equal(gd_nvlink_validate(&l, "f.txt", first_two_are_gpus, NULL), 3);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.v[0].count, 6);
	assert_int_equal(l.v[1].count, 6);
	gd_nvlink_free(&l);
}

struct bad {
	const char *text;
	int line;
	const char *msg;
};

static void malformed_lines_name_file_and_line(void **state)
{
	static const struct bad cases[] = {
		{ "0000:18:00.0 FFFFFFFF:FF:FF.0\n", 1, "f.txt:1: 2 fields" },
		{ "# ok\n0000:18:00.0 FFFFFFFF:FF:FF.0 18 extra\n", 2, "f.txt:2: 4 fields" },
		{ "0000:18:00.0 FFFFFFFF:FF:FF.0 18 a b c d\n", 1, "f.txt:1: 7 fields" },
		{ "\n\n0000:18:00.0 FFFFFFFF:FF:FF.0 eighteen\n", 3, "f.txt:3: link count 'eighteen'" },
		{ "0000:18:00.0 FFFFFFFF:FF:FF.0 0\n", 1, "from 1 to 64" },
		{ "0000:18:00.0 FFFFFFFF:FF:FF.0 -3\n", 1, "link count '-3'" },
		{ "0000:18:00.0 FFFFFFFF:FF:FF.0 18x\n", 1, "link count '18x'" },
		{ "GPU0 FFFFFFFF:FF:FF.0 18\n", 1, "'GPU0' is not a GPU PCI bus ID" },
		{ "FFFFFFFF:FF:FF.0 0000:18:00.0 18\n", 1, "not a GPU PCI bus ID" },
		{ "0000:18:00.0 switch 18\n", 1, "'switch' is not a PCI bus ID" },
		{ "0000:18:00.0 0000:18:00.0 2\n", 1, "links to itself" },
		{ "0000:18:00.0 FFFFFFFF:FF:FF.0 18\n0000:2a:00.0\n", 2, "f.txt:2: 1 field," },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gd_nvlinks l;
		char err[256] = "";
		int line = 0;

		assert_int_equal(gd_nvlink_parse(cases[i].text, "f.txt", &l, err, sizeof(err), &line),
				 -EINVAL);
		assert_int_equal(line, cases[i].line);
		if (!strstr(err, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].msg);
		assert_null(l.v);
	}
}

static struct gd_busid gpus[3];

static bool is_gpu(const struct gd_busid *id, void *ctx)
{
	for (int i = 0; i < 3; i++)
		if (gd_busid_eq(&gpus[i], id))
			return true;
	return false;
}

static void counts_fabric_and_direct_links(void **state)
{
	/* GPU0: 18 into the hidden switch; GPU1: 12 into it plus 2 direct to GPU2;
	 * GPU2: visible switches 5+4 and 2 direct back to GPU1. */
	const char *text = "0000:01:00.0 FFFFFFFF:FF:FF.0 18\n"
			   "0000:02:00.0 FFFFFFFF:FF:FF.0 12\n"
			   "0000:02:00.0 0000:03:00.0 2\n"
			   "0000:03:00.0 0000:e0:00.0 5\n0000:03:00.0 0000:e1:00.0 4\n"
			   "0000:03:00.0 0000:02:00.0 2\n";
	struct gd_nvlinks l;
	char err[256];

	gd_busid_parse("0000:01:00.0", &gpus[0]);
	gd_busid_parse("0000:02:00.0", &gpus[1]);
	gd_busid_parse("0000:03:00.0", &gpus[2]);
	assert_int_equal(gd_nvlink_parse(text, "f", &l, err, sizeof(err), NULL), 0);
	/* min of fabric totals: the matrix stays symmetric with a link down */
	assert_int_equal(gd_nvlink_count(&l, &gpus[0], &gpus[1], is_gpu, NULL), 12);
	assert_int_equal(gd_nvlink_count(&l, &gpus[1], &gpus[0], is_gpu, NULL), 12);
	assert_int_equal(gd_nvlink_count(&l, &gpus[0], &gpus[2], is_gpu, NULL), 9);
	/* direct plus fabric */
	assert_int_equal(gd_nvlink_count(&l, &gpus[1], &gpus[2], is_gpu, NULL), 2 + 9);
	gd_nvlink_free(&l);
}

static void no_links_means_zero(void **state)
{
	struct gd_nvlinks l = { 0 };

	gd_busid_parse("0000:01:00.0", &gpus[0]);
	gd_busid_parse("0000:02:00.0", &gpus[1]);
	assert_int_equal(gd_nvlink_count(&l, &gpus[0], &gpus[1], is_gpu, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(busids_parse_and_normalise),
		cmocka_unit_test(parses_comments_blanks_and_sums),
		cmocka_unit_test(malformed_lines_name_file_and_line),
		cmocka_unit_test(validate_drops_contradictions),
		cmocka_unit_test(counts_fabric_and_direct_links),
		cmocka_unit_test(no_links_means_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
