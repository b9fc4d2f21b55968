/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "config.h"

#include "oob.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "gd.h"
#include "log.h"

struct gd_oob {
	int fd;			/* the peer */
	int lfd;		/* server: the listening socket, kept to refuse extra clients */
	enum gd_bench_role role;
	int timeout_ms;		/* deadline of each message */
	uint32_t seq_tx, seq_rx; /* READY numbers */
	int peer_code;		/* from a received ERROR */
	bool peer_interrupted;	/* that ERROR said a signal stopped the peer */
	bool peer_gone;		/* EOF seen and reported */
	bool closing;		/* in gd_oob_close: no more messages about the peer */
	bool broken;		/* garbage, out of order or stuck: close without the BYE handshake */
	bool told_interrupt;	/* the peer was told of our SIGINT */
	struct sockaddr_storage peer, local;
	socklen_t peer_len, local_len;
	char peer_name[GD_BENCH_HOST_MAX + 24];
	char where[GD_BENCH_HOST_MAX + 16]; /* "HOST:PORT" as given, for messages */
	void (*idle)(void *arg);	/* a fabric that moves data only when asked: while waiting */
	void *idle_arg;
	/* the run's heartbeat (gd_oob_start_alive): a thread sends ALIVE every
	 * alive_every_ms; a peer silent for timeout_ms is stopped or hung */
	pthread_mutex_t tx_lock;	/* one message at a time on the socket */
	pthread_mutex_t alive_lock;
	pthread_cond_t alive_cond;
	pthread_t alive_thread;
	bool alive_on, alive_stop;
	int alive_every_ms;
	int64_t last_heard;		/* ms: the peer's last byte, once alive_on */
	int64_t main_seen;		/* ms: the tool's thread last waited or checked here (atomic) */
	bool silent;			/* the peer's silence ended a wait (printed) */
	/* gd_oob_loopback: no socket; what this side sends it receives (a FIFO) */
	bool loopback;
	struct gd_wire_msg *echo;	/* LOOP_DEPTH messages */
	uint32_t echo_head, echo_n;
};

#define LOOP_DEPTH 4 /* a step sends one message and reads it back: never more than 2 wait */

void gd_oob_set_idle(struct gd_oob *o, void (*idle)(void *arg), void *arg)
{
	o->idle = idle;
	o->idle_arg = arg;
}

/* what gd_oob_tell_interrupted sends (ERROR text): the receiver knows it by it */
#define INTERRUPTED_TEXT "the peer was interrupted (SIGINT or SIGTERM)"

static volatile sig_atomic_t *interrupt_flag;

void gd_oob_set_interrupt_flag(volatile sig_atomic_t *flag)
{
	interrupt_flag = flag;
}

/* A signal the tool handles (SIGINT) set the flag: stop waiting. */
static bool interrupted(void)
{
	if (!interrupt_flag || !*interrupt_flag)
		return false;
	gd_error("interrupted while waiting for the peer");
	return true;
}

/* ---- time ------------------------------------------------------------- */

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Deadline from a timeout: < 0 means none. */
static int64_t deadline_of(int timeout_ms)
{
	return timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
}

/*
 * poll() timeout until the deadline, 0 when passed. Without a deadline, wake
 * up every second anyway to notice the interrupt flag.
 */
static int left_ms(int64_t deadline)
{
	int64_t left;

	if (deadline < 0)
		return 1000;
	left = deadline - now_ms();
	return left <= 0 ? 0 : (left > 60000 ? 60000 : (int)left);
}

static double secs(int ms)
{
	return ms / 1000.0;
}

/* ---- addresses -------------------------------------------------------- */

static void normalize(struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in s4;

	if (ss->ss_family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
		return;
	memset(&s4, 0, sizeof(s4));
	s4.sin_family = AF_INET;
	s4.sin_port = s6->sin6_port;
	memcpy(&s4.sin_addr, &s6->sin6_addr.s6_addr[12], 4);
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, &s4, sizeof(s4));
	*len = sizeof(s4);
}

static void addr_name(const struct sockaddr *sa, socklen_t len, char *buf, size_t buflen)
{
	char host[INET6_ADDRSTRLEN] = "?", port[8] = "?";

	getnameinfo(sa, len, host, sizeof(host), port, sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV);
	snprintf(buf, buflen, sa->sa_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, port);
}

static void fill_names(struct gd_oob *o)
{
	o->peer_len = sizeof(o->peer);
	o->local_len = sizeof(o->local);
	if (getpeername(o->fd, (struct sockaddr *)&o->peer, &o->peer_len))
		o->peer_len = 0;
	if (getsockname(o->fd, (struct sockaddr *)&o->local, &o->local_len))
		o->local_len = 0;
	normalize(&o->peer, &o->peer_len);
	normalize(&o->local, &o->local_len);
	if (o->peer_len)
		addr_name((struct sockaddr *)&o->peer, o->peer_len, o->peer_name, sizeof(o->peer_name));
	else
		snprintf(o->peer_name, sizeof(o->peer_name), "%s", o->where);
}

static const char *peer_role(const struct gd_oob *o)
{
	return o->role == GD_ROLE_SERVER ? "client" : "server";
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) ? -errno : 0;
}

