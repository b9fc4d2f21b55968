/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_auto_pick ROOT: what --use_cuda=auto picks for each RDMA device of a
 * sysfs tree, through the benchmark's own function (gd_gpu_auto_pick in
 * src/gpu/gpu_mem.c, the one gd_gpu_open calls). CUDA cannot run here, so
 * its device enumeration is stood in for by the tree's GPUs in PCI order
 * (CUDA_DEVICE_ORDER=PCI_BUS_ID). One line per NIC with a PCI address:
 * "mlx5_0 0000:18:00.0 PIX", or "mlx5_0 none N/A".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_mem.h"
#include "locality.h"
#include "rdma_dev.h"

static int pick_all(const struct gd_machine *m, char (*pci)[GD_CUDA_BUSID_LEN], int count)
{
	struct gd_hca *hcas = NULL;
	size_t n = 0;
	int ret = gd_rdma_discover(m, &hcas, &n);

	for (size_t i = 0; i < n && !ret; i++) {
		enum gd_loc_class cls;
		int index;

		if (!hcas[i].pci_addr[0])
			continue;
		if (gd_gpu_auto_pick(m, hcas[i].pci_addr, (const char(*)[GD_CUDA_BUSID_LEN])pci,
				     count, &index, &cls))
			printf("%s none N/A\n", hcas[i].name);
		else
			printf("%s %s %s\n", hcas[i].name, pci[index], gd_loc_class_str(cls));
	}
	gd_rdma_free(hcas, n);
	return ret;
}

int main(int argc, char **argv)
{
	struct gd_loc_src src = {0};
	char(*gpus)[GD_BDF_LEN], (*pci)[GD_CUDA_BUSID_LEN];
	struct gd_machine m;
	size_t n;
	int ret;

	if (argc != 2 || gd_machine_init(&m, argv[1])) {
		fprintf(stderr, "usage: %s SYSFS-ROOT (a directory)\n", argv[0]);
		return 2;
	}
	src.m = &m;
	if (gd_loc_list_gpus(&src, &gpus, &n))
		return 3;
	pci = calloc(n + 1, sizeof(*pci));
	if (!pci)
		return 3;
	for (size_t i = 0; i < n; i++)
		snprintf(pci[i], sizeof(pci[i]), "%s", gpus[i]);
	ret = pick_all(&m, pci, (int)n);
	free(gpus);
	free(pci);
	return ret ? 3 : 0;
}
