/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libFuzzer target for the sysfs-tree readers: the RDMA device, port, GID,
 * netdev and bond readers behind gd_devinfo (src/discover), the PCI path,
 * link, config-space and GPU readers (src/topo/pcipath.c) and the procfs
 * readers of gd_doctor (src/discover/gdr_env.c), all over src/core/sysfs.c and
 * src/core/readfile.c.
 *
 * The tree: a copy of a fixture tree named by $GD_FUZZ_TREE (run-fuzz.sh
 * copies tests/fixtures/doctor/good). Each input is up to 8 mutations
 *     [file index] [mode] [length] [length bytes]
 * of the tree's regular files: mode 0 writes the bytes as the file's content,
 * 1 makes it a FIFO, 2 a symlink to /dev/zero, 3 a symlink to itself, 4
 * removes it. Then every reader runs; the tree is restored afterwards.
 *
 * Properties (abort = a finding): no crash or sanitizer report; no read
 * blocks (a FIFO nobody writes; run with -timeout); the JSON gd_devinfo
 * prints is strict: valid UTF-8, no NaN or Infinity token.
 */
#include "config.h"

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devinfo_report.h"
#include "gdr_env.h"
#include "jsonout.h"
#include "locality.h"
#include "machine.h"
#include "pcipath.h"
#include "readfile.h"
#include "sysfs.h"

struct orig {
	char *path, *data;
	size_t len;
};

static struct gd_machine machine;
static struct orig *files;
static size_t nfiles, cap;

static int add_file(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	(void)f;
	if (type != FTW_F)
		return 0;
	if (nfiles == cap) {
		cap = cap ? 2 * cap : 64;
		files = realloc(files, cap * sizeof(*files));
		if (!files)
			abort();
	}
	files[nfiles].path = strdup(path);
	if (gd_readfile_alloc(path, GD_READ_CAP_TEXT, &files[nfiles].data, &files[nfiles].len))
		abort();
	nfiles++;
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tree = getenv("GD_FUZZ_TREE");

	(void)argc;
	(void)argv;
	if (!tree || nftw(tree, add_file, 16, FTW_PHYS) || !nfiles) {
		fprintf(stderr, "fuzz_sysfs: set GD_FUZZ_TREE to a copy of a fixture tree\n");
		exit(2);
	}
	if (gd_machine_init(&machine, tree))
		exit(2);
	return 0;
}

static void restore(const struct orig *o)
{
	FILE *f;

	unlink(o->path);
	f = fopen(o->path, "we");
	if (!f || fwrite(o->data, 1, o->len, f) != o->len || fclose(f))
		abort();
}

static void mutate(const struct orig *o, int mode, const uint8_t *d, size_t len)
{
	FILE *f;

	unlink(o->path);
	switch (mode) {
	case 0:
		f = fopen(o->path, "we");
		if (!f)
			abort();
		fwrite(d, 1, len, f);
		fclose(f);
		break;
	case 1:
		mkfifo(o->path, 0600);
		break;
	case 2:
		if (symlink("/dev/zero", o->path))
			abort();
		break;
	case 3:
		if (symlink(strrchr(o->path, '/') + 1, o->path))
			abort();
		break;
	}
}

/* Strict JSON Lines: valid UTF-8, and outside strings no letters but true/false/null. */
static void check_json(const char *s, size_t len)
{
	bool in_str = false;

	if (!gd_json_utf8_valid(s, len))
		abort();
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
		} else if (c == '"') {
			in_str = true;
		} else if (c == 'N' || c == 'I' || (c == 'n' && strncmp(s + i, "null", 4)) ||
			   (c == 'i')) {
			abort(); /* NaN, Infinity, nan, inf */
		}
	}
}

static void run_readers(void)
{
	struct gd_devinfo di;
	char (*gpus)[GD_BDF_LEN];
	size_t ngpus, len;
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		abort();
	if (gd_devinfo_collect(&machine, NULL, false, &di) == 0) {
		gd_devinfo_print_json(&di, mem);
		fflush(mem);
		check_json(buf, len);
		gd_devinfo_print_text(&di, mem);
		gd_devinfo_free(&di);
	}
	fclose(mem);
	free(buf);
	if (gd_loc_list_gpus(&(struct gd_loc_src){ &machine, NULL }, &gpus, &ngpus) == 0) {
		for (size_t i = 0; i < ngpus; i++) {
			struct gd_loc_src lsrc = { &machine, NULL };
			struct gd_loc_links links;
			struct gd_loc_place place;
			struct gd_pcie_link l;
			struct gd_pci_chain ch;
			uint8_t cfg[GD_PCI_CFG_SIZE];
			size_t got;
			uint64_t bar;

			if (gd_pci_read_link(&machine, gpus[i], &l) == 0 &&
			    (l.cur_gts != l.cur_gts || l.cur_gts > 1024))
				abort(); /* a rate is finite and plausible, or unknown (0) */
			gd_pci_chain(&machine, gpus[i], &ch);
			/* the locality module on the same tree: place, classify, judge the chain */
			if (gd_loc_place(&lsrc, gpus[i], &place) == 0) {
				gd_loc_judge_links(&machine, &place, true, &links);
				if (gd_loc_classify(&place, &place) != GD_LOC_PIX)
					abort();
			}
			gd_pci_numa(&machine, gpus[i]);
			gd_pci_mem_resource(&machine, gpus[i], 1, &bar);
			if (gd_pci_read_config(&machine, gpus[i], cfg, sizeof(cfg), &got) == 0)
				gd_pci_find_ext_cap(cfg, got, GD_PCI_EXT_CAP_ACS);
		}
		free(gpus);
	}
	{
		struct gd_kver kv;
		struct gd_nv_driver nd;
		struct gd_nv_params np;
		struct gd_peermem pm;

		gd_kernel_version(&machine, &kv);
		gd_nvidia_driver(&machine, &nd);
		gd_nv_params_read(&machine, &np);
		gd_peermem_probe(&machine, &pm);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t touched[8], nt = 0;

	while (size >= 3 && nt < 8) {
		size_t idx = data[0] % nfiles, len = data[2];
		int mode = data[1] % 5;

		data += 3;
		size -= 3;
		if (len > size)
			len = size;
		mutate(&files[idx], mode, data, len);
		touched[nt++] = idx;
		data += len;
		size -= len;
	}
	run_readers();
	for (size_t i = 0; i < nt; i++)
		restore(&files[touched[i]]);
	return 0;
}
