// What fusion (a) of issue 53 can give: a depthwise step quantizing its
// output pixels for the int8 1×1 layer that reads them (docs/BENCHMARKS.md,
// "Fusing the depthwise step with the int8 1×1 layer's quantization").
// A measurement, not engine code: it includes the engine's int8 1×1 kernels
// and times, on the AVX-512 VNNI set,
//   1. the 1×1 kernel on float pixels against the same tiles reading
//      pixels quantized beforehand ("records": 4·G bytes, then the scale),
//      and the quantization alone;
//   2. a 3×3 stride-1 depthwise (16 channels, ReLU, 4 rows × 3 pixels per
//      block) writing floats, then the 1×1 kernel reading them, against the
//      same depthwise quantizing each output pixel in registers (one max
//      tree and one division per 16 pixels) and the 1×1 reading records,
//      with the rows in L2 and with each call's output in fresh memory.
// Every variant is checked for the same bits as the engine's path.
//
//   clang -O3 -std=gnu11 -I Sources/CInt8Convolution/include benchmarks/fusion-bound.c -lm -o /tmp/fusion-bound && /tmp/fusion-bound
#include "../Sources/CInt8Convolution/int8_pointwise.c"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bound-common.h"

#define FB_TARGET __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512vnni,avx512dq")))

/// The engine's VNNI tiles (no activation: YuNet-s's 1×1 layers) on records
/// of `4·G + 4` bytes instead of quantizing float pixels.
FB_TARGET static void qpw_records_avx512vnni(const facepipe_qpw_params *params, const uint8_t *records) {
    const facepipe_qpw_params local = *params, *p = &local;
    const int32_t O = p->out_channels, G = qpw_groups(p), first = FACEPIPE_QPW_NONE, second = FACEPIPE_QPW_NONE;
    for (int32_t pixel = 0; pixel < p->pixels; pixel += 8) {
        const int32_t T = p->pixels - pixel < 8 ? p->pixels - pixel : 8;
        const uint8_t *q[8];
        float s[8];
        for (int t = 0; t < 8; t++) {
            q[t] = records + (intptr_t)(pixel + (t < T ? t : 0)) * (4 * G + 4);
            memcpy(&s[t], q[t] + 4 * G, sizeof(float));
        }
        QPW_OUTPUT_BLOCKS_AVX512();
    }
}

/// The engine's quantization of 16·W-channel pixels (`quantize8_whole_avx512`), into records.
FB_TARGET static void quantize_records(const float *x, int32_t pixels, int32_t W, uint8_t *records) {
    _Alignas(64) uint8_t q[8][QPW_ROW_BYTES];
    float s[8];
    const int32_t bytes = 16 * W;
    for (int32_t pixel = 0; pixel + 8 <= pixels; pixel += 8) {
        quantize8_whole_avx512(x + (intptr_t)pixel * bytes, W, q, s);
        for (int t = 0; t < 8; t++) {
            uint8_t *record = records + (intptr_t)(pixel + t) * (bytes + 4);
            memcpy(record, q[t], (size_t)bytes);
            memcpy(record + bytes, &s[t], sizeof(float));
        }
    }
}

// MARK: - 2. The depthwise step with and without the quantizing epilogue

enum { C = 16 };

/// Four output rows × three pixels of a 3×3 stride-1 depthwise, taps in (ky, kx) order from zero.
FB_TARGET static inline void dw_block(const float *r[6], const float *w, int32_t f, __m512 acc[4][3]) {
    for (int j = 0; j < 4; j++)
        for (int p = 0; p < 3; p++) acc[j][p] = _mm512_setzero_ps();
    for (int j = 0; j < 4; j++)
        for (int ky = 0; ky < 3; ky++)
            for (int kx = 0; kx < 3; kx++) {
                const __m512 wv = _mm512_loadu_ps(w + (ky * 3 + kx) * C);
                for (int p = 0; p < 3; p++) acc[j][p] = _mm512_fmadd_ps(_mm512_loadu_ps(r[j + ky] + f + (p + kx) * C), wv, acc[j][p]);
            }
}

FB_TARGET __attribute__((noinline)) static void dw_float(const float *r[6], const float *w, const float *bias, int32_t pixels, float *out[4]) {
    const __m512 b = _mm512_loadu_ps(bias), zero = _mm512_setzero_ps();
    for (int32_t px = 0; px + 3 <= pixels; px += 3) {
        __m512 acc[4][3];
        dw_block(r, w, px * C, acc);
        for (int j = 0; j < 4; j++)
            for (int p = 0; p < 3; p++) _mm512_storeu_ps(out[j] + (px + p) * C, _mm512_max_ps(_mm512_add_ps(acc[j][p], b), zero));
    }
}

