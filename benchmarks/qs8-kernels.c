// The QS8 kernels (Sources/CInt8Convolution/include/qs8.h; docs/YUNET.md
// "Static int8") measured and checked outside the engine: every kernel
// against the scalar reference on random data and every border case, with a
// guard page after every buffer (over-reads and over-writes fault), then the
// time per output pixel of each kernel at YuNet-s's shapes beside a float
// 3×3 depthwise of the engine's 16-lane design (blocks of four rows × three
// pixels), with the rows in L2 and in memory. A measurement, not engine
// code; the engine's own tests are QS8KernelTests.
//
//   clang -O3 -std=gnu11 -march=x86-64-v3 -I Sources/CInt8Convolution/include benchmarks/qs8-kernels.c \
//       Sources/CInt8Convolution/qs8_*.c -lm -o /tmp/qs8 && /tmp/qs8 [check | time | ew]
//
// `check` only checks; `time` only times; `ew` times the byte maps. Under
// `qemu-x86_64 -cpu EPYC-Milan` (no AVX-512) the AVX2 and scalar kernels are
// checked; QS8_NO_GUARD=1 drops the guard pages, where qemu 7.2 faults on
// masked-off lanes.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <immintrin.h>

#include "qs8.h"

static uint64_t state = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (uint32_t)(state >> 32);
}
static int rint_range(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }
static float rfloat(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() >> 8) / (float)(1 << 24); }

/// `bytes` bytes ending right before a PROT_NONE page (freed never: a scratch tool).
static void *guarded(size_t bytes) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t span = (bytes + page - 1) / page * page;
    uint8_t *base = mmap(NULL, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) { perror("mmap"); exit(3); }
    // QS8_NO_GUARD=1 under qemu: its TCG (7.2) reads 16 bytes for a scalar FMA's memory operand.
    if (!getenv("QS8_NO_GUARD")) mprotect(base + span, page, PROT_NONE);
    return base + span - bytes;
}
static void unguard(void *p, size_t bytes) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t span = (bytes + page - 1) / page * page;
    uint8_t *base = (uint8_t *)p + bytes - span;
    munmap(base, span + page);
}

static int hasAVX512, hasVNNI, hasVBMI;
static int failures = 0, checks = 0;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// MARK: - 1×1

typedef void (*pw_kernel)(const facepipe_qs8_pw_params *);

static int8_t *pack_pw(const int8_t *k, int I, int O) {
    const int G = (I + 3) / 4, blocks = (O + 15) / 16;
    const size_t bytes = (size_t)blocks * G * 64;
    int8_t *w = guarded(bytes);
    memset(w, 0, bytes);
    for (int o = 0; o < O; o++)
        for (int i = 0; i < I; i++) w[((size_t)(o / 16) * G + i / 4) * 64 + (o % 16) * 4 + i % 4] = k[(size_t)o * I + i];
    return w;
}

