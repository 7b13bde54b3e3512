// What an int8 3×3 depthwise step could give YuNet-s (issue 53; docs/BENCHMARKS.md,
// "an int8 3×3 depthwise step bounded"). A measurement, not engine code: a
// 16-channel 3×3 stride-1 depthwise with ReLU, float against int8 (signed
// bytes in: the 1×1 layer's output on a fixed grid; unsigned bytes out: the
// next 1×1 layer's input on a fixed grid, through one float epilogue of
// scale, bias and ReLU: QS8 as XNNPACK runs it).
//   AVX-512 (blocks of four output rows × three or four pixels, as the
//   engine's 16-lane kernel and `benchmarks/fusion-bound.c` compute them):
//   float; 32-bit integer products (`vpmovsxbd`, `vpmulld`); `vpdpbusd` on
//   the three horizontal taps that one `vpermb` gathers per channel.
//   AVX2 (one output row × four pixels, as the engine's 8-lane kernels run):
//   float; `vpmaddwd` on pairs of taps widened to 16 bits; float FMAs on
//   bytes widened to floats, exact because every product and partial sum is
//   an integer under 2²⁴.
// Each is timed over a map of WIDTH pixels (default 1056: YuNet-s's
// full-resolution 16-channel maps in a 2112-px column) with its rows in L2
// (six input rows and four output rows used again and again) and over whole
// tensors of ROWS rows in memory (each row read and written once per sweep).
// Every int8 way is checked byte for byte against a scalar reference of the
// same arithmetic, the float ones against a scalar sum within 1e-4.
//
//   clang -O3 -std=gnu11 benchmarks/qs8-depthwise-bound.c -lm -o /tmp/qs8-dw && /tmp/qs8-dw [WIDTH [ROWS]]
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bound-common.h"

#define QB_TARGET __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512dq")))
enum { C = 16 };

/// Output pixels 1 … pixels − 2 of four rows from input rows r[0 … 5] (no padding: interior only).
QB_TARGET __attribute__((noinline)) static void dw_float(const float *r[6], const float *w, const float *bias, int32_t pixels, float *out[4]) {
    const __m512 b = _mm512_loadu_ps(bias), zero = _mm512_setzero_ps();
    for (int32_t px = 0; px + 3 <= pixels - 2; px += 3) {
        __m512 acc[4][3];
        for (int j = 0; j < 4; j++)
            for (int p = 0; p < 3; p++) acc[j][p] = b;
        for (int j = 0; j < 4; j++)
            for (int ky = 0; ky < 3; ky++)
                for (int kx = 0; kx < 3; kx++) {
                    const __m512 wv = _mm512_loadu_ps(w + (ky * 3 + kx) * C);
                    for (int p = 0; p < 3; p++)
                        acc[j][p] = _mm512_fmadd_ps(_mm512_loadu_ps(r[j + ky] + (intptr_t)(px + p + kx) * C), wv, acc[j][p]);
                }
        for (int j = 0; j < 4; j++)
            for (int p = 0; p < 3; p++) _mm512_storeu_ps(out[j] + (intptr_t)(px + p + 1) * C, _mm512_max_ps(acc[j][p], zero));
    }
}

/// The same blocks on signed bytes: A = Σ x·k in 32 bits, then
/// `min(255, rint(max(0, fma(A, scale, bias))))` as unsigned bytes.
QB_TARGET __attribute__((noinline)) static void dw_int8(const int8_t *r[6], const int32_t *w, const float *scale, const float *bias,
                                                        int32_t pixels, uint8_t *out[4]) {
    const __m512 s = _mm512_loadu_ps(scale), b = _mm512_loadu_ps(bias), zero = _mm512_setzero_ps();
    for (int32_t px = 0; px + 3 <= pixels - 2; px += 3) {
        __m512i acc[4][3];
        for (int j = 0; j < 4; j++)
            for (int p = 0; p < 3; p++) acc[j][p] = _mm512_setzero_si512();
        for (int j = 0; j < 4; j++)
            for (int ky = 0; ky < 3; ky++)
                for (int kx = 0; kx < 3; kx++) {
                    const __m512i wv = _mm512_loadu_si512((const void *)(w + (ky * 3 + kx) * C));
                    for (int p = 0; p < 3; p++) {
                        const __m512i x = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(r[j + ky] + (intptr_t)(px + p + kx) * C)));
                        acc[j][p] = _mm512_add_epi32(acc[j][p], _mm512_mullo_epi32(x, wv));
                    }
                }
        for (int j = 0; j < 4; j++)
            for (int p = 0; p < 3; p++) {
                const __m512 v = _mm512_max_ps(_mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[j][p]), s, b), zero);
                _mm_storeu_si128((__m128i *)(out[j] + (intptr_t)(px + p + 1) * C), _mm512_cvtusepi32_epi8(_mm512_cvtps_epi32(v)));
            }
    }
}

