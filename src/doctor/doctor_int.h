/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Internal to gd_doctor's check modules. */
#ifndef GD_DOCTOR_INT_H
#define GD_DOCTOR_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "doctor.h"

/* 1 if some CUDA GPU reports DMA_BUF_SUPPORTED, 0 if none, -1 unknown (no CUDA). */
int gd_doc_cuda_dmabuf_any(void);

#endif
