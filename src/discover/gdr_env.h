/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Facts about the machine that decide whether GPUDirect RDMA can work,
 * read through sysfs.h (so fixture trees stand in for the live machine):
 * the kernel version (dma-buf MRs need >= 5.12), the NVIDIA kernel driver
 * (version and open/proprietary flavour), the peer-memory client
 * (nvidia_peermem / nv_peer_mem) and the driver's registry parameters
 * (PeerMappingOverride for IBGDA). Used by gd_doctor and by the GPU buffer
 * registration to explain failures. Parsers are exposed for unit tests.
 */
#ifndef GD_GDR_ENV_H
#define GD_GDR_ENV_H

#include <stdbool.h>
#include <stddef.h>

#include "machine.h"

struct gd_kver {
	int major, minor, patch;
	char release[96]; /* /proc/sys/kernel/osrelease as read */
};

int gd_parse_kernel_version(const char *text, struct gd_kver *v);
/* <0, 0, >0 like strcmp, on major.minor.patch */
int gd_kver_cmp(const struct gd_kver *v, int major, int minor, int patch);
int gd_kernel_version(const struct gd_machine *m, struct gd_kver *v);

/* dma-buf memory registration (ibv_reg_dmabuf_mr) arrived in Linux 5.12. */
#define GD_DMABUF_KERNEL_MAJOR 5
#define GD_DMABUF_KERNEL_MINOR 12

enum gd_nv_flavour { GD_NV_UNKNOWN, GD_NV_OPEN, GD_NV_PROPRIETARY };

struct gd_nv_driver {
	bool loaded;
	char version[32];          /* "580.159.04" */
	enum gd_nv_flavour flavour;
	char line[256];            /* the NVRM line as read */
	char source[128];          /* the file it came from */
};

/* Parse the "NVRM version: ..." text of /proc/driver/nvidia/version. */
int gd_parse_nvidia_version(const char *text, struct gd_nv_driver *d);
/* /proc/driver/nvidia/version, else /sys/module/nvidia/version. -ENOENT: not loaded. */
int gd_nvidia_driver(const struct gd_machine *m, struct gd_nv_driver *d);
const char *gd_nv_flavour_str(enum gd_nv_flavour f);

enum gd_peermem_state {
	GD_PEERMEM_ABSENT,        /* no peer-memory module loaded */
	GD_PEERMEM_REGISTERED,    /* loaded and registered with ib_core */
	GD_PEERMEM_UNREGISTERED,  /* loaded, but no /sys/kernel/mm/memory_peers entry */
	GD_PEERMEM_LOADED,        /* loaded; registration cannot be told (inbox ib_core) */
};

struct gd_peermem {
	enum gd_peermem_state state;
	bool nvidia_peermem;       /* /sys/module/nvidia_peermem or /proc/modules */
	bool nv_peer_mem;          /* the old Mellanox module */
	bool memory_peers_dir;     /* /sys/kernel/mm/memory_peers exists (OFED ib_core) */
	char registered_as[64];    /* "nv_mem" or "nvidia-peermem" */
	int modules_err;           /* /proc/modules: 0, or why it could not be read */
	char evidence[256];
};

/* 1 if /proc/kallsyms lists sym, 0 if not, -errno if unreadable. Only an
 * MLNX_OFED/DOCA ib_core exports ib_register_peer_memory_client. */
int gd_kallsyms_has(const struct gd_machine *m, const char *sym);
#define GD_PEER_SYM "ib_register_peer_memory_client"

/* Whether /proc/modules text lists a module (exposed for tests). */
bool gd_proc_modules_has(const char *text, const char *module);
int gd_peermem_probe(const struct gd_machine *m, struct gd_peermem *p);

struct gd_nv_params {
	bool found;                /* the params file was read */
	char source[128];
	char registry[256];        /* RegistryDwords value, unquoted */
	int peer_mapping_override; /* -1 absent, else its value */
	int stream_memops;         /* EnableStreamMemOPs; -1 absent */
};

/* Parse /proc/driver/nvidia/params text ("Key: value" lines). */
int gd_parse_nv_params(const char *text, struct gd_nv_params *p);
/* Parse a RegistryDwords string "A=1;PeerMappingOverride=0x1;" for one key: -1 absent. */
int gd_registry_dword(const char *registry, const char *key);
int gd_nv_params_read(const struct gd_machine *m, struct gd_nv_params *p);

#endif