/// Lane k: the largest lane of `v[k]` (a transposing max tree, exact in any order).
FB_TARGET static inline __m512 maxima16(const __m512 v[16]) {
    __m512 u[8], w[4], x[2];
    for (int k = 0; k < 8; k++) u[k] = _mm512_max_ps(_mm512_unpacklo_ps(v[2 * k], v[2 * k + 1]), _mm512_unpackhi_ps(v[2 * k], v[2 * k + 1]));
    for (int k = 0; k < 4; k++) {
        const __m512d a = _mm512_castps_pd(u[2 * k]), b = _mm512_castps_pd(u[2 * k + 1]);
        w[k] = _mm512_max_ps(_mm512_castpd_ps(_mm512_unpacklo_pd(a, b)), _mm512_castpd_ps(_mm512_unpackhi_pd(a, b)));
    }
    for (int k = 0; k < 2; k++)
        x[k] = _mm512_max_ps(_mm512_shuffle_f32x4(w[2 * k], w[2 * k + 1], 0x88), _mm512_shuffle_f32x4(w[2 * k], w[2 * k + 1], 0xDD));
    return _mm512_max_ps(_mm512_shuffle_f32x4(x[0], x[1], 0x88), _mm512_shuffle_f32x4(x[0], x[1], 0xDD));
}

/// `dw_float` whose epilogue writes each output pixel's record (the contract's quantization) instead of its floats.
FB_TARGET __attribute__((noinline)) static void dw_records(const float *r[6], const float *w, const float *bias, int32_t pixels, uint8_t *out[4]) {
    const __m512 b = _mm512_loadu_ps(bias), zero = _mm512_setzero_ps(), levels = _mm512_set1_ps(127.0f);
    const __m512i offset = _mm512_set1_epi32(128);
    for (int32_t px = 0; px + 3 <= pixels; px += 3) {
        __m512 acc[4][3], v[12], a[16];
        dw_block(r, w, px * C, acc);
        for (int j = 0; j < 4; j++)
            for (int p = 0; p < 3; p++) {
                v[3 * j + p] = _mm512_max_ps(_mm512_add_ps(acc[j][p], b), zero);
                a[3 * j + p] = _mm512_abs_ps(v[3 * j + p]);
            }
        for (int k = 12; k < 16; k++) a[k] = zero;
        const __m512 m = maxima16(a);
        const __mmask16 positive = _mm512_cmp_ps_mask(m, zero, _CMP_GT_OQ);
        _Alignas(64) float inverses[16], scales[16];
        _mm512_store_ps(inverses, _mm512_maskz_div_ps(positive, levels, m));
        _mm512_store_ps(scales, _mm512_maskz_div_ps(positive, m, levels));
        for (int j = 0; j < 4; j++)
            for (int p = 0; p < 3; p++) {
                const int k = 3 * j + p;
                const __m512i n = _mm512_cvtps_epi32(_mm512_mul_ps(v[k], _mm512_set1_ps(inverses[k])));
                uint8_t *record = out[j] + (intptr_t)(px + p) * (C + 4);
                _mm_storeu_si128((__m128i *)record, _mm512_cvtepi32_epi8(_mm512_add_epi32(n, offset)));
                memcpy(record + C, &scales[k], sizeof(float));
            }
    }
}

static facepipe_qpw_params layer(const float *input, int32_t pixels, int32_t I, int32_t O, float *output) {
    const int32_t G = (I + 3) / 4, padded = (O + 15) / 16 * 16;
    int8_t *w = aligned_alloc(64, (size_t)(padded * G * 4 + 64));
    int32_t *zero_sums = aligned_alloc(64, (size_t)padded * 4 + 64);
    float *scales = aligned_alloc(64, (size_t)padded * 4 + 64), *bias = aligned_alloc(64, (size_t)padded * 4 + 64);
    for (int32_t i = 0; i < padded * G * 4; i++) w[i] = (int8_t)(bound_random() * 127.0f);
    for (int32_t o = 0; o < padded; o++) {
        int32_t sum = 0;
        for (int32_t g = 0; g < G; g++)
            for (int j = 0; j < 4; j++) sum += w[(o / 16) * G * 64 + g * 64 + (o % 16) * 4 + j];
        zero_sums[o] = 128 * sum;
        scales[o] = 0.001f;
        bias[o] = bound_random();
    }
    return (facepipe_qpw_params){input, pixels, I, O, w, zero_sums, scales, bias, NULL, 0, FACEPIPE_QPW_NONE, FACEPIPE_QPW_NONE, NULL, NULL, output};
}

