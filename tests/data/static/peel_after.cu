// catalogue/optimizations.toml, PEEL `after` snippet (advise's own example code).
__global__ void sum_rows(const float* a, float* out, int cols) {
    const float* row = a + blockIdx.x * cols;
    float s = 0.0f;
    int main_part = cols - cols % 4;
    for (int j = 0; j < main_part; j += 4)
        s += row[j] + row[j + 1] + row[j + 2] + row[j + 3];
    for (int j = main_part; j < cols; j++) s += row[j];
    out[blockIdx.x] = s;
}
