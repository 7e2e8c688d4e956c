// The part every variant program shares: command line, deterministic Plummer input, timing
// with CUDA events, the profiled region and the one-JSON-line-per-(input, run) output that
// `advise collect` reads (variants/README.md describes the format).
//
// A program includes this header after defining
//   struct Sim { ... };                          // device state of one input
//   static const char *PROGRAM;                  // "NB" or "BH"
//   static int VARIANT_BITS;                     // its six bits, from the -D switches
//   void sim_init(Sim&, int n);                  // allocate for n bodies
//   void sim_upload(Sim&, const Bodies&);        // copy the initial state
//   void sim_step(Sim&, KernelTimer&);           // one time step, each launch wrapped by the timer
//   void sim_download(Sim&, Bodies&);            // copy the final state back
//   const char *sim_check(Sim&);                 // NULL, or why the last steps were invalid
//   void sim_free(Sim&);
// and then calls `return advise_main<Sim>(argc, argv);` from main().
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

// Simulation constants shared by NB and BH (as in Burtscher and Pingali's BH code).
#define DT 0.025f
#define EPS2 (0.05f * 0.05f)

#define CUDA_CHECK(call)                                                                  \
    do {                                                                                  \
        cudaError_t err_ = (call);                                                        \
        if (err_ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: CUDA error %s: %s\n", __FILE__, __LINE__,             \
                    cudaGetErrorName(err_), cudaGetErrorString(err_));                    \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

struct Bodies {
    std::vector<float> x, y, z, vx, vy, vz, m;
    void resize(int n) {
        x.resize(n); y.resize(n); z.resize(n);
        vx.resize(n); vy.resize(n); vz.resize(n); m.resize(n);
    }
    int size() const { return (int)x.size(); }
};

// splitmix64: a tiny, well-mixed generator so every input is reproducible from its seed on any
// machine (no dependence on the C library's rand()).
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    double next() {
        uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        return (double)(z >> 11) * (1.0 / 9007199254740992.0);  // [0, 1)
    }
};

// A Plummer sphere (Aarseth, Henon and Wielen 1974) in N-body units, total mass 1.
static void plummer(Bodies &b, int n, uint64_t seed) {
    b.resize(n);
    Rng rng(seed * 0x2545f4914f6cdd1dULL + 12345);
    const double rsc = 3.0 * M_PI / 16.0, vsc = std::sqrt(1.0 / rsc);
    for (int i = 0; i < n; i++) {
        b.m[i] = (float)(1.0 / n);
        double r = 1.0 / std::sqrt(std::pow(rng.next() * 0.999 + 1e-12, -2.0 / 3.0) - 1.0);
        double x, y, z, sq;
        do {
            x = rng.next() * 2.0 - 1.0; y = rng.next() * 2.0 - 1.0; z = rng.next() * 2.0 - 1.0;
            sq = x * x + y * y + z * z;
        } while (sq > 1.0 || sq < 1e-12);
        double scale = rsc * r / std::sqrt(sq);
        b.x[i] = (float)(x * scale); b.y[i] = (float)(y * scale); b.z[i] = (float)(z * scale);
        double q, g;
        do {  // von Neumann rejection for the speed distribution q^2 (1 - q^2)^3.5
            q = rng.next();
            g = rng.next() * 0.1;
        } while (g > q * q * std::pow(1.0 - q * q, 3.5));
        double v = q * std::sqrt(2.0) * std::pow(1.0 + r * r, -0.25);
        do {
            x = rng.next() * 2.0 - 1.0; y = rng.next() * 2.0 - 1.0; z = rng.next() * 2.0 - 1.0;
            sq = x * x + y * y + z * z;
        } while (sq > 1.0 || sq < 1e-12);
        scale = vsc * v / std::sqrt(sq);
        b.vx[i] = (float)(x * scale); b.vy[i] = (float)(y * scale); b.vz[i] = (float)(z * scale);
    }
}

// Times every kernel launch of a repetition with a pair of events, so per-kernel times come
// from the same (unprofiled) run as the total.
struct KernelTimer {
    struct Launch { const char *name; cudaEvent_t a, b; };
    std::vector<Launch> pool;
    size_t used = 0;
    int launches = 0;  // launches since reset, counted even when not timing

    void reset() { used = 0; launches = 0; }
    void begin(const char *name) {
        launches++;
        if (used == pool.size()) {
            Launch l{name, nullptr, nullptr};
            CUDA_CHECK(cudaEventCreate(&l.a));
            CUDA_CHECK(cudaEventCreate(&l.b));
            pool.push_back(l);
        }
        pool[used].name = name;
        CUDA_CHECK(cudaEventRecord(pool[used].a));
    }
    void end() {
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(pool[used].b));
        used++;
    }
    // Adds each launch's time to `names`/`ms` (summed per kernel name).
    void collect(std::vector<std::string> &names, std::vector<double> &ms) {
        for (size_t i = 0; i < used; i++) {
            float t = 0;
            CUDA_CHECK(cudaEventElapsedTime(&t, pool[i].a, pool[i].b));
            size_t k = 0;
            while (k < names.size() && names[k] != pool[i].name) k++;
            if (k == names.size()) { names.push_back(pool[i].name); ms.push_back(0.0); }
            ms[k] += t;
        }
    }
};