static struct gd_oob *oob_new(const struct gd_bench_params *p)
{
	struct gd_oob *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->fd = -1;
	o->lfd = -1;
	pthread_mutex_init(&o->tx_lock, NULL);
	pthread_mutex_init(&o->alive_lock, NULL);
	pthread_cond_init(&o->alive_cond, NULL);
	o->role = p->role;
	o->timeout_ms = (int)p->timeout_ms;
	if (o->timeout_ms <= 0)
		o->timeout_ms = GD_BENCH_DEF_TIMEOUT_MS;
	if (p->role == GD_ROLE_CLIENT)
		snprintf(o->where, sizeof(o->where), strchr(p->peer, ':') ? "[%s]:%u" : "%s:%u",
			 p->peer, p->tcp_port);
	else
		snprintf(o->where, sizeof(o->where), strchr(p->bind_addr, ':') ? "[%s]:%u" : "%s:%u",
			 p->bind_addr[0] ? p->bind_addr : "*", p->tcp_port);
	return o;
}

static void alive_stop(struct gd_oob *o);

static void oob_free(struct gd_oob *o)
{
	if (!o)
		return;
	alive_stop(o);
	pthread_mutex_destroy(&o->tx_lock);
	pthread_mutex_destroy(&o->alive_lock);
	pthread_cond_destroy(&o->alive_cond);
	if (o->fd >= 0)
		close(o->fd);
	if (o->lfd >= 0)
		close(o->lfd);
	free(o->echo);
	free(o);
}

/* ---- server ----------------------------------------------------------- */

static int try_listen(const struct sockaddr *sa, socklen_t len, bool v6only_off)
{
	int one = 1, zero = 0, fd, err;

	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (v6only_off)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, sa, len) || listen(fd, 8) || set_nonblock(fd)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

static int listen_any(uint16_t port)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6, .sin6_port = htons(port),
				   .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_ANY) };
	int fd = try_listen((struct sockaddr *)&s6, sizeof(s6), true); /* dual stack */

	if (fd == -EAFNOSUPPORT || fd == -EADDRNOTAVAIL)
		fd = try_listen((struct sockaddr *)&s4, sizeof(s4), false);
	return fd;
}

static int listen_on(const char *addr, uint16_t port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res, *ai;
	char portstr[8];
	int fd = -EADDRNOTAVAIL, gai;

	snprintf(portstr, sizeof(portstr), "%u", port);
	gai = getaddrinfo(addr, portstr, &hints, &res);
	if (gai) {
		gd_error("--bind %s: %s", addr, gai_strerror(gai));
		return -EHOSTUNREACH;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = try_listen(ai->ai_addr, ai->ai_addrlen, false);
		if (fd >= 0 || fd == -EADDRINUSE)
			break;
	}
	freeaddrinfo(res);
	return fd;
}

int gd_oob_listen(const struct gd_bench_params *p, struct gd_oob **oob)
{
	struct gd_oob *o = oob_new(p);
	int fd;

	*oob = NULL;
	if (!o)
		return -ENOMEM;
	fd = p->bind_addr[0] ? listen_on(p->bind_addr, p->tcp_port) : listen_any(p->tcp_port);
	if (fd < 0) {
		if (fd == -EADDRINUSE)
			gd_error("cannot listen on %s: the port is in use (another gdperf or perftest "
				 "server?): stop it or choose another port with -p", o->where);
		else if (fd == -EADDRNOTAVAIL)
			gd_error("cannot listen on %s: the address is not one of this machine's "
				 "(check --bind)", o->where);
		else if (fd != -EHOSTUNREACH)
			gd_error("cannot listen on %s: %s", o->where, strerror(-fd));
		oob_free(o);
		return fd;
	}
	o->lfd = fd;
	*oob = o;
	return 0;
}

