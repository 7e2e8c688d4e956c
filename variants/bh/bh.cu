// BH: Barnes-Hut N-body simulation (irregular code), thesis section 3.3, in the style of
// Burtscher and Pingali's GPU implementation ("An Efficient CUDA Implementation of the
// Tree-Based Barnes Hut n-Body Algorithm", GPU Computing Gems Emerald Edition, 2011): one
// octree in flat arrays (bodies at indices [0, n), cells allocated downwards from the root at
// index nnodes), persistent-thread kernels, lock-based top-down tree building, a bottom-up
// summarization that spins on children's masses, an optional sort of bodies into tree order,
// and a force calculation that walks the tree with an explicit stack.
// Written for this project; see variants/README.md.
//
// Six switches, bit 5 to bit 0:
//   VOTE   32-element warp reductions use __all_sync/__any_sync instead of a shared-memory
//          sequence (each lane stores its flag, __syncwarp, every lane reduces 32 values)
//   WARP   warp-based traversal: the 32 lanes walk the tree together, a cell is opened when any
//          lane needs it, one stack per warp in shared memory. Without WARP every thread walks
//          alone with its own stack in local memory (more divergence, more memory).
//   SORT   run the sort kernel and process bodies in tree order in the force kernel
//   RSQRT  rsqrtf(d2) instead of 1.0f / sqrtf(d2)
//   FTZ    compiler flag -ftz=true (the build also passes -DFTZ=1 to report the bits)
//   VOLA   copy values read through volatile pointers into registers or shared memory where no
//          other thread can change them any more, instead of re-reading memory each time
//
// Safety on Volta and later (independent thread scheduling): the classic code relied on the
// lanes of a warp running in lockstep. Here every exchange through shared memory inside a warp
// is ordered by __syncwarp(), the warp-wide loops are kept warp-uniform (lanes without a body
// take part with neutral flags), and all warp intrinsics are the *_sync forms with a full mask.
// Spin-waits across threads (summarize, sort) use volatile loads plus __threadfence(), and the
// grids are sized to what is resident at once, so a waiting thread never waits for a block
// that cannot be scheduled.
#ifndef VOTE
#define VOTE 0
#endif
#ifndef WARP
#define WARP 0
#endif
#ifndef SORT
#define SORT 0
#endif
#ifndef RSQRT
#define RSQRT 0
#endif
#ifndef FTZ
#define FTZ 0
#endif
#ifndef VOLA
#define VOLA 0
#endif

static const char *PROGRAM = "BH";
static int VARIANT_BITS = (VOTE << 5) | (WARP << 4) | (SORT << 3) | (RSQRT << 2) | (FTZ << 1) | VOLA;

// --verify 1: largest relative RMS force error against direct summation (the Barnes-Hut approximation (monopoles, opening angle 0.5) plus rounding).
#define FORCE_TOLERANCE 2e-2

#include "../common/driver.cuh"

#define THREADS 256
#define WARPS (THREADS / 32)
#define MAXDEPTH 48
#define FULL_MASK 0xffffffffu
#define THETA2_INV 4.0f  // 1 / theta^2 with opening angle theta = 0.5

#define ERR_CELLS 1
#define ERR_DEPTH 2

__device__ volatile int bottom_d;     // lowest allocated cell index
__device__ volatile int maxdepth_d;   // deepest tree level of this step
__device__ volatile float radius_d;   // half the side of the root cell
__device__ unsigned int blkcnt_d;     // blocks done with the bounding box (wraps to 0)
__device__ volatile int error_d;

struct Arrays {
    float *posx, *posy, *posz, *mass;  // bodies, then cells (centre of mass)
    float *velx, *vely, *velz, *accx, *accy, *accz;
    int *count, *start, *sort, *child;
    float *bminx, *bmaxx, *bminy, *bmaxy, *bminz, *bmaxz;  // per-block bounding boxes
    int n, nnodes;
};

__device__ __forceinline__ float inv_sqrt(float d2) {
#if RSQRT
    return rsqrtf(d2);
#else
    return 1.0f / sqrtf(d2);
#endif
}

// 32-element reductions over a warp; every lane must call them (warp-uniform control flow).
__device__ __forceinline__ bool warp_all(bool p, volatile int *buf, int lane) {
#if VOTE
    (void)buf; (void)lane;
    return __all_sync(FULL_MASK, p);
#else
    buf[lane] = p ? 1 : 0;
    __syncwarp();
    int r = 1;
    for (int t = 0; t < 32; t++) r &= buf[t];
    __syncwarp();
    return r != 0;
#endif
}