#define QB_VNNI __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,avx512vbmi")))

/// `dw_int8`'s bytes with `vpdpbusd`: the input stored as unsigned bytes
/// `x + 128`, each output pixel's three horizontal taps of a row gathered by
/// one `vpermb` into 4-byte groups per channel `(x₀, x₁, x₂, 0)`, so a row of
/// taps is one `vpdpbusd` against weights `(k₀, k₁, k₂, 0)`; the sums start
/// at −128·Σk. Blocks of four rows × four pixels; each gathered input row
/// serves the (up to three) output rows that read it.
QB_VNNI __attribute__((noinline)) static void dw_int8_vnni(const uint8_t *r[6], const int8_t *w /* [3][16][4] */, const int32_t *start,
                                                          const float *scale, const float *bias, int32_t pixels, uint8_t *out[4]) {
    _Alignas(64) uint8_t first[64], second[64];
    for (int i = 0; i < 64; i++) {
        first[i] = (uint8_t)((i % 4) * 16 + i / 4);
        second[i] = (uint8_t)((i % 4 + 1) * 16 + i / 4);
    }
    const __mmask64 taps = 0x7777777777777777ull;
    const __m512i t0 = _mm512_load_si512((const void *)first), t1 = _mm512_load_si512((const void *)second);
    const __m512i w0 = _mm512_loadu_si512((const void *)w), w1 = _mm512_loadu_si512((const void *)(w + 64)),
                  w2 = _mm512_loadu_si512((const void *)(w + 128));
    const __m512i a0 = _mm512_loadu_si512((const void *)start);
    const __m512 s = _mm512_loadu_ps(scale), b = _mm512_loadu_ps(bias), zero = _mm512_setzero_ps();
    for (int32_t px = 0; px + 4 <= pixels - 2; px += 4) {
        __m512i acc[4][4];
        for (int j = 0; j < 4; j++)
            for (int q = 0; q < 4; q++) acc[j][q] = a0;
        for (int k = 0; k < 6; k++) {
            const __m512i low = _mm512_loadu_si512((const void *)(r[k] + (intptr_t)px * C));
            const __m512i high = _mm512_loadu_si512((const void *)(r[k] + (intptr_t)(px + 2) * C));
            const __m512i g[4] = {_mm512_maskz_permutexvar_epi8(taps, t0, low), _mm512_maskz_permutexvar_epi8(taps, t1, low),
                                  _mm512_maskz_permutexvar_epi8(taps, t0, high), _mm512_maskz_permutexvar_epi8(taps, t1, high)};
            for (int j = 0; j < 4; j++) {
                const int ky = k - j;
                if (ky < 0 || ky > 2) continue;
                const __m512i wk = ky == 0 ? w0 : ky == 1 ? w1 : w2;
                for (int q = 0; q < 4; q++) acc[j][q] = _mm512_dpbusd_epi32(acc[j][q], g[q], wk);
            }
        }
        for (int j = 0; j < 4; j++)
            for (int q = 0; q < 4; q++) {
                const __m512 v = _mm512_max_ps(_mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[j][q]), s, b), zero);
                _mm_storeu_si128((__m128i *)(out[j] + (intptr_t)(px + q + 1) * C), _mm512_cvtusepi32_epi8(_mm512_cvtps_epi32(v)));
            }
    }
}