/* A second client while we hold one: tell it why and close. Never blocks. */
static void refuse_extra(struct gd_oob *o)
{
	struct gd_wire_msg m = { .type = GD_MSG_ERROR, .error.code = GD_EXIT_USAGE };
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	uint8_t buf[GD_WIRE_MAX_MSG];
	char who[INET6_ADDRSTRLEN + 16];
	ssize_t n;
	int fd;

	while ((fd = accept4(o->lfd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		normalize(&ss, &len);
		addr_name((struct sockaddr *)&ss, len, who, sizeof(who));
		snprintf(m.error.text, sizeof(m.error.text),
			 "server busy: it is already running a test with %s; wait for it to end or "
			 "start another server on another port (-p)", o->peer_name);
		n = gd_wire_encode(&m, buf, sizeof(buf));
		if (n > 0 && send(fd, buf, (size_t)n, MSG_NOSIGNAL) < 0)
			gd_debug("could not tell %s that we are busy: %s", who, strerror(errno));
		gd_warn("refused a second client from %s: this server runs one test at a time", who);
		shutdown(fd, SHUT_WR);
		close(fd);
		len = sizeof(ss);
	}
}

int gd_oob_accept(struct gd_oob *o, int timeout_ms)
{
	int64_t deadline = deadline_of(timeout_ms);
	struct pollfd pfd = { .fd = o->lfd, .events = POLLIN };
	int one = 1;

	for (;;) {
		int r;

		if (interrupted())
			return -EINTR;
		r = poll(&pfd, 1, left_ms(deadline));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0 && left_ms(deadline) == 0) {
			gd_error("no client connected to %s within %g s (see --timeout)", o->where,
				 secs(timeout_ms));
			return -ENOTCONN; /* nobody came: not a peer that stopped answering */
		}
		if (r == 0)
			continue;
		o->fd = accept4(o->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (o->fd >= 0)
			break;
		if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED) {
			gd_error("accept on %s: %s", o->where, strerror(errno));
			return -errno;
		}
	}
	setsockopt(o->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	fill_names(o);
	gd_debug("client %s connected", o->peer_name);
	return 0;
}

/* ---- client ----------------------------------------------------------- */

static int bind_source(int fd, const char *src, int family)
{
	struct addrinfo hints = { .ai_family = family, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_PASSIVE };
	struct addrinfo *res;
	int ret = 0;

	if (getaddrinfo(src, "0", &hints, &res)) {
		gd_error("--bind_source_ip %s is not a numeric address of the peer's family", src);
		return -EADDRNOTAVAIL;
	}
	if (bind(fd, res->ai_addr, res->ai_addrlen)) {
		ret = -errno;
		gd_error("--bind_source_ip %s: %s", src, strerror(errno));
	}
	freeaddrinfo(res);
	return ret;
}

/* One non-blocking connect attempt, bounded by deadline. fd or -errno. */
static int connect_once(const struct addrinfo *ai, const char *src, int64_t deadline)
{
	struct pollfd pfd;
	int fd, err = 0, ret;
	socklen_t len = sizeof(err);

	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (src[0] && (ret = bind_source(fd, src, ai->ai_family))) {
		close(fd);
		return ret == -EADDRNOTAVAIL ? -EINVAL : ret; /* not worth retrying */
	}
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return fd;
	if (errno != EINPROGRESS) {
		err = -errno;
		close(fd);
		return err;
	}
	pfd = (struct pollfd){ .fd = fd, .events = POLLOUT };
	do {
		ret = poll(&pfd, 1, left_ms(deadline));
	} while (ret < 0 && errno == EINTR && !(interrupt_flag && *interrupt_flag));
	if (ret <= 0) {
		close(fd);
		return ret == 0 ? -ETIMEDOUT : -errno;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) || err) {
		close(fd);
		return -(err ? err : errno);
	}
	return fd;
}

static int oob_connect(struct gd_oob *o, const struct gd_bench_params *p)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res = NULL, *ai;
	int64_t deadline = deadline_of(o->timeout_ms);
	char portstr[8];
	int fd = -ECONNREFUSED, gai, one = 1;

	snprintf(portstr, sizeof(portstr), "%u", p->tcp_port);
	for (;;) {
		if (!res) {
			gai = getaddrinfo(p->peer, portstr, &hints, &res);
			if (gai == EAI_NONAME || gai == EAI_FAIL || gai == EAI_SERVICE) {
				gd_error("cannot resolve the server '%s': %s", p->peer, gai_strerror(gai));
				return -EHOSTUNREACH;
			}
			if (gai)
				res = NULL; /* EAI_AGAIN and the like: retry until the deadline */
		}
		for (ai = res; ai; ai = ai->ai_next) {
			fd = connect_once(ai, p->source_ip, deadline);
			if (fd >= 0 || fd == -EINVAL)
				break;
		}
		if (fd >= 0 || fd == -EINVAL || left_ms(deadline) == 0)
			break;
		if (interrupted()) {
			if (res)
				freeaddrinfo(res);
			return -EINTR;
		}
		/* nobody there yet: the server may not have started; retry */
		poll(NULL, 0, left_ms(deadline) < 100 ? left_ms(deadline) : 100);
	}
	if (res)
		freeaddrinfo(res);
	if (fd == -EINVAL)
		return -EINVAL;
	if (fd < 0) {
		gd_error("nobody listening on %s after %g s (last error: %s): is the server running? "
			 "the right port (-p)? a firewall?", o->where, secs(o->timeout_ms),
			 strerror(-fd));
		return -ECONNREFUSED; /* nobody there: a configuration error, not a silent peer */
	}
	o->fd = fd;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	fill_names(o);
	return 0;
}

int gd_oob_open(const struct gd_bench_params *p, int accept_timeout_ms, struct gd_oob **oob)
{
	struct gd_oob *o;
	int ret;

	*oob = NULL;
	if (p->role == GD_ROLE_SERVER) {
		ret = gd_oob_listen(p, &o);
		if (ret)
			return ret;
		ret = gd_oob_accept(o, accept_timeout_ms);
	} else {
		o = oob_new(p);
		if (!o)
			return -ENOMEM;
		ret = oob_connect(o, p);
	}
	if (ret) {
		oob_free(o);
		return ret;
	}
	*oob = o;
	return 0;
}

int gd_oob_loopback(const struct gd_bench_params *p, const char *peer_name, struct gd_oob **oob)
{
	struct gd_oob *o = oob_new(p);

	*oob = o;
	if (o)
		o->echo = calloc(LOOP_DEPTH, sizeof(*o->echo));
	if (!o || !o->echo) {
		oob_free(o);
		*oob = NULL;
		return -ENOMEM;
	}
	o->loopback = true;
	snprintf(o->peer_name, sizeof(o->peer_name), "%s", peer_name);
	return 0;
}

/* The loopback's send: the steps' messages wait for this side's own receive;
 * the heartbeat, ERROR and BYE have nobody to tell. */
static int echo_push(struct gd_oob *o, const struct gd_wire_msg *m)
{
	struct gd_wire_msg *e;

	if (m->type == GD_MSG_ALIVE || m->type == GD_MSG_ERROR || m->type == GD_MSG_BYE)
		return 0;
	if (o->echo_n == LOOP_DEPTH) {
		gd_error("internal: the loopback side channel holds %d messages unread (%s not "
			 "taken)", LOOP_DEPTH, gd_wire_type_name(m->type));
		return -ENOBUFS;
	}
	e = &o->echo[(o->echo_head + o->echo_n++) % LOOP_DEPTH];
	*e = *m;
	if (m->type == GD_MSG_HELLO) /* this side's parameters in the peer's role */
		e->hello.params.role = o->role == GD_ROLE_SERVER ? GD_ROLE_CLIENT : GD_ROLE_SERVER;
	return 0;
}

