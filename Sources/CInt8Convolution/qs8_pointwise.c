#include "CInt8Convolution.h"
#include "qs8_rounding.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define QS8_PW_X86 1
#endif

// The QS8 1×1 convolution (see qs8.h). Each kernel sums whole groups of
// four input channels into 32-bit lanes (exact) and runs the epilogue lane
// by lane with the same operations as `qs8_signed_byte`, so every kernel
// writes the same bytes (or float bits).
#pragma STDC FP_CONTRACT OFF

static inline int32_t pw_groups(const facepipe_qs8_pw_params *p) { return (p->in_channels + 3) / 4; }

static inline uint32_t pw_load32(const uint8_t *p) {
    uint32_t value;
    memcpy(&value, p, 4);
    return value;
}

// MARK: - Scalar

void facepipe_qs8_pw_1x1_scalar(const facepipe_qs8_pw_params *p) {
    const int32_t I = p->in_channels, O = p->out_channels, G = pw_groups(p);
    for (int32_t pixel = 0; pixel < p->pixels; pixel++) {
        const uint8_t *x = p->input + (intptr_t)pixel * I;
        for (int32_t o = 0; o < O; o++) {
            const int8_t *w = p->weights + (intptr_t)(o / 16) * G * 64 + (o % 16) * 4;
            int32_t a = 0;
            for (int32_t i = 0; i < I; i++) a += (int32_t)x[i] * w[(i / 4) * 64 + i % 4];
            const float v = fmaf((float)a, p->multipliers[o], p->bias[o]);
            const intptr_t at = (intptr_t)pixel * O + o;
            if (p->output_bytes) {
                p->output_bytes[at] = qs8_signed_byte(v);
            } else {
                p->output_floats[at] = v;
            }
        }
    }
}

#if QS8_PW_X86

// MARK: - AVX2

#define QS8_PW_AVX2 __attribute__((target("avx2,fma")))

/// Pixels per tile of the AVX2 kernel.
enum { PW_AVX2_TILE = 6 };

/// Lanes `0..<count` (count clamped to 0…8) set, as `vmaskmovps` wants them.
QS8_PW_AVX2 static inline __m256i pw_lanes_avx2(int32_t count) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/// One pixel's `I` bytes widened to 16 bits, zero from I to `4·G`.
QS8_PW_AVX2 static inline void widen_avx2(const uint8_t *x, int32_t I, int32_t G, int16_t *q) {
    int32_t i = 0;
    for (; i + 16 <= I; i += 16) _mm256_storeu_si256((__m256i *)(q + i), _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(x + i))));
    for (; i < I; i++) q[i] = x[i];
    for (; i < 4 * G; i++) q[i] = 0;
}

/// The epilogue of 8 channels from `o` of one pixel, from their sums `a`.
QS8_PW_AVX2 static inline void store8_avx2(const facepipe_qs8_pw_params *p, __m256i a, int32_t pixel, int32_t o) {
    const int32_t O = p->out_channels, left = O - o;
    const __m256 v = _mm256_fmadd_ps(_mm256_cvtepi32_ps(a), _mm256_loadu_ps(p->multipliers + o), _mm256_loadu_ps(p->bias + o));
    const intptr_t at = (intptr_t)pixel * O + o;
    if (p->output_floats) {
        if (left >= 8) {
            _mm256_storeu_ps(p->output_floats + at, v);
        } else {
            _mm256_maskstore_ps(p->output_floats + at, pw_lanes_avx2(left), v);
        }
        return;
    }
    const __m256 clamped = _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(-127.0f)), _mm256_set1_ps(127.0f));
    const __m256i n = _mm256_cvtps_epi32(clamped);
    // Saturating packs keep the values (all within ±127): bytes 0–3 of each half hold channels 0–3 and 4–7.
    const __m256i words = _mm256_packs_epi32(n, n);
    const __m256i bytes = _mm256_packs_epi16(words, words);
    const __m128i ordered = _mm_unpacklo_epi32(_mm256_castsi256_si128(bytes), _mm256_extracti128_si256(bytes, 1));
    // q + 128 as a byte is q with its top bit flipped.
    const __m128i grid = _mm_xor_si128(ordered, _mm_set1_epi8((char)0x80));
    if (left >= 8) {
        _mm_storel_epi64((__m128i *)(p->output_bytes + at), grid);
    } else {
        uint8_t lanes[16];
        _mm_storeu_si128((__m128i *)lanes, grid);
        memcpy(p->output_bytes + at, lanes, (size_t)left);
    }
}