struct Input { int bodies, steps; };

struct Options {
    std::vector<Input> inputs;
    uint64_t seed = 1;
    int runs = 1, reps = 3, warmup = 1, profile_steps = 0;
    bool verify = false;
    const char *dump = nullptr;
};

static void usage(const char *prog) {
    fprintf(stderr,
            "usage: %s --inputs BODIES:STEPS[,BODIES:STEPS...] [--seed S] [--runs R]\n"
            "          [--reps K] [--warmup W] [--profile-steps P] [--dump-state FILE]\n"
            "          [--verify 1]\n"
            "   or: %s --bodies N --steps S [...]\n"
            "Prints one JSON line per (input, run). --profile-steps P runs one repetition and\n"
            "wraps its first P steps in cudaProfilerStart/Stop (ncu --profile-from-start off).\n"
            "--verify 1 compares the forces of one-step inputs with direct summation on the CPU\n"
            "and fails when their relative RMS error exceeds the program's tolerance.\n",
            prog, prog);
}

static bool parse_int(const char *s, long long lo, long long hi, long long *out) {
    char *end = nullptr;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static bool parse_inputs(const char *s, std::vector<Input> &out) {
    std::string all(s);
    size_t pos = 0;
    while (pos <= all.size()) {
        size_t comma = all.find(',', pos);
        std::string item = all.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        size_t colon = item.find(':');
        if (colon == std::string::npos) return false;
        long long b, st;
        if (!parse_int(item.substr(0, colon).c_str(), 1, 1 << 28, &b)) return false;
        if (!parse_int(item.substr(colon + 1).c_str(), 1, 1 << 20, &st)) return false;
        out.push_back(Input{(int)b, (int)st});
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return !out.empty();
}

static bool parse_options(int argc, char **argv, Options &o) {
    long long bodies = 0, steps = 0, v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = (i + 1 < argc) ? argv[i + 1] : nullptr;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) return false;
        if (!val) { fprintf(stderr, "missing value after %s\n", a); return false; }
        i++;
        if (!strcmp(a, "--inputs")) {
            if (!parse_inputs(val, o.inputs)) { fprintf(stderr, "bad --inputs %s\n", val); return false; }
        } else if (!strcmp(a, "--bodies")) {
            if (!parse_int(val, 1, 1 << 28, &bodies)) { fprintf(stderr, "bad --bodies\n"); return false; }
        } else if (!strcmp(a, "--steps")) {
            if (!parse_int(val, 1, 1 << 20, &steps)) { fprintf(stderr, "bad --steps\n"); return false; }
        } else if (!strcmp(a, "--seed")) {
            if (!parse_int(val, 0, (1LL << 62), &v)) { fprintf(stderr, "bad --seed\n"); return false; }
            o.seed = (uint64_t)v;
        } else if (!strcmp(a, "--runs")) {
            if (!parse_int(val, 1, 1000, &v)) { fprintf(stderr, "bad --runs\n"); return false; }
            o.runs = (int)v;
        } else if (!strcmp(a, "--reps")) {
            if (!parse_int(val, 1, 1000, &v)) { fprintf(stderr, "bad --reps\n"); return false; }
            o.reps = (int)v;
        } else if (!strcmp(a, "--warmup")) {
            if (!parse_int(val, 0, 100, &v)) { fprintf(stderr, "bad --warmup\n"); return false; }
            o.warmup = (int)v;
        } else if (!strcmp(a, "--profile-steps")) {
            if (!parse_int(val, 0, 1 << 20, &v)) { fprintf(stderr, "bad --profile-steps\n"); return false; }
            o.profile_steps = (int)v;
        } else if (!strcmp(a, "--verify")) {
            if (!parse_int(val, 0, 1, &v)) { fprintf(stderr, "bad --verify (0 or 1)\n"); return false; }
            o.verify = v == 1;
        } else if (!strcmp(a, "--dump-state")) {
            o.dump = val;
        } else {
            fprintf(stderr, "unknown option %s\n", a);
            return false;
        }
    }
    if (bodies > 0 || steps > 0) {
        if (bodies <= 0 || steps <= 0) { fprintf(stderr, "--bodies and --steps go together\n"); return false; }
        o.inputs.push_back(Input{(int)bodies, (int)steps});
    }
    if (o.inputs.empty()) { fprintf(stderr, "no input given\n"); return false; }
    if (o.verify) {
        for (const Input &in : o.inputs) {
            if (in.steps != 1) {
                fprintf(stderr, "--verify needs one-step inputs (BODIES:1)\n");
                return false;
            }
        }
    }
    return true;
}

