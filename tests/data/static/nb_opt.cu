// All-pairs N-body step with the NB/BH optimizations a single binary can show: a shared-memory
// tile (SHMEM), softening and time step in constant memory (CONST), a warp vote (VOTE) and a
// warp shuffle; build with -use_fast_math for FTZ and RSQRT. Written for advise's tests.
#define TILE 128
__constant__ float c_soft2;
__constant__ float c_dt;

__global__ void nbody_step(const float4* __restrict__ pos, float4* vel, int n, int* any_close) {
    __shared__ float4 tile[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float ax = 0.f, ay = 0.f, az = 0.f, closest = 1e30f;
    for (int base = 0; base < n; base += TILE) {
        int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
        for (int k = 0; k < TILE && base + k < n; k++) {
            float dx = tile[k].x - me.x, dy = tile[k].y - me.y, dz = tile[k].z - me.z;
            float d2 = dx * dx + dy * dy + dz * dz + c_soft2;
            float inv = 1.0f / sqrtf(d2);
            float s = tile[k].w * inv * inv * inv;
            ax += dx * s; ay += dy * s; az += dz * s;
            closest = fminf(closest, d2);
        }
        __syncthreads();
    }
    // Warp-wide minimum distance, and whether any thread of the warp saw a close pair.
    for (int off = 16; off > 0; off /= 2) closest = fminf(closest, __shfl_down_sync(0xffffffffu, closest, off));
    if (__any_sync(0xffffffffu, closest < 1e-3f) && (threadIdx.x & 31) == 0) *any_close = 1;
    if (i < n) {
        vel[i].x += ax * c_dt; vel[i].y += ay * c_dt; vel[i].z += az * c_dt;
    }
}
