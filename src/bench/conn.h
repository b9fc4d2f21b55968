/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The verbs side of a benchmark: device, port, PD, CQs, RC QPs and their
 * INIT -> RTR -> RTS transitions with the peer's connection data; path MTU
 * and GID choice. With -R (cm.h) the context comes from rdma_cm and the QPs
 * are created and connected by rdma_cm; everything else is shared.
 *
 * Functions return 0 or -errno after printing the cause with gd_error();
 * verbs return codes are converted at the call site.
 */
#ifndef GD_CONN_H
#define GD_CONN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <infiniband/verbs.h>

#include "bench_params.h"
#include "wire.h"

/* What one side tells the other about one QP: struct gd_wire_conn (wire.h). */

/*
 * What the verbs and rdma_cm side needs from the plan (plan.h fills it from
 * the parameters): the device, the addressing, the queue sizes, the op.
 * Field names are the parameters' own.
 */
struct gd_link_cfg {
	struct gd_machine machine;	/* whose sysfs names the device and its GIDs */
	char dev[GD_BENCH_DEV_MAX];	/* -d, "" = the device rule's choice */
	uint8_t ib_port;
	int gid_index;			/* -x, -1 = auto */
	bool ipv6;
	uint32_t mtu;			/* bytes, 0 = the port's active MTU */
	uint8_t qp_timeout;		/* ACK timeout exponent: 4.096 us x 2^N, 0 = infinite */
	enum gd_bench_op op;
	enum gd_bench_kind kind;
	bool uses_recv;			/* the test posts receives (send, write_with_imm) */
	uint32_t num_qps, tx_depth, rx_depth, out_reads;
	int32_t inline_size;		/* -1 = the largest the QP takes */
	/* rdma_cm (-R) */
	enum gd_bench_role role;
	char peer[GD_BENCH_HOST_MAX];
	char bind_addr[GD_BENCH_HOST_MAX];
	char source_ip[GD_BENCH_HOST_MAX];
	uint16_t tcp_port;
	uint32_t timeout_ms;
	/* RoCE bring-up (roce_opts.h) */
	uint8_t sl;			/* -S: the address vector's service level */
	uint8_t tclass;			/* --tclass: the GRH's traffic class */
	bool tos_given;			/* -T: rdma_cm's type of service ... */
	uint8_t tos;			/* ... this byte */
	bool events;			/* -e: the CQs report to a completion channel */
	uint32_t rate_kbps;		/* HW --rate_limit: each QP's rate, 0 = none */
	uint32_t rate_burst;		/* ... and its max_burst_sz in bytes, 0 = the device's */
};

struct gd_conn {
	struct ibv_context *ctx;
	bool own_ctx;			/* false when rdma_cm owns the context */
	struct ibv_pd *pd;
	struct ibv_cq *send_cq;
	struct ibv_cq *recv_cq;		/* == send_cq unless receives are posted */
	struct ibv_comp_channel *channel; /* -e: both CQs report to it, else NULL */
	struct ibv_qp **qp;
	uint32_t nqp;
	struct ibv_device_attr dev_attr;
	struct ibv_port_attr port_attr;
	char dev_name[64];
	uint8_t port;
	bool roce;			/* link layer Ethernet */
	int gid_index;			/* -1 = none (IB LID routing) */
	union ibv_gid gid;
	int gid_type;			/* enum gd_gid_type (gid.h; = enum ibv_gid_type) */
	char gid_netdev[32];
	bool gid_auto;			/* chosen by gd_gid_choose (gid.h), not -x */
	uint32_t mtu;			/* bytes, local choice (before the min with the peer) */
	uint32_t max_inline;		/* what the QPs really take */
	uint32_t out_reads;
	bool cm_qps;			/* the QPs belong to rdma_cm (destroyed by cm.c) */
	/* QP 1's address vector as the device reads it back (gd_conn_read_av):
	 * the service level and the GRH's traffic class, -1 unknown (no GRH,
	 * not connected, or ibv_query_qp failed) */
	int av_sl, av_tclass;
};

/* Open the device gd_dev_choose (choose.h) names: -d, or the first device
 * whose port -i is ACTIVE. With ctx != NULL (rdma_cm), use that context
 * instead (not closed by us). */
/*
 * No device to open (list of n, NULL when listing failed with err): with dev
 * named, a usage error listing the devices (-ENXIO, exit 2); else "no RDMA
 * devices" with the fix gd_devinfo gives (-ENODEV, exit 3). Prints the message.
 */
int gd_conn_no_device(const char *dev, struct ibv_device **list, int n, int err);
int gd_conn_open(struct gd_conn *c, const struct gd_link_cfg *p, struct ibv_context *ctx);
/* Choose the GID: -x, or gd_gid_choose (gid.h) over the port's table read
 * from p->machine, toward peer (the side channel's peer address, or NULL);
 * verbs confirms the entry. */
int gd_conn_choose_gid(struct gd_conn *c, const struct gd_link_cfg *p,
		       const struct sockaddr *peer);
/* PD and CQs sized for the test. */
int gd_conn_alloc(struct gd_conn *c, const struct gd_link_cfg *p);
/* HW --rate_limit: ibv_modify_qp_rate_limit on every QP, after RTS. 0, -ENOTSUP
 * (exit 3) when the device has no packet pacing for RC QPs or the rate is out of
 * its range, after a message naming the fix. */
int gd_conn_rate_limit(struct gd_conn *c, const struct gd_link_cfg *p);
/*
 * After connecting: read QP 1's address vector back (ibv_query_qp IBV_QP_AV)
 * into c->av_sl and c->av_tclass, and warn where the device did not keep what
 * was asked: -S and --tclass without rdma_cm, -T with it (cm). Soft-RoCE keeps
 * no service level (it reads back 0): there -S has no effect, and says so.
 */
void gd_conn_read_av(struct gd_conn *c, const struct gd_link_cfg *p, bool cm);
/* QP creation attributes for this test (also used by rdma_cm). */
void gd_conn_qp_init_attr(const struct gd_conn *c, const struct gd_link_cfg *p,
			  struct ibv_qp_init_attr *a, uint32_t inline_size);
/* Create p->num_qps RC QPs in INIT (OOB method). */
int gd_conn_create_qps(struct gd_conn *c, const struct gd_link_cfg *p);
/* Record the QPs rdma_cm created (takes n pointers). */
int gd_conn_adopt_qps(struct gd_conn *c, struct ibv_qp **qps, uint32_t n);
/* Fill my connection data for QP i. */
void gd_conn_local_info(const struct gd_conn *c, uint32_t i, uint32_t rkey, uint64_t vaddr,
			struct gd_wire_conn *info);
/* INIT -> RTR -> RTS of QP i with the peer's data. */
int gd_conn_connect(struct gd_conn *c, const struct gd_link_cfg *p, uint32_t i,
		    const struct gd_wire_conn *local, const struct gd_wire_conn *remote);
/* Destroy the QPs we created (not rdma_cm's), then everything else. */
void gd_conn_close_qps(struct gd_conn *c);
void gd_conn_close(struct gd_conn *c);

/* The QP access flags of the responder side for this test. */
int gd_conn_qp_access(const struct gd_link_cfg *p);

uint32_t gd_mtu_bytes(enum ibv_mtu m);
enum ibv_mtu gd_mtu_enum(uint32_t bytes);
/* "00:00:...:255:255:10:00:00:01" perftest style (decimal bytes). */
void gd_gid_perftest_str(const uint8_t gid[16], char *buf, size_t len);

#endif