#define QB_AVX2 __attribute__((target("avx2,fma")))

/// The AVX2 set (sixteen 8-lane registers): one output row × four pixels
/// per block, each 16-channel pixel as two 8-lane halves.
QB_AVX2 __attribute__((noinline)) static void dw_float_avx2(const float *r[3], const float *w, const float *bias, int32_t pixels, float *out) {
    const __m256 b0 = _mm256_loadu_ps(bias), b1 = _mm256_loadu_ps(bias + 8), zero = _mm256_setzero_ps();
    for (int32_t px = 0; px + 4 <= pixels - 2; px += 4) {
        __m256 acc[4][2];
        for (int p = 0; p < 4; p++) { acc[p][0] = b0; acc[p][1] = b1; }
        for (int ky = 0; ky < 3; ky++)
            for (int kx = 0; kx < 3; kx++) {
                const __m256 w0 = _mm256_loadu_ps(w + (ky * 3 + kx) * C), w1 = _mm256_loadu_ps(w + (ky * 3 + kx) * C + 8);
                for (int p = 0; p < 4; p++) {
                    const float *x = r[ky] + (intptr_t)(px + p + kx) * C;
                    acc[p][0] = _mm256_fmadd_ps(_mm256_loadu_ps(x), w0, acc[p][0]);
                    acc[p][1] = _mm256_fmadd_ps(_mm256_loadu_ps(x + 8), w1, acc[p][1]);
                }
            }
        for (int p = 0; p < 4; p++) {
            _mm256_storeu_ps(out + (intptr_t)(px + p + 1) * C, _mm256_max_ps(acc[p][0], zero));
            _mm256_storeu_ps(out + (intptr_t)(px + p + 1) * C + 8, _mm256_max_ps(acc[p][1], zero));
        }
    }
}

/// `dw_int8`'s bytes on AVX2: signed bytes widened to 16 bits in pairs of
/// horizontal taps per channel, `(x₀, x₁)` and `(x₂, x₃)`, against weights
/// `(k₀, k₁)` and `(k₂, 0)` with `vpmaddwd` (exact 32-bit sums), one output
/// row × four pixels per block.
QB_AVX2 __attribute__((noinline)) static void dw_int8_avx2(const int8_t *r[3], const int16_t *w /* [3][2][32] */, const float *scale,
                                                           const float *bias, int32_t pixels, uint8_t *out) {
    const __m256 s0 = _mm256_loadu_ps(scale), s1 = _mm256_loadu_ps(scale + 8);
    const __m256 b0 = _mm256_loadu_ps(bias), b1 = _mm256_loadu_ps(bias + 8), zero = _mm256_setzero_ps();
    for (int32_t px = 0; px + 4 <= pixels - 2; px += 4) {
        __m256i acc[4][2];
        for (int p = 0; p < 4; p++) acc[p][0] = acc[p][1] = _mm256_setzero_si256();
        for (int ky = 0; ky < 3; ky++) {
            const int16_t *wk = w + ky * 64;
            const __m256i a0 = _mm256_loadu_si256((const __m256i *)wk), a1 = _mm256_loadu_si256((const __m256i *)(wk + 16));
            const __m256i c0 = _mm256_loadu_si256((const __m256i *)(wk + 32)), c1 = _mm256_loadu_si256((const __m256i *)(wk + 48));
            for (int p = 0; p < 4; p++) {
                const int8_t *x = r[ky] + (intptr_t)(px + p) * C;
                const __m128i x0 = _mm_loadu_si128((const __m128i *)x), x1 = _mm_loadu_si128((const __m128i *)(x + C));
                const __m128i x2 = _mm_loadu_si128((const __m128i *)(x + 2 * C)), x3 = _mm_loadu_si128((const __m128i *)(x + 3 * C));
                acc[p][0] = _mm256_add_epi32(acc[p][0], _mm256_add_epi32(
                    _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_unpacklo_epi8(x0, x1)), a0),
                    _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_unpacklo_epi8(x2, x3)), c0)));
                acc[p][1] = _mm256_add_epi32(acc[p][1], _mm256_add_epi32(
                    _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_unpackhi_epi8(x0, x1)), a1),
                    _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_unpackhi_epi8(x2, x3)), c1)));
            }
        }
        for (int p = 0; p < 4; p++) {
            const __m256i n0 = _mm256_cvtps_epi32(_mm256_max_ps(_mm256_fmadd_ps(_mm256_cvtepi32_ps(acc[p][0]), s0, b0), zero));
            const __m256i n1 = _mm256_cvtps_epi32(_mm256_max_ps(_mm256_fmadd_ps(_mm256_cvtepi32_ps(acc[p][1]), s1, b1), zero));
            // Channels 0…15 as saturated 16-bit, then as saturated bytes, in order.
            const __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(n0, n1), 0xD8);
            const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0x08);
            _mm_storeu_si128((__m128i *)(out + (intptr_t)(px + p + 1) * C), _mm256_castsi256_si128(bytes));
        }
    }
}

