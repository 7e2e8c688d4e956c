// reduce-Seq.cu with its loop over the tree's levels unrolled (UNROLL): the loop runs from the
// compile-time block size instead of blockDim.x, so its trip count is known, and `#pragma
// unroll` unrolls it completely. After Harris,
// "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), whose complete unrolling it is;
// written for advise.
#include "reduce_main.h"

__global__ void reduce(const float* in, float* partial) {
    __shared__ float s[BLOCK];
    const unsigned t = threadIdx.x;
    s[t] = thread_sum(in);
    __syncthreads();
#pragma unroll
    for (unsigned k = BLOCK / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}
