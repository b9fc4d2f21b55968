/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One loopback run through the engine's library entry point: the server side
 * in a forked child (the engine runs one test per process), the client in
 * this process, both from filled parameters. The child has a deadline; a
 * server that outlives its client is ended.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_opts.h"
#include "check_int.h"
#include "gd.h"
#include "log.h"
#include "stats.h"

void gd_ck_params(const struct gd_ck_run *run, uint64_t size, enum gd_bench_role role,
		  struct gd_bench_params *p)
{
	const struct gd_ck_test *t = run->t;

	gd_bench_params_defaults(p, t->op, t->kind);
	p->role = role;
	p->fab = run->fab;
	snprintf(p->dev, sizeof(p->dev), "%s", run->dev);
	p->ib_port = (uint8_t)run->port;
	p->tcp_port = run->tcp_port;
	if (role == GD_ROLE_CLIENT)
		snprintf(p->peer, sizeof(p->peer), "%s", run->peer_ip);
	if (t->op != GD_OP_ATOMIC) {
		p->size = size;
		p->given |= GD_GIVEN_SIZE;
	}
	if (t->duration_s) {
		p->duration_s = t->duration_s;
		p->given |= GD_GIVEN_DURATION;
	} else if (t->iters) {
		p->iters = t->iters;
		p->given |= GD_GIVEN_ITERS;
	}
	if (t->kind == GD_KIND_BW && t->qps > 1) {
		p->num_qps = t->qps;
		p->given |= GD_GIVEN_QPS;
	}
	if (run->gpu >= 0)
		snprintf(p->cuda_bus_id, sizeof(p->cuda_bus_id), "%s", run->gpu_bdf);
	if (run->numa >= 0 && run->cpus[0])
		snprintf(p->pin_cores, sizeof(p->pin_cores), "%s", run->cpus);
	p->report_gbits = t->kind == GD_KIND_BW; /* the latency tools have no --report_gbits */
	p->timeout_ms = 15000;
	p->roce = t->roce; /* sl, tclass, rate_limit: gd_bench_check judges them per fabric */
}

/* One side's command: the tool's own spelling of the parameters (gd_bench_args). A line the
 * tool could not take is never printed: its place says which option has no row. */
static size_t side_args(const struct gd_bench_params *p, char *buf, size_t len)
{
	const char *bad = NULL;
	int n = gd_bench_args(p, buf, len, &bad);

	if (n < 0)
		n = snprintf(buf, len, "(no reproduce line: %s)", bad ? bad : strerror(-n));
	return n < 0 ? 0 : GD_MIN((size_t)n, len - 1);
}

void gd_ck_command(const struct gd_ck_run *run, uint64_t size, char *buf, size_t len)
{
	struct gd_bench_params p;
	char ip[4 * sizeof(run->peer_ip) + 3];
	size_t n;

	gd_ck_params(run, size, GD_ROLE_SERVER, &p);
	n = side_args(&p, buf, len);
	if (n + 4 >= len)
		return;
	n += (size_t)snprintf(buf + n, len - n, " & ");
	gd_ck_params(run, size, GD_ROLE_CLIENT, &p);
	n += side_args(&p, buf + n, len - n);
	if (n + 2 < len && gd_shell_word(run->peer_ip, ip, sizeof(ip)) >= 0)
		snprintf(buf + n, len - n, " %s", ip);
}

/* Wait for the child until deadline_ms, then end it. Returns its exit code. */
static int reap(pid_t pid, int deadline_ms, unsigned alarm_s)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int status, waited = 0;

	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return GD_EXIT_ENV;
		if (waited == deadline_ms)
			kill(pid, SIGTERM);
		if (waited == deadline_ms + 2000)
			kill(pid, SIGKILL);
		nanosleep(&ts, NULL);
		waited += 20;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WTERMSIG(status) == SIGALRM) {
		gd_error("gd_check's deadline of %u s for this run (from its duration or iterations "
			 "and size) ended the server side", alarm_s);
		return GD_EXIT_ENV;
	}
	gd_error("the server side of the loopback ended by signal %d", WTERMSIG(status));
	return GD_EXIT_FAIL;
}

