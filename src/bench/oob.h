/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The benchmark side channel: one TCP connection between the server and its
 * client, carrying the messages of wire.h.
 *
 * Sequence (both sides run the same calls; every receive has a deadline):
 *
 *   server                               client
 *   gd_oob_open: listen on --bind:-p     gd_oob_open: connect to HOST:-p,
 *     (SO_REUSEADDR), accept ONE peer      retrying until --timeout
 *   gd_oob_hello  <------ HELLO ------>  gd_oob_hello
 *     both compare the parameters that must match (gd_params_diff); on a
 *     difference each side prints every differing parameter with both values,
 *     sends ERROR with that text and fails (exit 2)
 *   gd_oob_exchange_conn <- CONN x nqp -> (one per QP, in order, interleaved)
 *   gd_oob_barrier <------ READY n ---->  (numbered: out of order is an error)
 *     ... the run; the engine calls gd_oob_check_peer() from its polling
 *     loops to notice a dead peer or an ERROR without blocking ...
 *   gd_oob_barrier / gd_oob_barrier_wait (end of run, longer deadline)
 *   gd_oob_send_results / gd_oob_recv_results (bidirectional runs, and the
 *     client sends its numbers so the server prints them)
 *   gd_oob_close: BYE, shut down the sending side, wait for the peer's EOF
 *     (so that the last message is never lost to a reset)
 *
 * A side that fails at any point calls gd_oob_send_error(code, text) before
 * closing: the other side's next receive (or gd_oob_check_peer) prints
 * "peer reported: text" and returns -ECONNABORTED.
 *
 * While a server holds its peer it keeps the listening socket open and
 * answers every further connection with ERROR "server busy ..." then closes
 * it, so a second client fails at once with a clear message.
 *
 * Every function prints its own error (gd_error, naming the peer, the cause
 * and the fix) and returns 0 or a negative errno:
 *   -ETIMEDOUT     the peer did not answer by the deadline (a message, whole or none)
 *   -ECONNREFUSED  nobody listening at HOST:-p within the deadline (client)
 *   -ENOTCONN      no client connected within the deadline (server)
 *   -ECONNRESET    the peer closed the connection or it broke
 *   -ECONNABORTED  the peer sent ERROR (gd_oob_peer_exit_code gives its code)
 *   -EPROTO, -EBADMSG  garbage, oversized or malformed message, or one cut short
 *   -ENOMSG        a valid message out of order (e.g. RESULTS instead of READY)
 *   -EINVAL        parameters differ (HELLO), bad address
 *   -EADDRINUSE, -EADDRNOTAVAIL, -EHOSTUNREACH  listen/resolve failures
 *   -EINTR         a signal arrived while the flag of gd_oob_set_interrupt_flag was set
 * gd_oob_exit_code() maps them to the tool's exit code.
 */
#ifndef GD_OOB_H
#define GD_OOB_H

#include <signal.h>
#include <stdbool.h>
#include <sys/socket.h>

#include "bench_params.h"
#include "wire.h"

struct gd_oob;

/*
 * Server (p->role SERVER): listen on p->bind_addr (all addresses if empty)
 * port p->tcp_port and accept one client within accept_timeout_ms (< 0: wait
 * for ever, as perftest). Client: connect to p->peer:p->tcp_port (from
 * p->source_ip if set), retrying until p->timeout_ms. Later receives use
 * p->timeout_ms as their deadline.
 */
int gd_oob_open(const struct gd_bench_params *p, int accept_timeout_ms, struct gd_oob **oob);
/* The two steps of a server's open, for callers that print a banner in between. */
int gd_oob_listen(const struct gd_bench_params *p, struct gd_oob **oob);
int gd_oob_accept(struct gd_oob *oob, int timeout_ms);
/*
 * A side channel with no peer, for a run that is its own target (a NIC test
 * double, bench_fabric.h loopback): no socket; every step's message this side
 * sends comes back as the peer's (HELLO: its own parameters, CONN: its own
 * records, READY: its own step, RESULTS: its own figures), so the steps' checks
 * run as over TCP; the heartbeat, ERROR and BYE go nowhere; no address (the
 * noise guard sees no shared host); peer_name names the peer in the header.
 */
int gd_oob_loopback(const struct gd_bench_params *p, const char *peer_name, struct gd_oob **oob);

/* Exchange HELLO; remote (may be NULL) receives the peer's. */
int gd_oob_hello(struct gd_oob *oob, const struct gd_bench_params *p, struct gd_wire_hello *remote);
/* One CONN per QP each way; remote[i] is the peer's QP i. */
int gd_oob_exchange_conn(struct gd_oob *oob, const struct gd_wire_conn *local,
			 struct gd_wire_conn *remote, uint32_t nqp);
