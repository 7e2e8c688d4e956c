// catalogue/optimizations.toml, PEEL `before` snippet (advise's own example code).
__global__ void sum_rows(const float* a, float* out, int cols) {
    const float* row = a + blockIdx.x * cols;
    float s = 0.0f;
    for (int j = 0; j < cols; j++) s += row[j];
    out[blockIdx.x] = s;
}