/// Tiles of 6 pixels × 8 channels in 12 accumulators. The pixels are
/// widened once per tile to 16 bits; a group's four values, broadcast, meet
/// the group's weights of 8 channels widened to 16 bits in two `vpmaddwd`s
/// (channels 0–3 and 4–7, two 32-bit lanes per channel), added up over all
/// groups and paired by one `vphaddd` at the end (lanes 0 1 4 5 | 2 3 6 7,
/// then put in order). Exact: each lane adds at most 2·G products of
/// magnitude ≤ 255·127.
QS8_PW_AVX2 void facepipe_qs8_pw_6x8_avx2(const facepipe_qs8_pw_params *params) {
    const facepipe_qs8_pw_params local = *params, *p = &local;
    const int32_t I = p->in_channels, O = p->out_channels, G = pw_groups(p);
    _Alignas(32) int16_t q[PW_AVX2_TILE][FACEPIPE_QS8_PW_MAX_IN_CHANNELS + 16];
    const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
    for (int32_t pixel = 0; pixel < p->pixels; pixel += PW_AVX2_TILE) {
        const int32_t T = p->pixels - pixel < PW_AVX2_TILE ? p->pixels - pixel : PW_AVX2_TILE;
        // A last tile of fewer pixels repeats its last one (computed, not stored).
        for (int t = 0; t < PW_AVX2_TILE; t++) widen_avx2(p->input + (intptr_t)(pixel + (t < T ? t : T - 1)) * I, I, G, q[t]);
        for (int32_t o = 0; o < O; o += 8) {
            const int8_t *w = p->weights + (intptr_t)(o / 16) * G * 64 + (o % 16) * 4;
            __m256i acc[PW_AVX2_TILE][2];
            for (int t = 0; t < PW_AVX2_TILE; t++) acc[t][0] = acc[t][1] = _mm256_setzero_si256();
            for (int32_t g = 0; g < G; g++) {
                const __m256i low = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w + (intptr_t)g * 64)));
                const __m256i high = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w + (intptr_t)g * 64 + 16)));
                for (int t = 0; t < PW_AVX2_TILE; t++) {
                    int64_t four;
                    memcpy(&four, q[t] + 4 * g, 8);
                    const __m256i x = _mm256_set1_epi64x(four);
                    acc[t][0] = _mm256_add_epi32(acc[t][0], _mm256_madd_epi16(x, low));
                    acc[t][1] = _mm256_add_epi32(acc[t][1], _mm256_madd_epi16(x, high));
                }
            }
            for (int t = 0; t < PW_AVX2_TILE; t++) {
                if (t >= T) break;
                store8_avx2(p, _mm256_permutevar8x32_epi32(_mm256_hadd_epi32(acc[t][0], acc[t][1]), order), pixel + t, o);
            }
        }
    }
}

// MARK: - AVX-512 VNNI

#define QS8_PW_VNNI __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512vnni")))

QS8_PW_VNNI static inline __mmask16 pw_lanes16(int32_t count) {
    return count >= 16 ? (__mmask16)0xFFFF : (count <= 0 ? (__mmask16)0 : (__mmask16)((1u << count) - 1));
}

/// `fmaf(A, multipliers, bias)` of 16 channels.
QS8_PW_VNNI static inline __attribute__((always_inline)) __m512 epilogue16(__m512i a, __m512 m, __m512 b) {
    return _mm512_fmadd_ps(_mm512_cvtepi32_ps(a), m, b);
}

/// Clamped to ±127 and rounded, as 32-bit integers.
QS8_PW_VNNI static inline __attribute__((always_inline)) __m512i signed16(__m512 v) {
    return _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(-127.0f)), _mm512_set1_ps(127.0f)));
}

/// Four vectors of −127…127 as 64 bytes in order (v₀'s 16, v₁'s, …),
/// offset by 128 (the top bit flipped). The saturating packs keep the
/// values and leave each 128-bit lane l holding v₀…v₃'s lanes 4l…4l + 3;
/// one `vpermd` puts those dwords in order.
QS8_PW_VNNI static inline __attribute__((always_inline)) __m512i pack4(__m512i v0, __m512i v1, __m512i v2, __m512i v3) {
    const __m512i bytes = _mm512_packs_epi16(_mm512_packs_epi32(v0, v1), _mm512_packs_epi32(v2, v3));
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    return _mm512_xor_si512(_mm512_permutexvar_epi32(order, bytes), _mm512_set1_epi8((char)0x80));
}

