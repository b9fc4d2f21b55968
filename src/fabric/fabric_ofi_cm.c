/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The libfabric fabric's connection from the peer's blob, and teardown (fabric_ofi.h). */
#include "config.h"

#include "fabric_ofi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>

#include "log.h"

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
			 f->cfg.server ? "incoming" : "outgoing", f->prov, fi_strerror(err.err), pe);
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
			 n < 0 ? fi_strerror((int)-n) : "not the one awaited");
		return -EPROTO;
	}
	if (info)
		*info = e.info;
	else if (e.info)
		fi_freeinfo(e.info);
	return 0;
}

static int accept_one(struct gd_ofi *f, uint32_t i)
{
	struct fi_info *req = NULL;
	int ret = wait_event(f, FI_CONNREQ, &req);

	if (ret)
		return ret;
	ret = fi_endpoint(f->domain, req, &f->ep[i], NULL);
	fi_freeinfo(req);
	if (ret) {
		gd_error("libfabric fi_endpoint for a connection request failed on provider %s: %s",
			 f->prov, fi_strerror(-ret));
		return -EIO;
	}
	ret = fi_ep_bind(f->ep[i], &f->scq.cq->fid, FI_TRANSMIT | FI_SELECTIVE_COMPLETION);
	ret = ret ?: fi_ep_bind(f->ep[i], &f->rcq.cq->fid, FI_RECV);
	ret = ret ?: fi_ep_bind(f->ep[i], &f->eq->fid, 0);
	ret = ret ?: fi_enable(f->ep[i]);
	ret = ret ?: fi_accept(f->ep[i], NULL, 0);
	if (ret) {
		gd_error("libfabric cannot accept connection %u on provider %s: %s", i, f->prov,
			 fi_strerror(-ret));
		return -EIO;
	}
	return wait_event(f, FI_CONNECTED, NULL);
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
				 fi_strerror(-ret));
			return -ECONNREFUSED;
		}
		return wait_event(f, FI_CONNECTED, NULL);
	}
	ret = fi_av_insert(f->av, remote->fab_addr, 1, (fi_addr_t *)&f->dest[i], 0, NULL);
	if (ret != 1) {
		gd_error("libfabric provider %s cannot use the peer's address (fi_av_insert: %s): "
			 "the peer runs another provider or address format (--provider)", f->prov,
			 fi_strerror(ret < 0 ? -ret : FI_EINVAL));
		return -EINVAL;
	}
	return 0;
}

void gd_ofi_qp_run(struct gd_ofi *f, uint32_t i, struct gd_qp_run *q,
		   const struct gd_wire_conn *remote)
{
	q->fab_key = remote->fab_key;
	q->fab_ep = f->ep[i];
	q->fab_cq = f->scq.cq;
	q->fab_desc = f->desc;
	q->fab_dest = f->av ? f->dest[i] : FI_ADDR_UNSPEC;
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
	close_fid(&f->mr);
	close_fid(&f->av);
	close_fid(&f->scq.cq);
	close_fid(&f->rcq.cq);
	close_fid(&f->eq);
	close_fid(&f->domain);
	close_fid(&f->fabric);
	if (f->info)
		fi_freeinfo(f->info);
	free(f->ep);
	free(f->dest);
	memset(f, 0, sizeof(*f));
}