static void check_pw(int P, int I, int O, int floats, int mode) {
    uint8_t *x = guarded((size_t)P * I);
    for (size_t i = 0; i < (size_t)P * I; i++) x[i] = (uint8_t)(mode == 1 ? 255 : rnd());
    int8_t *k = malloc((size_t)O * I);
    for (size_t i = 0; i < (size_t)O * I; i++) k[i] = (int8_t)rint_range(-127, 127);
    if (O > 1) memset(k, 0, (size_t)I);  // a channel of zero weights
    int8_t *w = pack_pw(k, I, O);
    const int O16 = (O + 15) / 16 * 16;
    float *m = guarded(sizeof(float) * O16), *b = guarded(sizeof(float) * O16);
    const float spread = 255.0f * 127.0f * sqrtf((float)I) / 3;
    for (int o = 0; o < O16; o++) {
        m[o] = o < O ? (mode == 2 ? 0.5f : rfloat(0, 200.0f / spread)) : 0;
        b[o] = o < O ? (mode == 2 ? 0.0f : rfloat(-150, 150)) : 0;
    }
    const size_t outBytes = (size_t)P * O * (floats ? 4 : 1);
    void *expected = guarded(outBytes), *got = guarded(outBytes);
    facepipe_qs8_pw_params params = {x, P, I, O, w, m, b, floats ? NULL : expected, floats ? expected : NULL};
    facepipe_qs8_pw_1x1_scalar(&params);
    struct { const char *name; pw_kernel f; int runs; } kernels[] = {
        {"avx2", facepipe_qs8_pw_6x8_avx2, 1}, {"avx512vnni", facepipe_qs8_pw_4x64_avx512vnni, hasVNNI}};
    for (int kk = 0; kk < 2; kk++) {
        if (!kernels[kk].runs) continue;
        memset(got, 0xA5, outBytes);
        params.output_bytes = floats ? NULL : got;
        params.output_floats = floats ? got : NULL;
        kernels[kk].f(&params);
        checks++;
        if (memcmp(got, expected, outBytes) != 0) {
            failures++;
            printf("FAIL pw %s: P=%d I=%d O=%d %s mode %d\n", kernels[kk].name, P, I, O, floats ? "floats" : "bytes", mode);
        }
    }
    unguard(x, (size_t)P * I); unguard(w, (size_t)((O + 15) / 16) * ((I + 3) / 4) * 64);
    unguard(m, sizeof(float) * O16); unguard(b, sizeof(float) * O16); unguard(expected, outBytes); unguard(got, outBytes);
    free(k);
}

// MARK: - Depthwise

typedef void (*dw_kernel)(const facepipe_qs8_dw_params *);

static void check_dw(int inH, int outH, int W, int C, int padTop, int mode) {
    const size_t inBytes = (size_t)inH * W * C, outBytes = (size_t)outH * W * C;
    uint8_t *x = guarded(inBytes);
    for (size_t i = 0; i < inBytes; i++) x[i] = (uint8_t)(mode == 1 ? (i % 2 ? 0 : 255) : rnd());
    int8_t *taps = guarded((size_t)9 * C);
    for (int i = 0; i < 9 * C; i++) taps[i] = (int8_t)(mode == 1 ? (i % 3 ? 127 : -127) : rint_range(-127, 127));
    if (C > 4) memset(taps, 0, 9);                                  // some zero taps
    if (mode == 3) for (int t = 0; t < 9; t++) taps[t * C + C - 1] = 0;  // a channel of zero taps
    float *m = guarded(sizeof(float) * C), *b = guarded(sizeof(float) * C);
    for (int c = 0; c < C; c++) {
        m[c] = mode == 2 ? 0.5f : rfloat(0, 255.0f / 40000);
        b[c] = mode == 2 ? 0.0f : rfloat(-100, 300);
    }
    uint8_t *expected = guarded(outBytes), *got = guarded(outBytes);
    facepipe_qs8_dw_params params = {x, inH, outH, W, C, padTop, taps, m, b, expected};
    facepipe_qs8_dw3x3_scalar(&params);
    struct { const char *name; dw_kernel f; int runs; } kernels[] = {
        {"avx2", facepipe_qs8_dw3x3_8px_avx2, 1}, {"avx512vbmi", facepipe_qs8_dw3x3_4x4_avx512vbmi, hasVNNI && hasVBMI}};
    for (int kk = 0; kk < 2; kk++) {
        if (!kernels[kk].runs) continue;
        memset(got, 0xA5, outBytes);
        params.output = got;
        kernels[kk].f(&params);
        checks++;
        if (memcmp(got, expected, outBytes) != 0) {
            failures++;
            size_t first = 0;
            while (got[first] == expected[first]) first++;
            printf("FAIL dw %s: inH=%d outH=%d W=%d C=%d pad_top=%d mode %d; first at row %zu px %zu ch %zu: %d vs %d\n", kernels[kk].name,
                   inH, outH, W, C, padTop, mode, first / ((size_t)W * C), first / C % W, first % C, got[first], expected[first]);
        }
    }
    unguard(x, inBytes); unguard(taps, (size_t)9 * C); unguard(m, sizeof(float) * C); unguard(b, sizeof(float) * C);
    unguard(expected, outBytes); unguard(got, outBytes);
}