/// `dw_int8`'s bytes on AVX2 with float FMAs: every product and partial
/// sum is an integer of magnitude under 9·127·127 < 2²⁴, so float sums are
/// exact in any order and equal the 32-bit integer sums. Each input pixel of
/// a row is widened once (`vpmovsxbd`, `vcvtdq2ps`) and feeds the up to
/// three output pixels that read it; one output row × four pixels per block.
QB_AVX2 __attribute__((noinline)) static void dw_int8_exact_avx2(const int8_t *r[3], const float *w /* integer weights as floats */,
                                                                 const float *scale, const float *bias, int32_t pixels, uint8_t *out) {
    const __m256 s0 = _mm256_loadu_ps(scale), s1 = _mm256_loadu_ps(scale + 8);
    const __m256 b0 = _mm256_loadu_ps(bias), b1 = _mm256_loadu_ps(bias + 8), zero = _mm256_setzero_ps();
    for (int32_t px = 0; px + 4 <= pixels - 2; px += 4) {
        __m256 acc[4][2];
        for (int p = 0; p < 4; p++) acc[p][0] = acc[p][1] = zero;
        for (int ky = 0; ky < 3; ky++)
            for (int q = 0; q < 6; q++) {
                const int8_t *x = r[ky] + (intptr_t)(px + q) * C;
                const __m256 x0 = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)x)));
                const __m256 x1 = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(x + 8))));
                for (int kx = 0; kx < 3; kx++) {
                    const int p = q - kx;
                    if (p < 0 || p > 3) continue;
                    acc[p][0] = _mm256_fmadd_ps(x0, _mm256_loadu_ps(w + (ky * 3 + kx) * C), acc[p][0]);
                    acc[p][1] = _mm256_fmadd_ps(x1, _mm256_loadu_ps(w + (ky * 3 + kx) * C + 8), acc[p][1]);
                }
            }
        for (int p = 0; p < 4; p++) {
            const __m256i n0 = _mm256_cvtps_epi32(_mm256_max_ps(_mm256_fmadd_ps(acc[p][0], s0, b0), zero));
            const __m256i n1 = _mm256_cvtps_epi32(_mm256_max_ps(_mm256_fmadd_ps(acc[p][1], s1, b1), zero));
            const __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(n0, n1), 0xD8);
            const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0x08);
            _mm_storeu_si128((__m128i *)(out + (intptr_t)(px + p + 1) * C), _mm256_castsi256_si128(bytes));
        }
    }
}

/// Every output pixel 1 … pixels − 2 of `dw_int8`'s arithmetic, one product at a time.
static void reference_int8(const int8_t *r[6], const int32_t *w, const float *scale, const float *bias, int32_t pixels, uint8_t *out[4]) {
    for (int j = 0; j < 4; j++)
        for (int32_t o = 1; o <= pixels - 2; o++)
            for (int c = 0; c < C; c++) {
                int32_t a = 0;
                for (int ky = 0; ky < 3; ky++)
                    for (int kx = 0; kx < 3; kx++) a += (int32_t)r[j + ky][(o - 1 + kx) * C + c] * w[(ky * 3 + kx) * C + c];
                float v = fmaf((float)a, scale[c], bias[c]);
                v = v > 0 ? v : 0;
                const long n = lrintf(v);
                out[j][o * C + c] = (uint8_t)(n > 255 ? 255 : n);
            }
}