uint16_t gd_ck_next_port(uint16_t base, uint16_t p)
{
	return p + 1 < 65000 ? (uint16_t)(p + 1) : base;
}

static bool port_free(int family, uint16_t port)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6, .sin6_port = htons(port),
				   .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_ANY) };
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1, ret;

	if (fd < 0)
		return family == AF_INET6; /* no IPv6 here: the IPv4 probe decides */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	ret = family == AF_INET6 ? bind(fd, (struct sockaddr *)&s6, sizeof(s6)) :
				   bind(fd, (struct sockaddr *)&s4, sizeof(s4));
	close(fd);
	return !ret || errno != EADDRINUSE;
}

int gd_ck_free_port(uint16_t base, uint16_t *port)
{
	for (int i = 0; i < 200; i++, *port = gd_ck_next_port(base, *port))
		if (port_free(AF_INET6, *port) && port_free(AF_INET, *port))
			return 0;
	return -EADDRINUSE;
}

void gd_ck_take(const struct gd_bench_result *res, struct gd_ck_measure *m)
{
	if (res->facts_valid) { /* how it ran, as the tools' JSON reports it */
		snprintf(m->registration, sizeof(m->registration), "%s", res->facts.registration);
		snprintf(m->gpu_path_class, sizeof(m->gpu_path_class), "%s",
			 res->facts.gpu_path_class);
		m->staging = res->facts.staging;
		snprintf(m->device, sizeof(m->device), "%s", res->facts.device);
	}
	for (size_t i = 0; i < res->nsizes && m->nsizes < GD_ARRAY_SIZE(m->size); i++) {
		const struct gd_bench_size_result *s = &res->sizes[i];
		size_t k = m->nsizes++;

		m->size[k] = s->size;
		m->bw_avg_gbps[k] = s->bw_avg_Bps * 8 / 1e9;
		m->bw_peak_gbps[k] = s->bw_peak_Bps * 8 / 1e9;
		m->msg_rate_mpps[k] = s->msg_rate / 1e6;
		m->lat_avg_us[k] = s->has_lat ? s->lat.avg : 0;
		m->lat_p50_us[k] = s->has_lat ? s->lat.pct[GD_P50] : 0;
		m->lat_p99_us[k] = s->has_lat ? s->lat.pct[GD_P99] : 0;
		m->lat_p999_us[k] = s->has_lat ? s->lat.pct[GD_P999] : 0;
		m->lat_max_us[k] = s->has_lat ? s->lat.max : 0;
		gd_trust_join(&s->trust, m->doubtful[k], sizeof(m->doubtful[k]));
	}
}

int gd_ck_loopback(const struct gd_ck_run *run, uint64_t size, struct gd_ck_measure *m)
{
	struct gd_bench_params sp, cp;
	struct gd_bench_result *res = calloc(1, sizeof(*res));
	int deadline, code, scode;
	pid_t pid;

	if (!res)
		return GD_EXIT_ENV;
	gd_ck_params(run, size, GD_ROLE_SERVER, &sp);
	gd_ck_params(run, size, GD_ROLE_CLIENT, &cp);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(res);
		snprintf(m->error, sizeof(m->error), "fork: %s", strerror(errno));
		return m->exit_code = GD_EXIT_ENV;
	}
	if (pid == 0) {
		alarm(gd_ck_deadline_s(run->t, size) + (unsigned)(sp.timeout_ms / 1000));
		_exit(gd_bench_run_side(&sp, NULL, res));
	}
	code = gd_bench_run_side(&cp, NULL, res);
	/* the client is done: give the server its side-channel timeout to finish */
	deadline = (int)(cp.timeout_ms + (code ? 0 : 5000));
	scode = reap(pid, deadline, gd_ck_deadline_s(run->t, size) + sp.timeout_ms / 1000);
	if (!code)
		gd_ck_take(res, m);
	if (!code && scode)
		code = scode;
	if (code)
		snprintf(m->error, sizeof(m->error), "the engine ended with exit code %d (%s side)",
			 code, res->exit_code ? "client" : "server");
	free(res);
	return m->exit_code = code;
}