// MARK: - Byte maps

static void check_pool(int outH, int outW, int inW, int C) {
    const size_t inBytes = (size_t)2 * outH * inW * C, outBytes = (size_t)outH * outW * C;
    uint8_t *x = guarded(inBytes), *expected = guarded(outBytes), *got = guarded(outBytes);
    for (size_t i = 0; i < inBytes; i++) x[i] = (uint8_t)rnd();
    facepipe_qs8_maxpool2x2_scalar(x, inW, outH, outW, C, expected);
    typedef void (*f_t)(const uint8_t *, int32_t, int32_t, int32_t, int32_t, uint8_t *);
    struct { const char *name; f_t f; int runs; } kernels[] = {{"avx2", facepipe_qs8_maxpool2x2_avx2, 1}, {"avx512", facepipe_qs8_maxpool2x2_avx512, hasAVX512}};
    for (int kk = 0; kk < 2; kk++) {
        if (!kernels[kk].runs) continue;
        memset(got, 0xA5, outBytes);
        kernels[kk].f(x, inW, outH, outW, C, got);
        checks++;
        if (memcmp(got, expected, outBytes) != 0) { failures++; printf("FAIL pool %s: %dx%d in %d C %d\n", kernels[kk].name, outH, outW, inW, C); }
    }
    unguard(x, inBytes); unguard(expected, outBytes); unguard(got, outBytes);
}

static void check_add_quantize(int count) {
    uint8_t *a = guarded((size_t)count), *b = guarded((size_t)count), *expected = guarded((size_t)count), *got = guarded((size_t)count);
    float *f = guarded(sizeof(float) * (size_t)count);
    for (int i = 0; i < count; i++) {
        a[i] = (uint8_t)rnd(); b[i] = (uint8_t)rnd();
        const int kind = rint_range(0, 9);
        f[i] = kind == 0 ? NAN : kind == 1 ? INFINITY : kind == 2 ? -INFINITY : kind == 3 ? 3e38f : kind == 4 ? (float)rint_range(-10, 300) + 0.5f
             : kind == 5 ? -3e38f : rfloat(-50, 400);
    }
    typedef void (*add_t)(const uint8_t *, const uint8_t *, float, float, uint8_t *, int64_t);
    typedef void (*q_t)(const float *, float, uint8_t *, int64_t);
    const float ms[][2] = {{0.5f, 0.5f}, {0.37f, 1.91f}, {3.0f, 2.0f}, {0.013f, 0.021f}, {1.0f, 1.0f}};
    for (int s = 0; s < 5; s++) {
        facepipe_qs8_add_scalar(a, b, ms[s][0], ms[s][1], expected, count);
        struct { const char *name; add_t f; int runs; } adds[] = {{"avx2", facepipe_qs8_add_avx2, 1}, {"avx512", facepipe_qs8_add_avx512, hasAVX512}};
        for (int kk = 0; kk < 2; kk++) {
            if (!adds[kk].runs) continue;
            memset(got, 0xA5, (size_t)count);
            adds[kk].f(a, b, ms[s][0], ms[s][1], got, count);
            checks++;
            if (memcmp(got, expected, (size_t)count) != 0) { failures++; printf("FAIL add %s: count %d set %d\n", adds[kk].name, count, s); }
        }
        const float inverse = s == 4 ? 1.0f : ms[s][0] * 3;
        facepipe_qs8_quantize_scalar(f, inverse, expected, count);
        struct { const char *name; q_t f; int runs; } qs[] = {{"avx2", facepipe_qs8_quantize_avx2, 1}, {"avx512", facepipe_qs8_quantize_avx512, hasAVX512}};
        for (int kk = 0; kk < 2; kk++) {
            if (!qs[kk].runs) continue;
            memset(got, 0xA5, (size_t)count);
            qs[kk].f(f, inverse, got, count);
            checks++;
            if (memcmp(got, expected, (size_t)count) != 0) { failures++; printf("FAIL quantize %s: count %d set %d\n", qs[kk].name, count, s); }
        }
    }
    unguard(a, (size_t)count); unguard(b, (size_t)count); unguard(expected, (size_t)count); unguard(got, (size_t)count);
    unguard(f, sizeof(float) * (size_t)count);
}

