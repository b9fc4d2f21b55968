/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * LD_PRELOAD shim for tests/fabric/ofi-tools.sh: a poll() of the tool's own
 * that finds nothing ready without waiting (timeout 0: a side channel that
 * spins and drives the provider between its looks, src/bench/oob.c) sleeps
 * GD_TEST_SLOW_POLL_MS milliseconds before it returns. libfabric's own polls
 * (its tcp provider's progress) are left alone. What the waiting side then does before its
 * next look (gd_ofi_progress) runs long after the look: a peer's message that
 * arrives meanwhile meets the provider's progress first, as it does by chance
 * on a loaded host. The race the shim widens: a target still on the setup
 * barrier while its peer, already past it, sends the first message.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The caller is not libfabric (nor another library of its). */
static bool tool_call(void *ra)
{
	Dl_info di;

	return dladdr(ra, &di) && di.dli_fname && !strstr(di.dli_fname, "libfabric");
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	static int (*real_poll)(struct pollfd *, nfds_t, int);
	const char *ms = getenv("GD_TEST_SLOW_POLL_MS");
	int r;

	if (!real_poll)
		real_poll = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
	if (!real_poll)
		abort();
	r = real_poll(fds, nfds, timeout);
	if (r == 0 && timeout == 0 && ms && tool_call(__builtin_return_address(0))) {
		long v = strtol(ms, NULL, 10);
		struct timespec ts = { .tv_sec = v / 1000, .tv_nsec = (v % 1000) * 1000000L };

		nanosleep(&ts, NULL);
	}
	return r;
}
