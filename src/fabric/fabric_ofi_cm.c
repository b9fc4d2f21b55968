/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The libfabric fabric's connection from the peer's blob, and teardown (fabric_ofi.h). */
#include "config.h"

#include "fabric_ofi.h"
#include "ofi_lib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "clock.h"
#include "log.h"


#define OFI_WARM_CTX ((void *)(uintptr_t)0x67647761726dull) /* "gdwarm": no wr_id of ops.h */

/* Wait for event `want` on the EQ within the deadline; *info gets a
 * connection request's fi_info. */
static int wait_event(struct gd_ofi *f, uint32_t want, struct fi_info **info)
{
	struct fi_eq_cm_entry e;
	uint32_t ev = 0;
	ssize_t n = fi_eq_sread(f->eq, &ev, &e, sizeof(e), (int)f->cfg.timeout_ms, 0);

	if (n == -FI_EAVAIL) {
		struct fi_eq_err_entry err;
		char pe[256] = "";

		memset(&err, 0, sizeof(err));
		fi_eq_readerr(f->eq, &err, 0);
		fi_eq_strerror(f->eq, err.prov_errno, err.err_data, pe, sizeof(pe));
		gd_error("libfabric %s connection on provider %s failed: %s (%s): is the peer "
			 "running the same --provider and --ep, and does its address route here?",
			 f->cfg.server ? "incoming" : "outgoing", f->prov, gd_fi_strerror(err.err), pe);
		return -ECONNREFUSED;
	}
	if (n == -FI_EAGAIN || n == -FI_ETIMEDOUT) {
		gd_error("no libfabric connection %s within %u s (--timeout) on provider %s: the "
			 "peer's endpoint does not answer", want == FI_CONNREQ ? "request" : "reply",
			 f->cfg.timeout_ms / 1000, f->prov);
		return -ETIMEDOUT;
	}
	if (n < 0 || ev != want) {
		gd_error("libfabric connection on provider %s: unexpected event %u (%s)", f->prov, ev,
			 n < 0 ? gd_fi_strerror((int)-n) : "not the one awaited");
		return -EPROTO;
	}
	if (info)
		*info = e.info;
	else if (e.info)
		gd_fi_freeinfo(e.info);
	return 0;
}

static int accept_one(struct gd_ofi *f, uint32_t i)
{
	struct gd_ofi_dom *d = gd_ofi_dom_of(f, i);
	struct fi_info *req = NULL;
	int ret = wait_event(f, FI_CONNREQ, &req);

	if (ret)
		return ret;
	ret = fi_endpoint(d->domain, req, &f->ep[i], NULL);
	gd_fi_freeinfo(req);
	if (ret) {
		gd_error("libfabric fi_endpoint for a connection request failed on provider %s: %s",
			 f->prov, gd_fi_strerror(-ret));
		return gd_ofi_setup_err(ret);
	}
	ret = fi_ep_bind(f->ep[i], &d->scq.cq->fid, FI_TRANSMIT | FI_SELECTIVE_COMPLETION);
	ret = ret ?: fi_ep_bind(f->ep[i], &d->rcq.cq->fid, FI_RECV);
	ret = ret ?: fi_ep_bind(f->ep[i], &f->eq->fid, 0);
	ret = ret ?: fi_enable(f->ep[i]);
	ret = ret ?: fi_accept(f->ep[i], NULL, 0);
	if (ret) {
		gd_error("libfabric cannot accept connection %u on provider %s: %s", i, f->prov,
			 gd_fi_strerror(-ret));
		return -EIO;
	}
	return wait_event(f, FI_CONNECTED, NULL);
}

