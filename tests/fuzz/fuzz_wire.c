/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libFuzzer target for the side-channel message decoder (src/wire.c).
 *
 * Each input is decoded twice: as one whole message (header + payload), and,
 * with its first byte choosing the type, as a bare payload. Whatever decodes
 * must re-encode to the same bytes (the encoding is canonical) and decode
 * again to the same message; decoded HELLOs are also compared with
 * gd_params_diff. Any crash, sanitizer report or broken invariant aborts.
 *
 * Built and run by tests/fuzz/run-fuzz.sh; with -DGD_FUZZ_SEEDS it is instead
 * a small program writing a seed corpus of valid messages into a directory.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

static void check_round_trip(const struct gd_wire_msg *m, const uint8_t *payload, size_t len)
{
	static uint8_t buf[GD_WIRE_MAX_MSG];
	struct gd_wire_msg again;
	char err[256], diff[1024];
	ssize_t n = gd_wire_encode(m, buf, sizeof(buf));

	if (n < GD_WIRE_HDR_LEN)
		abort(); /* a decoded message must be encodable */
	if ((size_t)n - GD_WIRE_HDR_LEN != len || memcmp(buf + GD_WIRE_HDR_LEN, payload, len))
		abort(); /* not canonical */
	if (gd_wire_decode(buf, (size_t)n, &again, err, sizeof(err)))
		abort();
	if (again.type != m->type)
		abort();
	if (m->type == GD_MSG_HELLO) {
		if (gd_params_diff(&m->hello.params, &again.hello.params, diff, sizeof(diff)) != 0 &&
		    m->hello.params.role != again.hello.params.role)
			abort();
		/* a HELLO against the defaults: any number of differences, always terminated */
		struct gd_bench_params local;

		gd_bench_params_defaults(&local, GD_OP_WRITE, GD_KIND_BW);
		gd_params_diff(&local, &m->hello.params, diff, sizeof(diff));
		if (strnlen(diff, sizeof(diff)) == sizeof(diff))
			abort();
		gd_params_diff(&local, &m->hello.params, diff, 7);
	}
	if (m->type == GD_MSG_ERROR && strlen(m->error.text) != strnlen(m->error.text, GD_WIRE_TEXT_MAX + 1))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* A planted failure for tests/fuzz/fuzz-report.sh: an input holding the bytes of
 * GD_FUZZ_PLANT crashes the target, so that run-fuzz.sh's failure report is tested. */
static void planted(const uint8_t *data, size_t size)
{
	static const char *plant;
	static int read;

	if (!read++)
		plant = getenv("GD_FUZZ_PLANT");
	if (plant && plant[0] && memmem(data, size, plant, strlen(plant)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_wire_msg m;
	char err[256];

	planted(data, size);
	err[0] = '\0';
	if (!gd_wire_decode(data, size, &m, err, sizeof(err)))
		check_round_trip(&m, data + GD_WIRE_HDR_LEN, size - GD_WIRE_HDR_LEN);
	else if (strnlen(err, sizeof(err)) == 0 || strnlen(err, sizeof(err)) == sizeof(err))
		abort(); /* every refusal says why, in a terminated string */
	if (size >= 1) {
		unsigned type = data[0] % (GD_MSG_TYPE_END + 1);

		if (!gd_wire_decode_payload(type, data + 1, size - 1, &m, err, sizeof(err)))
			check_round_trip(&m, data + 1, size - 1);
	}
	return 0;
}

#ifdef GD_FUZZ_SEEDS
static void seed(const char *dir, const char *name, const struct gd_wire_msg *m)
{
	uint8_t buf[GD_WIRE_MAX_MSG];
	ssize_t n = gd_wire_encode(m, buf, sizeof(buf));
	char path[4096];
	FILE *f;

	if (n < 0) {
		fprintf(stderr, "cannot encode seed %s\n", name);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, (size_t)n, f) != (size_t)n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct gd_wire_msg m;
	struct gd_bench_params p;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (int op = 0; op < GD_OP_COUNT; op++) {
		for (int kind = 0; kind < GD_KIND_COUNT; kind++) {
			char name[64];

			gd_bench_params_defaults(&p, op, kind);
			p.role = (op + kind) % 2 ? GD_ROLE_CLIENT : GD_ROLE_SERVER;
			p.bidirectional = kind == GD_KIND_BW && op == GD_OP_READ;
			p.validate = op == GD_OP_WRITE;
			p.mtu = kind ? 1024 : 0;
			m = (struct gd_wire_msg){ .type = GD_MSG_HELLO };
			gd_wire_hello_from_params(&m.hello, &p);
			snprintf(name, sizeof(name), "hello-%s-%s", gd_bench_op_name(op),
				 gd_bench_kind_name(kind));
			seed(argv[1], name, &m);
		}
	}
	m = (struct gd_wire_msg){ .type = GD_MSG_CONN };
	m.conn = (struct gd_wire_conn){ .qp_index = 1, .qp_count = 4, .lid = 3, .qpn = 0x11a,
					.psn = 0xabcdef, .rkey = 0x1234, .vaddr = 0x7f0000001000ull,
					.buf_size = 131072, .gid_index = 1, .out_reads = 16, .mtu = 4096 };
	memcpy(m.conn.gid, "\0\0\0\0\0\0\0\0\0\0\xff\xff\x0a\x00\x00\x01", 16);
	seed(argv[1], "conn", &m);
	m.conn.gid_index = -1;
	seed(argv[1], "conn-nogrh", &m);
	m = (struct gd_wire_msg){ .type = GD_MSG_READY, .ready.seq = 3 };
	seed(argv[1], "ready", &m);
	m = (struct gd_wire_msg){ .type = GD_MSG_BYE };
	seed(argv[1], "bye", &m);
	m = (struct gd_wire_msg){ .type = GD_MSG_ERROR, .error.code = 2 };
	snprintf(m.error.text, sizeof(m.error.text), "parameters differ:\nmessage size (-s): server 65536, client 4096");
	seed(argv[1], "error", &m);
	m = (struct gd_wire_msg){ .type = GD_MSG_RESULTS };
	m.results.kind = GD_KIND_BW;
	m.results.bw = (struct gd_wire_bw){ 65536, 5000, 5000, 2.5e9, 2.4e9, 36621.09375 };
	seed(argv[1], "results-bw", &m);
	m = (struct gd_wire_msg){ .type = GD_MSG_RESULTS, .results.status = 1 };
	m.results.kind = GD_KIND_LAT;
	m.results.lat = (struct gd_wire_lat){ 2, 999, 1.5, 9.25, 2.0, 2.1, 0.3, 2.0, 2.5, 4.0, 9.0, 9.25 };
	seed(argv[1], "results-lat", &m);
	return 0;
}
#endif
