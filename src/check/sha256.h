/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef GD_CHECK_SHA256_H
#define GD_CHECK_SHA256_H

#include <stddef.h>

/* SHA-256 of a buffer as 64 hex digits (FIPS 180-4). */
void gd_ck_sha256_hex(const unsigned char *buf, size_t len, char out[65]);

#endif
