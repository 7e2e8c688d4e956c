// reduce-Div.cu with sequential addressing: at each step the first half of the active threads
// add the second half, so whole warps stay active or idle together and branches diverge only
// within the last warp. The loop runs from the launch's block size, so the compiler does not
// unroll it. After Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007); written for
// advise.
#include "reduce_main.h"

__global__ void reduce(const float* ADVISE_RO in, float* ADVISE_RO partial) {
    __shared__ float s[BLOCK];
    const unsigned t = threadIdx.x;
    s[t] = thread_sum(in);
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}
