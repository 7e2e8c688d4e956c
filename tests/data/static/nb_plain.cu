// The plain twin of nb_opt.cu: the same all-pairs step without shared memory, constant memory,
// votes or shuffles; build without fast math, so no NB/BH optimization is applied.
__global__ void nbody_step(const float4* pos, float4* vel, int n, float soft2, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 me = pos[i];
    float ax = 0.f, ay = 0.f, az = 0.f;
    for (int k = 0; k < n; k++) {
        float4 o = pos[k];
        float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
        float d2 = dx * dx + dy * dy + dz * dz + soft2;
        float inv = 1.0f / sqrtf(d2);
        float s = o.w * inv * inv * inv;
        ax += dx * s; ay += dy * s; az += dz * s;
    }
    vel[i].x += ax * dt; vel[i].y += ay * dt; vel[i].z += az * dt;
}
