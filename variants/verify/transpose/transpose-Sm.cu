// Matrix transpose through a shared-memory tile (SHMEM): a block reads its tile row by row
// (coalesced), then writes the transposed tile row by row (coalesced), reading the tile by
// column: the 32 threads of a warp hit one shared-memory bank. Written for advise after Ruetsch
// and Micikevicius, "Optimizing Matrix Transpose in CUDA" (NVIDIA, 2009). PAD columns are added
// to the tile (default 0; transpose-Sm-Pad.cu sets 1).
#include "transpose_main.h"

#ifndef PAD
#define PAD 0
#endif

__global__ void transpose(float* out, const float* in, int width) {
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        out[(size_t)(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}
