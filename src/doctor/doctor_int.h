/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Internal to gd_doctor's check modules. */
#ifndef GD_DOCTOR_INT_H
#define GD_DOCTOR_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "doctor.h"

/* 1 if some CUDA GPU reports DMA_BUF_SUPPORTED, 0 if none, -1 unknown (no CUDA). */
int gd_doc_cuda_dmabuf_any(void);

/* Lossless RoCE (doctor_roce.c): the one DCB reader (a live `dcb WHAT show dev
 * IF`, or a fixture's capture under gdperf-capture/dcb/IF/WHAT) and its parsers. */
struct gd_machine;
int gd_doc_dcb_text(const struct gd_machine *m, const char *ifname, const char *what,
		    char *buf, size_t len, char *src, size_t slen);
int gd_doc_parse_pfc(const char *text, unsigned *mask);
int gd_doc_parse_apptrust(const char *text, bool *dscp);

#endif