static void check_all(void) {
    // 1×1: tails of every tile, odd channel counts, YuNet's shapes, saturation (mode 1), ties (mode 2).
    const int pixels[] = {1, 2, 3, 5, 6, 7, 8, 9, 12, 13, 17, 23, 50};
    const int ins[] = {1, 2, 3, 4, 5, 7, 8, 12, 16, 20, 28, 32, 36, 48, 64, 100, 128, 132, 256, 509, 512};
    const int outs[] = {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 40, 48, 63, 64, 65, 100};
    for (int pi = 0; pi < 13; pi++)
        for (int ii = 0; ii < 21; ii++)
            for (int oi = 0; oi < 22; oi++) {
                if ((pi + ii + oi) % 3 != 0 && ins[ii] != 16 && ins[ii] != 32 && ins[ii] != 64) continue;
                check_pw(pixels[pi], ins[ii], outs[oi], (pi + oi) % 2, (pi + ii) % 4 == 3 ? 1 : (ii + oi) % 5 == 4 ? 2 : 0);
            }
    for (int mode = 0; mode < 3; mode++)
        for (int f = 0; f < 2; f++) {
            check_pw(1056, 16, 16, f, mode); check_pw(1056, 16, 32, f, mode); check_pw(1056, 32, 32, f, mode);
            check_pw(1056, 32, 64, f, mode); check_pw(1056, 64, 64, f, mode); check_pw(1056, 64, 16, f, mode);
        }
    // Depthwise: every border case.
    const int widths[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 16, 17, 31, 64, 65, 67, 100, 255, 260};
    const int channels[] = {4, 8, 12, 16, 20, 32, 48, 64, 80, 128, 256, 512, 528};
    for (int wi = 0; wi < 21; wi++)
        for (int ci = 0; ci < 13; ci++) {
            if (channels[ci] >= 256 && widths[wi] > 17) continue;
            for (int inH = 1; inH <= 7; inH++)
                for (int pad = -1; pad <= 2; pad++) {
                    if ((wi + ci + inH + pad) % 2 && channels[ci] != 16 && channels[ci] != 32 && channels[ci] != 64) continue;
                    const int outH = 1 + (int)(rnd() % 9);
                    check_dw(inH, outH, widths[wi], channels[ci], pad, (wi + inH) % 4);
                    if (inH == 4) check_dw(inH, 1, widths[wi], channels[ci], pad, 0);
                }
        }
    for (int mode = 0; mode < 4; mode++) {
        check_dw(10, 8, 1056, 16, 1, mode); check_dw(9, 9, 528, 32, 1, mode); check_dw(7, 6, 264, 64, 0, mode);
    }
    // Pool.
    const int pc[] = {1, 3, 4, 8, 12, 16, 32, 48, 64, 96, 128, 130};
    for (int ci = 0; ci < 12; ci++)
        for (int ow = 1; ow <= 19; ow++)
            for (int oh = 1; oh <= 3; oh++) {
                check_pool(oh, ow, 2 * ow, pc[ci]);
                check_pool(oh, ow, 2 * ow + 1, pc[ci]);
            }
    check_pool(4, 528, 1056, 16); check_pool(4, 264, 528, 32); check_pool(4, 132, 264, 64);
    for (int n = 0; n <= 140; n++) check_add_quantize(n);
    check_add_quantize(1056 * 16 + 5);
}

// MARK: - Timing

