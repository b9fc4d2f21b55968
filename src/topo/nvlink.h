/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * NVLink counts per GPU: from NVML (libnvidia-ml.so.1 loaded with dlopen at
 * run time, so gdperf runs without a driver) or from a text file with one
 * line per (GPU, remote) pair:
 *
 *     # comment
 *     0000:18:00.0 FFFFFFFF:FF:FF.0 18
 *
 * The remote is a GPU, an NVSwitch, or FFFFFFFF:FF:FF.0 (the hidden
 * NVSwitch NVML reports inside a VM). A line repeating a pair is warned
 * about and ignored.
 */
#ifndef GD_NVLINK_H
#define GD_NVLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A PCI address; domain 0xffffffff/bus 0xff/dev 0xff is NVML's hidden switch. */
struct gd_busid {
	uint32_t domain;
	uint8_t bus, dev, fn;
};

struct gd_nvlink {
	struct gd_busid gpu;
	struct gd_busid remote;
	int count;
};

struct gd_nvlinks {
	struct gd_nvlink *v;
	size_t n;
	bool known; /* false: no NVLink information at all (no NVML, no file) */
};

/* "0000:18:00.0" or NVML's "00000000:18:00.0" (case-insensitive). 0 or -EINVAL. */
int gd_busid_parse(const char *s, struct gd_busid *id);
/* "0000:18:00.0" (8 domain digits when the domain needs them). */
void gd_busid_format(const struct gd_busid *id, char *buf, size_t len);
bool gd_busid_eq(const struct gd_busid *a, const struct gd_busid *b);
int gd_busid_cmp(const struct gd_busid *a, const struct gd_busid *b);
bool gd_busid_hidden_switch(const struct gd_busid *id);

/*
 * Parse the text of an NVLink file. On a malformed line returns -EINVAL and
 * writes "FILE:LINE: reason" to err; *errline gets the line number.
 */
int gd_nvlink_parse(const char *text, const char *fname, struct gd_nvlinks *out, char *err,
		    size_t errlen, int *errline);
/* Read and parse a file; -errno if it cannot be read (err names it). */
int gd_nvlink_read_file(const char *path, struct gd_nvlinks *out, char *err, size_t errlen);
/*
 * Ask NVML. -ENOENT when libnvidia-ml.so.1 cannot be loaded, -ENODEV when
 * NVML does not initialise (no driver); err says which.
 */
int gd_nvlink_query_nvml(struct gd_nvlinks *out, char *err, size_t errlen);
/* Write the file format (for --export). */
int gd_nvlink_write(const struct gd_nvlinks *l, FILE *out);
void gd_nvlink_free(struct gd_nvlinks *l);

/* Add links (used by the parser and NVML; sums duplicates). 0 or -ENOMEM. */
int gd_nvlink_add(struct gd_nvlinks *l, const struct gd_busid *gpu, const struct gd_busid *remote,
		  int count);

/*
 * Drop, with a warning naming src and the reason, what the topology
 * contradicts: a line whose GPU is not one of its GPUs (is_gpu), a GPU-GPU
 * pair whose two directions disagree. Returns the number of entries dropped.
 */
size_t gd_nvlink_validate(struct gd_nvlinks *l, const char *src,
			  bool (*is_gpu)(const struct gd_busid *, void *), void *ctx);

/*
 * NV# between GPUs a and b: links from a straight to b, plus the smaller of
 * the two GPUs' link totals into the switch fabric (any remote that is not
 * one of the listed GPUs). is_gpu tells whether a remote is a GPU.
 */
int gd_nvlink_count(const struct gd_nvlinks *l, const struct gd_busid *a,
		    const struct gd_busid *b, bool (*is_gpu)(const struct gd_busid *, void *),
		    void *ctx);

#endif
