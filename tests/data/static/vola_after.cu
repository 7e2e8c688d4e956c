// catalogue/optimizations.toml, VOLA `after` snippet (advise's own example code).
__global__ void scale(volatile float* shared_v, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = shared_v[0];
    float acc = 0.0f;
    for (int k = 0; k < 8; k++) acc += v * k;
    out[i] = acc;
}