/// The fp32 3×3 stride-1 depthwise step QS8 replaces, as
/// `benchmarks/qs8-depthwise-bound.c` measures it (the engine's 16-lane
/// blocks of four rows × three pixels), per 16-channel slice with its nine
/// weight vectors in registers; interior pixels, bias + ReLU.
__attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512dq"))) __attribute__((noinline))
static void dw_float(const float *in, int inH, int outH, int W, int C, const float *w, const float *bias, float *out) {
    const size_t run = (size_t)W * C;
    for (int y = 0; y + 4 <= outH; y += 4) {
        const float *r[6];
        for (int k = 0; k < 6; k++) r[k] = in + (size_t)(y + k) * run;
        float *o[4];
        for (int k = 0; k < 4; k++) o[k] = out + (size_t)(y + k) * run;
        for (int s = 0; s < C; s += 16) {
            __m512 wv[9];
            for (int t = 0; t < 9; t++) wv[t] = _mm512_loadu_ps(w + t * C + s);
            const __m512 bv = _mm512_loadu_ps(bias + s);
            for (int px = 0; px + 3 <= W - 2; px += 3) {
                __m512 acc[4][3];
                for (int j = 0; j < 4; j++)
                    for (int q = 0; q < 3; q++) acc[j][q] = bv;
                for (int j = 0; j < 4; j++)
                    for (int ky = 0; ky < 3; ky++)
                        for (int kx = 0; kx < 3; kx++)
                            for (int q = 0; q < 3; q++)
                                acc[j][q] = _mm512_fmadd_ps(_mm512_loadu_ps(r[j + ky] + (size_t)(px + q + kx) * C + s), wv[ky * 3 + kx], acc[j][q]);
                for (int j = 0; j < 4; j++)
                    for (int q = 0; q < 3; q++) _mm512_storeu_ps(o[j] + (size_t)(px + q + 1) * C + s, _mm512_max_ps(acc[j][q], _mm512_setzero_ps()));
            }
        }
    }
    (void)inH;
}

typedef struct { const char *name; dw_kernel f; int runs; } dw_entry;

static double best_of(void (*body)(void *), void *context, int rounds, double pixels) {
    double best = 1e30;
    for (int k = 0; k < rounds; k++) {
        const double start = now();
        body(context);
        const double t = now() - start;
        if (t < best) best = t;
    }
    return best / pixels * 1e9;
}

typedef struct { dw_kernel f; facepipe_qs8_dw_params params; int repeat; } dw_run;
static void run_dw(void *c) { dw_run *r = c; for (int k = 0; k < r->repeat; k++) r->f(&r->params); }
typedef struct { const float *in; int inH, outH, W, C; const float *w, *bias; float *out; int repeat; } float_run;
static void run_float(void *c) { float_run *r = c; for (int k = 0; k < r->repeat; k++) dw_float(r->in, r->inH, r->outH, r->W, r->C, r->w, r->bias, r->out); }

