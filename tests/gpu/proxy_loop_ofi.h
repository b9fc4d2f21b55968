/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_proxy_gpu --provider P: a real transport for the test program's proxy,
 * so that its rate table and the tools' (gd_*_bw --initiator=proxy --fabric
 * ofi --provider P) run the same code over the same provider. Two libfabric
 * endpoint sets of provider P in this process: the "server" owns the peer
 * buffer and only drives its provider (a thread, as a tool's passive server
 * does while it waits), the "client" owns the local buffer; they are joined
 * through the AV as the tools join over the side channel (fabric_ofi_ep.c and
 * fabric_ofi_cm.c, the client's warm-up write included), and the proxy posts
 * through transport.c over gd_fabric_ofi, as the tools' proxy. RDM endpoints, one
 * proxy thread (the client's domain is FI_THREAD_DOMAIN, as each of the tools' proxy
 * threads' domains).
 */
#ifndef GD_PROXY_LOOP_OFI_H
#define GD_PROXY_LOOP_OFI_H

#include <stddef.h>
#include <stdint.h>

#include "transport.h"

#define GD_OFI_LOOP_MAX_QPS 16

struct gd_ofi_loop;

/* op: enum gd_desc_op; local and peer: the two buffers (bytes each). *tp:
 * the proxy's transport over it (owned by the loop). 0, or -errno (printed: the provider, the cause, the fix). */
int gd_ofi_loop_open(struct gd_ofi_loop **l, const char *provider, uint32_t op, uint32_t nqps,
		     void *local, void *peer, size_t bytes, uint32_t max_chain,
		     struct gd_transport **tp);
void gd_ofi_loop_close(struct gd_ofi_loop *l);

#endif