/* The loopback's receive: the oldest message sent, which must be the one wanted. */
static int echo_pop(struct gd_oob *o, enum gd_wire_type want, struct gd_wire_msg *m)
{
	if (!o->echo_n) {
		gd_error("internal: waited for %s on the loopback side channel, which holds "
			 "nothing (this side sent none)", gd_wire_type_name(want));
		return -ENOMSG;
	}
	*m = o->echo[o->echo_head];
	o->echo_head = (o->echo_head + 1) % LOOP_DEPTH;
	o->echo_n--;
	if (m->type != want) {
		gd_error("internal: the loopback side channel holds %s where %s was wanted",
			 gd_wire_type_name(m->type), gd_wire_type_name(want));
		return -ENOMSG;
	}
	return 0;
}

/* ---- sending and receiving -------------------------------------------- */

/* One message out, under tx_lock. A socket the peer closed: -ECONNRESET with
 * its errno in *lost (the cause is judged after the lock: send_lost). */
static int send_msg_locked(struct gd_oob *o, const struct gd_wire_msg *m, int *lost)
{
	uint8_t buf[GD_WIRE_MAX_MSG];
	ssize_t n = gd_wire_encode(m, buf, sizeof(buf));
	int64_t deadline = deadline_of(o->timeout_ms);
	size_t off = 0;

	if (n < 0) {
		gd_error("internal: cannot encode %s: %s", gd_wire_type_name(m->type), strerror((int)-n));
		return (int)n;
	}
	while (off < (size_t)n) {
		struct pollfd pfd = { .fd = o->fd, .events = POLLOUT };
		ssize_t w = send(o->fd, buf + off, (size_t)n - off, MSG_NOSIGNAL);
		int r;

		if (w > 0) {
			off += (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR) {
			*lost = errno;
			return -ECONNRESET;
		}
		if (interrupted())
			return -EINTR;
		r = poll(&pfd, 1, left_ms(deadline));
		if (r == 0) {
			o->broken = true;
			if (!o->closing)
				gd_error("the %s (%s) did not take our %s within %g s: it is stuck (see "
					 "--timeout)", peer_role(o), o->peer_name,
					 gd_wire_type_name(m->type), secs(o->timeout_ms));
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/* A send the peer's close ended. A peer that stopped says why (an ERROR:
 * interrupted, its own fault) just before it closes: that word may wait in our
 * receive buffer, and it is the cause (gd_oob_await_peer prints it). Read with
 * tx_lock released: reading may send (an interrupt told to the peer) and the
 * heartbeat sends under it. */
static void send_lost(struct gd_oob *o, const struct gd_wire_msg *m, int err)
{
	if (!o->peer_gone && !o->closing && !gd_oob_await_peer(o, 0) && !o->peer_gone)
		gd_error("the %s (%s) closed the side channel while we sent %s: %s; did it "
			 "exit or crash?", peer_role(o), o->peer_name, gd_wire_type_name(m->type),
			 strerror(err));
	o->peer_gone = true;
}

static int send_msg(struct gd_oob *o, const struct gd_wire_msg *m)
{
	int ret, lost = 0;

	if (o->loopback)
		return echo_push(o, m);
	pthread_mutex_lock(&o->tx_lock);
	ret = send_msg_locked(o, m, &lost);
	pthread_mutex_unlock(&o->tx_lock);
	if (lost)
		send_lost(o, m, lost);
	return ret;
}

/* ---- the heartbeat ---------------------------------------------------- */

/* One ALIVE, not at all when the socket is full (the peer reads nothing: its
 * silence is its own problem), or whole; false: the stream broke, stop. */
static bool send_alive(struct gd_oob *o)
{
	struct gd_wire_msg m = { .type = GD_MSG_ALIVE };
	uint8_t buf[GD_WIRE_HDR_LEN];
	int64_t deadline = deadline_of(o->timeout_ms);
	size_t off = 0;
	bool ok = gd_wire_encode(&m, buf, sizeof(buf)) == (ssize_t)sizeof(buf);

	pthread_mutex_lock(&o->tx_lock);
	while (ok && off < sizeof(buf)) {
		struct pollfd pfd = { .fd = o->fd, .events = POLLOUT };
		ssize_t w = send(o->fd, buf + off, sizeof(buf) - off, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w > 0)
			off += (size_t)w;
		else if (w < 0 && errno != EAGAIN && errno != EINTR)
			ok = false;
		else if (off == 0)
			break;
		else /* half a message out: the rest, or the stream is lost */
			ok = poll(&pfd, 1, left_ms(deadline)) > 0;
	}
	pthread_mutex_unlock(&o->tx_lock);
	return ok;
}

static void main_seen_now(struct gd_oob *o)
{
	if (o->alive_on)
		__atomic_store_n(&o->main_seen, now_ms(), __ATOMIC_RELAXED);
}

/* What the heartbeat thread sees of the peer without reading the socket. */
struct alive_view {
	int unread;		/* bytes waiting: the peer's ALIVEs pile up while we are stuck */
	int64_t unread_since;	/* ms: when that count last changed */
};

/*
 * The watchdog: the tool's thread stuck past --timeout without a look at
 * the side channel, while the peer has closed it (SIGKILL) or said nothing for
 * --timeout (SIGSTOP): the thread waits inside the fabric on a peer that will
 * never answer (libfabric's shm spins on a lock a killed peer held, for ever
 * and deaf to SIGTERM). Say so, naming the peer, and end the process (exit 1).
 */
static void watchdog(struct gd_oob *o, struct alive_view *v)
{
	int64_t now = now_ms(), seen = __atomic_load_n(&o->main_seen, __ATOMIC_RELAXED);
	struct pollfd pfd = { .fd = o->fd, .events = POLLRDHUP };
	bool gone;
	int n = 0;

	if (!ioctl(o->fd, FIONREAD, &n) && n != v->unread) {
		v->unread = n;
		v->unread_since = now;
	}
	if (now - seen <= o->timeout_ms)
		return;
	gone = poll(&pfd, 1, 0) > 0;
	if (!gone && now - v->unread_since <= o->timeout_ms)
		return;
	gd_error("the %s (%s) %s, and this side has been stuck in the fabric for %g s (the "
		 "provider waits on the peer): giving up", peer_role(o), o->peer_name,
		 gone ? "closed the side channel" : "has said nothing for --timeout",
		 secs((int)(now - seen)));
	_exit(GD_EXIT_FAIL);
}

static void *alive_main(void *arg)
{
	struct gd_oob *o = arg;
	struct alive_view v = { .unread = -1, .unread_since = now_ms() };
	bool sending = true;

	pthread_mutex_lock(&o->alive_lock);
	while (!o->alive_stop) {
		struct timespec ts = gd_realtime_in_ms(o->alive_every_ms);

		if (pthread_cond_timedwait(&o->alive_cond, &o->alive_lock, &ts) != ETIMEDOUT ||
		    o->alive_stop)
			continue;
		pthread_mutex_unlock(&o->alive_lock);
		/* a broken stream (the peer killed) ends the ALIVEs, not the watchdog: the
		 * tool's thread may be stuck inside the fabric on that very peer */
		if (sending)
			sending = send_alive(o);
		watchdog(o, &v);
		pthread_mutex_lock(&o->alive_lock);
	}
	pthread_mutex_unlock(&o->alive_lock);
	return NULL;
}

int gd_oob_start_alive(struct gd_oob *o)
{
	if (!o || o->alive_on || o->fd < 0)
		return 0;
	o->alive_every_ms = GD_MAX(o->timeout_ms / 4, 1);
	o->last_heard = now_ms();
	o->main_seen = o->last_heard;
	o->alive_stop = false;
	if (pthread_create(&o->alive_thread, NULL, alive_main, o)) {
		gd_error("cannot start the side channel's heartbeat thread: %s", strerror(errno));
		return -ENOMEM;
	}
	o->alive_on = true;
	return 0;
}

static void alive_stop(struct gd_oob *o)
{
	if (!o->alive_on)
		return;
	pthread_mutex_lock(&o->alive_lock);
	o->alive_stop = true;
	pthread_cond_signal(&o->alive_cond);
	pthread_mutex_unlock(&o->alive_lock);
	pthread_join(o->alive_thread, NULL);
	o->alive_on = false;
}

/* The peer has said nothing for --timeout while its heartbeat should run:
 * say so once; the close skips the handshake a stopped peer cannot answer. */
static int peer_silent(struct gd_oob *o)
{
	if (!o->silent && !o->closing)
		gd_error("the %s (%s) has said nothing on the side channel for %g s (--timeout), "
			 "where it says ALIVE every %g s: it is stopped (SIGSTOP, a debugger), hung, "
			 "or the network between us dropped", peer_role(o), o->peer_name,
			 secs(o->timeout_ms), secs(o->alive_every_ms));
	o->silent = true;
	o->broken = true;
	return -ETIMEDOUT;
}

static bool peer_silent_now(const struct gd_oob *o)
{
	return o->alive_on && now_ms() - o->last_heard > o->timeout_ms;
}

/* How long a wait may block: to the deadline, and to the peer's silence limit. */
static int block_ms(const struct gd_oob *o, int64_t deadline)
{
	int left = left_ms(deadline);

	if (o->alive_on) {
		int64_t quiet = o->last_heard + o->timeout_ms + 1 - now_ms();

		quiet = quiet < 0 ? 0 : quiet;
		if (left < 0 || quiet < left)
			left = (int)quiet;
	}
	return left;
}

/*
 * Read exactly n bytes by the deadline, refusing extra clients meanwhile.
 * Returns 0, or -ECONNRESET with *got < n on EOF, or -ETIMEDOUT.
 */
static int recv_exact(struct gd_oob *o, uint8_t *buf, size_t n, int64_t deadline, size_t *got)
{
	*got = 0;
	while (*got < n) {
		struct pollfd pfd[2] = { { .fd = o->fd, .events = POLLIN },
					 { .fd = o->lfd, .events = POLLIN } };
		ssize_t r = recv(o->fd, buf + *got, n - *got, 0);
		int pr;

		if (r > 0) {
			*got += (size_t)r;
			if (o->alive_on)
				o->last_heard = now_ms();
			continue;
		}
		if (r == 0)
			return -ECONNRESET;
		if (errno != EAGAIN && errno != EINTR)
			return -ECONNRESET;
		if (interrupted()) {
			gd_oob_tell_interrupted(o);
			return -EINTR;
		}
		main_seen_now(o);
		if (peer_silent_now(o))
			return peer_silent(o);
		pr = poll(pfd, o->lfd >= 0 ? 2 : 1, o->idle ? 0 : block_ms(o, deadline));
		if (pr == 0 && o->idle)
			o->idle(o->idle_arg); /* and spin: the fabric's progress is ours to drive */
		if (pr < 0 && errno != EINTR)
			return -errno;
		if (pr > 0 && o->lfd >= 0 && (pfd[1].revents & POLLIN))
			refuse_extra(o);
		if (pr == 0 && left_ms(deadline) == 0)
			return -ETIMEDOUT;
	}
	return 0;
}

static void print_peer_error(struct gd_oob *o, const struct gd_wire_error *e)
{
	o->peer_code = (int)e->code;
	o->peer_interrupted = !strcmp(e->text, INTERRUPTED_TEXT);
	gd_error("the %s (%s) reported: %s", peer_role(o), o->peer_name, e->text);
}

/*
 * Receive one message of type want (timeout_ms < 0: no deadline). An ERROR
 * is printed and gives -ECONNABORTED; any other type is out of order.
 */
static int recv_one(struct gd_oob *o, enum gd_wire_type want, struct gd_wire_msg *m,
		    int64_t deadline, int timeout_ms)
{
	uint8_t buf[GD_WIRE_MAX_MSG];
	struct gd_wire_hdr h;
	char err[256];
	size_t got;
	int ret;

	ret = recv_exact(o, buf, GD_WIRE_HDR_LEN, deadline, &got);
	if (ret == -EINTR || o->silent)
		return ret;
	if (ret == -ECONNRESET && got == 0) {
		if (!o->peer_gone)
			gd_error("the %s (%s) closed the side channel while we waited for %s: did it "
				 "exit or crash?", peer_role(o), o->peer_name, gd_wire_type_name(want));
		o->peer_gone = true;
		return ret;
	}
	if (ret == -ETIMEDOUT && got == 0) {
		gd_error("no %s from the %s (%s) within %g s: it is stuck, or the network between "
			 "us dropped (see --timeout)", gd_wire_type_name(want), peer_role(o),
			 o->peer_name, secs(timeout_ms));
		return ret;
	}
	if (ret) {
		/* a few bytes that are not even a header: say what they were */
		static const uint8_t magic[4] = { 'G', 'D', 'P', 'F' };

		if (got >= 4 && memcmp(buf, magic, 4)) {
			memset(buf + got, 0, GD_WIRE_HDR_LEN - got);
			gd_wire_decode_hdr(buf, GD_WIRE_HDR_LEN, &h, err, sizeof(err));
		} else {
			snprintf(err, sizeof(err), "a truncated message header");
		}
		gd_error("the %s (%s) %s after %zu bytes: %s", peer_role(o), o->peer_name,
			 ret == -ETIMEDOUT ? "stalled" : "closed the side channel", got, err);
		o->peer_gone = ret == -ECONNRESET;
		return -EPROTO; /* a message cut short: the protocol broke, not a silent peer */
	}
	ret = gd_wire_decode_hdr(buf, GD_WIRE_HDR_LEN, &h, err, sizeof(err));
	if (ret) {
		gd_error("bad message from the %s (%s): %s", peer_role(o), o->peer_name, err);
		return ret;
	}
	ret = recv_exact(o, buf + GD_WIRE_HDR_LEN, h.len, deadline, &got);
	if (ret == -EINTR || o->silent)
		return ret;
	if (ret) {
		gd_error("the %s (%s) %s in the middle of a %s message (got %zu of %u payload bytes)",
			 peer_role(o), o->peer_name,
			 ret == -ETIMEDOUT ? "stalled" : "closed the side channel",
			 gd_wire_type_name(h.type), got, h.len);
		o->peer_gone = ret == -ECONNRESET;
		return -EPROTO; /* a message cut short: the protocol broke */
	}
	ret = gd_wire_decode_payload(h.type, buf + GD_WIRE_HDR_LEN, h.len, m, err, sizeof(err));
	if (ret) {
		gd_error("bad %s message from the %s (%s): %s", gd_wire_type_name(h.type), peer_role(o),
			 o->peer_name, err);
		return ret;
	}
	if (m->type == want)
		return 0;
	if (m->type == GD_MSG_ALIVE)
		return 1;
	if (m->type == GD_MSG_ERROR) {
		print_peer_error(o, &m->error);
		return -ECONNABORTED;
	}
	if (m->type == GD_MSG_BYE) {
		gd_error("the %s (%s) ended the session while we waited for %s", peer_role(o),
			 o->peer_name, gd_wire_type_name(want));
		o->peer_gone = true;
		return -ECONNRESET;
	}
	gd_error("out-of-order message from the %s (%s): expected %s, got %s", peer_role(o),
		 o->peer_name, gd_wire_type_name(want), gd_wire_type_name(m->type));
	return -ENOMSG;
}

/* recv_one, past the peer's ALIVEs (its heartbeat, read whenever we wait) */
static int recv_msg_raw(struct gd_oob *o, enum gd_wire_type want, struct gd_wire_msg *m,
			int timeout_ms)
{
	int64_t deadline = deadline_of(timeout_ms);
	int ret;

	while ((ret = recv_one(o, want, m, deadline, timeout_ms)) == 1)
		;
	return ret;
}

static int recv_msg(struct gd_oob *o, enum gd_wire_type want, struct gd_wire_msg *m, int timeout_ms)
{
	int ret = o->loopback ? echo_pop(o, want, m) : recv_msg_raw(o, want, m, timeout_ms);

	/* after garbage, a message out of order or a stuck peer there is no point in a polite close */
	if (ret && ret != -ECONNABORTED && ret != -EINTR)
		o->broken = true;
	return ret;
}

/* ---- the steps -------------------------------------------------------- */

int gd_oob_hello(struct gd_oob *o, const struct gd_bench_params *p, struct gd_wire_hello *remote)
{
	struct gd_wire_msg out = { .type = GD_MSG_HELLO }, in;
	char diff[GD_WIRE_TEXT_MAX - 64];
	int ret, n;

	gd_wire_hello_from_params(&out.hello, p);
	ret = send_msg(o, &out);
	if (ret)
		return ret;
	ret = recv_msg(o, GD_MSG_HELLO, &in, o->timeout_ms);
	if (ret)
		return ret;
	if (remote)
		*remote = in.hello;
	if (strcmp(in.hello.version, out.hello.version))
		gd_debug("the %s runs gdperf %s, we run %s", peer_role(o), in.hello.version,
			 out.hello.version);
	n = gd_params_diff(p, &in.hello.params, diff, sizeof(diff));
	if (!n)
		return 0;
	gd_error("the %s (%s, %s) runs with different parameters (%d must match):\n%s", peer_role(o),
		 o->peer_name, in.hello.tool, n, diff);
	gd_oob_send_error(o, GD_EXIT_USAGE, "parameters differ from this %s's:\n%s",
			  gd_bench_role_name(p->role), diff);
	return -EINVAL;
}

int gd_oob_exchange_conn(struct gd_oob *o, const struct gd_wire_conn *local,
			 struct gd_wire_conn *remote, uint32_t nqp)
{
	for (uint32_t i = 0; i < nqp; i++) {
		struct gd_wire_msg out = { .type = GD_MSG_CONN }, in;
		int ret;

		out.conn = local[i];
		out.conn.qp_index = i;
		out.conn.qp_count = nqp;
		ret = send_msg(o, &out);
		if (!ret)
			ret = recv_msg(o, GD_MSG_CONN, &in, o->timeout_ms);
		if (ret)
			return ret;
		if (in.conn.qp_count != nqp || in.conn.qp_index != i) {
			gd_error("the %s (%s) sent connection data for QP %u of %u, expected QP %u of %u",
				 peer_role(o), o->peer_name, in.conn.qp_index, in.conn.qp_count, i, nqp);
			gd_oob_send_error(o, GD_EXIT_USAGE, "connection data out of order");
			return -ENOMSG;
		}
		remote[i] = in.conn;
	}
	return 0;
}

int gd_oob_barrier_wait(struct gd_oob *o, int timeout_ms)
{
	struct gd_wire_msg out = { .type = GD_MSG_READY, .ready.seq = o->seq_tx }, in;
	int ret = send_msg(o, &out);

	if (ret)
		return ret;
	o->seq_tx++;
	ret = recv_msg(o, GD_MSG_READY, &in, timeout_ms);
	if (ret)
		return ret;
	if (in.ready.seq != o->seq_rx) {
		gd_error("the %s (%s) is at step %u, we are at step %u: out of step", peer_role(o),
			 o->peer_name, in.ready.seq, o->seq_rx);
		return -ENOMSG;
	}
	o->seq_rx++;
	return 0;
}

int gd_oob_barrier(struct gd_oob *o)
{
	return gd_oob_barrier_wait(o, o->timeout_ms);
}

int gd_oob_send_results(struct gd_oob *o, const struct gd_wire_results *r)
{
	struct gd_wire_msg m = { .type = GD_MSG_RESULTS };

	m.results = *r;
	return send_msg(o, &m);
}

int gd_oob_recv_results(struct gd_oob *o, struct gd_wire_results *r, int timeout_ms)
{
	struct gd_wire_msg m;
	int ret = recv_msg(o, GD_MSG_RESULTS, &m, timeout_ms ? timeout_ms : o->timeout_ms);

	if (!ret)
		*r = m.results;
	return ret;
}

int gd_oob_send_error(struct gd_oob *o, int exit_code, const char *fmt, ...)
{
	struct gd_wire_msg m = { .type = GD_MSG_ERROR };
	va_list ap;

	if (!o || o->fd < 0 || o->peer_gone)
		return -ENOTCONN;
	m.error.code = exit_code >= 1 && exit_code <= 3 ? (uint32_t)exit_code : GD_EXIT_USAGE;
	va_start(ap, fmt);
	vsnprintf(m.error.text, sizeof(m.error.text), fmt, ap);
	va_end(ap);
	/* the wire takes printable text only: replace anything else */
	for (char *c = m.error.text; *c; c++)
		if ((*c < 0x20 && *c != '\n' && *c != '\t') || *c == 0x7f)
			*c = '?';
	if (!m.error.text[0])
		snprintf(m.error.text, sizeof(m.error.text), "failed");
	return send_msg(o, &m);
}

void gd_oob_tell_interrupted(struct gd_oob *o)
{
	if (!o || o->told_interrupt || o->closing || o->broken)
		return;
	o->told_interrupt = true;
	gd_oob_send_error(o, GD_EXIT_FAIL, INTERRUPTED_TEXT);
}

int gd_oob_check_peer(struct gd_oob *o)
{
	return gd_oob_await_peer(o, 0);
}

/* Read the ALIVEs at the head of the socket (nothing else); true when
 * something else (or EOF, or an error) waits behind them. */
static bool skip_alives(struct gd_oob *o)
{
	uint8_t hdr[GD_WIRE_HDR_LEN];
	struct gd_wire_hdr h;
	char err[8];

	for (;;) {
		ssize_t n = recv(o->fd, hdr, sizeof(hdr), MSG_PEEK | MSG_DONTWAIT);

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return false;
		if (n != (ssize_t)sizeof(hdr) || gd_wire_decode_hdr(hdr, sizeof(hdr), &h, err, sizeof(err)) ||
		    h.type != GD_MSG_ALIVE || h.len)
			return true;
		if (recv(o->fd, hdr, sizeof(hdr), MSG_DONTWAIT) != (ssize_t)sizeof(hdr))
			return true;
		o->last_heard = now_ms();
	}
}

bool gd_oob_readable(struct gd_oob *o)
{
	struct pollfd pfd = { .fd = o->fd, .events = POLLIN };

	main_seen_now(o);
	return poll(&pfd, 1, 0) > 0 && skip_alives(o);
}

int gd_oob_await_peer(struct gd_oob *o, int wait_ms)
{
	struct pollfd pfd[2] = { { .fd = o->fd, .events = POLLIN }, { .fd = o->lfd, .events = POLLIN } };
	int64_t deadline = now_ms() + wait_ms;
	uint8_t hdr[GD_WIRE_HDR_LEN];
	struct gd_wire_hdr h;
	struct gd_wire_msg m;
	char err[8];
	ssize_t n;

	main_seen_now(o);
	if (o->peer_gone)
		return -ECONNRESET;
	if (o->loopback)
		return 0; /* no peer to stop, fail or fall silent */
	/* the socket is read before the silence is judged: a side that looked
	 * at it late (stuck in the fabric) finds its peer's ALIVEs waiting */
	for (;;) {
		int pr = poll(pfd, o->lfd >= 0 ? 2 : 1, left_ms(deadline));

		if (pr > 0 && o->lfd >= 0 && (pfd[1].revents & POLLIN))
			refuse_extra(o);
		if (pr > 0 && (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) && skip_alives(o))
			break;
		if (peer_silent_now(o))
			return peer_silent(o);
		if (pr <= 0)
			return 0;
	}
	n = recv(o->fd, hdr, sizeof(hdr), MSG_PEEK);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		gd_error("the %s (%s) closed the side channel: did it exit or crash?", peer_role(o),
			 o->peer_name);
		o->peer_gone = true;
		return -ECONNRESET;
	}
	if (n == (ssize_t)sizeof(hdr) && !gd_wire_decode_hdr(hdr, sizeof(hdr), &h, err, sizeof(err)) &&
	    h.type == GD_MSG_ERROR) {
		int ret = recv_msg(o, GD_MSG_ERROR, &m, o->timeout_ms);

		if (ret)
			return ret;
		print_peer_error(o, &m.error);
		return -ECONNABORTED;
	}
	return 0;
}

void gd_oob_close(struct gd_oob *o)
{
	struct gd_wire_msg bye = { .type = GD_MSG_BYE };
	int64_t deadline;
	uint8_t buf[512];

	if (!o)
		return;
	o->closing = true;
	alive_stop(o);
	if (o->fd >= 0 && !o->peer_gone && !o->broken && !(interrupt_flag && *interrupt_flag)) {
		/* BYE, then wait for the peer's EOF so that closing never resets data it still reads */
		if (!send_msg(o, &bye) && !shutdown(o->fd, SHUT_WR)) {
			deadline = deadline_of(o->timeout_ms);
			for (;;) {
				struct pollfd pfd = { .fd = o->fd, .events = POLLIN };
				ssize_t n = recv(o->fd, buf, sizeof(buf), 0);

				if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
					break;
				if (n > 0)
					continue;
				if (poll(&pfd, 1, left_ms(deadline)) == 0) {
					gd_debug("the %s did not close the side channel in time", peer_role(o));
					break;
				}
			}
		}
	}
	oob_free(o);
}

/* ---- accessors -------------------------------------------------------- */

int gd_oob_fd(const struct gd_oob *o)
{
	return o->fd;
}

int gd_oob_peer_addr(const struct gd_oob *o, struct sockaddr_storage *ss, socklen_t *len)
{
	if (!o->peer_len)
		return -ENOTCONN;
	*ss = o->peer;
	*len = o->peer_len;
	return 0;
}

int gd_oob_local_addr(const struct gd_oob *o, struct sockaddr_storage *ss, socklen_t *len)
{
	if (!o->local_len)
		return -ENOTCONN;
	*ss = o->local;
	*len = o->local_len;
	return 0;
}

const char *gd_oob_peer_role(const struct gd_oob *o)
{
	return peer_role(o);
}

void gd_oob_give_up(struct gd_oob *o)
{
	o->broken = true;
}

const char *gd_oob_peer_name(const struct gd_oob *o)
{
	return o->peer_name;
}

int gd_oob_peer_exit_code(const struct gd_oob *o)
{
	return o ? o->peer_code : 0;
}

bool gd_oob_peer_interrupted(const struct gd_oob *o)
{
	return o && o->peer_interrupted;
}

int gd_oob_exit_code(const struct gd_oob *o, int err)
{
	if (err == -ECONNABORTED && o && o->peer_code)
		return o->peer_code;
	return err ? GD_EXIT_USAGE : GD_EXIT_OK;
}
