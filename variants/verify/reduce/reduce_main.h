// The host side of the reduction versions (reduce-*.cu), written for advise's check of advice
// against reality (scripts/gpu/verify-advice.sh): n floats are summed by the version's `reduce`
// kernel, each block of BLOCK threads summing BLOCK * ELEMS of them (each thread first adds
// ELEMS inputs, then the block combines its threads' sums in shared memory) into one partial
// sum; the host adds the partial sums. The launch is timed by variants/verify/advise_timing.h
// (one untimed warm-up, then $ADVISE_REPS timed launches); the total is compared with the
// CPU's (`advise-check ok` or `FAILED`, relative difference under 1e-5) and printed
// (`advise-checksum`).
//
//   nvcc -O3 -DBLOCK=256 -DELEMS=1 -o reduce-Seq reduce-Seq.cu && ./reduce-Seq 16777216
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "../advise_um.h"
// The input's refill before each launch (advise_um.h's advise_refill).
#define ADVISE_PREPARE advise_refill(false, in, host.data(), n * sizeof(float));
#define ADVISE_TIMED_PREPARE advise_refill(true, in, host.data(), n * sizeof(float));
#include "../advise_timing.h"

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ELEMS
#define ELEMS 1
#endif
static_assert((BLOCK & (BLOCK - 1)) == 0 && BLOCK >= 64, "BLOCK must be a power of two, >= 64");
// READ_ONLY's version (scripts/gpu/verify-programs.sh, tile suffix `ro`) builds with
// -DADVISE_RO=__restrict__: the kernel's pointers marked as not aliasing, so the input is read
// through the read-only data cache. Empty otherwise.
#ifndef ADVISE_RO
#define ADVISE_RO
#endif

__global__ void reduce(const float* ADVISE_RO in, float* ADVISE_RO partial);

static int reduce_main(int argc, char** argv) {
    const long n = argc > 1 ? std::atol(argv[1]) : 16777216L;
    const long per_block = (long)BLOCK * ELEMS;
    if (n <= 0 || n % per_block != 0) {
        std::fprintf(stderr, "n must be a positive multiple of %ld\n", per_block);
        return 2;
    }
    const int blocks = (int)(n / per_block);
    std::vector<float> host(n), partial(blocks);
    double expected = 0.0;
    for (long i = 0; i < n; ++i) {
        host[i] = (float)(i % 7) * 0.25f;
        expected += host[i];
    }
    float *in = nullptr, *out = nullptr;
    if (!advise_alloc_input(&in, n * sizeof(float))) return 3;
    if (cudaMalloc(&out, blocks * sizeof(float)) != cudaSuccess) {
        std::fprintf(stderr, "cudaMalloc failed\n");
        return 3;
    }
    advise_fill_input(in, host.data(), n * sizeof(float));
    std::printf("reduce %ld floats, block %d, %d per thread, %d blocks, input policy %d%s\n", n,
                BLOCK, ELEMS, blocks, ADVISE_UM, ADVISE_FILL_TIMED ? ", refill timed" : "");
    ADVISE_BEGIN
    reduce<<<blocks, BLOCK>>>(in, out);
    ADVISE_END
    cudaMemcpy(partial.data(), out, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    double total = 0.0;
    for (int b = 0; b < blocks; ++b) total += partial[b];
    const bool ok = std::fabs(total - expected) <= 1e-5 * std::fabs(expected);
    std::printf("advise-check %s\n", ok ? "ok" : "FAILED");
    ADVISE_CHECKSUM(partial.data(), blocks)
    cudaFree(in);
    cudaFree(out);
    return ok ? 0 : 4;
}

int main(int argc, char** argv) { return reduce_main(argc, argv); }

// Each thread's sum of its ELEMS inputs, a block's stride apart (coalesced).
__device__ __forceinline__ float thread_sum(const float* ADVISE_RO in) {
    const size_t base = (size_t)blockIdx.x * BLOCK * ELEMS + threadIdx.x;
    float v = 0.0f;
    for (int e = 0; e < ELEMS; ++e) v += in[base + (size_t)e * BLOCK];
    return v;
}