__device__ __forceinline__ bool warp_any(bool p, volatile int *buf, int lane) {
#if VOTE
    (void)buf; (void)lane;
    return __any_sync(FULL_MASK, p);
#else
    buf[lane] = p ? 1 : 0;
    __syncwarp();
    int r = 0;
    for (int t = 0; t < 32; t++) r |= buf[t];
    __syncwarp();
    return r != 0;
#endif
}

// Resets every cell except the root: no children, not summarized, no start index.
__global__ void __launch_bounds__(THREADS) clear(Arrays a) {
    const int stride = blockDim.x * gridDim.x;
    for (int k = a.n * 8 + blockIdx.x * blockDim.x + threadIdx.x; k < a.nnodes * 8; k += stride)
        a.child[k] = -1;
    for (int k = a.n + blockIdx.x * blockDim.x + threadIdx.x; k < a.nnodes; k += stride) {
        a.mass[k] = -1.0f;
        a.start[k] = -1;
    }
}

// Step 1: bounding box by a block reduction, the last block combines the blocks' boxes and
// initializes the root cell.
__global__ void __launch_bounds__(THREADS) bounding_box(Arrays a) {
    __shared__ float sminx[THREADS], smaxx[THREADS], sminy[THREADS], smaxy[THREADS],
        sminz[THREADS], smaxz[THREADS];
    __shared__ bool last;
    const int t = threadIdx.x;
    float minx = a.posx[0], maxx = minx, miny = a.posy[0], maxy = miny, minz = a.posz[0], maxz = minz;
    for (int j = t + blockIdx.x * blockDim.x; j < a.n; j += blockDim.x * gridDim.x) {
        float v = a.posx[j]; minx = fminf(minx, v); maxx = fmaxf(maxx, v);
        v = a.posy[j]; miny = fminf(miny, v); maxy = fmaxf(maxy, v);
        v = a.posz[j]; minz = fminf(minz, v); maxz = fmaxf(maxz, v);
    }
    sminx[t] = minx; smaxx[t] = maxx; sminy[t] = miny; smaxy[t] = maxy; sminz[t] = minz; smaxz[t] = maxz;
    for (int s = THREADS / 2; s > 0; s /= 2) {
        __syncthreads();
        if (t < s) {
            sminx[t] = fminf(sminx[t], sminx[t + s]); smaxx[t] = fmaxf(smaxx[t], smaxx[t + s]);
            sminy[t] = fminf(sminy[t], sminy[t + s]); smaxy[t] = fmaxf(smaxy[t], smaxy[t + s]);
            sminz[t] = fminf(sminz[t], sminz[t + s]); smaxz[t] = fmaxf(smaxz[t], smaxz[t + s]);
        }
    }
    if (t == 0) {
        a.bminx[blockIdx.x] = sminx[0]; a.bmaxx[blockIdx.x] = smaxx[0];
        a.bminy[blockIdx.x] = sminy[0]; a.bmaxy[blockIdx.x] = smaxy[0];
        a.bminz[blockIdx.x] = sminz[0]; a.bmaxz[blockIdx.x] = smaxz[0];
        __threadfence();
        last = atomicInc(&blkcnt_d, gridDim.x - 1) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    volatile float *bx0 = a.bminx, *bx1 = a.bmaxx, *by0 = a.bminy, *by1 = a.bmaxy,
                   *bz0 = a.bminz, *bz1 = a.bmaxz;
    minx = bx0[0]; maxx = bx1[0]; miny = by0[0]; maxy = by1[0]; minz = bz0[0]; maxz = bz1[0];
    for (int j = t; j < gridDim.x; j += blockDim.x) {
        minx = fminf(minx, bx0[j]); maxx = fmaxf(maxx, bx1[j]);
        miny = fminf(miny, by0[j]); maxy = fmaxf(maxy, by1[j]);
        minz = fminf(minz, bz0[j]); maxz = fmaxf(maxz, bz1[j]);
    }
    __syncthreads();
    sminx[t] = minx; smaxx[t] = maxx; sminy[t] = miny; smaxy[t] = maxy; sminz[t] = minz; smaxz[t] = maxz;
    for (int s = THREADS / 2; s > 0; s /= 2) {
        __syncthreads();
        if (t < s) {
            sminx[t] = fminf(sminx[t], sminx[t + s]); smaxx[t] = fmaxf(smaxx[t], smaxx[t + s]);
            sminy[t] = fminf(sminy[t], sminy[t + s]); smaxy[t] = fmaxf(smaxy[t], smaxy[t + s]);
            sminz[t] = fminf(sminz[t], sminz[t + s]); smaxz[t] = fmaxf(smaxz[t], smaxz[t + s]);
        }
    }
    if (t == 0) {
        const int root = a.nnodes;
        float side = fmaxf(fmaxf(smaxx[0] - sminx[0], smaxy[0] - sminy[0]), smaxz[0] - sminz[0]);
        radius_d = side * 0.5f * 1.0001f + 1e-6f;
        bottom_d = root;
        maxdepth_d = 1;
        a.posx[root] = 0.5f * (sminx[0] + smaxx[0]);
        a.posy[root] = 0.5f * (sminy[0] + smaxy[0]);
        a.posz[root] = 0.5f * (sminz[0] + smaxz[0]);
        a.mass[root] = -1.0f;
        a.start[root] = 0;
        for (int k = 0; k < 8; k++) a.child[root * 8 + k] = -1;
        __threadfence();
    }
}

// Step 2: top-down octree building. A thread walks down from the root to the slot its body
// belongs in; an empty slot is filled with atomicCAS, a slot holding a body is locked (-2),
// new cells are chained below it until the two bodies separate, and the subtree is published
// by unlocking the slot after a fence. Cell centres are recomputed from the root on the way.
//
// The loop is structured as in Burtscher and Pingali's original: nothing leaves the loop body
// early, a thread that finds a slot locked simply falls through to the next pass, and the
// unlock happens at the end of the pass, after the fence. Under the pre-Volta SIMT model (one
// reconvergence stack per warp; real GPUs before Volta, and GPGPU-Sim) a `continue` or
// `return` inside the lock section lets a waiting lane spin on its own path while the lane of
// the same warp that holds the lock never reaches its unlock: a livelock. A thread that runs
// out of cells or depth records the error, still unlocks, and stops; the others stop at the
// top of their next pass.
__global__ void __launch_bounds__(THREADS) build_tree(Arrays a) {
    volatile int *child = a.child;
    const int n = a.n, root = a.nnodes, inc = blockDim.x * gridDim.x;
    const float radius = radius_d;
    const float rootx = a.posx[root], rooty = a.posy[root], rootz = a.posz[root];
    int localmax = 1, skip = 1, i = threadIdx.x + blockIdx.x * blockDim.x;
    int node = 0, j = 0, depth = 0, locked = 0, patch = -1;
    float px = 0, py = 0, pz = 0, x = 0, y = 0, z = 0, r = 0;
    while (i < n) {
        if (error_d != 0) break;  // no lock is held between passes
        if (skip != 0) {
            skip = 0;
            px = a.posx[i]; py = a.posy[i]; pz = a.posz[i];
            node = root; depth = 1; r = radius * 0.5f;
            float dx = -r, dy = -r, dz = -r;
            j = 0;
            if (rootx < px) { j = 1; dx = r; }
            if (rooty < py) { j |= 2; dy = r; }
            if (rootz < pz) { j |= 4; dz = r; }
            x = rootx + dx; y = rooty + dy; z = rootz + dz;
        }
        int ch = child[node * 8 + j];
        while (ch >= n) {  // descend through cells
            node = ch; depth++; r *= 0.5f;
            float dx = -r, dy = -r, dz = -r;
            j = 0;
            if (x < px) { j = 1; dx = r; }
            if (y < py) { j |= 2; dy = r; }
            if (z < pz) { j |= 4; dz = r; }
            x += dx; y += dy; z += dz;
            ch = child[node * 8 + j];
        }
        if (ch != -2) {  // a locked slot (-2) is tried again in the next pass
            locked = node * 8 + j;
            if (ch == -1) {
                if (atomicCAS(&a.child[locked], -1, i) == -1) {
                    localmax = max(depth, localmax);
                    i += inc;
                    skip = 1;
                }
            } else if (atomicCAS(&a.child[locked], ch, -2) == ch) {
                patch = -1;
                int err = 0;
                do {  // split until the resident body ch and body i fall into different octants
                    depth++;
                    if (depth >= MAXDEPTH) { err = ERR_DEPTH; break; }
                    const int cell = atomicSub((int *)&bottom_d, 1) - 1;
                    if (cell <= n) { err = ERR_CELLS; break; }
                    if (patch != -1) child[node * 8 + j] = cell;
                    patch = max(patch, cell);
                    int k = 0;
                    if (x < a.posx[ch]) k = 1;
                    if (y < a.posy[ch]) k |= 2;
                    if (z < a.posz[ch]) k |= 4;
                    child[cell * 8 + k] = ch;
                    node = cell; r *= 0.5f;
                    float dx = -r, dy = -r, dz = -r;
                    j = 0;
                    if (x < px) { j = 1; dx = r; }
                    if (y < py) { j |= 2; dy = r; }
                    if (z < pz) { j |= 4; dz = r; }
                    x += dx; y += dy; z += dz;
                    ch = child[node * 8 + j];
                } while (ch >= 0);
                if (err != 0) {
                    error_d = err;
                    if (patch == -1) patch = ch;  // nothing chained: put the body back
                    i = n;                        // stop after unlocking below
                } else {
                    child[node * 8 + j] = i;
                    localmax = max(depth, localmax);
                    i += inc;
                }
                skip = 2;
            }
        }
        __threadfence();  // a new subtree is complete before it becomes reachable
        if (skip == 2) {
            child[locked] = patch;
            skip = 1;
        }
    }
    atomicMax((int *)&maxdepth_d, localmax);
}

// Step 3: bottom-up summarization (centre of mass, body count). A cell is done when all its
// children have a mass >= 0. Children are also moved to the front of their cell, so the
// traversal can stop at the first empty slot.
//
// As in Burtscher and Pingali's original, a thread checks its cell once per pass of one loop
// and publishes a finished cell's mass at the end of the pass, after the fence. A spin loop
// inside the pass would deadlock under the pre-Volta SIMT model when the child a lane waits
// for belongs to another lane of the same warp: that lane could not leave the spin's
// reconvergence point to publish it.
__global__ void __launch_bounds__(THREADS) summarize(Arrays a) {
    if (error_d != 0) return;  // the tree is incomplete: nothing to wait for
    volatile float *mass = a.mass;
    volatile float *posx = a.posx, *posy = a.posy, *posz = a.posz;
    volatile int *count = a.count;
    volatile int *vchild = a.child;
    const int n = a.n, root = a.nnodes, inc = blockDim.x * gridDim.x, bottom = bottom_d;
#if VOLA
    __shared__ int cache_child[8 * THREADS];
    __shared__ float cache_mass[8 * THREADS];
    bool cached = false;  // this cell's children are in the cache
#endif
    int k = (bottom & ~31) + threadIdx.x + blockIdx.x * blockDim.x;
    if (k < bottom) k += inc;
    float cm = 0.0f;
    while (k <= root) {
        int missing = 0;
#if VOLA
        // Child indices and ready masses are cached: only this thread touches this cell's
        // children now, and a mass once >= 0 never changes again.
        if (!cached) {
            for (int c = 0; c < 8; c++) {
                const int ch = vchild[k * 8 + c];
                cache_child[c * THREADS + threadIdx.x] = ch;
                float m = 1.0f;
                if (ch >= n) {
                    m = mass[ch];
                    if (m < 0.0f) missing++;
                }
                cache_mass[c * THREADS + threadIdx.x] = m;
            }
            cached = true;
        } else {
            for (int c = 0; c < 8; c++) {
                const int ch = cache_child[c * THREADS + threadIdx.x];
                if (ch >= n && cache_mass[c * THREADS + threadIdx.x] < 0.0f) {
                    const float m = mass[ch];
                    cache_mass[c * THREADS + threadIdx.x] = m;
                    if (m < 0.0f) missing++;
                }
            }
        }
#else
        // Every check re-reads the child pointers and masses through volatile pointers.
        for (int c = 0; c < 8; c++) {
            if (vchild[k * 8 + c] >= n && mass[vchild[k * 8 + c]] < 0.0f) missing++;
        }
#endif
        if (missing == 0) {
            __threadfence();  // the children's positions and counts are read after their masses
            float px = 0.0f, py = 0.0f, pz = 0.0f;
            int cnt = 0, slot = 0;
            cm = 0.0f;
            for (int c = 0; c < 8; c++) {
#if VOLA
                const int ch = cache_child[c * THREADS + threadIdx.x];
#else
                const int ch = vchild[k * 8 + c];
#endif
                if (ch < 0) continue;
                if (c != slot) {  // move to the front
                    vchild[k * 8 + c] = -1;
                    vchild[k * 8 + slot] = ch;
                }
                slot++;
#if VOLA
                const float m = ch >= n ? cache_mass[c * THREADS + threadIdx.x] : a.mass[ch];
                cnt += ch >= n ? count[ch] : 1;
                cm += m;
                px += posx[ch] * m; py += posy[ch] * m; pz += posz[ch] * m;
#else
                cnt += ch >= n ? count[ch] : 1;
                cm += mass[ch];
                px += posx[ch] * mass[ch]; py += posy[ch] * mass[ch]; pz += posz[ch] * mass[ch];
#endif
            }
            count[k] = cnt;
            const float inv = 1.0f / cm;
            posx[k] = px * inv; posy[k] = py * inv; posz[k] = pz * inv;
        }
        __threadfence();  // centre and count are visible before the mass says "done"
        if (missing == 0) {
            mass[k] = cm;
            k += inc;
#if VOLA
            cached = false;
#endif
        }
    }
}

// Step 4 (SORT): top-down, each cell hands consecutive ranges of the sorted order to its
// children once its own start index is known, giving bodies in tree (spatial) order.
__global__ void __launch_bounds__(THREADS) sort_bodies(Arrays a) {
    if (error_d != 0) return;  // the tree is incomplete: nothing to wait for
    volatile int *start = a.start;
    const int n = a.n, bottom = bottom_d, dec = blockDim.x * gridDim.x;
    int k = a.nnodes + 1 - dec + threadIdx.x + blockIdx.x * blockDim.x;
    while (k >= bottom) {
        int s = start[k];
        if (s >= 0) {
            for (int c = 0; c < 8; c++) {
                const int ch = a.child[k * 8 + c];
                if (ch < 0) break;  // children were compacted by summarize
                if (ch >= n) {
                    start[ch] = s;
                    s += a.count[ch];
                } else {
                    a.sort[s++] = ch;
                }
            }
            k -= dec;
        }
    }
}

// Step 5: forces. dq[d] is the squared distance beyond which a cell at stack depth d is far
// enough to be treated as one body (opening angle theta), plus the softening.
__global__ void __launch_bounds__(THREADS) force(Arrays a) {
    __shared__ float dq[MAXDEPTH];
    __shared__ int vote_buf[THREADS];
#if WARP
    __shared__ int stack_pos[WARPS * MAXDEPTH], stack_node[WARPS * MAXDEPTH];
#endif
    const int n = a.n, root = a.nnodes, maxdepth = maxdepth_d;
    if (error_d != 0) return;
    if (maxdepth >= MAXDEPTH) {
        if (threadIdx.x == 0) error_d = ERR_DEPTH;
        return;
    }
    if (threadIdx.x == 0) {
        float side = radius_d * 2.0f;
        float d = side * side * THETA2_INV;
        for (int i = 0; i < MAXDEPTH; i++) {
            dq[i] = d + EPS2;
            d *= 0.25f;
        }
    }
    __syncthreads();
    const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    volatile int *buf = &vote_buf[warp * 32];
    const int stride = blockDim.x * gridDim.x;
    // Warp-uniform loop: lanes without a body come along with neutral votes.
    for (int kb = blockIdx.x * blockDim.x + warp * 32; kb < n; kb += stride) {
        const int k = kb + lane;
        const bool active = k < n;
#if SORT
        const int i = active ? a.sort[k] : 0;
#else
        const int i = active ? k : 0;
#endif
        const float px = a.posx[i], py = a.posy[i], pz = a.posz[i];
        float ax = 0.0f, ay = 0.0f, az = 0.0f;
#if WARP
        volatile int *spos = &stack_pos[warp * MAXDEPTH];
        volatile int *snode = &stack_node[warp * MAXDEPTH];
        int depth = 0;
        if (lane == 0) { spos[0] = 0; snode[0] = root * 8; }
        __syncwarp();
#if VOLA
        // The top of the warp's stack is the same for all lanes: keep it in registers and
        // touch the shared stack only on push and pop.
        do {
            int pd = spos[depth], nd = snode[depth];
            while (pd < 8) {
                const int c = a.child[nd + pd];
                pd++;
                if (c < 0) break;
                const float dx = a.posx[c] - px, dy = a.posy[c] - py, dz = a.posz[c] - pz;
                float d2 = dx * dx + (dy * dy + (dz * dz + EPS2));
                if (c < n || warp_all(!active || d2 >= dq[depth], buf, lane)) {
                    const float inv = inv_sqrt(d2);
                    const float s = a.mass[c] * inv * inv * inv;
                    ax += dx * s; ay += dy * s; az += dz * s;
                } else {
                    if (lane == 0) { spos[depth] = pd; snode[depth] = nd; }
                    __syncwarp();
                    depth++;
                    pd = 0;
                    nd = c * 8;
                }
            }
            depth--;
        } while (depth >= 0);
#else
        // The top of the stack lives in volatile shared memory and is re-read at every use.
        do {
            while (spos[depth] < 8) {
                const int c = a.child[snode[depth] + spos[depth]];
                __syncwarp();
                if (lane == 0) spos[depth] = (c < 0) ? 8 : spos[depth] + 1;
                __syncwarp();
                if (c < 0) break;
                const float dx = a.posx[c] - px, dy = a.posy[c] - py, dz = a.posz[c] - pz;
                float d2 = dx * dx + (dy * dy + (dz * dz + EPS2));
                if (c < n || warp_all(!active || d2 >= dq[depth], buf, lane)) {
                    const float inv = inv_sqrt(d2);
                    const float s = a.mass[c] * inv * inv * inv;
                    ax += dx * s; ay += dy * s; az += dz * s;
                } else {
                    depth++;
                    if (lane == 0) { spos[depth] = 0; snode[depth] = c * 8; }
                    __syncwarp();
                }
            }
            depth--;
        } while (depth >= 0);
#endif
#else   // thread-based traversal: own stack in local memory, own opening decisions
        int lpos[MAXDEPTH], lnode[MAXDEPTH];
        int depth = active ? 0 : -1, pd = 0, nd = root * 8;
        while (warp_any(depth >= 0, buf, lane)) {
            if (depth >= 0) {
                if (pd < 8) {
                    const int c = a.child[nd + pd];
                    pd++;
                    if (c < 0) {
                        pd = 8;
                    } else {
                        const float dx = a.posx[c] - px, dy = a.posy[c] - py, dz = a.posz[c] - pz;
                        float d2 = dx * dx + (dy * dy + (dz * dz + EPS2));
                        if (c < n || d2 >= dq[depth]) {
                            const float inv = inv_sqrt(d2);
                            const float s = a.mass[c] * inv * inv * inv;
                            ax += dx * s; ay += dy * s; az += dz * s;
                        } else {
                            lpos[depth] = pd; lnode[depth] = nd;
                            depth++;
                            pd = 0;
                            nd = c * 8;
                        }
                    }
                } else {
                    depth--;
                    if (depth >= 0) { pd = lpos[depth]; nd = lnode[depth]; }
                }
            }
        }
#endif
        if (active) { a.accx[i] = ax; a.accy[i] = ay; a.accz[i] = az; }
    }
}

// Step 6: kick then drift (symplectic Euler), as NB does.
__global__ void __launch_bounds__(THREADS) integrate(Arrays a) {
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < a.n; i += blockDim.x * gridDim.x) {
        float vx = a.velx[i] + a.accx[i] * DT, vy = a.vely[i] + a.accy[i] * DT, vz = a.velz[i] + a.accz[i] * DT;
        a.velx[i] = vx; a.vely[i] = vy; a.velz[i] = vz;
        a.posx[i] += vx * DT; a.posy[i] += vy * DT; a.posz[i] += vz * DT;
    }
}