// The six bits as the programs' names write them: "010011".
static std::string bit_string(int bits) {
    std::string s;
    for (int b = 5; b >= 0; b--) s += ((bits >> b) & 1) ? '1' : '0';
    return s;
}

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    if (n == 0) return 0.0;
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void print_list(const std::vector<double> &v) {
    printf("[");
    for (size_t i = 0; i < v.size(); i++) printf("%s%.6f", i ? "," : "", v[i]);
    printf("]");
}

// Sums of |position| and |velocity| in double: order-independent enough to compare variants
// whose arithmetic differs only in rounding (FTZ, RSQRT, summation order).
static void checksum(const Bodies &b, double out[2]) {
    double p = 0, v = 0;
    for (int i = 0; i < b.size(); i++) {
        p += std::sqrt((double)b.x[i] * b.x[i] + (double)b.y[i] * b.y[i] + (double)b.z[i] * b.z[i]);
        v += std::sqrt((double)b.vx[i] * b.vx[i] + (double)b.vy[i] * b.vy[i] + (double)b.vz[i] * b.vz[i]);
    }
    out[0] = p;
    out[1] = v;
}

static void dump_state(const char *path, const Bodies &b) {
    FILE *f = fopen(path, "wb");
    if (!f) { fprintf(stderr, "cannot write %s\n", path); exit(1); }
    // Text header line, then n records of 6 little-endian float32 (x y z vx vy vz).
    fprintf(f, "advise-state bodies=%d fields=x,y,z,vx,vy,vz format=float32le\n", b.size());
    for (int i = 0; i < b.size(); i++) {
        float r[6] = {b.x[i], b.y[i], b.z[i], b.vx[i], b.vy[i], b.vz[i]};
        fwrite(r, sizeof(float), 6, f);
    }
    fclose(f);
}