static void time_dw(int W, int C, int memoryRows) {
    // In L2: six input rows, four output rows, again and again. In memory: a whole map of `memoryRows` rows.
    for (int inL2 = 1; inL2 >= 0; inL2--) {
        const int outH = inL2 ? 4 : memoryRows, inH = outH + 2, repeat = inL2 ? 200 : 1;
        const size_t inBytes = (size_t)inH * W * C, outBytes = (size_t)outH * W * C;
        uint8_t *x = aligned_alloc(64, inBytes + 64), *y = aligned_alloc(64, outBytes + 64);
        float *fx = aligned_alloc(64, inBytes * 4 + 256), *fy = aligned_alloc(64, outBytes * 4 + 256);
        for (size_t i = 0; i < inBytes; i++) { x[i] = (uint8_t)rnd(); fx[i] = (float)x[i] / 128 - 1; }
        memset(y, 0, outBytes); memset(fy, 0, outBytes * 4);
        int8_t taps[9 * 512];
        float m[512], b[512], fw[9 * 512];
        for (int i = 0; i < 9 * C; i++) { taps[i] = (int8_t)rint_range(-127, 127); fw[i] = taps[i] / 127.0f; }
        for (int c = 0; c < C; c++) { m[c] = rfloat(0, 255.0f / 40000); b[c] = rfloat(-50, 100); }
        const double pixels = (double)outH * W * repeat;
        dw_entry kernels[] = {{"scalar", facepipe_qs8_dw3x3_scalar, !inL2 ? 0 : 1}, {"avx2", facepipe_qs8_dw3x3_8px_avx2, 1},
                              {"avx512vbmi", facepipe_qs8_dw3x3_4x4_avx512vbmi, hasVNNI && hasVBMI}};
        printf("dw %4d px × %2d ch, %-9s", W, C, inL2 ? "in L2" : "in memory");
        float_run fr = {fx, inH, outH, W, C, fw, b, fy, repeat};
        double tf = 1e30;
        if (hasAVX512) {
            for (int round = 0; round < 3; round++) { const double t = best_of(run_float, &fr, inL2 ? 5 : 3, pixels); if (t < tf) tf = t; }
            printf("  float %6.2f", tf);
        }
        for (int kk = 0; kk < 3; kk++) {
            if (!kernels[kk].runs) { printf("  %s     -", kernels[kk].name); continue; }
            dw_run r = {kernels[kk].f, {x, inH, outH, W, C, 0, taps, m, b, y}, kk == 0 ? 1 : repeat};
            double t = 1e30;
            for (int round = 0; round < 3; round++) { const double u = best_of(run_dw, &r, kk == 0 ? 1 : (inL2 ? 5 : 3), kk == 0 ? pixels / repeat : pixels); if (u < t) t = u; }
            printf("  %s %6.2f", kernels[kk].name, t);
            if (kk == 2 && hasAVX512) printf(" (%.2f× float)", t / tf);
        }
        printf("\n");
        free(x); free(y); free(fx); free(fy);
    }
}

typedef struct { pw_kernel f; facepipe_qs8_pw_params params; int repeat; } pw_run;
static void run_pw(void *c) { pw_run *r = c; for (int k = 0; k < r->repeat; k++) r->f(&r->params); }

static void time_pw(int P, int I, int O) {
    uint8_t *x = aligned_alloc(64, (size_t)P * I + 64);
    for (size_t i = 0; i < (size_t)P * I; i++) x[i] = (uint8_t)rnd();
    int8_t *k = malloc((size_t)O * I);
    for (size_t i = 0; i < (size_t)O * I; i++) k[i] = (int8_t)rint_range(-127, 127);
    int8_t *w = pack_pw(k, I, O);
    float m[512], b[512];
    for (int o = 0; o < 512; o++) { m[o] = rfloat(0, 0.001f); b[o] = rfloat(-50, 50); }
    uint8_t *yb = aligned_alloc(64, (size_t)P * O + 64);
    float *yf = aligned_alloc(64, (size_t)P * O * 4 + 64);
    struct { const char *name; pw_kernel f; int runs; } kernels[] = {
        {"scalar", facepipe_qs8_pw_1x1_scalar, 1}, {"avx2", facepipe_qs8_pw_6x8_avx2, 1}, {"avx512vnni", facepipe_qs8_pw_4x64_avx512vnni, hasVNNI}};
    for (int floats = 0; floats < 2; floats++) {
        printf("pw %d px %2d → %2d %-6s", P, I, O, floats ? "floats" : "bytes");
        for (int kk = 0; kk < 3; kk++) {
            if (!kernels[kk].runs) { printf("  %s     -", kernels[kk].name); continue; }
            const int repeat = kk == 0 ? 2 : 200;
            pw_run r = {kernels[kk].f, {x, P, I, O, w, m, b, floats ? NULL : yb, floats ? yf : NULL}, repeat};
            double t = 1e30;
            for (int round = 0; round < 3; round++) { const double u = best_of(run_pw, &r, 5, (double)P * repeat); if (u < t) t = u; }
            printf("  %s %6.2f", kernels[kk].name, t);
        }
        printf("\n");
    }
    free(x); free(k); free(yb); free(yf);
}

