/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "pattern.h"

#include <endian.h>
#include <string.h>

static uint64_t word(uint64_t index)
{
	uint64_t z = (index + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint8_t gd_pattern_byte(uint64_t off)
{
	return (uint8_t)(word(off >> 3) >> (8 * (off & 7)));
}

void gd_pattern_fill(void *p, size_t len, uint64_t off0)
{
	uint8_t *b = p;
	size_t i = 0;

	for (; i < len && ((off0 + i) & 7); i++)
		b[i] = gd_pattern_byte(off0 + i);
	for (; len - i >= 8; i += 8) {
		uint64_t w = htole64(word((off0 + i) >> 3));

		memcpy(b + i, &w, 8);
	}
	for (; i < len; i++)
		b[i] = gd_pattern_byte(off0 + i);
}

size_t gd_pattern_check(const void *p, size_t len, uint64_t off0)
{
	const uint8_t *b = p;
	size_t i = 0;

	for (; i < len && ((off0 + i) & 7); i++)
		if (b[i] != gd_pattern_byte(off0 + i))
			return i;
	for (; len - i >= 8; i += 8) {
		uint64_t w = htole64(word((off0 + i) >> 3));

		if (memcmp(b + i, &w, 8))
			break; /* the byte loop below finds which */
	}
	for (; i < len; i++)
		if (b[i] != gd_pattern_byte(off0 + i))
			return i;
	return len;
}
