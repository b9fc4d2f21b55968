/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* SHA-256 of a spec file, so a report names the exact spec it checked: Nettle's
 * (nettle-dev), not a hand-written copy of FIPS 180-4. */
#include <stdio.h>

#include <nettle/sha2.h>

#include "sha256.h"

void gd_ck_sha256_hex(const unsigned char *buf, size_t len, char out[65])
{
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE];

	sha256_init(&ctx);
	sha256_update(&ctx, len, buf);
	sha256_digest(&ctx, sizeof(d), d);
	for (size_t i = 0; i < sizeof(d); i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}
