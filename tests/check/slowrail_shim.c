/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * LD_PRELOAD shim for tests/check/mpi-rails.sh: a rate limit on one rail. A send on a TCP
 * socket whose local and peer addresses are both GD_TEST_SLOW_RAIL_IP (an IPv4 address of this
 * host: libfabric tcp's domain of that interface, talking to itself across ranks) sleeps as long
 * as its bytes take at GD_TEST_SLOW_RAIL_MBPS megabits a second after it is sent. Sockets of
 * other addresses (the lo rail, MPI's own) are left alone.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static bool on_rail(int fd)
{
	const char *ip = getenv("GD_TEST_SLOW_RAIL_IP");
	struct sockaddr_in a, b;
	socklen_t la = sizeof(a), lb = sizeof(b);
	struct in_addr want;

	if (!ip || inet_pton(AF_INET, ip, &want) != 1)
		return false;
	if (getsockname(fd, (struct sockaddr *)&a, &la) || a.sin_family != AF_INET ||
	    getpeername(fd, (struct sockaddr *)&b, &lb) || b.sin_family != AF_INET)
		return false;
	return a.sin_addr.s_addr == want.s_addr && b.sin_addr.s_addr == want.s_addr;
}

/* After n bytes sent on fd: the time they take at the rail's rate. */
static void pace(int fd, ssize_t n)
{
	const char *r = getenv("GD_TEST_SLOW_RAIL_MBPS");
	double mbps = r ? strtod(r, NULL) : 0, s;
	struct timespec ts;

	if (n <= 0 || !(mbps > 0) || !on_rail(fd))
		return;
	s = (double)n * 8 / (mbps * 1e6);
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

typedef ssize_t (*send_fn)(int, const void *, size_t, int);
typedef ssize_t (*sendto_fn)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
typedef ssize_t (*sendmsg_fn)(int, const struct msghdr *, int);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);

/* The next definition of name (libc's). */
static void *next(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f)
		abort();
	return f;
}

#define REAL(name, type) \
	static type real; \
	if (!real) \
		real = (type)next(name)

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	REAL("send", send_fn);
	ssize_t n = real(fd, buf, len, flags);

	pace(fd, n);
	return n;
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *to,
	       socklen_t tl)
{
	REAL("sendto", sendto_fn);
	ssize_t n = real(fd, buf, len, flags, to, tl);

	pace(fd, n);
	return n;
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	REAL("sendmsg", sendmsg_fn);
	ssize_t n = real(fd, msg, flags);

	pace(fd, n);
	return n;
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	REAL("writev", writev_fn);
	ssize_t n = real(fd, iov, cnt);

	pace(fd, n);
	return n;
}