typedef struct { int which; const uint8_t *a, *b; const float *f; uint8_t *out; int inW, outH, outW, C; int64_t count; int repeat; int variant; } ew_run;
static void run_ew(void *c) {
    ew_run *r = c;
    for (int k = 0; k < r->repeat; k++) {
        if (r->which == 0) {
            void (*f[3])(const uint8_t *, int32_t, int32_t, int32_t, int32_t, uint8_t *) = {facepipe_qs8_maxpool2x2_scalar, facepipe_qs8_maxpool2x2_avx2, facepipe_qs8_maxpool2x2_avx512};
            f[r->variant](r->a, r->inW, r->outH, r->outW, r->C, r->out);
        } else if (r->which == 1) {
            void (*f[3])(const uint8_t *, const uint8_t *, float, float, uint8_t *, int64_t) = {facepipe_qs8_add_scalar, facepipe_qs8_add_avx2, facepipe_qs8_add_avx512};
            f[r->variant](r->a, r->b, 0.4f, 0.7f, r->out, r->count);
        } else {
            void (*f[3])(const float *, float, uint8_t *, int64_t) = {facepipe_qs8_quantize_scalar, facepipe_qs8_quantize_avx2, facepipe_qs8_quantize_avx512};
            f[r->variant](r->f, 3.7f, r->out, r->count);
        }
    }
}

static void time_elementwise(int W, int C) {
    const int64_t count = (int64_t)2 * W * C;
    uint8_t *a = aligned_alloc(64, (size_t)count + 64), *b = aligned_alloc(64, (size_t)count + 64), *out = aligned_alloc(64, (size_t)count + 64);
    float *f = aligned_alloc(64, sizeof(float) * (size_t)count + 64);
    for (int64_t i = 0; i < count; i++) { a[i] = (uint8_t)rnd(); b[i] = (uint8_t)rnd(); f[i] = rfloat(-10, 100); }
    const char *names[3] = {"maxpool 2 rows", "add 2 rows", "quantize 2 rows"};
    for (int which = 0; which < 3; which++) {
        printf("%-16s %d px × %d ch, ns per input pixel:", names[which], W, C);
        for (int v = 0; v < 3; v++) {
            if (v == 2 && !hasAVX512) { printf("  -"); continue; }
            ew_run r = {which, a, b, f, out, W, 1, W / 2, C, count, v == 0 ? 20 : 500, v};
            double t = 1e30;
            for (int round = 0; round < 3; round++) { const double u = best_of(run_ew, &r, 5, 2.0 * W * r.repeat); if (u < t) t = u; }
            printf("  %s %.3f", v == 0 ? "scalar" : v == 1 ? "avx2" : "avx512", t);
        }
        printf("\n");
    }
    free(a); free(b); free(out); free(f);
}

int main(int argc, char **argv) {
    __builtin_cpu_init();
    hasAVX512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    hasVNNI = hasAVX512 && __builtin_cpu_supports("avx512vnni");
    hasVBMI = hasAVX512 && __builtin_cpu_supports("avx512vbmi");
    printf("CPU: avx512 %d vnni %d vbmi %d\n", hasAVX512, hasVNNI, hasVBMI);
    const int onlyTime = argc > 1 && (strcmp(argv[1], "time") == 0 || strcmp(argv[1], "ew") == 0);
    if (!onlyTime) {
        check_all();
        printf("%d checks, %d failures\n", checks, failures);
        if (failures) return 1;
    }
    if (argc > 1 && strcmp(argv[1], "check") == 0) return 0;
    if (argc > 1 && strcmp(argv[1], "ew") == 0) { time_elementwise(1056, 16); time_elementwise(528, 32); time_elementwise(264, 64); return 0; }
    printf("ns per output pixel, fastest of 5 in each of 3 rounds\n");
    time_pw(1056, 16, 16); time_pw(1056, 16, 32); time_pw(1056, 32, 32); time_pw(1056, 32, 64); time_pw(1056, 64, 64); time_pw(264, 64, 16);
    time_dw(1056, 16, 512); time_dw(2112, 16, 256); time_dw(528, 32, 512); time_dw(264, 64, 512);
    time_elementwise(1056, 16); time_elementwise(528, 32); time_elementwise(264, 64);
    return 0;
}
