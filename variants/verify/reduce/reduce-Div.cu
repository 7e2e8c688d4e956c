// Tree reduction in shared memory with interleaved addressing: at step k the threads whose
// index is a multiple of 2k add their neighbour k away, so the active threads of a warp are
// scattered and the warp diverges at every step. The loop runs to the launch's block size (as
// such code is usually written), so the compiler does not unroll it. Harris's first kernel in
// "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007); written for advise.
#include "reduce_main.h"

__global__ void reduce(const float* in, float* partial) {
    __shared__ float s[BLOCK];
    const unsigned t = threadIdx.x;
    s[t] = thread_sum(in);
    __syncthreads();
    for (unsigned k = 1; k < blockDim.x; k *= 2) {
        if (t % (2 * k) == 0) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}
