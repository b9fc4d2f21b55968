/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The facts discovery fills (HCAs, ports, GIDs, bonds) and the list of files
 * that could not be read: the types that rdma_dev, gid, netdev and bond share,
 * so that those modules depend on this header and not on each other.
 */
#ifndef GD_RDMA_TYPES_H
#define GD_RDMA_TYPES_H

#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine.h"

/* The fix for "no RDMA device", the same in every tool (gd_devinfo, the bench tools). */
#define GD_RDMA_NODEV_FIX                                                                  \
	"load the driver of your NIC (modprobe mlx5_ib), or create a Soft-RoCE device: "  \
	"modprobe rdma_rxe && rdma link add rxe0 type rxe netdev eth0"

#define GD_NAME_LEN 64
#define GD_PCI_LEN 16 /* "0000:17:00.0" */
#define GD_GID_STR_LEN 40
#define GD_IP_LEN 46
#define GD_PATH_LEN 256

/*
 * A sysfs/procfs file that could not be read or did not parse. Readers keep
 * going and collect these, so a report can show what was read and name each
 * file that was not.
 */
struct gd_read_error {
	char path[GD_PATH_LEN];     /* rooted path, as opened */
	int err;                    /* negative errno; -EINVAL: malformed content */
	char detail[320];           /* for -EINVAL: what was found and what was expected */
};

struct gd_read_errors {
	struct gd_read_error *v;
	size_t n;
};

enum gd_gid_type { GD_GID_IB, GD_GID_ROCE_V1, GD_GID_ROCE_V2, GD_GID_UNKNOWN };

struct gd_gid {
	int index;
	char gid[GD_GID_STR_LEN];   /* as sysfs prints it: "fe80:0000:...:0001" */
	uint8_t raw[16];            /* the same, as bytes (what verbs reports) */
	enum gd_gid_type type;
	char netdev[IF_NAMESIZE];   /* "" for InfiniBand */
	char ip[GD_IP_LEN];         /* "192.168.1.1" for IPv4-mapped, else IPv6 text */
	bool ipv4;                  /* the GID is an IPv4-mapped address */
	bool link_local;            /* fe80::/10 (or 169.254/16 when IPv4-mapped) */
	bool foreign;               /* its netdev is not in this network namespace */
};

/* Port counters worth a look (sysfs counters/ and, for RoCE, hw_counters/). */
enum gd_counter {
	GD_CNT_SYMBOL_ERROR,
	GD_CNT_LINK_ERROR_RECOVERY,
	GD_CNT_LINK_DOWNED,
	GD_CNT_PORT_RCV_ERRORS,
	GD_CNT_PORT_XMIT_DISCARDS,
	GD_CNT_OUT_OF_SEQUENCE,       /* hw_counters (mlx5 RoCE) */
	GD_CNT_PACKET_SEQ_ERR,
	GD_CNT_LOCAL_ACK_TIMEOUT_ERR,
	GD_NCOUNTERS
};
const char *gd_counter_name(enum gd_counter c); /* the sysfs file name */

/* The numbers of sysfs ports/N/state and phys_state (as enum ibv_port_state
 * and the IBTA PortPhysicalState). 0: unknown. */
enum gd_port_state {
	GD_PORT_DOWN = 1, GD_PORT_INIT, GD_PORT_ARMED, GD_PORT_ACTIVE, GD_PORT_ACTIVE_DEFER,
};
enum gd_port_phys_state {
	GD_PHYS_SLEEP = 1, GD_PHYS_POLLING, GD_PHYS_DISABLED, GD_PHYS_TRAINING, GD_PHYS_LINKUP,
	GD_PHYS_ERROR_RECOVERY, GD_PHYS_TEST,
};

