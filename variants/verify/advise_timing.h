// Timing and a checksum for the programs of variants/verify, pre-included by
// scripts/gpu/verify-advice.sh (nvcc -include); the programs' own files stay as published.
// ADVISE_BEGIN and ADVISE_END replace the authors' cudaProfilerStart() and cudaProfilerStop()
// around their kernel launch: one untimed warm-up launch, then $ADVISE_REPS (default 5)
// launches timed with CUDA events, each printed as `advise-kernel-ms REP MS`. A program may
// define ADVISE_PREPARE, a statement run before each launch outside the timed region (the
// unified-memory versions refill their input there: variants/verify/advise_um.h), and
// ADVISE_TIMED_PREPARE, one run inside it before the launch (the same refill, timed, with
// ADVISE_FILL_TIMED).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#ifndef ADVISE_PREPARE
#define ADVISE_PREPARE
#endif
#ifndef ADVISE_TIMED_PREPARE
#define ADVISE_TIMED_PREPARE
#endif

static int advise_reps() {
    const char* v = std::getenv("ADVISE_REPS");
    return v ? std::atoi(v) : 5;
}

#define ADVISE_BEGIN                                                          \
    for (int advise_r = -1, advise_n = advise_reps(); advise_r < advise_n;    \
         ++advise_r) {                                                        \
        ADVISE_PREPARE                                                        \
        cudaEvent_t advise_a, advise_b;                                       \
        cudaEventCreate(&advise_a);                                           \
        cudaEventCreate(&advise_b);                                           \
        cudaEventRecord(advise_a);                                            \
        ADVISE_TIMED_PREPARE

#define ADVISE_END                                                            \
        cudaEventRecord(advise_b);                                            \
        cudaEventSynchronize(advise_b);                                       \
        float advise_ms = 0.0f;                                               \
        cudaEventElapsedTime(&advise_ms, advise_a, advise_b);                 \
        cudaError_t advise_e = cudaGetLastError();                            \
        if (advise_e != cudaSuccess) {                                        \
            std::fprintf(stderr, "advise: kernel failed: %s\n",              \
                         cudaGetErrorString(advise_e));                       \
            std::exit(3);                                                     \
        }                                                                     \
        if (advise_r >= 0) std::printf("advise-kernel-ms %d %.6f\n", advise_r, advise_ms); \
        cudaEventDestroy(advise_a);                                           \
        cudaEventDestroy(advise_b);                                           \
    }

// The sum of the result's entries, to compare the versions' outputs.
#define ADVISE_CHECKSUM(P, n)                                                 \
    {                                                                         \
        double advise_s = 0.0;                                                \
        for (long advise_q = 0; advise_q < (long)(n); ++advise_q) advise_s += (P)[advise_q]; \
        std::printf("advise-checksum %.9e\n", advise_s);                      \
    }
