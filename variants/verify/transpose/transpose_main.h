// The host side of the transpose versions (transpose-*.cu), written for advise's check of
// advice against reality (scripts/gpu/verify-advice.sh): a width x width matrix of floats is
// transposed by the version's `transpose` kernel, one tile of TILE x TILE elements per block of
// TILE x BLOCK_ROWS threads (each thread moves TILE / BLOCK_ROWS elements). The launch is timed
// by variants/verify/advise_timing.h (one untimed warm-up, then $ADVISE_REPS timed launches);
// the result is compared with the CPU's transpose (`advise-check ok` or `FAILED`) and summed
// (`advise-checksum`).
//
//   nvcc -O3 -DBLOCK_ROWS=8 -o transpose-Gm transpose-Gm.cu && ./transpose-Gm 4096
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "../advise_um.h"
// The input's refill before each launch (advise_um.h's advise_refill).
#define ADVISE_PREPARE advise_refill(false, in, host.data(), count * sizeof(float));
#define ADVISE_TIMED_PREPARE advise_refill(true, in, host.data(), count * sizeof(float));
#include "../advise_timing.h"

#ifndef TILE
#define TILE 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif
static_assert(TILE % BLOCK_ROWS == 0, "BLOCK_ROWS must divide TILE");
// READ_ONLY's version (scripts/gpu/verify-programs.sh, tile suffix `ro`) builds with
// -DADVISE_RO=__restrict__: the kernel's pointers marked as not aliasing, so the input is read
// through the read-only data cache. Empty otherwise.
#ifndef ADVISE_RO
#define ADVISE_RO
#endif

__global__ void transpose(float* ADVISE_RO out, const float* ADVISE_RO in, int width);

static int transpose_main(int argc, char** argv) {
    const int width = argc > 1 ? std::atoi(argv[1]) : 4096;
    if (width <= 0 || width % TILE != 0) {
        std::fprintf(stderr, "width must be a positive multiple of %d\n", TILE);
        return 2;
    }
    const size_t count = (size_t)width * width;
    std::vector<float> host(count), result(count);
    for (size_t i = 0; i < count; ++i) host[i] = (float)(i % 4093) * 0.25f;
    float *in = nullptr, *out = nullptr;
    if (!advise_alloc_input(&in, count * sizeof(float))) return 3;
    if (cudaMalloc(&out, count * sizeof(float)) != cudaSuccess) {
        std::fprintf(stderr, "cudaMalloc failed\n");
        return 3;
    }
    advise_fill_input(in, host.data(), count * sizeof(float));
    const dim3 block(TILE, BLOCK_ROWS), grid(width / TILE, width / TILE);
    std::printf("transpose %dx%d, tile %d, block %dx%d, input policy %d%s\n", width, width, TILE,
                TILE, BLOCK_ROWS, ADVISE_UM, ADVISE_FILL_TIMED ? ", refill timed" : "");
    ADVISE_BEGIN
    transpose<<<grid, block>>>(out, in, width);
    ADVISE_END
    cudaMemcpy(result.data(), out, count * sizeof(float), cudaMemcpyDeviceToHost);
    long wrong = 0;
    for (int r = 0; r < width; ++r)
        for (int c = 0; c < width; ++c)
            wrong += result[(size_t)c * width + r] != host[(size_t)r * width + c];
    std::printf("advise-check %s\n", wrong ? "FAILED" : "ok");
    ADVISE_CHECKSUM(result.data(), count)
    cudaFree(in);
    cudaFree(out);
    return wrong ? 4 : 0;
}

int main(int argc, char** argv) { return transpose_main(argc, argv); }