// The CPU reference: accelerations of the initial state by direct summation in double, with
// the programs' softening, compared with the GPU's, recovered from one kick (v1 = v0 + a dt).
// Returns the relative RMS error sqrt(sum |a - a_ref|^2 / sum |a_ref|^2) and, in worst, the
// largest |a_i - a_ref_i| over the RMS of |a_ref|. Exact direct summation (NB) differs from it
// only by float rounding; Barnes-Hut (BH) adds its approximation error (opening angle 0.5).
static double force_error(const Bodies &init, const Bodies &fin, double *worst) {
    const int n = init.size();
    double num = 0, den = 0, big = 0;
    std::vector<double> err(n);
    for (int i = 0; i < n; i++) {
        double ax = 0, ay = 0, az = 0;
        for (int j = 0; j < n; j++) {
            const double dx = (double)init.x[j] - init.x[i], dy = (double)init.y[j] - init.y[i],
                         dz = (double)init.z[j] - init.z[i];
            const double d2 = dx * dx + dy * dy + dz * dz + (double)EPS2;
            const double s = (double)init.m[j] / (d2 * std::sqrt(d2));
            ax += dx * s; ay += dy * s; az += dz * s;
        }
        const double gx = ((double)fin.vx[i] - init.vx[i]) / DT,
                     gy = ((double)fin.vy[i] - init.vy[i]) / DT,
                     gz = ((double)fin.vz[i] - init.vz[i]) / DT;
        const double e2 = (gx - ax) * (gx - ax) + (gy - ay) * (gy - ay) + (gz - az) * (gz - az);
        num += e2;
        den += ax * ax + ay * ay + az * az;
        err[i] = std::sqrt(e2);
    }
    for (double e : err) big = std::max(big, e);
    const double rms_ref = std::sqrt(den / std::max(n, 1));
    *worst = rms_ref > 0 ? big / rms_ref : 0;
    return den > 0 ? std::sqrt(num / den) : 0;
}

// Runs the time steps; with profile_steps > 0 the first ones are bracketed by
// cudaProfilerStart/Stop. Returns how many launches fell inside that bracket.
template <class S>
static int run_steps(S &sim, int steps, KernelTimer &timer, int profile_steps) {
    int first = 0, profiled = 0;
    for (int s = 0; s < steps; s++) {
        if (profile_steps > 0 && s == 0) {
            CUDA_CHECK(cudaDeviceSynchronize());
            CUDA_CHECK(cudaProfilerStart());
            first = timer.launches;
        }
        sim_step(sim, timer);
        if (profile_steps > 0 && (s + 1 == profile_steps || s + 1 == steps) && profiled == 0) {
            CUDA_CHECK(cudaDeviceSynchronize());
            CUDA_CHECK(cudaProfilerStop());
            profiled = timer.launches - first;
        }
    }
    return profiled;
}

