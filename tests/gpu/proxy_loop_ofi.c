/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_proxy_gpu's real transport (see proxy_loop_ofi.h). */
#include "config.h"

#include "proxy_loop_ofi.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "fabric_ofi.h"
#include "log.h"
#include "ofi_lib.h"
#include "fabric.h"

struct gd_ofi_loop {
	struct gd_fabric_opts o;
	struct gd_ofi srv, cli;
	struct gd_qp_run q[GD_OFI_LOOP_MAX_QPS];
	struct gd_transport *tof;
	pthread_t progress;
	bool running;
	volatile int stop;
};

/* The server side is passive, as a tool's server: it only drives its provider. */
static void *serve(void *arg)
{
	struct gd_ofi_loop *l = arg;

	while (!__atomic_load_n(&l->stop, __ATOMIC_ACQUIRE))
		gd_ofi_progress(&l->srv);
	return NULL;
}

static int open_side(struct gd_ofi_loop *l, struct gd_ofi *f, bool server, uint32_t op,
		     uint32_t nqps, void *buf, size_t bytes)
{
	struct gd_ofi_cfg c = { .o = &l->o, .server = server, .nqp = nqps, .tx_depth = 128,
				.rx_depth = 128, .timeout_ms = 10000 };
	int ret;

	c.op = op == GD_DESC_READ ? GD_OP_READ : op == GD_DESC_WRITE ? GD_OP_WRITE : GD_OP_ATOMIC;
	c.alt = op == GD_DESC_CAS;
	ret = gd_ofi_open(f, &c);
	if (!ret)
		ret = gd_ofi_reg(f, buf, bytes);
	return ret ? ret : gd_ofi_create_eps(f);
}

/* The server's endpoints learn the client's addresses; then, with the server
 * progressing, the client connects (its warm-up write needs the server). */
static int join(struct gd_ofi_loop *l, uint32_t nqps, void *local, void *peer)
{
	struct gd_wire_conn si[GD_OFI_LOOP_MAX_QPS], ci[GD_OFI_LOOP_MAX_QPS];
	int ret = 0;

	for (uint32_t i = 0; i < nqps && !ret; i++) {
		ret = gd_ofi_local_info(&l->srv, i, (uintptr_t)peer, &si[i]);
		if (!ret)
			ret = gd_ofi_local_info(&l->cli, i, (uintptr_t)local, &ci[i]);
		if (!ret)
			ret = gd_ofi_connect(&l->srv, i, &ci[i]);
	}
	if (ret)
		return ret;
	if (pthread_create(&l->progress, NULL, serve, l))
		return -EAGAIN;
	l->running = true;
	for (uint32_t i = 0; i < nqps && !ret; i++) {
		ret = gd_ofi_connect(&l->cli, i, &si[i]);
		memset(&l->q[i], 0, sizeof(l->q[i]));
		l->q[i].index = i;
		l->q[i].local_addr = (uintptr_t)local;
		l->q[i].remote_addr = si[i].vaddr;
		gd_ofi_qp_run(&l->cli, i, &l->q[i], &si[i]);
	}
	return ret;
}

int gd_ofi_loop_open(struct gd_ofi_loop **out, const char *provider, uint32_t op, uint32_t nqps,
		     void *local, void *peer, size_t bytes, uint32_t max_chain,
		     struct gd_transport **tp)
{
	struct gd_ofi_loop *l;
	int ret;

	*out = NULL;
	if (!nqps || nqps > GD_OFI_LOOP_MAX_QPS || strlen(provider) >= GD_FABRIC_PROV_MAX)
		return -EINVAL;
	if ((ret = gd_ofi_lib_require()))
		return ret;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	gd_fabric_opts_defaults(&l->o);
	l->o.fabric = GD_FABRIC_OFI;
	strcpy(l->o.provider, provider);
	ret = open_side(l, &l->srv, true, op, nqps, peer, bytes);
	if (!ret)
		ret = open_side(l, &l->cli, false, op, nqps, local, bytes);
	if (!ret)
		ret = join(l, nqps, local, peer);
	if (!ret) {
		l->tof = gd_transport_create(&gd_fabric_ofi, l->q, nqps, 1, max_chain,
					  (uint32_t)l->cli.inject_size);
		ret = l->tof ? 0 : -ENOMEM;
	}
	if (ret) {
		gd_ofi_loop_close(l);
		return ret;
	}
	*tp = l->tof;
	*out = l;
	return 0;
}

void gd_ofi_loop_close(struct gd_ofi_loop *l)
{
	if (!l)
		return;
	if (l->running) {
		__atomic_store_n(&l->stop, 1, __ATOMIC_RELEASE);
		pthread_join(l->progress, NULL);
	}
	gd_transport_destroy(l->tof);
	gd_ofi_close(&l->cli);
	gd_ofi_close(&l->srv);
	free(l);
}