struct gd_port {
	int num;
	int state;                  /* enum gd_port_state, 0 unknown */
	char state_str[24];         /* "ACTIVE" */
	int phys_state;             /* enum gd_port_phys_state, 0 unknown */
	char phys_state_str[24];    /* "LinkUp" */
	char link_layer[16];        /* "InfiniBand" or "Ethernet" */
	char rate_str[64];          /* sysfs text: "200 Gb/sec (4X HDR)" */
	double rate_gbps;           /* 200 */
	int width;                  /* 4 (lanes), 0 unknown */
	char speed[16];             /* "HDR", "" unknown */
	int active_mtu;             /* bytes; 0 unknown (verbs only) */
	int max_mtu;                /* bytes; 0 unknown (verbs only) */
	uint32_t lid, sm_lid;       /* InfiniBand only */
	int lmc;                    /* lid_mask_count, InfiniBand only; -1 unknown */
	char netdev[IF_NAMESIZE];   /* the port's netdev (RoCE), "" if none */
	bool netdev_up;             /* its operstate is "up" (ibdev2netdev's "(Up)") */
	int netdev_mtu;             /* bytes; -1 unknown */
	int roce_mtu;               /* RoCE: the largest IB MTU that netdev_mtu carries; 0 n/a */
	int64_t counters[GD_NCOUNTERS]; /* -1 when the port has no such counter */
	int default_gid;            /* gd_gid_choose(port, no peer, AF_INET), -1 none */
	int default_gid6;           /* gd_gid_choose(port, no peer, AF_INET6), -1 none */
	struct gd_gid *gids;        /* valid (non-zero) entries only, by index */
	size_t ngids;
};

struct gd_hca {
	char name[GD_NAME_LEN];     /* "mlx5_bond_0", "rxe0" */
	char node_type[32];         /* "CA" */
	char transport[16];         /* "InfiniBand" (IB and RoCE), "iWARP" */
	char fw_ver[32];
	char node_guid[24];         /* "0c42:a103:00e5:6f10" */
	char sys_image_guid[24];
	char board_id[32];
	char hca_type[32];
	char pci_addr[GD_PCI_LEN];  /* "" when the device has no PCI parent (rxe) */
	int numa_node;              /* -1 unknown */
	char driver[32];            /* "mlx5_core", "" unknown */
	char parent_netdev[IF_NAMESIZE]; /* rxe/siw: the netdev it runs over */
	bool verbs_known;           /* gd_rdma_query_verbs() filled verbs-only facts */
	struct gd_port *ports;
	size_t nports;
	struct gd_read_errors errors; /* files that could not be read or parsed */
};

struct gd_bond_slave {
	char name[IF_NAMESIZE];
	char mii_status[16];        /* "up", "down" */
	int speed_mbps;             /* -1 unknown */
	char duplex[16];
	int link_failures;
	char perm_hwaddr[24];
	int aggregator_id;          /* 802.3ad; -1 n/a */
	char pci_addr[GD_PCI_LEN];  /* "" for virtual slaves */
	char state[16];             /* bonding_slave/state: "active", "backup", "" */
};

struct gd_bond {
	char name[IF_NAMESIZE];
	char mode[48];              /* the kernel's short name: "802.3ad", "balance-xor" */
	int mode_num;               /* 0 balance-rr .. 6 balance-alb; -1 unknown */
	char xmit_hash_policy[32];  /* "layer3+4"; "" when the mode has none */
	char mii_status[16];
	int miimon_ms;              /* -1 unknown */
	char lacp_rate[16];         /* 802.3ad: "slow", "fast"; else "" */
	char active_slave[IF_NAMESIZE]; /* active-backup: the current slave */
	int active_aggregator;      /* 802.3ad; -1 n/a */
	int speed_mbps;             /* the bond's aggregate (sysfs speed); -1 unknown */
	struct gd_bond_slave *slaves;
	size_t nslaves;
	struct gd_read_errors errors;
};

/* The recorded read errors of a device or bond; an empty list is not an error. */
void gd_read_errors_add(struct gd_read_errors *e, const char *path, int err);
/*
 * Malformed content of a live path (printf format), recorded with the sysfs
 * root: found is the text read (may be NULL), expected describes the format.
 */
void gd_read_errors_bad(const struct gd_machine *m, struct gd_read_errors *e, const char *found,
			const char *expected, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void gd_read_errors_free(struct gd_read_errors *e);

#endif
