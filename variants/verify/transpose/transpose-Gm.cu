// Matrix transpose straight through global memory: each warp reads a row segment (coalesced)
// and writes a column (a separate memory segment per thread). The starting point of Ruetsch and
// Micikevicius, "Optimizing Matrix Transpose in CUDA" (NVIDIA, 2009); written for advise.
#include "transpose_main.h"

__global__ void transpose(float* ADVISE_RO out, const float* ADVISE_RO in, int width) {
    const int x = blockIdx.x * TILE + threadIdx.x;
    const int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        out[(size_t)x * width + (y + j)] = in[(size_t)(y + j) * width + x];
}
