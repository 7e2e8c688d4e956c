// transpose-Sm.cu with its shared-memory tile padded by one column (PADDING): a column of the
// tile now spans all 32 banks, so reading it is free of bank conflicts. Written for advise after
// Ruetsch and Micikevicius, "Optimizing Matrix Transpose in CUDA" (NVIDIA, 2009).
#include "transpose_main.h"

__global__ void transpose(float* out, const float* in, int width) {
    __shared__ float tile[TILE][TILE + 1];
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