/// Whether output pixels 1 … `count` of the four rows equal the reference's.
static int same_bytes(uint8_t *const got[4], uint8_t *const expected[4], int32_t count) {
    for (int j = 0; j < 4; j++)
        if (memcmp(got[j] + C, expected[j] + C, (size_t)count * C) != 0) return 0;
    return 1;
}

static double reference_float_error(const float *r[6], const float *w, const float *bias, int32_t pixels, float *out[4]) {
    double worst = 0;
    for (int j = 0; j < 4; j++)
        for (int32_t px = 0; px + 3 <= pixels - 2; px += 3)
            for (int p = 0; p < 3; p++)
                for (int c = 0; c < C; c++) {
                    double a = bias[c];
                    for (int ky = 0; ky < 3; ky++)
                        for (int kx = 0; kx < 3; kx++) a += (double)r[j + ky][(px + p + kx) * C + c] * w[(ky * 3 + kx) * C + c];
                    a = a > 0 ? a : 0;
                    const double e = fabs(a - out[j][(px + p + 1) * C + c]);
                    if (e > worst) worst = e;
                }
    return worst;
}

typedef struct {
    int32_t width, rows, inRows;
    int ring;  // 1: the same six input rows and four output rows for every block
    float *fin, *fout, *fw, *fbias;
    int8_t *qin;
    uint8_t *qout;
    int32_t *qw;
    float *qscale, *qbias;
    uint8_t *uin;      // qin + 128
    int8_t *vw;        // [ky][channel][kx 0…2, 0]
    int32_t *vstart;   // −128·Σk per channel
    int16_t *aw;       // [ky][(k₀, k₁) then (k₂, 0)][channel pair]
    float *ew;         // the integer weights as floats
} sweep_context;

/// The ways a sweep can run.
typedef enum { FLOAT, INT8, INT8_VNNI, FLOAT_AVX2, INT8_AVX2, INT8_EXACT_AVX2 } kernel_kind;

/// Output rows `o …` from input rows `in …`: four a call in the AVX-512 ways, one in the AVX2 ones.
static void run_block(const sweep_context *x, kernel_kind kind, int block, int32_t in, int32_t o) {
    const size_t row = (size_t)x->width * C;
    const float *fr[6];
    const int8_t *qr[6];
    const uint8_t *ur[6];
    float *fo[4];
    uint8_t *qo[4];
    for (int k = 0; k < block + 2; k++) {
        fr[k] = x->fin + (size_t)(in + k) * row;
        qr[k] = x->qin + (size_t)(in + k) * row;
        ur[k] = x->uin + (size_t)(in + k) * row;
    }
    for (int k = 0; k < block; k++) {
        fo[k] = x->fout + (size_t)(o + k) * row;
        qo[k] = x->qout + (size_t)(o + k) * row;
    }
    switch (kind) {
    case FLOAT: dw_float(fr, x->fw, x->fbias, x->width, fo); break;
    case INT8: dw_int8(qr, x->qw, x->qscale, x->qbias, x->width, qo); break;
    case INT8_VNNI: dw_int8_vnni(ur, x->vw, x->vstart, x->qscale, x->qbias, x->width, qo); break;
    case FLOAT_AVX2: dw_float_avx2(fr, x->fw, x->fbias, x->width, fo[0]); break;
    case INT8_AVX2: dw_int8_avx2(qr, x->aw, x->qscale, x->qbias, x->width, qo[0]); break;
    case INT8_EXACT_AVX2: dw_int8_exact_avx2(qr, x->ew, x->qscale, x->qbias, x->width, qo[0]); break;
    }
}

/// Every output row once; with the rows in L2 (`ring`), always the first six input and four output rows.
static void sweep(const sweep_context *x, kernel_kind kind) {
    const int block = kind >= FLOAT_AVX2 ? 1 : 4;
    for (int32_t y = 0; y + block <= x->rows; y += block) {
        const int32_t start = x->ring ? y % 4 : y;
        run_block(x, kind, block, start, start);
    }
}