/* Both sides reach the same point: deadline p->timeout_ms, or timeout_ms (< 0: none). */
int gd_oob_barrier(struct gd_oob *oob);
int gd_oob_barrier_wait(struct gd_oob *oob, int timeout_ms);
int gd_oob_send_results(struct gd_oob *oob, const struct gd_wire_results *r);
/* timeout_ms < 0: no deadline (ends on EOF or ERROR). 0 means p->timeout_ms. */
int gd_oob_recv_results(struct gd_oob *oob, struct gd_wire_results *r, int timeout_ms);
/* Tell the peer we fail (best effort, never blocks longer than the deadline). */
int gd_oob_send_error(struct gd_oob *oob, int exit_code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * After this side's SIGINT/SIGTERM: tell the peer once (an ERROR, exit 1), so that
 * it reports the interrupt instead of a side channel closed without a word.
 */
void gd_oob_tell_interrupted(struct gd_oob *oob);
/* BYE, orderly shutdown, free. NULL is fine. */
void gd_oob_close(struct gd_oob *oob);

/*
 * Non-blocking check from the engine's polling loops: refuses extra clients,
 * then 0 if the peer is alive (nothing or a normal message pending),
 * -ECONNRESET if it closed (printed once), -ECONNABORTED if it sent ERROR
 * (printed).
 */
int gd_oob_check_peer(struct gd_oob *oob);

/*
 * The run's heartbeat, from the start of the measurement to gd_oob_close: a
 * thread sends ALIVE every --timeout/4, and every wait and check of this side
 * (receives, gd_oob_check_peer) reads the peer's; a peer that has said nothing
 * for --timeout is stopped (SIGSTOP, a debugger) or hung: the wait or check
 * prints so, naming it, and returns -ETIMEDOUT. Before it (setup), only the
 * deadlines of each message hold. 0 or -ENOMEM (printed).
 */
int gd_oob_start_alive(struct gd_oob *oob);
/* Something other than the peer's ALIVEs (a message, EOF) waits to be read;
 * reads the ALIVEs before it. */
bool gd_oob_readable(struct gd_oob *oob);

/*
 * gd_oob_check_peer, waiting up to wait_ms for the peer to say something: after
 * a fabric failure (a post, a poll, a completion), whose cause is often the peer
 * stopping; it sends its reason on the side channel just before its endpoint goes.
 */
int gd_oob_await_peer(struct gd_oob *oob, int wait_ms);

/*
 * Waits (accept, connect retries, receives, even without a deadline) end with
 * -EINTR when a signal interrupts them and *flag is non-zero: let the tool's
 * SIGINT handler (installed without SA_RESTART) set it. Process-wide.
 */
void gd_oob_set_interrupt_flag(volatile sig_atomic_t *flag);

int gd_oob_fd(const struct gd_oob *oob);
/* While a receive waits, call idle(arg) between polls of the socket (and spin
 * instead of sleeping): libfabric providers with manual data progress move a
 * passive side's data only when it polls (fabric_ofi.h). NULL: sleep in poll. */
void gd_oob_set_idle(struct gd_oob *oob, void (*idle)(void *arg), void *arg);
/* Addresses of the connected socket; IPv4-mapped IPv6 addresses are given as AF_INET. */
int gd_oob_peer_addr(const struct gd_oob *oob, struct sockaddr_storage *ss, socklen_t *len);
int gd_oob_local_addr(const struct gd_oob *oob, struct sockaddr_storage *ss, socklen_t *len);
const char *gd_oob_peer_name(const struct gd_oob *oob); /* "10.0.0.1:18515", "[fe80::1]:4242" */
const char *gd_oob_peer_role(const struct gd_oob *oob); /* "server" on the client, "client" on the server */
/* This side gives up on a peer that made no progress for --timeout (stopped,
 * or the link is down): the close skips the BYE handshake it cannot answer. */
void gd_oob_give_up(struct gd_oob *oob);
/* The code the peer's ERROR carried (1..3), 0 if none. */
int gd_oob_peer_exit_code(const struct gd_oob *oob);
/* The peer's ERROR said a signal stopped it (gd_oob_tell_interrupted). */
bool gd_oob_peer_interrupted(const struct gd_oob *oob);
/* Exit code for a failed oob call: the peer's code for -ECONNABORTED, else 2. */
int gd_oob_exit_code(const struct gd_oob *oob, int err);

#endif
