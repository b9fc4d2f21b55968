/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for the side-channel messages: round trips, every malformed case, diffs. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "wire.h"
#include "version.h"

static uint8_t buf[GD_WIRE_MAX_MSG];
static char err[256];

static size_t encode(const struct gd_wire_msg *m)
{
	ssize_t n = gd_wire_encode(m, buf, sizeof(buf));

	assert_true(n >= GD_WIRE_HDR_LEN);
	return (size_t)n;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Decode buf[0..n) and expect code with a message containing needle. */
static void expect(size_t n, int code, const char *needle)
{
	struct gd_wire_msg m;
	int ret;

	err[0] = '\0';
	ret = gd_wire_decode(buf, n, &m, err, sizeof(err));
	if (ret != code || !strstr(err, needle))
		fail_msg("got %d '%s', expected %d with '%s'", ret, err, code, needle);
}

static void hello_params(struct gd_bench_params *p)
{
	gd_bench_params_defaults(p, GD_OP_WRITE, GD_KIND_BW);
	p->role = GD_ROLE_CLIENT;
	p->num_qps = 4;
	p->bidirectional = true;
	p->validate = true;
	p->mtu = 1024;
	p->size = 4096;
	snprintf(p->run_cpus, sizeof(p->run_cpus), "0-3,8");
}

static void hello_round_trip(void **state)
{
	struct gd_wire_msg m = { .type = GD_MSG_HELLO }, out;
	struct gd_bench_params p;
	char diff[512];
	size_t n;

	hello_params(&p);
	gd_wire_hello_from_params(&m.hello, &p);
	n = encode(&m);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	assert_int_equal(out.type, GD_MSG_HELLO);
	assert_string_equal(out.hello.tool, "gd_write_bw");
	assert_string_equal(out.hello.version, gd_version());
	assert_int_equal(out.hello.params.role, GD_ROLE_CLIENT);
	assert_int_equal(out.hello.params.num_qps, 4);
	assert_int_equal(out.hello.params.size, 4096);
	assert_int_equal(out.hello.params.iters, 5000);
	assert_int_equal(out.hello.params.mtu, 1024);
	assert_true(out.hello.params.bidirectional && out.hello.params.validate);
	assert_false(out.hello.params.ipv6);
	/* version 4: the CPUs the side runs on (the noise guard), carried, not compared */
	assert_string_equal(out.hello.params.run_cpus, "0-3,8");
	/* the decoded HELLO agrees with the params it came from, except the role */
	p.role = GD_ROLE_SERVER;
	assert_int_equal(gd_params_diff(&p, &out.hello.params, diff, sizeof(diff)), 0);
	assert_string_equal(diff, "");
}

/* The HELLO parameter bytes (after the tool and version strings), as the
 * hand-written encoder before the list of matched parameters (issue 20) made
 * them: the list must reproduce them byte for byte (wire version 2). */
static void hello_golden(const struct gd_bench_params *p, const char *want, size_t want_len)
{
	struct gd_wire_msg m = { .type = GD_MSG_HELLO }, out;
	size_t n, off = GD_WIRE_HDR_LEN;

	gd_wire_hello_from_params(&m.hello, p);
	n = encode(&m);
	off += 2 + (size_t)((buf[off] << 8) | buf[off + 1]);
	off += 2 + (size_t)((buf[off] << 8) | buf[off + 1]);
	assert_true(n - off >= want_len); /* version 3 appends the fabric */
	assert_memory_equal(buf + off, want, want_len);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	n = encode(&(struct gd_wire_msg){ .type = GD_MSG_HELLO, .hello = out.hello });
	assert_memory_equal(buf + off, want, want_len); /* decode, encode: the same bytes */
}

static void hello_bytes_unchanged(void **state)
{
	struct gd_bench_params p;

	(void)state;
	gd_bench_params_defaults(&p, GD_OP_WRITE, GD_KIND_BW);
	hello_golden(&p, "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00"
		     "\x00\x00\x00\x00\x13\x88\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00"
		     "\x80\x00\x00\x00\x01\x00\x00\x00\x00\x00", 43);
	gd_bench_params_defaults(&p, GD_OP_ATOMIC, GD_KIND_LAT);
	p.role = GD_ROLE_CLIENT;
	p.conn = GD_CONN_RDMA_CM;
	p.atomic_type = GD_ATOMIC_CMP_AND_SWAP;
	p.mtu = 4096;
	p.init.initiator = GD_INIT_PROXY;
	hello_golden(&p, "\x01\x02\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x08\x00\x00"
		     "\x00\x00\x00\x00\x03\xe8\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00"
		     "\x01\x00\x00\x00\x01\x00\x00\x10\x00\x01", 43);
	gd_bench_params_defaults(&p, GD_OP_SEND, GD_KIND_BW);
	p.bidirectional = p.write_with_imm = p.send_with_imm = p.all_sizes = true;
	p.run_infinitely = p.validate = p.perform_warm_up = p.ipv6 = true;
	p.size = 0x7fffffffu;
	p.iters = 0xffffffffu;
	p.duration_s = 31622400;
	p.num_qps = 16384;
	p.tx_depth = 15000;
	p.rx_depth = 16384;
	p.mtu = 256;
	p.init.initiator = GD_INIT_IBGDA_CPUDB;
	hello_golden(&p, "\x00\x03\x00\x00\x00\xff\x00\x00\x00\x00\x7f\xff\xff\xff\x00\x00"
		     "\x00\x00\xff\xff\xff\xff\x01\xe2\x85\x00\x00\x00\x40\x00\x00\x00\x3a"
		     "\x98\x00\x00\x40\x00\x00\x00\x01\x00\x03", 43);
	/* a value outside the list's range is not sent */
	p.num_qps = 16385;
	assert_int_equal(gd_wire_encode(&(struct gd_wire_msg){ .type = GD_MSG_HELLO,
			 .hello = { .tool = "gd_send_bw", .version = "x", .params = p } }, buf,
			 sizeof(buf)), -EINVAL);
}

static void conn_round_trip(void **state)
{
	struct gd_wire_msg m = { .type = GD_MSG_CONN }, out;
	size_t n;

	m.conn = (struct gd_wire_conn){ .qp_index = 2, .qp_count = 3, .lid = 0x1234, .qpn = 0xabcdef,
					.psn = 0x123456, .rkey = 0xdeadbeef, .vaddr = 0x7f0012345678ull,
					.buf_size = 1 << 20, .gid_index = 1, .out_reads = 16,
					.mtu = 4096 };
	for (int i = 0; i < 16; i++)
		m.conn.gid[i] = (uint8_t)(i * 17);
	n = encode(&m);
	assert_int_equal(n, GD_WIRE_HDR_LEN + 66);
	/* network byte order on the wire */
	assert_memory_equal(buf, "GDPF\x00\x06\x00\x02\x00\x00\x00\x42", 12);
	assert_memory_equal(buf + 12 + 10, "\x00\xab\xcd\xef", 4);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	assert_memory_equal(&out.conn.gid, &m.conn.gid, 16);
	assert_int_equal(out.conn.qpn, 0xabcdef);
	assert_int_equal(out.conn.psn, 0x123456);
	assert_int_equal(out.conn.rkey, 0xdeadbeef);
	assert_int_equal(out.conn.vaddr, 0x7f0012345678ull);
	assert_int_equal(out.conn.buf_size, 1 << 20);
	assert_int_equal(out.conn.lid, 0x1234);
	assert_int_equal(out.conn.gid_index, 1);
	assert_int_equal(out.conn.out_reads, 16);
	assert_int_equal(out.conn.mtu, 4096);
	assert_int_equal(out.conn.qp_index, 2);

	m.conn.gid_index = -1;
	n = encode(&m);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	assert_int_equal(out.conn.gid_index, -1);
}

static void other_round_trips(void **state)
{
	struct gd_wire_msg m, out;
	size_t n;

	m = (struct gd_wire_msg){ .type = GD_MSG_READY, .ready.seq = 7 };
	n = encode(&m);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	assert_int_equal(out.ready.seq, 7);

	m = (struct gd_wire_msg){ .type = GD_MSG_BYE };
	n = encode(&m);
	assert_int_equal(n, GD_WIRE_HDR_LEN);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	assert_int_equal(out.type, GD_MSG_BYE);

	m = (struct gd_wire_msg){ .type = GD_MSG_ERROR, .error.code = 2 };
	snprintf(m.error.text, sizeof(m.error.text), "message size: server 65536, client 4096\nx");
	n = encode(&m);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	assert_int_equal(out.error.code, 2);
	assert_string_equal(out.error.text, m.error.text);

	m = (struct gd_wire_msg){ .type = GD_MSG_RESULTS };
	m.results.kind = GD_KIND_BW;
	m.results.bw = (struct gd_wire_bw){ 65536, 5000, 5000, 1.25e9, 1.0e9, 15258.7890625 };
	n = encode(&m);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	assert_int_equal(out.results.kind, GD_KIND_BW);
	assert_true(out.results.bw.bw_peak == 1.25e9 && out.results.bw.bw_avg == 1.0e9);
	assert_true(out.results.bw.msgrate == 15258.7890625);
	assert_int_equal(out.results.bw.ops, 5000);

	m = (struct gd_wire_msg){ .type = GD_MSG_RESULTS, .results.status = 1 };
	m.results.kind = GD_KIND_LAT;
	m.results.lat = (struct gd_wire_lat){ 2, 999, 1.5, 9.25, 2.0, 2.1, 0.3, 2.0, 2.5, 4.0, 9.0, 9.25 };
	n = encode(&m);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	assert_int_equal(out.results.status, 1);
	assert_true(out.results.lat.stdev == 0.3 && out.results.lat.p9999 == 9.25);
	assert_int_equal(out.results.lat.n, 999);
}

static void bad_header(void **state)
{
	struct gd_wire_msg m = { .type = GD_MSG_READY };
	size_t n = encode(&m);

	expect(5, -EPROTO, "truncated header");
	memcpy(buf, "GET / HTTP/1.1\r\n", 16);
	expect(16, -EPROTO, "not a gdperf side-channel message (it starts with \"GET / HTTP/1\")");
	n = encode(&m);
	buf[5] = GD_WIRE_VERSION + 1;
	expect(n, -EPROTO, "this gdperf speaks version 6");
	n = encode(&m);
	buf[7] = 0;
	expect(n, -EPROTO, "unknown message type 0");
	buf[7] = GD_MSG_TYPE_END;
	expect(n, -EPROTO, "unknown message type 8");
	n = encode(&m);
	put32(buf + 8, GD_WIRE_MAX_PAYLOAD + 1);
	expect(n, -EPROTO, "the limit is 4096");
	put32(buf + 8, 8);
	expect(n, -EBADMSG, "announces 8 payload bytes but 4 follow");
	put32(buf + 8, 2);
	expect(n - 2, -EBADMSG, "payload too short");
	/* trailing bytes */
	m.type = GD_MSG_BYE;
	n = encode(&m);
	put32(buf + 8, 1);
	buf[12] = 0;
	expect(n + 1, -EBADMSG, "1 unexpected trailing bytes");
	/* ALIVE (version 4, the run's heartbeat): a header alone, no payload */
	m.type = GD_MSG_ALIVE;
	n = encode(&m);
	assert_int_equal(n, GD_WIRE_HDR_LEN);
	assert_int_equal(gd_wire_decode(buf, n, &m, err, sizeof(err)), 0);
	assert_int_equal(m.type, GD_MSG_ALIVE);
	assert_string_equal(gd_wire_type_name(GD_MSG_ALIVE), "ALIVE");
	put32(buf + 8, 1);
	buf[12] = 0;
	expect(n + 1, -EBADMSG, "1 unexpected trailing bytes");
}

static void bad_conn(void **state)
{
	struct gd_wire_msg m = { .type = GD_MSG_CONN };
	uint8_t *p = buf + GD_WIRE_HDR_LEN;
	size_t n;

	m.conn = (struct gd_wire_conn){ .qp_index = 0, .qp_count = 1, .qpn = 0x11, .mtu = 1024 };
#define RESET() (n = encode(&m))
	RESET();
	put32(p + 0, 1);
	expect(n, -EBADMSG, "QP index 1 is not below the QP count 1");
	RESET();
	put32(p + 4, 0);
	expect(n, -EBADMSG, "QP count 0 is out of range");
	RESET();
	put32(p + 4, GD_WIRE_MAX_QPS + 1);
	expect(n, -EBADMSG, "QP count 16385");
	RESET();
	put32(p + 10, 0x1000000);
	expect(n, -EBADMSG, "QP number 16777216");
	RESET();
	put32(p + 10, 0);
	expect(n, -EBADMSG, "QP number 0");
	RESET();
	put32(p + 14, 0x1000000);
	expect(n, -EBADMSG, "PSN");
	RESET();
	memset(p + 22, 0xff, 8); /* vaddr */
	p[37] = 2;               /* buf_size 2 */
	expect(n, -EBADMSG, "wraps around");
	RESET();
	put32(p + 54, (uint32_t)-2);
	expect(n, -EBADMSG, "GID index -2");
	RESET();
	put32(p + 54, 256);
	expect(n, -EBADMSG, "GID index 256");
	RESET();
	put32(p + 58, 70000);
	expect(n, -EBADMSG, "outstanding reads");
	RESET();
	put32(p + 62, 1500);
	expect(n, -EBADMSG, "CONN MTU 1500");
	RESET();
	put32(p + 62, 0);
	expect(n, -EBADMSG, "CONN MTU 0");
	/* every truncation of the payload */
	for (size_t cut = 0; cut < 66; cut++) {
		RESET();
		put32(buf + 8, (uint32_t)cut);
		expect(GD_WIRE_HDR_LEN + cut, -EBADMSG, "too short");
	}
#undef RESET
}

static void bad_hello(void **state)
{
	struct gd_wire_msg m = { .type = GD_MSG_HELLO };
	struct gd_bench_params p;
	uint8_t *pl = buf + GD_WIRE_HDR_LEN;
	size_t n, o; /* o: offset of the role byte */

	hello_params(&p);
	gd_wire_hello_from_params(&m.hello, &p);
	o = 2 + strlen("gd_write_bw") + 2 + strlen(gd_version());
#define RESET() (n = encode(&m))
	RESET();
	pl[o] = 2;
	expect(n, -EBADMSG, "HELLO role 2 is out of range");
	RESET();
	pl[o + 1] = 4;
	expect(n, -EBADMSG, "HELLO operation 4");
	RESET();
	pl[o + 2] = 9;
	expect(n, -EBADMSG, "HELLO test kind 9");
	RESET();
	pl[o + 3] = 2;
	expect(n, -EBADMSG, "HELLO connection method 2");
	RESET();
	pl[o + 4] = 2;
	expect(n, -EBADMSG, "HELLO atomic type 2");
	RESET();
	memset(pl + o + 6, 0, 8);
	expect(n, -EBADMSG, "HELLO message size 0");
	RESET();
	memset(pl + o + 6, 0xff, 8);
	expect(n, -EBADMSG, "HELLO message size 18446744073709551615");
	RESET();
	memset(pl + o + 14, 0, 8);
	expect(n, -EBADMSG, "HELLO iterations 0");
	RESET();
	put32(pl + o + 26, 0);
	expect(n, -EBADMSG, "HELLO number of QPs 0");
	RESET();
	put32(pl + o + 30, 15001);
	expect(n, -EBADMSG, "HELLO tx depth 15001");
	RESET();
	put32(pl + o + 34, 0);
	expect(n, -EBADMSG, "HELLO rx depth 0");
	RESET();
	put32(pl + o + 38, 300);
	expect(n, -EBADMSG, "HELLO MTU 300");
	/* strings: too long, empty, non-printable, announcing more than the payload */
	RESET();
	pl[0] = 0;
	pl[1] = 200;
	expect(n, -EBADMSG, "HELLO tool name is 200 bytes long, the limit is 31");
	RESET();
	pl[1] = 0;
	expect(n, -EBADMSG, "HELLO tool name is empty");
	RESET();
	pl[3] = '\0';
	expect(n, -EBADMSG, "non-printable byte 0x00 at offset 1");
	RESET();
	pl[3] = '\n';
	expect(n, -EBADMSG, "non-printable byte 0x0a");
	RESET();
	put32(buf + 8, 5);
	expect(GD_WIRE_HDR_LEN + 5, -EBADMSG, "announces 11 bytes, 3 left");
	/* encoder refuses what the wire cannot carry */
	m.hello.params.op = GD_OP_COUNT;
	assert_int_equal(gd_wire_encode(&m, buf, sizeof(buf)), -EINVAL);
	m.hello.params.op = GD_OP_WRITE;
	assert_int_equal(gd_wire_encode(&m, buf, 20), -EMSGSIZE);
#undef RESET
}

/* Version 5: where each side's buffer sits (host memory, or its GPU and
 * whether the side is an MPS client there), carried, not compared: the rule on
 * a GPU producer's CUDA copies reads the target's (fabric_rule.h). */
static void hello_buffer_fact(void **state)
{
	struct gd_wire_msg m = { .type = GD_MSG_HELLO }, out;
	struct gd_bench_params p;
	uint8_t *at;
	size_t n;

	(void)state;
	hello_params(&p);
	p.buf_mem = GD_BUF_MEM_GPU_MPS;
	snprintf(p.buf_gpu, sizeof(p.buf_gpu), "0000:18:00.0");
	gd_wire_hello_from_params(&m.hello, &p);
	n = encode(&m);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	assert_int_equal(out.hello.params.buf_mem, GD_BUF_MEM_GPU_MPS);
	assert_string_equal(out.hello.params.buf_gpu, "0000:18:00.0");
	p.role = GD_ROLE_SERVER; /* carried, not compared: the peer's buffer may differ */
	p.buf_mem = GD_BUF_MEM_HOST;
	p.buf_gpu[0] = '\0';
	assert_int_equal(gd_params_diff(&p, &out.hello.params, err, sizeof(err)), 0);
	/* the byte and the string: u8 memory, u16 length, the PCI address */
	for (at = buf + GD_WIRE_HDR_LEN; at + 14 <= buf + n && memcmp(at, "\x00\x0c" "0000:18:00.0", 14);)
		at++;
	assert_true(at + 14 <= buf + n);
	assert_int_equal(at[-1], GD_BUF_MEM_GPU_MPS);
	/* a value outside the enum, and the two fields disagreeing: exit 2 (-EBADMSG) */
	at[-1] = 3;
	expect(n, -EBADMSG, "HELLO buffer memory 3 is out of range 0..2");
	at[-1] = GD_BUF_MEM_HOST;
	expect(n, -EBADMSG, "HELLO buffer memory is host memory but names a GPU 0000:18:00.0");
	at[-1] = GD_BUF_MEM_GPU;
	memcpy(at + 2, "0000:18:zz.0", 12);
	expect(n, -EBADMSG, "HELLO buffer's GPU '0000:18:zz.0' is not a PCI address");
	memcpy(at + 2, "0000:18:00.0", 12);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	assert_int_equal(out.hello.params.buf_mem, GD_BUF_MEM_GPU);
	/* a GPU behind Intel VMD: a PCI domain of 5 hex digits, as sysfs writes it, round-trips;
	 * CUDA's 8-digit form is not sysfs's and is refused */
	p.buf_mem = GD_BUF_MEM_GPU;
	snprintf(p.buf_gpu, sizeof(p.buf_gpu), "10000:01:00.0");
	gd_wire_hello_from_params(&m.hello, &p);
	n = encode(&m);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	assert_string_equal(out.hello.params.buf_gpu, "10000:01:00.0");
	snprintf(p.buf_gpu, sizeof(p.buf_gpu), "00010000:01:00.0");
	gd_wire_hello_from_params(&m.hello, &p);
	n = encode(&m);
	expect(n, -EBADMSG, "HELLO buffer's GPU '00010000:01:00.0' is not a PCI address");
	p.buf_gpu[0] = '\0';
	gd_wire_hello_from_params(&m.hello, &p); /* GPU memory naming no GPU */
	n = encode(&m);
	expect(n, -EBADMSG, "HELLO buffer memory is GPU memory outside MPS but names no GPU");
	/* an older peer (version 4) cannot say whether its GPU memory is under MPS:
	 * refused by the version, as any other version, on both sides, exit 2 */
	p.buf_mem = GD_BUF_MEM_HOST;
	gd_wire_hello_from_params(&m.hello, &p);
	n = encode(&m);
	buf[4] = 0;
	buf[5] = 4;
	expect(n, -EPROTO, "the peer speaks side-channel protocol version 4, this gdperf speaks "
	       "version 6: run the same gdperf release on both sides");
}

/* Version 6: the proxy threads, compared where they shape both sides (the
 * proxy over libfabric: the passive side drives a domain per proxy thread of
 * its peer, bench_ofi.c threads_of), carried for every run. */
static void hello_proxy_threads(void **state)
{
	struct gd_wire_msg m = { .type = GD_MSG_HELLO }, out;
	struct gd_bench_params p;
	uint8_t *at;
	size_t n;

	(void)state;
	hello_params(&p);
	p.init.initiator = GD_INIT_PROXY;
	p.fab.fabric = GD_FABRIC_OFI;
	snprintf(p.fab.provider, sizeof(p.fab.provider), "shm");
	p.init.proxy_threads = 4;
	gd_wire_hello_from_params(&m.hello, &p);
	n = encode(&m);
	assert_int_equal(gd_wire_decode(buf, n, &out, err, sizeof(err)), 0);
	assert_int_equal(out.hello.params.init.proxy_threads, 4);
	/* the last field: u32 proxy threads */
	at = buf + n - 4;
	assert_memory_equal(at, "\x00\x00\x00\x04", 4);
	p.role = GD_ROLE_SERVER;
	assert_int_equal(gd_params_diff(&p, &out.hello.params, err, sizeof(err)), 0);
	p.init.proxy_threads = 2;
	assert_int_equal(gd_params_diff(&p, &out.hello.params, err, sizeof(err)), 1);
	assert_string_equal(err, "proxy threads (--proxy_threads): server 2, client 4");
	/* not compared where the other side's threads change nothing here: verbs,
	 * or the CPU initiator */
	p.fab.fabric = out.hello.params.fab.fabric = GD_FABRIC_VERBS;
	p.fab.provider[0] = out.hello.params.fab.provider[0] = '\0';
	assert_int_equal(gd_params_diff(&p, &out.hello.params, err, sizeof(err)), 0);
	/* out of range (1..32): exit 2 (-EBADMSG) */
	at[3] = 0;
	expect(n, -EBADMSG, "HELLO proxy threads");
	at[3] = 33;
	expect(n, -EBADMSG, "HELLO proxy threads");
}

static void bad_results_and_error(void **state)
{
	struct gd_wire_msg m = { .type = GD_MSG_RESULTS };
	uint8_t *pl = buf + GD_WIRE_HDR_LEN;
	double nan_v = NAN, neg = -1.0;
	uint64_t bits;
	size_t n;

	m.results.kind = GD_KIND_BW;
	m.results.bw = (struct gd_wire_bw){ 8, 10, 10, 1, 1, 1 };
	n = encode(&m);
	pl[4] = 2;
	expect(n, -EBADMSG, "RESULTS kind 2");
	n = encode(&m);
	put32(pl, 4);
	expect(n, -EBADMSG, "RESULTS status 4");
	n = encode(&m);
	memcpy(&bits, &nan_v, 8);
	for (int i = 0; i < 8; i++)
		pl[5 + 24 + i] = (uint8_t)(bits >> (56 - 8 * i));
	expect(n, -EBADMSG, "RESULTS peak bandwidth is not a finite non-negative number");
	n = encode(&m);
	memcpy(&bits, &neg, 8);
	for (int i = 0; i < 8; i++)
		pl[5 + 40 + i] = (uint8_t)(bits >> (56 - 8 * i));
	expect(n, -EBADMSG, "RESULTS message rate");

	m.results.kind = GD_KIND_LAT;
	m.results.lat = (struct gd_wire_lat){ .size = 2, .n = 5, .min = 3, .max = 2, .typical = 2 };
	n = encode(&m);
	expect(n, -EBADMSG, "inconsistent");

	m = (struct gd_wire_msg){ .type = GD_MSG_ERROR, .error.code = 0 };
	assert_int_equal(gd_wire_encode(&m, buf, sizeof(buf)), -EINVAL);
	m.error.code = 1;
	memset(m.error.text, 'x', GD_WIRE_TEXT_MAX);
	m.error.text[GD_WIRE_TEXT_MAX] = '\0';
	n = encode(&m); /* the longest text fits */
	expect(n, 0, "");
	put32(pl, 9);
	expect(n, -EBADMSG, "ERROR code 9");
	n = encode(&m);
	pl[4] = 0xff;
	pl[5] = 0xff;
	expect(n, -EBADMSG, "ERROR text is 65535 bytes long");
	n = encode(&m);
	pl[6] = 0x1b; /* escape: no terminal control sequences from the peer */
	expect(n, -EBADMSG, "non-printable byte 0x1b at offset 0");
	m.error.text[0] = '\0';
	n = encode(&m);
	expect(n, -EBADMSG, "ERROR text is empty");
	m.type = GD_MSG_TYPE_END;
	assert_int_equal(gd_wire_encode(&m, buf, sizeof(buf)), -EINVAL);
	assert_string_equal(gd_wire_type_name(GD_MSG_CONN), "CONN");
	assert_string_equal(gd_wire_type_name(99), "unknown");
}

static void diff_lists_every_difference(void **state)
{
	struct gd_bench_params s, c;
	char out[1024], small[40];

	gd_bench_params_defaults(&s, GD_OP_WRITE, GD_KIND_BW);
	gd_bench_params_defaults(&c, GD_OP_WRITE, GD_KIND_BW);
	c.role = GD_ROLE_CLIENT;
	/* display-only options and local choices need not match */
	c.report_gbits = true;
	c.no_peak = true;
	c.json = true;
	c.inline_size = 64;
	c.cq_mod = 1;
	c.mtu = 1024;
	c.use_cuda = 0;
	c.gid_index = 3;
	strcpy(c.dev, "rxe0");
	assert_int_equal(gd_params_diff(&s, &c, out, sizeof(out)), 0);

	c.size = 4096;
	c.iters = 100;
	c.num_qps = 2;
	c.conn = GD_CONN_RDMA_CM;
	c.bidirectional = true;
	c.tx_depth = 64;
	c.validate = true;
	assert_int_equal(gd_params_diff(&s, &c, out, sizeof(out)), 7);
	assert_non_null(strstr(out, "message size (-s): server 65536, client 4096"));
	assert_non_null(strstr(out, "iterations (-n): server 5000, client 100"));
	assert_non_null(strstr(out, "number of QPs (-q): server 1, client 2"));
	assert_non_null(strstr(out, "connection method (-R): server oob, client rdma_cm"));
	assert_non_null(strstr(out, "bidirectional (-b): server off, client on"));
	assert_non_null(strstr(out, "tx depth (-t): server 128, client 64"));
	assert_non_null(strstr(out, "--validate: server off, client on"));
	/* seen from the client, the labels follow the roles */
	assert_int_equal(gd_params_diff(&c, &s, out, sizeof(out)), 7);
	assert_non_null(strstr(out, "message size (-s): client 4096, server 65536"));
	/* truncation keeps the count and marks the cut */
	assert_int_equal(gd_params_diff(&s, &c, small, sizeof(small)), 7);
	assert_string_equal(small + strlen(small) - 3, "...");

	/* a timed run does not compare iterations; a different test is named */
	gd_bench_params_defaults(&c, GD_OP_READ, GD_KIND_BW);
	c.role = GD_ROLE_CLIENT;
	c.duration_s = 5;
	s.duration_s = 5;
	assert_int_equal(gd_params_diff(&s, &c, out, sizeof(out)), 1);
	assert_string_equal(out, "test: server gd_write_bw, client gd_read_bw");
	gd_bench_params_defaults(&s, GD_OP_ATOMIC, GD_KIND_LAT);
	gd_bench_params_defaults(&c, GD_OP_ATOMIC, GD_KIND_LAT);
	c.role = GD_ROLE_CLIENT;
	c.atomic_type = GD_ATOMIC_CMP_AND_SWAP;
	assert_int_equal(gd_params_diff(&s, &c, out, sizeof(out)), 1);
	assert_string_equal(out, "atomic type (-A): server FETCH_AND_ADD, client CMP_AND_SWAP");
	/* two servers (or two clients) talking is itself a difference */
	assert_int_equal(gd_params_diff(&s, &s, out, sizeof(out)), 1);
	assert_string_equal(out, "role: local server, remote server");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hello_round_trip),
		cmocka_unit_test(hello_bytes_unchanged),
		cmocka_unit_test(conn_round_trip),
		cmocka_unit_test(other_round_trips),
		cmocka_unit_test(bad_header),
		cmocka_unit_test(bad_conn),
		cmocka_unit_test(bad_hello),
		cmocka_unit_test(hello_buffer_fact),
		cmocka_unit_test(hello_proxy_threads),
		cmocka_unit_test(bad_results_and_error),
		cmocka_unit_test(diff_lists_every_difference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
