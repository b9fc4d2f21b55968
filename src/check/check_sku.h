/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A node's SKU and manifest facts in its report (check_sku.c): the counts and models of its
 * GPUs and NICs, their bus ids and firmware, kernel, NVIDIA driver, CUDA, rdma-core, libfabric
 * and gdperf versions. The JSON report's check_run record carries them as "manifest", so that
 * 'gd_check --baseline' can build a SKU's baseline from good nodes' reports and name the field
 * of an odd node.
 */
#ifndef GD_CHECK_SKU_H
#define GD_CHECK_SKU_H

#include <json-c/json.h>

#include "check.h"
#include "check_machine.h"

void gd_ck_sku_read(const struct gd_ck_machine *m, const struct gd_ck_host *h,
		    struct gd_ck_sku *s);
/* The SKU key: "gpus=N gpu_model=M nics=N nic_model=M". */
void gd_ck_sku_key(const struct gd_ck_sku *s, char *buf, size_t len);
json_object *gd_ck_sku_json(const struct gd_ck_sku *s);
/* From a report's "manifest" object: 0, or -EINVAL with why. */
int gd_ck_sku_from_json(json_object *o, struct gd_ck_sku *s, char *why, size_t len);

/* The manifest fields a node is compared on, each a name and a value ("" not read): the
 * versions, the GPUs' bus ids, each NIC's bus id and firmware. The count filled. */
struct gd_ck_sku_field {
	char name[96], value[1600];
};
#define GD_CK_SKU_FIELDS (GD_CK_BL_FACTS + 1 + 2 * GD_CK_SKU_PARTS)
size_t gd_ck_sku_fields(const struct gd_ck_sku *s, struct gd_ck_sku_field *f, size_t max);

#endif