template <class S>
int advise_main(int argc, char **argv) {
    Options o;
    if (!parse_options(argc, argv, o)) { usage(argv[0]); return 2; }
    cudaDeviceProp prop;
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    const bool profiling = o.profile_steps > 0;
    if (profiling) { o.reps = 1; o.warmup = 0; }

    for (const Input &in : o.inputs) {
        Bodies init, fin;
        plummer(init, in.bodies, o.seed);
        S sim;
        sim_init(sim, in.bodies);
        KernelTimer timer;
        cudaEvent_t start, stop;
        CUDA_CHECK(cudaEventCreate(&start));
        CUDA_CHECK(cudaEventCreate(&stop));
        for (int w = 0; w < o.warmup; w++) {
            sim_upload(sim, init);
            timer.reset();
            run_steps(sim, in.steps, timer, 0);
            CUDA_CHECK(cudaDeviceSynchronize());
        }
        for (int run = 1; run <= o.runs; run++) {
            std::vector<double> times;
            std::vector<std::string> knames;
            std::vector<std::vector<double>> kreps;  // per kernel, per repetition
            int launches = 0, profiled_launches = 0;
            for (int rep = 0; rep < o.reps; rep++) {
                sim_upload(sim, init);
                CUDA_CHECK(cudaDeviceSynchronize());
                timer.reset();
                CUDA_CHECK(cudaEventRecord(start));
                int p = run_steps(sim, in.steps, timer, profiling && rep == 0 ? o.profile_steps : 0);
                if (rep == 0) profiled_launches = p;
                CUDA_CHECK(cudaEventRecord(stop));
                CUDA_CHECK(cudaEventSynchronize(stop));
                CUDA_CHECK(cudaGetLastError());
                const char *bad = sim_check(sim);
                if (bad) {
                    fprintf(stderr, "%s %s bodies=%d,steps=%d: %s\n", PROGRAM, bit_string(VARIANT_BITS).c_str(),
                            in.bodies, in.steps, bad);
                    return 1;
                }
                float ms = 0;
                CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
                times.push_back(ms);
                std::vector<std::string> names;
                std::vector<double> kms;
                timer.collect(names, kms);
                for (size_t k = 0; k < names.size(); k++) {
                    size_t j = 0;
                    while (j < knames.size() && knames[j] != names[k]) j++;
                    if (j == knames.size()) { knames.push_back(names[k]); kreps.emplace_back(); }
                    kreps[j].push_back(kms[k]);
                }
                launches = timer.launches;
            }
            sim_download(sim, fin);
            double sum[2];
            checksum(fin, sum);
            if (o.dump && run == o.runs && &in == &o.inputs.back()) dump_state(o.dump, fin);
            int bits = VARIANT_BITS, profiled = 0;
            if (profiling) profiled = std::min(o.profile_steps, in.steps);
            printf("{\"program\":\"%s\",\"variant\":\"%d%d%d%d%d%d\",\"input\":\"bodies=%d,steps=%d\","
                   "\"bodies\":%d,\"steps\":%d,\"seed\":%llu,\"run\":%d,\"repetitions\":%d,"
                   "\"warmup\":%d,\"time_ms\":%.6f,\"times_ms\":",
                   PROGRAM, (bits >> 5) & 1, (bits >> 4) & 1, (bits >> 3) & 1, (bits >> 2) & 1,
                   (bits >> 1) & 1, bits & 1, in.bodies, in.steps, in.bodies, in.steps,
                   (unsigned long long)o.seed, run, o.reps, o.warmup, median(times));
            print_list(times);
            printf(",\"kernels\":[");
            for (size_t k = 0; k < knames.size(); k++) {
                printf("%s{\"name\":\"%s\",\"median_ms\":%.6f,\"times_ms\":", k ? "," : "",
                       knames[k].c_str(), median(kreps[k]));
                print_list(kreps[k]);
                printf("}");
            }
            printf("]");
            double ferr = 0, fworst = 0;
            if (o.verify) {
                ferr = force_error(init, fin, &fworst);
                printf(",\"force_error\":{\"rms\":%.6g,\"worst\":%.6g,\"tolerance\":%.6g}",
                       ferr, fworst, (double)FORCE_TOLERANCE);
            }
            printf(",\"launches\":%d,\"profiled_steps\":%d,\"profiled_launches\":%d,"
                   "\"checksum\":[%.17g,%.17g],\"device\":\"%s\",\"cc\":\"%d.%d\"}\n",
                   launches, profiled, profiled_launches, sum[0], sum[1], prop.name, prop.major,
                   prop.minor);
            fflush(stdout);
            if (!std::isfinite(sum[0]) || !std::isfinite(sum[1])) {
                fprintf(stderr, "non-finite final state\n");
                return 1;
            }
            if (o.verify && !(ferr <= FORCE_TOLERANCE)) {
                fprintf(stderr, "%s %s bodies=%d: forces differ from direct summation by %.3g "
                        "(relative RMS; tolerance %.3g)\n", PROGRAM, bit_string(VARIANT_BITS).c_str(), in.bodies, ferr,
                        (double)FORCE_TOLERANCE);
                return 1;
            }
        }
        CUDA_CHECK(cudaEventDestroy(start));
        CUDA_CHECK(cudaEventDestroy(stop));
        sim_free(sim);
    }
    return 0;
}
