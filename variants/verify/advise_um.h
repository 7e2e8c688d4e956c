// Unified-memory versions of the programs written for advise (transpose, reduce), for the
// check of the UM_* suggestions against reality (scripts/gpu/verify-advice.sh). ADVISE_UM picks
// the policy of the input array, the one object the kernel reads, as XPlacer's variants change
// one object's policy at a time (datasets/xplacer-*/PROVENANCE.md, the `advN` macros of its
// `*_adapt.cu` files):
//   0 device memory and an explicit copy (the programs as written)
//   1 cudaMallocManaged, no advice                       (UM_MANAGED)
//   2 managed, cudaMemAdviseSetReadMostly                (UM_READ_MOSTLY)
//   3 managed, cudaMemAdviseSetPreferredLocation the GPU (UM_PREFERRED_GPU)
//   4 managed, cudaMemAdviseSetAccessedBy the GPU        (UM_ACCESSED_BY_GPU)
//   5 managed, cudaMemAdviseSetPreferredLocation the CPU (UM_PREFERRED_CPU)
//   6 managed, cudaMemAdviseSetAccessedBy the CPU        (UM_ACCESSED_BY_CPU)
// A managed input is written again by the host before every launch (advise_fill_input, called
// from ADVISE_PREPARE), as a program that fills its input on the host and then runs the kernel
// does, so each timed launch pays for the pages it moves: XPlacer's kernel times (the mean per
// launch) likewise include page migration. With ADVISE_FILL_TIMED=1 the refill is timed too,
// for every policy and for device memory (0: the explicit copy), so that a program that fills
// its input on the host before each launch compares whole: copy and kernel against the pages
// written and moved and the kernel. Host code only; CUDA 13 passes a cudaMemLocation where
// earlier versions pass a device number.
#pragma once
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#ifndef ADVISE_UM
#define ADVISE_UM 0
#endif
static_assert(ADVISE_UM >= 0 && ADVISE_UM <= 6, "ADVISE_UM is a policy from 0 to 6");
#ifndef ADVISE_FILL_TIMED
#define ADVISE_FILL_TIMED 0
#endif

// cudaMemAdvise for the GPU in use (`host` false) or the CPU.
static cudaError_t advise_mem_advise(const void* p, size_t bytes, cudaMemoryAdvise advice,
                                     bool host) {
    int device = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e != cudaSuccess) return e;
#if CUDART_VERSION >= 13000
    cudaMemLocation where{};
    where.type = host ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    where.id = host ? 0 : device;
    return cudaMemAdvise(p, bytes, advice, where);
#else
    return cudaMemAdvise(p, bytes, advice, host ? cudaCpuDeviceId : device);
#endif
}

// Allocates the input of `bytes` with ADVISE_UM's policy; prints what failed and returns false.
static bool advise_alloc_input(float** p, size_t bytes) {
    cudaError_t e = ADVISE_UM == 0 ? cudaMalloc(p, bytes) : cudaMallocManaged(p, bytes);
    if (e == cudaSuccess) {
        switch (ADVISE_UM) {
            case 2: e = advise_mem_advise(*p, bytes, cudaMemAdviseSetReadMostly, false); break;
            case 3: e = advise_mem_advise(*p, bytes, cudaMemAdviseSetPreferredLocation, false); break;
            case 4: e = advise_mem_advise(*p, bytes, cudaMemAdviseSetAccessedBy, false); break;
            case 5: e = advise_mem_advise(*p, bytes, cudaMemAdviseSetPreferredLocation, true); break;
            case 6: e = advise_mem_advise(*p, bytes, cudaMemAdviseSetAccessedBy, true); break;
            default: break;
        }
    }
    if (e != cudaSuccess) {
        std::fprintf(stderr, "allocating the input (ADVISE_UM %d) failed: %s\n", ADVISE_UM,
                     cudaGetErrorString(e));
        return false;
    }
    return true;
}

// Fills the input from `host`: a copy to device memory, or the host's own writes to managed
// memory (after the previous launch has finished, so the pages are the host's to write).
static void advise_fill_input(float* p, const float* host, size_t bytes) {
    if (ADVISE_UM == 0) {
        cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice);
    } else {
        cudaDeviceSynchronize();
        std::memcpy(p, host, bytes);
    }
}

// The refill before each launch, from ADVISE_PREPARE (`timed` false, outside the timed region)
// and ADVISE_TIMED_PREPARE (`timed` true, inside it; variants/verify/advise_timing.h): a
// managed input is refilled untimed, and with ADVISE_FILL_TIMED every input is refilled timed.
static void advise_refill(bool timed, float* p, const float* host, size_t bytes) {
    const bool refill = ADVISE_FILL_TIMED ? timed : (!timed && ADVISE_UM != 0);
    if (refill) advise_fill_input(p, host, bytes);
}
