// transpose-Sm.cu with its shared-memory tile padded by one column (PADDING): a column of the
// tile now spans all 32 banks, so reading it is free of bank conflicts. Written for advise after
// Ruetsch and Micikevicius, "Optimizing Matrix Transpose in CUDA" (NVIDIA, 2009).
#define PAD 1
#include "transpose-Sm.cu"
