/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * GPU-tier test of the engine's buffer layer (src/mem.h) with GPU memory:
 * gd_buf_alloc(gd_buf_cuda) through the GPU backend (src/gpu/gpu_buf.c), the
 * engine's --validate pattern written and checked in GPU memory, the header
 * text and the JSON "gpu" object. Run by gpu-mem.sh on the GPU machine.
 * Usage: gd_gpubuf_test [N|auto] [staging]. Exit 0 pass, 1 fail, 3 no GPU.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench_params.h"
#include "gd.h"
#include "gpu_buf.h"
#include "jsonout.h"
#include "log.h"
#include "mem.h"

static int fails;

static void expect(int ok, const char *what)
{
	printf("%s %s\n", ok ? "ok  " : "FAIL", what);
	fails += !ok;
}

int main(int argc, char **argv)
{
	struct gd_buf_spec spec;
	struct gd_buf b;
	size_t bad = 0, len = (3 << 20) + 17;
	char desc[256];
	json_object *o;
	int ret;

	gd_log_init(argv[0]);
	memset(&spec, 0, sizeof(spec));
	spec.cuda = argc > 1 && strcmp(argv[1], "auto") == 0 ? GD_CUDA_AUTO : 0;
	ret = gd_buf_alloc(&b, argc > 2 && strcmp(argv[2], "staging") == 0 ? &gd_buf_cuda_staging :
			   &gd_buf_cuda, len, &spec);
	if (ret)
		return ret == -ENOENT || ret == -ENODEV || ret == -ENOSYS ? GD_EXIT_ENV : GD_EXIT_FAIL;
	expect(b.ops->describe(&b, desc, sizeof(desc)) == 0, "describe");
	printf("     Memory: cuda: %s\n", desc);
	o = gd_json_record("buffer");
	b.ops->json(&b, o);
	gd_json_emit(o, stdout);
	expect(gd_buf_verify(&b, 0, 4096, 0, &bad) == -EBADMSG, "a fresh (zeroed) buffer is not the pattern");
	expect(gd_buf_fill(&b, 100, len - 100, 7) == 0, "engine pattern written at offset 100");
	expect(gd_buf_verify(&b, 100, len - 100, 7, &bad) == 0, "engine pattern verified after copy back");
	expect(gd_buf_verify(&b, 100, len - 100, 8, &bad) == -EBADMSG && bad == 0,
	       "another pattern offset fails at byte 0");
	expect(gd_buf_fill(&b, 0, len + 1, 0) == -ERANGE, "fill past the end refused");
	{
		uint64_t v = 0;
		uint8_t byte = 0;

		expect(gd_buf_set_u64(&b, 64, 0x1122334455667788ULL) == 0 &&
		       gd_buf_get_u64(&b, 64, &v) == 0 && v == 0x1122334455667788ULL,
		       "u64 counter written and read back (atomic validation)");
		expect(gd_buf_read(&b, 64, &byte, 1) == 0 && byte == 0x88, "one byte read back");
	}
	gd_buf_free(&b);
	printf("%s: %d failure(s)\n", fails ? "FAIL" : "PASS", fails);
	return fails ? GD_EXIT_FAIL : GD_EXIT_OK;
}