/// Stores the 16 channels from `o` of one pixel (those below O).
QS8_PW_VNNI static inline __attribute__((always_inline)) void store16_avx512(const facepipe_qs8_pw_params *p, __m512 v, int32_t pixel, int32_t o) {
    const int32_t O = p->out_channels, left = O - o;
    const intptr_t at = (intptr_t)pixel * O + o;
    if (p->output_floats) {
        if (left >= 16) {
            _mm512_storeu_ps(p->output_floats + at, v);
        } else {
            _mm512_mask_storeu_ps(p->output_floats + at, pw_lanes16(left), v);
        }
        return;
    }
    const __m128i bytes = _mm_xor_si128(_mm512_cvtepi32_epi8(signed16(v)), _mm_set1_epi8((char)0x80));
    if (left >= 16) {
        _mm_storeu_si128((__m128i *)(p->output_bytes + at), bytes);
    } else {
        _mm_mask_storeu_epi8(p->output_bytes + at, pw_lanes16(left), bytes);
    }
}

/// `store16_avx512` for 8 channels.
QS8_PW_VNNI static inline __attribute__((always_inline)) void store8_avx512(const facepipe_qs8_pw_params *p, __m256i a, int32_t pixel, int32_t o) {
    const int32_t O = p->out_channels, left = O - o;
    const __m256 v = _mm256_fmadd_ps(_mm256_cvtepi32_ps(a), _mm256_loadu_ps(p->multipliers + o), _mm256_loadu_ps(p->bias + o));
    const intptr_t at = (intptr_t)pixel * O + o;
    const __mmask8 lanes = (__mmask8)(pw_lanes16(left) & 0xFF);
    if (p->output_floats) {
        _mm256_mask_storeu_ps(p->output_floats + at, lanes, v);
        return;
    }
    const __m256 clamped = _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(-127.0f)), _mm256_set1_ps(127.0f));
    const __m128i bytes = _mm_xor_si128(_mm256_cvtepi32_epi8(_mm256_cvtps_epi32(clamped)), _mm_set1_epi8((char)0x80));
    _mm_mask_storeu_epi8(p->output_bytes + at, (__mmask16)lanes, bytes);
}

/// `PX` pixels (`x + t·stride`, 4·G readable bytes each; the first `T` stored) ×
/// `16·B` channels from `o` (PX·B ≤ 16; constants where it is inlined): one
/// accumulator per pixel and block; each group's four bytes of a pixel,
/// broadcast, meet the group's weights in one `vpdpbusd` per block. Bytes
/// whose 64 lie together in the output (a pixel's 64 channels, two
/// pixels' 32, four pixels' 16) leave in one store.
QS8_PW_VNNI static inline __attribute__((always_inline)) void tile_avx512(const facepipe_qs8_pw_params *p, const uint8_t *x, int32_t stride,
                                                                        int32_t G, int32_t T, int32_t pixel, int32_t o, int PX, int B) {
    const int8_t *w = p->weights + (intptr_t)(o / 16) * G * 64;
    __m512i acc[8][4];
    for (int t = 0; t < PX; t++)
        for (int b = 0; b < B; b++) acc[t][b] = _mm512_setzero_si512();
    for (int32_t g = 0; g < G; g++) {
        __m512i wv[4];
        for (int b = 0; b < B; b++) wv[b] = _mm512_loadu_si512((const void *)(w + ((intptr_t)b * G + g) * 64));
        for (int t = 0; t < PX; t++) {
            const __m512i xv = _mm512_set1_epi32((int32_t)pw_load32(x + (intptr_t)t * stride + 4 * g));
            for (int b = 0; b < B; b++) acc[t][b] = _mm512_dpbusd_epi32(acc[t][b], xv, wv[b]);
        }
    }
    const int32_t O = p->out_channels;
    __m512 m[4], bias[4];
    for (int b = 0; b < B; b++) {
        m[b] = _mm512_loadu_ps(p->multipliers + o + 16 * b);
        bias[b] = _mm512_loadu_ps(p->bias + o + 16 * b);
    }
    if (p->output_bytes && T >= PX && o + 16 * B <= O && (B == 4 || (B == 2 && O == 32) || (B == 1 && O == 16))) {
        for (int t = 0; t < PX; t += 4 / B) {
            __m512i v[4];
            for (int k = 0; k < 4; k++) v[k] = signed16(epilogue16(acc[t + k / B][k % B], m[k % B], bias[k % B]));
            _mm512_storeu_si512((void *)(p->output_bytes + (intptr_t)(pixel + t) * O + o), pack4(v[0], v[1], v[2], v[3]));
        }
        return;
    }
    for (int t = 0; t < PX; t++)
        for (int b = 0; b < B; b++)
            if (t < T && o + 16 * b < O) store16_avx512(p, epilogue16(acc[t][b], m[b], bias[b]), pixel + t, o + 16 * b);
}