/* One empty write and its completion, until t0 + limit: 0, or -errno/-FI_* as it failed. */
static ssize_t warm_once(struct gd_ofi *f, uint32_t i, const struct gd_wire_conn *remote,
			 uint64_t t0, uint64_t limit)
{
	struct gd_ofi_dom *d = gd_ofi_dom_of(f, i);
	struct iovec iov = { .iov_base = (void *)(uintptr_t)f->mr_base, .iov_len = 0 };
	struct fi_rma_iov rma = { .addr = remote->vaddr, .len = 0, .key = remote->fab_key };
	struct fi_msg_rma m = { .msg_iov = &iov, .desc = &d->desc, .iov_count = 1,
				.addr = f->dest[i], .rma_iov = &rma, .rma_iov_count = 1,
				.context = OFI_WARM_CTX };
	struct fi_cq_data_entry e;
	struct fid_cq *cq = d->scq.cq;
	ssize_t ret;

	for (;;) { /* -FI_EAGAIN: the provider wants progress before it takes it */
		ret = fi_writemsg(f->ep[i], &m, FI_COMPLETION); /* selective completion */
		if (ret != -FI_EAGAIN || gd_now_ns() - t0 >= limit)
			break;
		fi_cq_read(cq, &e, 0);
	}
	while (!ret && gd_now_ns() - t0 < limit) {
		ret = fi_cq_read(cq, &e, 1);
		if (ret == 1 && e.op_context == OFI_WARM_CTX)
			return 0;
		ret = ret == -FI_EAGAIN || ret == 1 ? 0 : ret;
	}
	if (ret == -FI_EAVAIL) {
		struct fi_cq_err_entry err;

		memset(&err, 0, sizeof(err));
		fi_cq_readerr(cq, &err, 0);
		ret = -(ssize_t)err.err;
	}
	return ret ? ret : -FI_ETIMEDOUT;
}

/*
 * RDM: an endpoint connects on its first message (shm maps the peer's region
 * and waits for its answer, rxm/tcp opens a socket: 13 ms to 1 s here), which
 * would otherwise fall inside the first timed window. One empty write to the
 * peer's region, waited for here, moves that out of the measurement (fabtests
 * does the same through its address exchange over the fabric). The client
 * alone writes it, while the server drives its provider in the setup barrier
 * (gd_oob_set_idle): when both sides wrote, tcp;ofi_rxm opened two crossed
 * connections and closed one later, under a write in flight (ENOTCONN in the
 * proxy's write latency), or failed the first write with EAGAIN; EAGAIN is
 * still written again until --timeout. Endpoints without FI_RMA (send,
 * atomics) connect on their first message, and so does the server's first
 * message back (the trait connects_on_first_op, fabric.h): a latency run leaves that
 * exchange untimed (loop_lat.c).
 */
#define OFI_ROUTE_FIX "If it is a loopback or container address of the peer's host, give the " \
	"peer the interface this host reaches (tcp: FI_TCP_IFACE=IFACE, or --domain IFACE)"
/* The slow first message in words short enough for the peer to hear them whole
 * (a thread's last error, told over the side channel, is 512 bytes: the fix at
 * the end was cut off before). */
#define OFI_SLOW_FIX "On a busy host or a slow path, give a longer --timeout. If that " \
	"times out too, the address may not route here. " OFI_ROUTE_FIX

/* No completion (and no error) for the first message within half of --timeout:
 * a connection slow to open (a busy host: hostile D22, -s 256M --timeout 1 on
 * the loaded 2-core machine) before an address that does not route, which
 * usually fails with an error completion instead. */
static void warm_up_slow(const struct gd_ofi *f, uint32_t i, const char *addr)
{
	gd_error("libfabric endpoint %u on %s: the first message to the peer's endpoint %s (it "
		 "opens the connection) had no completion within %.1f s (half of --timeout %u s). "
		 OFI_SLOW_FIX, i, f->prov, gd_excerpt(addr), f->cfg.timeout_ms / 2000.0,
		 f->cfg.timeout_ms / 1000);
}

