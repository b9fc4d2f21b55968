/*
 * RDMA device discovery from sysfs (through sysfs.h, so fixture trees work):
 * HCAs, ports, GID tables, netdevs and bonds. Facts that only verbs can give
 * (max MTU, some IB attributes) are filled by gd_rdma_query_verbs() when a
 * live device is open; readers set the *_known flags so reports can say
 * what was left out.
 *
 * Owner: the devinfo feature (mk/devinfo.am). Other features consume it.
 */
#ifndef GD_RDMA_DEV_H
#define GD_RDMA_DEV_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GD_NAME_LEN 64
#define GD_PCI_LEN 16 /* "0000:17:00.0" */
#define GD_GID_STR_LEN 40
#define GD_IP_LEN 46

enum gd_gid_type { GD_GID_IB, GD_GID_ROCE_V1, GD_GID_ROCE_V2, GD_GID_UNKNOWN };

struct gd_gid {
	int index;
	char gid[GD_GID_STR_LEN];   /* as sysfs prints it: "fe80:0000:...:0001" */
	enum gd_gid_type type;
	char netdev[IF_NAMESIZE];   /* "" for InfiniBand */
	char ip[GD_IP_LEN];         /* "192.168.1.1" for IPv4-mapped, else IPv6 text */
	bool ipv4;                  /* the GID is an IPv4-mapped address */
};

struct gd_port {
	int num;
	int state;                  /* 1 DOWN .. 4 ACTIVE, 5 ACTIVE_DEFER; 0 unknown */
	char state_str[24];         /* "ACTIVE" */
	int phys_state;             /* 5 LinkUp, 3 Disabled, ... */
	char phys_state_str[24];    /* "LinkUp" */
	char link_layer[16];        /* "InfiniBand" or "Ethernet" */
	char rate_str[64];          /* sysfs text: "200 Gb/sec (4X HDR)" */
	double rate_gbps;           /* 200 */
	int width;                  /* 4 (lanes), 0 unknown */
	char speed[16];             /* "HDR", "" unknown */
	int active_mtu;             /* bytes; 0 unknown (verbs only) */
	int max_mtu;                /* bytes; 0 unknown (verbs only) */
	uint32_t lid, sm_lid;       /* InfiniBand only */
	char netdev[IF_NAMESIZE];   /* the port's netdev (RoCE), "" if none */
	struct gd_gid *gids;
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
};

struct gd_bond {
	char name[IF_NAMESIZE];
	char mode[48];              /* "IEEE 802.3ad Dynamic link aggregation" / sysfs "802.3ad 4" */
	char xmit_hash_policy[32];  /* "layer3+4" */
	char mii_status[16];
	int active_aggregator;      /* 802.3ad; -1 n/a */
	struct gd_bond_slave *slaves;
	size_t nslaves;
};

/* All RDMA devices, sorted by name. An empty list is not an error. */
int gd_rdma_discover(struct gd_hca **hcas, size_t *count);
void gd_rdma_free(struct gd_hca *hcas, size_t count);
/* One device by name: -ENODEV if absent. */
int gd_rdma_read_hca(const char *name, struct gd_hca *hca);
void gd_rdma_free_hca(struct gd_hca *hca);

/* Live only: open the device with libibverbs and fill MTUs etc. */
int gd_rdma_query_verbs(struct gd_hca *hca);

/* The bond a netdev is (or NULL-equivalent -ENOENT when it is not a bond). */
int gd_bond_read(const char *netdev, struct gd_bond *bond);
void gd_bond_free(struct gd_bond *bond);
/* Parsers exposed for unit tests: /proc/net/bonding/<bond> text. */
int gd_bond_parse_proc(const char *text, struct gd_bond *bond);

/*
 * The GID index a RoCE v2 test picks by default: the first RoCE v2 GID
 * with an IPv4-mapped address (or IPv6 when af == AF_INET6). With a peer
 * address, the GID whose netdev address is on the route to it wins.
 * Returns the index or -ENOENT.
 */
int gd_gid_default_index(const struct gd_port *port, int af);

const char *gd_gid_type_str(enum gd_gid_type t); /* "IB", "RoCE v1", "RoCE v2" */

#endif