/// 8 pixels × the last 1–8 channels from `o`: half-width vectors.
QS8_PW_VNNI static inline __attribute__((always_inline)) void tile8_avx512(const facepipe_qs8_pw_params *p, const uint8_t *x, int32_t stride,
                                                                         int32_t G, int32_t T, int32_t pixel, int32_t o) {
    const int8_t *w = p->weights + (intptr_t)(o / 16) * G * 64;
    __m256i acc[8];
    for (int t = 0; t < 8; t++) acc[t] = _mm256_setzero_si256();
    for (int32_t g = 0; g < G; g++) {
        const __m256i wv = _mm256_loadu_si256((const __m256i *)(w + (intptr_t)g * 64));
        for (int t = 0; t < 8; t++)
            acc[t] = _mm256_dpbusd_epi32(acc[t], _mm256_set1_epi32((int32_t)pw_load32(x + (intptr_t)t * stride + 4 * g)), wv);
    }
    for (int t = 0; t < 8; t++)
        if (t < T) store8_avx512(p, acc[t], pixel + t, o);
}

/// The kernel for `G` groups a pixel (a constant where it is inlined, so
/// the group loop unrolls): tiles of 8 pixels × 64 channels (two halves of
/// 4 pixels), then 32 (a last 25–63), 16 (9–24) or 8 (1–8). The bytes are
/// read in place when `I` is a multiple of 4 (every group's four bytes lie
/// in the pixel); otherwise, and for a last tile of fewer pixels, the tile
/// is first copied to the stack, 4·G bytes a pixel (zeros past I), the
/// last pixel repeated (computed, not stored).
QS8_PW_VNNI static inline __attribute__((always_inline)) void pw_avx512(const facepipe_qs8_pw_params *p, int32_t G) {
    const int32_t I = p->in_channels, O = p->out_channels;
    _Alignas(64) uint8_t copy[8 * (FACEPIPE_QS8_PW_MAX_IN_CHANNELS + 4)];
    for (int32_t pixel = 0; pixel < p->pixels; pixel += 8) {
        const int32_t T = p->pixels - pixel < 8 ? p->pixels - pixel : 8;
        const uint8_t *x = p->input + (intptr_t)pixel * I;
        int32_t stride = I;
        if (T < 8 || I % 4 != 0) {
            stride = 4 * G;
            for (int t = 0; t < 8; t++) {
                memcpy(copy + t * stride, x + (intptr_t)(t < T ? t : T - 1) * I, (size_t)I);
                memset(copy + t * stride + I, 0, (size_t)(stride - I));
            }
            x = copy;
        }
        int32_t o = 0;
        while (o < O) {
            const int32_t left = O - o;
            if (left >= 64) {
                tile_avx512(p, x, stride, G, T, pixel, o, 4, 4);
                if (T > 4) tile_avx512(p, x + 4 * stride, stride, G, T - 4, pixel + 4, o, 4, 4);
                o += 64;
            } else if (left > 24) {
                tile_avx512(p, x, stride, G, T, pixel, o, 8, 2);
                o += 32;
            } else if (left > 8) {
                tile_avx512(p, x, stride, G, T, pixel, o, 8, 1);
                o += 16;
            } else {
                tile8_avx512(p, x, stride, G, T, pixel, o);
                o += 8;
            }
        }
    }
}

/// YuNet-s's 16-, 32- and 64-channel inputs with their group counts known.
QS8_PW_VNNI void facepipe_qs8_pw_4x64_avx512vnni(const facepipe_qs8_pw_params *params) {
    const facepipe_qs8_pw_params local = *params, *p = &local;
    switch (p->in_channels) {
    case 16: pw_avx512(p, 4); break;
    case 32: pw_avx512(p, 8); break;
    case 64: pw_avx512(p, 16); break;
    default: pw_avx512(p, pw_groups(p)); break;
    }
}

#else

// Not x86: every kernel is the scalar one (the planner never chooses the others).
void facepipe_qs8_pw_6x8_avx2(const facepipe_qs8_pw_params *p) { facepipe_qs8_pw_1x1_scalar(p); }
void facepipe_qs8_pw_4x64_avx512vnni(const facepipe_qs8_pw_params *p) { facepipe_qs8_pw_1x1_scalar(p); }

#endif
