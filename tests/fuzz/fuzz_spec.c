/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libFuzzer target for gd_check's spec loader (src/check/spec.c over libyaml):
 * any bytes must either load or give one "FILE:LINE:COLUMN: ..." message,
 * never crash; a loaded spec is checked for the invariants the runner relies
 * on (unique names, sizes in range, thresholds of the right kind).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_ck_spec s;
	char err[1024];

	err[0] = '\0';
	if (gd_ck_spec_parse("fuzz.yaml", data, size, &s, err, sizeof(err))) {
		if (strncmp(err, "fuzz.yaml:", 10) != 0)
			abort(); /* every error names its position */
		return 0;
	}
	for (size_t i = 0; i < s.ntests; i++) {
		const struct gd_ck_test *t = &s.tests[i];

		if (!t->name[0] || (!t->size && !t->sweep_min) || t->nth > GD_CK_MAX_THRESH)
			abort();
		for (size_t j = 0; j < t->nth; j++)
			if (t->th[j].kind != GD_CK_ABS && (t->th[j].value <= 0 || t->th[j].value > 100))
				abort();
	}
	gd_ck_spec_free(&s);
	return 0;
}
