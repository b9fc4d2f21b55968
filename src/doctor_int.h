/* Internal to gd_doctor's check modules. */
#ifndef GD_DOCTOR_INT_H
#define GD_DOCTOR_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "doctor.h"

/* 1 if some CUDA GPU reports DMA_BUF_SUPPORTED, 0 if none, -1 unknown (no CUDA). */
int gd_doc_cuda_dmabuf_any(void);

/* A minimal RDMA port view read from sysfs (doctor_rdma.c). */
struct gd_doc_port {
	int num;
	char state[32], phys_state[32], rate[64], link_layer[16];
	char netdev[32];           /* netdev of GID 0 (RoCE), "" for IB */
};

int gd_doc_ports(const char *dev, struct gd_doc_port **ports, size_t *n);

#endif