/// Fastest of `rounds` sweeps, in ns per output pixel (16 channels).
static double fastest(const sweep_context *x, kernel_kind kind, int rounds, double pixels) {
    double best = 1e30;
    for (int k = 0; k < rounds; k++) {
        const double start = now();
        sweep(x, kind);
        const double elapsed = now() - start;
        if (elapsed < best) best = elapsed;
    }
    return best / pixels * 1e9;
}

/// With the rows in L2, then in memory: the fastest of three alternating
/// rounds of three ways (`pixels`: the output pixels each computes), and
/// the second's and third's ratios to the first.
static void compare(sweep_context *x, const kernel_kind kinds[3], const double pixels[3]) {
    for (int ring = 1; ring >= 0; ring--) {
        x->ring = ring;
        double best[3] = {1e30, 1e30, 1e30};
        for (int round = 0; round < 3; round++)
            for (int k = 0; k < 3; k++) {
                const double t = fastest(x, kinds[k], 15, pixels[k]);
                if (t < best[k]) best[k] = t;
            }
        printf("%-10s  %5.2f  %15.2f  %23.2f  %.2f, %.2f\n", ring ? "in L2" : "in memory", best[0], best[1], best[2],
               best[1] / best[0], best[2] / best[0]);
    }
}

int main(int argc, char **argv) {
    if (!__builtin_cpu_supports("avx512bw") || !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("avx512vnni")
        || !__builtin_cpu_supports("avx512vbmi")) {
        fprintf(stderr, "qs8-depthwise-bound: this CPU lacks AVX-512 BW, DQ, VNNI or VBMI\n");
        return 2;
    }
    sweep_context x = {0};
    x.width = argc > 1 ? atoi(argv[1]) : 1056;
    x.rows = argc > 2 ? atoi(argv[2]) : 512;
    x.inRows = x.rows + 2;
    const size_t row = (size_t)x.width * C;
    x.fin = aligned_alloc(64, row * x.inRows * sizeof(float));
    x.fout = aligned_alloc(64, row * x.rows * sizeof(float));
    x.qin = aligned_alloc(64, row * x.inRows);
    x.qout = aligned_alloc(64, row * x.rows);
    x.uin = aligned_alloc(64, row * x.inRows + 64);
    float fw[9 * C], fbias[C], qscale[C], qbias[C];
    int32_t qw[9 * C];
    const float inScale = 4.0f / 127, outScale = 6.0f / 255;
    for (size_t i = 0; i < row * x.inRows; i++) {
        const int q = (int)lrintf(bound_random() * 127);
        x.qin[i] = (int8_t)q;
        x.uin[i] = (uint8_t)(q + 128);
        x.fin[i] = (float)q * inScale;
    }
    for (int c = 0; c < C; c++) {
        float largest = 0;
        for (int k = 0; k < 9; k++) {
            fw[k * C + c] = bound_random() * 0.5f;
            largest = fmaxf(largest, fabsf(fw[k * C + c]));
        }
        for (int k = 0; k < 9; k++) qw[k * C + c] = (int32_t)lrintf(fw[k * C + c] / largest * 127);
        fbias[c] = bound_random() * 0.3f;
        qscale[c] = inScale * (largest / 127) / outScale;
        qbias[c] = fbias[c] / outScale;
    }
    x.fw = fw; x.fbias = fbias; x.qw = qw; x.qscale = qscale; x.qbias = qbias;
    int8_t vw[3 * C * 4];
    int32_t vstart[C];
    for (int c = 0; c < C; c++) {
        vstart[c] = 0;
        for (int ky = 0; ky < 3; ky++) {
            for (int kx = 0; kx < 3; kx++) {
                vw[(ky * C + c) * 4 + kx] = (int8_t)qw[(ky * 3 + kx) * C + c];
                vstart[c] -= 128 * qw[(ky * 3 + kx) * C + c];
            }
            vw[(ky * C + c) * 4 + 3] = 0;
        }
    }
    x.vw = vw; x.vstart = vstart;
    int16_t aw[3 * 64];
    for (int ky = 0; ky < 3; ky++)
        for (int c = 0; c < C; c++) {
            aw[ky * 64 + 2 * c] = (int16_t)qw[(ky * 3 + 0) * C + c];
            aw[ky * 64 + 2 * c + 1] = (int16_t)qw[(ky * 3 + 1) * C + c];
            aw[ky * 64 + 32 + 2 * c] = (int16_t)qw[(ky * 3 + 2) * C + c];
            aw[ky * 64 + 32 + 2 * c + 1] = 0;
        }
    x.aw = aw;
    float ew[9 * C];
    for (int i = 0; i < 9 * C; i++) ew[i] = (float)qw[i];
    x.ew = ew;

    // Checks on the first four output rows: each kernel over the pixels its blocks cover.
    {
        const float *r[6];
        const int8_t *q[6];
        const uint8_t *u[6];
        float *fo[4];
        uint8_t *qo[4], *e[4];
        uint8_t *expected = calloc(row * 4, 1);
        for (int k = 0; k < 6; k++) { r[k] = x.fin + k * row; q[k] = x.qin + k * row; u[k] = x.uin + k * row; }
        for (int k = 0; k < 4; k++) { fo[k] = x.fout + k * row; qo[k] = x.qout + k * row; e[k] = expected + k * row; }
        reference_int8(q, qw, qscale, qbias, x.width, e);
        dw_float(r, fw, fbias, x.width, fo);
        const double error = reference_float_error(r, fw, fbias, x.width, fo);
        memset(x.qout, 0, row * 4);
        dw_int8(q, qw, qscale, qbias, x.width, qo);
        const int int8Same = same_bytes(qo, e, (x.width - 2) / 3 * 3);
        memset(x.qout, 0, row * 4);
        dw_int8_vnni(u, vw, vstart, qscale, qbias, x.width, qo);
        const int vnniSame = same_bytes(qo, e, (x.width - 2) / 4 * 4);
        memset(x.qout, 0, row * 4);
        for (int j = 0; j < 4; j++) dw_int8_avx2(q + j, x.aw, qscale, qbias, x.width, qo[j]);
        int avx2Same = same_bytes(qo, e, (x.width - 2) / 4 * 4);
        memset(x.qout, 0, row * 4);
        for (int j = 0; j < 4; j++) dw_int8_exact_avx2(q + j, ew, qscale, qbias, x.width, qo[j]);
        avx2Same = avx2Same && same_bytes(qo, e, (x.width - 2) / 4 * 4);
        for (int j = 0; j < 4; j++) dw_float_avx2(r + j, fw, fbias, x.width, fo[j]);
        const double avx2Error = reference_float_error(r, fw, fbias, x.width, fo);
        if (!int8Same || !vnniSame || !avx2Same || error > 1e-4 || avx2Error > 1e-4) {
            fprintf(stderr, "qs8-depthwise-bound: check failed (int8 %s, int8 vnni %s, int8 avx2 %s, float error %g, float avx2 error %g)\n",
                    int8Same ? "same" : "differs", vnniSame ? "same" : "differs", avx2Same ? "same" : "differs", error, avx2Error);
            return 1;
        }
        free(expected);
    }

    const double rows = (double)(x.rows / 4 * 4);
    const double threes = rows * (double)((x.width - 2) / 3 * 3), fours = rows * (double)((x.width - 2) / 4 * 4);
    printf("16-channel 3x3 stride-1 depthwise + ReLU, %d px wide, %d rows; ns per output pixel, fastest of 15 in each of 3 alternating rounds\n",
           x.width, x.rows);
    printf("AVX-512     float  int8 (vpmulld)   int8 (vpdpbusd)          ratios to float\n");
    compare(&x, (const kernel_kind[3]){FLOAT, INT8, INT8_VNNI}, (const double[3]){threes, threes, fours});
    printf("AVX2        float  int8 (vpmaddwd)  int8 (exact float sums)  ratios to float\n");
    compare(&x, (const kernel_kind[3]){FLOAT_AVX2, INT8_AVX2, INT8_EXACT_AVX2}, (const double[3]){fours, fours, fours});
    return 0;
}