struct Sim {
    Arrays a;
    int grid_clear = 0, grid_bbox = 0, grid_build = 0, grid_sum = 0, grid_sort = 0,
        grid_force = 0, grid_int = 0;
};

// Persistent grids: as many blocks as can be resident at once, so spin-waiting threads only
// ever wait for threads that are running.
template <class K>
static int resident_grid(K kernel, int sms) {
    int per_sm = 0;
    // The ...WithFlags form: GPGPU-Sim's runtime implements only this one.
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&per_sm, kernel, THREADS, 0,
                                                                      cudaOccupancyDefault));
    return std::max(1, per_sm) * sms;
}

void sim_init(Sim &sim, int n) {
    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    sim.grid_clear = resident_grid(clear, sms);
    sim.grid_bbox = resident_grid(bounding_box, sms);
    sim.grid_build = resident_grid(build_tree, sms);
    sim.grid_sum = resident_grid(summarize, sms);
    sim.grid_sort = resident_grid(sort_bodies, sms);
    sim.grid_force = resident_grid(force, sms);
    sim.grid_int = resident_grid(integrate, sms);
    int nnodes = std::max(2 * n, 1024 * sms);
    while ((nnodes & 31) != 0) nnodes++;
    nnodes--;  // indices 0..nnodes, a multiple of 32 in all
    Arrays &a = sim.a;
    a.n = n;
    a.nnodes = nnodes;
    const size_t nn = (size_t)nnodes + 1;
    float **fa[] = {&a.posx, &a.posy, &a.posz, &a.mass};
    for (float **p : fa) CUDA_CHECK(cudaMalloc(p, nn * sizeof(float)));
    float **fb[] = {&a.velx, &a.vely, &a.velz, &a.accx, &a.accy, &a.accz};
    for (float **p : fb) CUDA_CHECK(cudaMalloc(p, (size_t)n * sizeof(float)));
    float **fc[] = {&a.bminx, &a.bmaxx, &a.bminy, &a.bmaxy, &a.bminz, &a.bmaxz};
    for (float **p : fc) CUDA_CHECK(cudaMalloc(p, (size_t)sim.grid_bbox * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&a.count, nn * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&a.start, nn * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&a.sort, nn * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&a.child, nn * 8 * sizeof(int)));
}