int main(void) {
    if (!__builtin_cpu_supports("avx512vnni")) {
        printf("needs AVX-512 VNNI\n");
        return 1;
    }
    int failures = 0;
    // 1. The 1×1 kernel: float pixels, records, the quantization alone (a 1056-pixel row, fastest of 15 × 200 calls).
    const int32_t P = 1056;
    const int32_t shapes[][2] = {{16, 16}, {16, 32}, {32, 32}, {64, 64}};
    for (int k = 0; k < 4; k++) {
        const int32_t I = shapes[k][0], O = shapes[k][1];
        float *x = aligned_alloc(64, (size_t)P * I * 4 + 256), *out = aligned_alloc(64, (size_t)P * O * 4 + 256);
        float *check = aligned_alloc(64, (size_t)P * O * 4 + 256);
        uint8_t *records = aligned_alloc(64, (size_t)P * (I + 4) + 256);
        for (int32_t i = 0; i < P * I; i++) x[i] = bound_random() * 3.0f;
        facepipe_qpw_params p = layer(x, P, I, O, out);
        facepipe_qpw_u8s8_8x32_avx512vnni(&p);
        quantize_records(x, P, I / 16, records);
        p.output = check;
        qpw_records_avx512vnni(&p, records);
        p.output = out;
        if (memcmp(out, check, (size_t)P * O * 4) != 0) {
            printf("%d→%d: records give other bits\n", I, O);
            failures++;
        }
        double best[3] = {1e9, 1e9, 1e9};
        for (int round = 0; round < 15; round++) {
            const double t0 = now();
            for (int n = 0; n < 200; n++) facepipe_qpw_u8s8_8x32_avx512vnni(&p);
            const double t1 = now();
            for (int n = 0; n < 200; n++) quantize_records(x, P, I / 16, records);
            const double t2 = now();
            for (int n = 0; n < 200; n++) qpw_records_avx512vnni(&p, records);
            const double t3 = now();
            const double d[3] = {t1 - t0, t2 - t1, t3 - t2};
            for (int j = 0; j < 3; j++) best[j] = d[j] < best[j] ? d[j] : best[j];
        }
        const double ns = 1e9 / (200.0 * P);
        printf("1x1 %2d→%2d: float pixels %.2f ns a pixel; quantization alone %.2f; records %.2f (%.0f %% of the float kernel)\n", I, O,
               best[0] * ns, best[1] * ns, best[2] * ns, 100.0 * best[2] / best[0]);
    }

    // 2. Depthwise 16 channels + the 16→16 1×1, four output rows of 1053 interior pixels a call.
    const int32_t W = 1056, pixels = 1053;
    enum { SETS = 32 };
    const float *rows[6];
    for (int i = 0; i < 6; i++) {
        float *row = aligned_alloc(64, (size_t)(W * C + 64) * 4);
        for (int32_t k = 0; k < W * C + 64; k++) row[k] = bound_random();
        rows[i] = row;
    }
    float weights[9 * C], bias[C];
    for (int k = 0; k < 9 * C; k++) weights[k] = bound_random();
    for (int k = 0; k < C; k++) bias[k] = bound_random() * 0.1f;
    float *floats[SETS][4];
    uint8_t *records[SETS][4], *reference = aligned_alloc(64, (size_t)W * (C + 4) + 256);
    for (int s = 0; s < SETS; s++)
        for (int j = 0; j < 4; j++) {
            floats[s][j] = aligned_alloc(64, (size_t)W * C * 4);
            records[s][j] = aligned_alloc(64, (size_t)W * (C + 4) + 256);
            memset(floats[s][j], 0, (size_t)W * C * 4);
            memset(records[s][j], 0, (size_t)W * (C + 4));
        }
    float *out = aligned_alloc(64, (size_t)W * C * 4 + 256);
    facepipe_qpw_params p = layer(NULL, pixels, C, C, out);
    dw_float(rows, weights, bias, pixels, floats[0]);
    dw_records(rows, weights, bias, pixels, records[0]);
    for (int j = 0; j < 4; j++) {
        quantize_records(floats[0][j], pixels / 8 * 8, 1, reference);
        if (memcmp(reference, records[0][j], (size_t)(pixels / 8 * 8) * (C + 4)) != 0) {
            printf("depthwise row %d: the fused epilogue's records differ\n", j);
            failures++;
        }
    }
    for (int fresh = 0; fresh < 2; fresh++) {
        double best[2] = {1e9, 1e9};
        for (int round = 0; round < 15; round++) {
            const double t0 = now();
            for (int n = 0; n < 64; n++) {
                float **o = floats[fresh ? n % SETS : 0];
                dw_float(rows, weights, bias, pixels, o);
                for (int j = 0; j < 4; j++) {
                    p.input = o[j];
                    facepipe_qpw_u8s8_8x32_avx512vnni(&p);
                }
            }
            const double t1 = now();
            for (int n = 0; n < 64; n++) {
                uint8_t **o = records[fresh ? n % SETS : 0];
                dw_records(rows, weights, bias, pixels, o);
                for (int j = 0; j < 4; j++) qpw_records_avx512vnni(&p, o[j]);
            }
            const double t2 = now();
            best[0] = t1 - t0 < best[0] ? t1 - t0 : best[0];
            best[1] = t2 - t1 < best[1] ? t2 - t1 : best[1];
        }
        const double ns = 1e9 / (64.0 * 4 * pixels);
        printf("depthwise 16 ch + 1x1 16→16, rows %s: separate %.2f ns an output pixel, fused %.2f (%+.0f %%)\n",
               fresh ? "in fresh memory each call" : "in L2", best[0] * ns, best[1] * ns, 100.0 * (best[1] / best[0] - 1));
    }
    printf("%s\n", failures ? "BITS DIFFER" : "same bits");
    return failures != 0;
}
