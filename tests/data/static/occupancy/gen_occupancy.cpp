// Reference occupancy values from NVIDIA's own calculator, cuda_occupancy.h (CUDA 11.8,
// /usr/include/cuda_occupancy.h from Debian's nvidia-cuda-toolkit 11.8). Device limits per
// compute capability are those of the CUDA C++ Programming Guide, "Technical Specifications
// per Compute Capability" (maximum shared memory per SM with the largest carveout).
// Build and run: g++ -O1 -o gen gen_occupancy.cpp && ./gen > occupancy_golden.csv
#include <cstdio>
#include <cuda_occupancy.h>

struct Cc { int major, minor, warps, regsPerSm, smemPerSmKb; };

int main() {
    const Cc ccs[] = {{3, 0, 64, 65536, 48},  {3, 5, 64, 65536, 48},  {3, 7, 64, 131072, 112},
                      {5, 0, 64, 65536, 64},  {5, 2, 64, 65536, 96},  {6, 0, 64, 65536, 64},
                      {6, 1, 64, 65536, 96},  {7, 0, 64, 65536, 96},  {7, 5, 32, 65536, 64},
                      {8, 0, 64, 65536, 164}, {8, 6, 48, 65536, 100}, {8, 9, 48, 65536, 100},
                      {9, 0, 64, 65536, 228}};
    const int blocks[] = {32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024};
    const int regs[] = {8, 16, 24, 32, 37, 40, 48, 56, 64, 65, 96, 128, 168, 255};
    const int smems[] = {0, 1024, 3072, 8192, 12000, 16384, 32768, 49152};
    printf("cc,block_size,registers,shared_bytes,active_blocks\n");
    for (const Cc &c : ccs) {
        cudaOccDeviceProp p;
        p.computeMajor = c.major;
        p.computeMinor = c.minor;
        p.maxThreadsPerBlock = 1024;
        p.maxThreadsPerMultiprocessor = c.warps * 32;
        p.regsPerBlock = 65536;
        p.regsPerMultiprocessor = c.regsPerSm;
        p.warpSize = 32;
        p.sharedMemPerBlock = 49152;
        p.sharedMemPerMultiprocessor = (size_t)c.smemPerSmKb * 1024;
        p.numSms = 1;
        p.sharedMemPerBlockOptin = p.sharedMemPerMultiprocessor - (c.major >= 8 ? 1024 : 0);
        p.reservedSharedMemPerBlock = c.major >= 8 ? 1024 : 0;
        for (int r : regs) {
            if (c.major == 3 && c.minor == 0 && r > 63) continue;
            for (int s : smems) {
                for (int b : blocks) {
                    cudaOccFuncAttributes a;
                    a.maxThreadsPerBlock = 1024;
                    a.numRegs = r;
                    a.sharedSizeBytes = s;
                    cudaOccDeviceState st;
                    cudaOccResult res;
                    cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&res, &p, &a, &st, b, 0);
                    if (e != CUDA_OCC_SUCCESS) { fprintf(stderr, "error %d\n", (int)e); return 1; }
                    printf("%d.%d,%d,%d,%d,%d\n", c.major, c.minor, b, r, s, res.activeBlocksPerMultiprocessor);
                }
            }
        }
    }
    return 0;
}
