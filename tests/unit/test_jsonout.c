/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for the JSON rules of src/core/jsonout.c: exact integers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "jsonout.h"

/* the record's text after gd_json_strict */
static char *strict_text(json_object *o)
{
	json_object *s = gd_json_strict(o);
	char *t = strdup(json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN));

	json_object_put(s);
	return t;
}

/* Every integer beyond +-2^53 is null (a double-based reader would round it);
 * 2^53 itself and what is below stay numbers, in objects and arrays alike. */
static void integers_beyond_2_53_are_null(void **state)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	char *t;

	(void)state;
	json_object_object_add(o, "max", json_object_new_uint64(UINT64_MAX));
	json_object_object_add(o, "big", json_object_new_uint64(GD_JSON_EXACT_MAX + 1));
	json_object_object_add(o, "edge", json_object_new_uint64(GD_JSON_EXACT_MAX));
	json_object_object_add(o, "neg", json_object_new_int64(-(int64_t)GD_JSON_EXACT_MAX - 1));
	json_object_object_add(o, "small", json_object_new_int64(-5));
	json_object_array_add(a, json_object_new_int64(INT64_MAX));
	json_object_array_add(a, json_object_new_int64(7));
	json_object_object_add(o, "arr", a);
	t = strict_text(o);
	assert_string_equal(t, "{\"max\":null,\"big\":null,\"edge\":9007199254740992,"
			       "\"neg\":null,\"small\":-5,\"arr\":[null,7]}");
	free(t);
}

/* A limit of 2^53 bytes or more is no limit: null in JSON (the text says "any"). */
static void limits_beyond_2_53_are_no_limit(void **state)
{
	json_object *o = json_object_new_object();
	char *t;

	(void)state;
	assert_true(gd_json_no_limit(SIZE_MAX));
	assert_true(gd_json_no_limit(UINT64_C(18446744073709547519))); /* sockets' SIZE_MAX - 4096 */
	assert_false(gd_json_no_limit(GD_JSON_EXACT_MAX - 1));
	gd_json_add_limit(o, "max_msg_size", SIZE_MAX);
	gd_json_add_limit(o, "inject", 64);
	t = strict_text(o);
	assert_string_equal(t, "{\"max_msg_size\":null,\"inject\":64}");
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(integers_beyond_2_53_are_null),
		cmocka_unit_test(limits_beyond_2_53_are_no_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
