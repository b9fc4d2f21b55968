/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * THE payload pattern (the engine's --validate, GPU memory checks, the
 * doctor's export test): the byte at offset off of a region is byte off % 8
 * (little end first) of a 64-bit mix (splitmix64) of off / 8. It has no
 * period, so a shifted, stale or foreign buffer does not match; a test that
 * wants a different pattern starts at another offset.
 */
#ifndef GD_PATTERN_H
#define GD_PATTERN_H

#include <stddef.h>
#include <stdint.h>

uint8_t gd_pattern_byte(uint64_t off);
/* The pattern of offsets [off0, off0 + len) into p. */
void gd_pattern_fill(void *p, size_t len, uint64_t off0);
/* The index of the first byte of p that differs from it, or len when all match. */
size_t gd_pattern_check(const void *p, size_t len, uint64_t off0);

#endif
