// catalogue/optimizations.toml, VOLA `before` snippet (advise's own example code).
__global__ void scale(volatile float* shared_v, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < 8; k++) acc += shared_v[0] * k;
    out[i] = acc;
}