static int warm_up(struct gd_ofi *f, uint32_t i, const struct gd_wire_conn *remote)
{
	/* half the side channel's deadline: the peer, waiting in the setup
	 * barrier for as long, then still hears why (gd_oob_send_error) */
	uint64_t t0 = gd_now_ns(), limit = (uint64_t)f->cfg.timeout_ms * 500000ull;
	char addr[128] = "?";
	size_t alen = sizeof(addr);
	ssize_t ret;

	do
		ret = warm_once(f, i, remote, t0, limit);
	while ((ret == -FI_EAGAIN || ret == -EAGAIN) && gd_now_ns() - t0 < limit);
	if (!ret)
		return 0;
	fi_av_straddr(gd_ofi_dom_of(f, i)->av, remote->fab_addr, addr, &alen);
	addr[sizeof(addr) - 1] = '\0'; /* the peer's bytes: quoted escaped (gd_excerpt), never raw */
	if (ret == -FI_ETIMEDOUT || ret == -FI_EAGAIN) {
		warm_up_slow(f, i, addr);
		return -ETIMEDOUT;
	}
	gd_error("libfabric endpoint %u on provider %s: the first message to the peer's endpoint "
		 "%s failed (%s): is the peer running the same --provider, and does that address "
		 "route here? " OFI_ROUTE_FIX, i, f->prov, gd_excerpt(addr), gd_fi_strerror((int)-ret));
	return -ECONNREFUSED;
}

int gd_ofi_connect(struct gd_ofi *f, uint32_t i, const struct gd_wire_conn *remote)
{
	int ret;

	if (!remote->fab_addr_len) {
		gd_error("the peer sent no libfabric address: is it running --fabric verbs?");
		return -EPROTO;
	}
	if (f->pep)
		return accept_one(f, i);
	if (f->eq) {
		ret = fi_connect(f->ep[i], remote->fab_addr, NULL, 0);
		if (ret) {
			gd_error("libfabric fi_connect on provider %s failed: %s", f->prov,
				 gd_fi_strerror(-ret));
			return -ECONNREFUSED;
		}
		return wait_event(f, FI_CONNECTED, NULL);
	}
	/* into the AV of the endpoint's domain: its requests name the peer there */
	ret = fi_av_insert(gd_ofi_dom_of(f, i)->av, remote->fab_addr, 1, (fi_addr_t *)&f->dest[i], 0,
			   NULL);
	if (ret != 1) {
		gd_error("libfabric provider %s cannot use the peer's address (fi_av_insert: %s): "
			 "the peer runs another provider or address format (--provider)", f->prov,
			 gd_fi_strerror(ret < 0 ? -ret : FI_EINVAL));
		return -EINVAL;
	}
	return f->info->caps & FI_RMA && !f->cfg.server ? warm_up(f, i, remote) : 0;
}

void gd_ofi_qp_run(struct gd_ofi *f, uint32_t i, struct gd_qp_run *q,
		   const struct gd_wire_conn *remote)
{
	q->fab_key = remote->fab_key;
	q->fab_ep = f->ep[i];
	q->fab_cq = gd_ofi_ep_scq(f, i);
	q->fab_desc = gd_ofi_dom_of(f, i)->desc; /* its domain's registration */
	q->fab_dest = gd_ofi_dom_of(f, i)->av ? f->dest[i] : FI_ADDR_UNSPEC;
}

static void close_fid(void *fidp)
{
	struct fid **p = fidp;

	if (*p)
		fi_close(*p);
	*p = NULL;
}

void gd_ofi_close(struct gd_ofi *f)
{
	for (uint32_t i = 0; f->ep && i < f->cfg.nqp; i++)
		if (f->ep[i])
			fi_close(&f->ep[i]->fid);
	close_fid(&f->pep);
	for (uint32_t t = 0; f->dom && t < f->ndom; t++) { /* what lives in each domain */
		struct gd_ofi_dom *d = &f->dom[t];

		close_fid(&d->mr);
		close_fid(&d->av);
		close_fid(&d->scq.cq);
		free(d->scq.cache);
		close_fid(&d->rcq.cq);
		free(d->rcq.cache);
	}
	close_fid(&f->eq);
	for (uint32_t t = 0; f->dom && t < f->ndom; t++)
		close_fid(&f->dom[t].domain);
	close_fid(&f->fabric);
	if (f->info)
		gd_fi_freeinfo(f->info);
	free(f->ep);
	free(f->dest);
	free(f->dom);
	memset(f, 0, sizeof(*f));
}
