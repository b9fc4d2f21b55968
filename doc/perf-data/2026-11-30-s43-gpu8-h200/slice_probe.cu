// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Does a CUDA copy in one process wait while another process runs a
// persistent kernel on the same GPU? (gdperf issue 32 item 3: the GPU
// producer with GPU memory over libfabric shm, where the target's process
// does the provider's CUDA copies.) No gdperf, no libfabric.
//   slice_probe spin SECONDS   a one-CTA kernel spinning SECONDS (the producer's stand-in)
//   slice_probe copy N         N timed rounds of each copy below, p50/p99/max in us
// Build: nvcc -O2 -o slice_probe slice_probe.cu
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(3); } } while (0)

__global__ void spin(unsigned long long ns, volatile int *flag)
{
	unsigned long long t0, t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	do {
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	} while (t - t0 < ns && !*flag);
}

__global__ void empty(void) {}

static double now_us(void)
{
	return std::chrono::duration<double, std::micro>(
		std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <typename F> static void timed(const char *what, int n, F f)
{
	std::vector<double> v(n);
	for (int i = 0; i < n; i++) {
		double t0 = now_us();
		f();
		v[i] = now_us() - t0;
	}
	std::sort(v.begin(), v.end());
	printf("%-34s n=%d p50 %9.1f us  p99 %9.1f  max %9.1f\n", what, n, v[n / 2],
	       v[(n * 99) / 100], v[n - 1]);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: slice_probe spin SECONDS | copy N\n");
		return 2;
	}
	int mps = 0;
	CK(cudaDeviceGetAttribute(&mps, cudaDevAttrMpsEnabled, 0));
	if (!strcmp(argv[1], "spin")) {
		cudaStream_t s;
		int *flag;
		CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
		CK(cudaMalloc(&flag, 4));
		CK(cudaMemset(flag, 0, 4));
		spin<<<1, 32, 0, s>>>((unsigned long long)(atof(argv[2]) * 1e9), flag);
		CK(cudaGetLastError());
		printf("spin: running (MPS attribute %d)\n", mps);
		fflush(stdout);
		CK(cudaStreamSynchronize(s));
		printf("spin: done\n");
		return 0;
	}
	int n = atoi(argv[2]);
	char *d, *hp, *hpin;
	cudaStream_t s;
	CK(cudaMalloc(&d, 1 << 20));
	CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	hp = (char *)malloc(1 << 20);
	memset(hp, 1, 1 << 20);
	CK(cudaMallocHost(&hpin, 1 << 20));
	CK(cudaMemcpy(d, hp, 8, cudaMemcpyDefault)); // the context up
	printf("copy: MPS attribute %d\n", mps);
	timed("H2D 8 B pageable (cudaMemcpy)", n, [&] { CK(cudaMemcpy(d, hp, 8, cudaMemcpyHostToDevice)); });
	timed("D2H 8 B pageable (cudaMemcpy)", n, [&] { CK(cudaMemcpy(hp, d, 8, cudaMemcpyDeviceToHost)); });
	timed("H2D 8 B pinned (cudaMemcpy)", n, [&] { CK(cudaMemcpy(d, hpin, 8, cudaMemcpyHostToDevice)); });
	timed("H2D 4 KiB pageable (cudaMemcpy)", n, [&] { CK(cudaMemcpy(d, hp, 4096, cudaMemcpyHostToDevice)); });
	timed("H2D 64 KiB pageable (cudaMemcpy)", n, [&] { CK(cudaMemcpy(d, hp, 65536, cudaMemcpyHostToDevice)); });
	timed("D2H 64 KiB pageable (cudaMemcpy)", n, [&] { CK(cudaMemcpy(hp, d, 65536, cudaMemcpyDeviceToHost)); });
	timed("D2D 8 B (cudaMemcpy)", n, [&] { CK(cudaMemcpy(d + 4096, d, 8, cudaMemcpyDeviceToDevice)); });
	timed("H2D 8 B async+sync, own stream", n, [&] {
		CK(cudaMemcpyAsync(d, hpin, 8, cudaMemcpyHostToDevice, s)); CK(cudaStreamSynchronize(s)); });
	timed("empty kernel + sync, own stream", n, [&] {
		empty<<<1, 1, 0, s>>>(); CK(cudaStreamSynchronize(s)); });
	return 0;
}
