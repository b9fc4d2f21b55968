/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libFuzzer target for the benchmark command line (src/bench_opts.c over
 * src/opts.c): the first two bytes pick the tool (op, kind), the rest is
 * split at NUL bytes into at most 32 arguments. Parsing must never crash,
 * whatever it prints. Run with -close_fd_mask=3 (run-fuzz.sh does) to keep
 * the error messages out of the log.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench_opts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_bench_params p, again;
	char *argv[34], *copy, *end;
	int argc = 1;

	if (size < 2)
		return 0;
	copy = malloc(size - 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 2, size - 2);
	copy[size - 2] = '\0';
	end = copy + size - 2;
	argv[0] = (char *)"gd_fuzz";
	for (char *s = copy; s < end && argc < 33; s += strlen(s) + 1)
		argv[argc++] = s;
	argv[argc] = NULL;
	if (gd_bench_parse(argc, argv, (enum gd_bench_op)(data[0] % GD_OP_COUNT),
			   (enum gd_bench_kind)(data[1] % GD_KIND_COUNT), &p) == 0) {
		/* what parses is consistent */
		if (p.role == GD_ROLE_CLIENT && !p.peer[0])
			abort();
		memcpy(&again, &p, sizeof(p));
		if (gd_bench_check(&again) != 0 || memcmp(&again, &p, sizeof(p)))
			abort(); /* checking is idempotent: derived values are stable */
	}
	free(copy);
	return 0;
}
