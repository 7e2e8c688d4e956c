// NB: all-pairs N-body simulation (regular code), thesis section 4.3.
//
// Six switches, bit 5 to bit 0 (variants/README.md):
//   FTZ    compiler flag -ftz=true (the build also passes -DFTZ=1, used only to report the bits)
//   RSQRT  rsqrtf(d2) instead of 1.0f / sqrtf(d2)
//   CONST  immutable kernel parameters (pointers, n) live in __constant__ memory, copied once,
//          instead of being passed as arguments at every launch
//   PEEL   the innermost force loop becomes a loop over full chunks of BLOCK bodies with a
//          compile-time trip count, followed by a remainder loop
//   SHMEM  bodies are staged through shared memory one tile of BLOCK bodies at a time
//   UNROLL #pragma unroll 8 on the innermost force loop(s); without it the loops
//          carry no pragma (the compiler's default choice)
#ifndef FTZ
#define FTZ 0
#endif
#ifndef RSQRT
#define RSQRT 0
#endif
#ifndef CONST
#define CONST 0
#endif
#ifndef PEEL
#define PEEL 0
#endif
#ifndef SHMEM
#define SHMEM 0
#endif
#ifndef UNROLL
#define UNROLL 0
#endif

static const char *PROGRAM = "NB";
static int VARIANT_BITS = (FTZ << 5) | (RSQRT << 4) | (CONST << 3) | (PEEL << 2) | (SHMEM << 1) | UNROLL;

// --verify 1: largest relative RMS force error against direct summation (direct summation in float against double: rounding only).
#define FORCE_TOLERANCE 1e-5

#include "../common/driver.cuh"

#define BLOCK 256

#define PRAGMA(x) _Pragma(#x)
#if UNROLL
#define INNER_LOOP PRAGMA(unroll 8)
#else
#define INNER_LOOP
#endif

struct Params {
    float4 *pos;  // x, y, z, mass
    float4 *vel;  // vx, vy, vz, unused
    float4 *acc;  // ax, ay, az, unused
    int n;
};

#if CONST
__constant__ Params c_params;
#define P c_params
#define KPARAMS void
#define KARGS
#else
#define P p
#define KPARAMS Params p
#define KARGS sim.params
#endif

__device__ __forceinline__ void interact(float4 pi, float4 pj, float3 &a) {
    float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
    float d2 = dx * dx + dy * dy + dz * dz + EPS2;  // softening: i == j adds nothing
#if RSQRT
    float inv = rsqrtf(d2);
#else
    float inv = 1.0f / sqrtf(d2);
#endif
    float s = pj.w * inv * inv * inv;
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

__global__ void __launch_bounds__(BLOCK) force(KPARAMS) {
    const int n = P.n;
    const float4 *__restrict__ pos = P.pos;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 pi = (i < n) ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
#if SHMEM
    __shared__ float4 tile[BLOCK];
#if PEEL
    const int full = n - n % BLOCK;
    for (int base = 0; base < full; base += BLOCK) {
        tile[threadIdx.x] = pos[base + threadIdx.x];
        __syncthreads();
        INNER_LOOP
        for (int k = 0; k < BLOCK; k++) interact(pi, tile[k], a);
        __syncthreads();
    }
    if (full < n) {
        int j = full + threadIdx.x;
        tile[threadIdx.x] = (j < n) ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
        const int rest = n - full;
        INNER_LOOP
        for (int k = 0; k < rest; k++) interact(pi, tile[k], a);
        __syncthreads();
    }
#else
    for (int base = 0; base < n; base += BLOCK) {
        int j = base + threadIdx.x;
        tile[threadIdx.x] = (j < n) ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
        const int count = min(BLOCK, n - base);
        INNER_LOOP
        for (int k = 0; k < count; k++) interact(pi, tile[k], a);
        __syncthreads();
    }
#endif
#else  // bodies straight from global memory
#if PEEL
    const int full = n - n % BLOCK;
    for (int base = 0; base < full; base += BLOCK) {
        INNER_LOOP
        for (int k = 0; k < BLOCK; k++) interact(pi, pos[base + k], a);
    }
    INNER_LOOP
    for (int j = full; j < n; j++) interact(pi, pos[j], a);
#else
    INNER_LOOP
    for (int j = 0; j < n; j++) interact(pi, pos[j], a);
#endif
#endif
    if (i < n) P.acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

// Kick then drift (symplectic Euler), in place, so the pointers never change between steps.
__global__ void __launch_bounds__(BLOCK) integrate(KPARAMS) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= P.n) return;
    float4 a = P.acc[i], v = P.vel[i], x = P.pos[i];
    v.x += a.x * DT; v.y += a.y * DT; v.z += a.z * DT;
    x.x += v.x * DT; x.y += v.y * DT; x.z += v.z * DT;
    P.vel[i] = v;
    P.pos[i] = x;
}

struct Sim {
    Params params;
    int n = 0, blocks = 0;
    std::vector<float4> host;
};

void sim_init(Sim &sim, int n) {
    sim.n = n;
    sim.blocks = (n + BLOCK - 1) / BLOCK;
    sim.params.n = n;
    CUDA_CHECK(cudaMalloc(&sim.params.pos, n * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&sim.params.vel, n * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&sim.params.acc, n * sizeof(float4)));
#if CONST
    CUDA_CHECK(cudaMemcpyToSymbol(c_params, &sim.params, sizeof(Params)));
#endif
}

void sim_upload(Sim &sim, const Bodies &b) {
    sim.host.resize(sim.n);
    for (int i = 0; i < sim.n; i++) sim.host[i] = make_float4(b.x[i], b.y[i], b.z[i], b.m[i]);
    CUDA_CHECK(cudaMemcpy(sim.params.pos, sim.host.data(), sim.n * sizeof(float4), cudaMemcpyHostToDevice));
    for (int i = 0; i < sim.n; i++) sim.host[i] = make_float4(b.vx[i], b.vy[i], b.vz[i], 0.f);
    CUDA_CHECK(cudaMemcpy(sim.params.vel, sim.host.data(), sim.n * sizeof(float4), cudaMemcpyHostToDevice));
}

void sim_step(Sim &sim, KernelTimer &t) {
    t.begin("force");
    force<<<sim.blocks, BLOCK>>>(KARGS);
    t.end();
    t.begin("integrate");
    integrate<<<sim.blocks, BLOCK>>>(KARGS);
    t.end();
}

void sim_download(Sim &sim, Bodies &b) {
    b.resize(sim.n);
    sim.host.resize(sim.n);
    CUDA_CHECK(cudaMemcpy(sim.host.data(), sim.params.pos, sim.n * sizeof(float4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < sim.n; i++) {
        b.x[i] = sim.host[i].x; b.y[i] = sim.host[i].y; b.z[i] = sim.host[i].z; b.m[i] = sim.host[i].w;
    }
    CUDA_CHECK(cudaMemcpy(sim.host.data(), sim.params.vel, sim.n * sizeof(float4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < sim.n; i++) { b.vx[i] = sim.host[i].x; b.vy[i] = sim.host[i].y; b.vz[i] = sim.host[i].z; }
}

const char *sim_check(Sim &) { return nullptr; }

void sim_free(Sim &sim) {
    CUDA_CHECK(cudaFree(sim.params.pos));
    CUDA_CHECK(cudaFree(sim.params.vel));
    CUDA_CHECK(cudaFree(sim.params.acc));
}

int main(int argc, char **argv) { return advise_main<Sim>(argc, argv); }