void sim_upload(Sim &sim, const Bodies &b) {
    Arrays &a = sim.a;
    const size_t bytes = (size_t)a.n * sizeof(float);
    CUDA_CHECK(cudaMemcpy(a.posx, b.x.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(a.posy, b.y.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(a.posz, b.z.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(a.mass, b.m.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(a.velx, b.vx.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(a.vely, b.vy.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(a.velz, b.vz.data(), bytes, cudaMemcpyHostToDevice));
    int zero = 0;
    CUDA_CHECK(cudaMemcpyToSymbol(error_d, &zero, sizeof(int)));
    CUDA_CHECK(cudaMemcpyToSymbol(blkcnt_d, &zero, sizeof(int)));
}

void sim_step(Sim &sim, KernelTimer &t) {
    t.begin("clear");
    clear<<<sim.grid_clear, THREADS>>>(sim.a);
    t.end();
    t.begin("bounding_box");
    bounding_box<<<sim.grid_bbox, THREADS>>>(sim.a);
    t.end();
    t.begin("build_tree");
    build_tree<<<sim.grid_build, THREADS>>>(sim.a);
    t.end();
    t.begin("summarize");
    summarize<<<sim.grid_sum, THREADS>>>(sim.a);
    t.end();
#if SORT
    t.begin("sort");
    sort_bodies<<<sim.grid_sort, THREADS>>>(sim.a);
    t.end();
#endif
    t.begin("force");
    force<<<sim.grid_force, THREADS>>>(sim.a);
    t.end();
    t.begin("integrate");
    integrate<<<sim.grid_int, THREADS>>>(sim.a);
    t.end();
}

void sim_download(Sim &sim, Bodies &b) {
    Arrays &a = sim.a;
    b.resize(a.n);
    const size_t bytes = (size_t)a.n * sizeof(float);
    CUDA_CHECK(cudaMemcpy(b.x.data(), a.posx, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b.y.data(), a.posy, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b.z.data(), a.posz, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b.m.data(), a.mass, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b.vx.data(), a.velx, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b.vy.data(), a.vely, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b.vz.data(), a.velz, bytes, cudaMemcpyDeviceToHost));
}

const char *sim_check(Sim &) {
    int err = 0;
    CUDA_CHECK(cudaMemcpyFromSymbol(&err, error_d, sizeof(int)));
    if (err == ERR_CELLS) return "ran out of tree cells";
    if (err == ERR_DEPTH) return "tree deeper than MAXDEPTH (coincident bodies?)";
    return nullptr;
}

void sim_free(Sim &sim) {
    Arrays &a = sim.a;
    void *all[] = {a.posx, a.posy, a.posz, a.mass, a.velx, a.vely, a.velz, a.accx, a.accy, a.accz,
                   a.bminx, a.bmaxx, a.bminy, a.bmaxy, a.bminz, a.bmaxz, a.count, a.start, a.sort,
                   a.child};
    for (void *p : all) CUDA_CHECK(cudaFree(p));
}

int main(int argc, char **argv) { return advise_main<Sim>(argc, argv); }
