#include "CInt8Convolution.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define FACEPIPE_QPW_X86 1
#endif

// The int8 1×1 convolution (see int8_pointwise.h). Each kernel quantizes a
// tile of pixels into bytes on the stack, sums whole groups of four
// channels into 32-bit lanes, and runs the float epilogue lane by lane with
// the same operations as `epilogue_scalar`, so every kernel writes the
// same bits.

/// Bytes of one quantized pixel in a tile: room for the most input channels
/// and for a whole vector's store past the last group.
enum { QPW_ROW_BYTES = FACEPIPE_QPW_MAX_IN_CHANNELS + 64 };

static inline int32_t qpw_groups(const facepipe_qpw_params *p) { return (p->in_channels + 3) / 4; }
static inline int32_t qpw_padded_outputs(const facepipe_qpw_params *p) { return (p->out_channels + 15) / 16 * 16; }

static inline uint32_t qpw_load32(const uint8_t *p) {
    uint32_t value;
    memcpy(&value, p, 4);
    return value;
}

// MARK: - Scalar

static inline float activate_scalar(float v, int32_t kind, const float *slopes, int32_t o) {
    switch (kind) {
    case FACEPIPE_QPW_RELU: return v > 0.0f ? v : 0.0f;
    case FACEPIPE_QPW_RELU6: v = v > 0.0f ? v : 0.0f; return v < 6.0f ? v : 6.0f;
    case FACEPIPE_QPW_PRELU: return v < 0.0f ? v * slopes[o] : v;
    default: return v;
    }
}

/// Quantizes one pixel's `I` channels into `4·G` bytes (128 beyond I) and returns its scale.
static float quantize_scalar(const float *x, int32_t I, int32_t G, uint8_t *q) {
    float m = 0.0f;
    for (int32_t i = 0; i < I; i++) {
        const float a = fabsf(x[i]);
        m = a > m ? a : m;
    }
    const float inverse = m > 0.0f ? 127.0f / m : 0.0f;
    for (int32_t i = 0; i < I; i++) {
        float v = rintf(x[i] * inverse);
        v = v < -127.0f ? -127.0f : (v > 127.0f ? 127.0f : v);
        q[i] = (uint8_t)((int32_t)v + 128);
    }
    for (int32_t i = I; i < 4 * G; i++) q[i] = 128;
    return m > 0.0f ? m / 127.0f : 0.0f;
}

static float epilogue_scalar(const facepipe_qpw_params *p, int32_t a, int32_t pixel, int32_t o, float s) {
    float v = fmaf((float)(a - p->zero_sums[o]), p->scales[o] * s, p->bias[o]);
    v = activate_scalar(v, p->first, p->first_slopes, o);
    if (p->residual) v = v + (o < p->residual_channels ? p->residual[(intptr_t)pixel * p->residual_channels + o] : 0.0f);
    return activate_scalar(v, p->second, p->second_slopes, o);
}

void facepipe_qpw_u8s8_1x1_scalar(const facepipe_qpw_params *p) {
    const int32_t I = p->in_channels, O = p->out_channels, G = qpw_groups(p);
    uint8_t q[QPW_ROW_BYTES];
    for (int32_t pixel = 0; pixel < p->pixels; pixel++) {
        const float s = quantize_scalar(p->input + (intptr_t)pixel * I, I, G, q);
        for (int32_t o = 0; o < O; o++) {
            const int8_t *w = p->weights + (intptr_t)(o / 16) * G * 64 + (o % 16) * 4;
            int32_t a = 0;
            for (int32_t g = 0; g < G; g++) {
                for (int32_t j = 0; j < 4; j++) a += (int32_t)q[4 * g + j] * w[g * 64 + j];
            }
            p->output[(intptr_t)pixel * O + o] = epilogue_scalar(p, a, pixel, o, s);
        }
    }
}

#if FACEPIPE_QPW_X86

// MARK: - AVX2

#define QPW_AVX2_TARGET __attribute__((target("avx2,fma")))

/// Lanes `0..<count` (count clamped to 0…8) set, as `vmaskmovps` wants them.
QPW_AVX2_TARGET static inline __m256i lanes_avx2(int32_t count) {
    const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), index);
}

QPW_AVX2_TARGET static inline __m256 activate_avx2(__m256 v, int32_t kind, const float *slopes, int32_t o) {
    switch (kind) {
    case FACEPIPE_QPW_RELU: return _mm256_max_ps(v, _mm256_setzero_ps());
    case FACEPIPE_QPW_RELU6: return _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(6.0f));
    case FACEPIPE_QPW_PRELU: {
        const __m256 negative = _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ);
        return _mm256_blendv_ps(v, _mm256_mul_ps(v, _mm256_loadu_ps(slopes + o)), negative);
    }
    default: return v;
    }
}

/// Pixels per tile of the AVX2 kernel.
enum { QPW_AVX2_TILE = 6 };

/// Channels `i…i+7` of a pixel (zero from `I` on).
QPW_AVX2_TARGET static inline __m256 channels_avx2(const float *x, int32_t i, int32_t I) {
    return i + 8 <= I ? _mm256_loadu_ps(x + i) : _mm256_maskload_ps(x + i, lanes_avx2(I - i));
}

/// A tile's scales from its 8 pixels' partial maxima (`h[t]`: 8 lanes whose
/// largest is pixel t's largest magnitude; max is exact in any order):
/// stores each pixel's scale m/127 in `s` and returns the inverses 127/m
/// (both 0 for a zero pixel), so the tile takes one division for each.
QPW_AVX2_TARGET static inline __m256 tile_scales_avx2(const __m256 h[8], float s[8]) {
    // Pairs: lanes of (h0, h1) → one vector whose even/odd pairs hold partial maxima of each.
    const __m256 a01 = _mm256_max_ps(_mm256_unpacklo_ps(h[0], h[1]), _mm256_unpackhi_ps(h[0], h[1]));
    const __m256 a23 = _mm256_max_ps(_mm256_unpacklo_ps(h[2], h[3]), _mm256_unpackhi_ps(h[2], h[3]));
    const __m256 a45 = _mm256_max_ps(_mm256_unpacklo_ps(h[4], h[5]), _mm256_unpackhi_ps(h[4], h[5]));
    const __m256 a67 = _mm256_max_ps(_mm256_unpacklo_ps(h[6], h[7]), _mm256_unpackhi_ps(h[6], h[7]));
    // a01 = [0 1 0 1 | 0 1 0 1] (pixel per lane); quads next.
    const __m256 b0123 = _mm256_max_ps(_mm256_shuffle_ps(a01, a23, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(a01, a23, _MM_SHUFFLE(3, 2, 3, 2)));
    const __m256 b4567 = _mm256_max_ps(_mm256_shuffle_ps(a45, a67, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(a45, a67, _MM_SHUFFLE(3, 2, 3, 2)));
    // b0123 = [0 1 2 3 | 0 1 2 3]; the two 128-bit halves last.
    const __m256 m = _mm256_max_ps(_mm256_permute2f128_ps(b0123, b4567, 0x20), _mm256_permute2f128_ps(b0123, b4567, 0x31));
    const __m256 positive = _mm256_cmp_ps(m, _mm256_setzero_ps(), _CMP_GT_OQ);
    const __m256 levels = _mm256_set1_ps(127.0f);
    _mm256_storeu_ps(s, _mm256_and_ps(positive, _mm256_div_ps(m, levels)));
    return _mm256_and_ps(positive, _mm256_div_ps(levels, m));
}

/// Quantizes a tile's pixels `x + t·I` (`t < T`; the others are zero, scale
/// 0) as the contract's `q − 128`: signed 16-bit values in [−127, 127],
/// `4·G` per pixel (0 beyond I; the stores may write up to 7 more). The
/// pixels' largest magnitudes come out in one vector (a max tree), so the
/// scales and their inverses take one division each for the whole tile.
/// |x·(127/m)| ≤ 127·(1 + 2⁻²³) rounds inside [−127, 127], so the scalar
/// kernel's clamp never acts and is left out, as in `quantize8_avx512`;
/// sixteen channels are packed at a time (one pack, one lane fix, one store).
QPW_AVX2_TARGET static void quantize16_avx2(const float *x, int32_t I, int32_t G, int32_t T,
                                            int16_t q[][FACEPIPE_QPW_MAX_IN_CHANNELS + 16], float s[8]) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 m[8];
    for (int t = 0; t < 8; t++) {
        m[t] = _mm256_setzero_ps();
        if (t >= T) continue;
        for (int32_t i = 0; i < I; i += 8) m[t] = _mm256_max_ps(m[t], _mm256_andnot_ps(sign, channels_avx2(x + (intptr_t)t * I, i, I)));
    }
    _Alignas(32) float inverses[8];
    _mm256_store_ps(inverses, tile_scales_avx2(m, s));
    const int32_t count = 4 * G;
    for (int t = 0; t < QPW_AVX2_TILE; t++) {
        if (t >= T) {
            memset(q[t], 0, sizeof(int16_t) * (size_t)count);
            continue;
        }
        const float *pixel = x + (intptr_t)t * I;
        const __m256 inverse = _mm256_broadcast_ss(inverses + t);
        int32_t i = 0;
        for (; i + 8 < count; i += 16) {
            const __m256i a = _mm256_cvtps_epi32(_mm256_mul_ps(channels_avx2(pixel, i, I), inverse));
            const __m256i b = _mm256_cvtps_epi32(_mm256_mul_ps(channels_avx2(pixel, i + 8, I), inverse));
            // The pack interleaves the halves (a0–3 b0–3 | a4–7 b4–7); quads 0 2 1 3 put them in order.
            _mm256_storeu_si256((__m256i *)(q[t] + i), _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), _MM_SHUFFLE(3, 1, 2, 0)));
        }
        if (i < count) {
            const __m256i n = _mm256_cvtps_epi32(_mm256_mul_ps(channels_avx2(pixel, i, I), inverse));
            _mm_storeu_si128((__m128i *)(q[t] + i), _mm_packs_epi32(_mm256_castsi256_si128(n), _mm256_extracti128_si256(n, 1)));
        }
    }
}

/// `quantize16_avx2` for `I = 16·W` channels (W = 1, 2 or 4: a constant
/// where it is inlined) and a whole tile, with the same bits: no masked
/// loads, no tail, each pixel's vectors loaded once for its maximum and
/// its conversion (YuNet-s's 16-, 32- and 64-channel maps).
QPW_AVX2_TARGET static inline __attribute__((always_inline)) void quantize16_whole_avx2(const float *x, int32_t W,
                                                                                      int16_t q[][FACEPIPE_QPW_MAX_IN_CHANNELS + 16], float s[8]) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 m[8];
    for (int t = 0; t < QPW_AVX2_TILE; t++) {
        const float *pixel = x + (intptr_t)t * 16 * W;
        m[t] = _mm256_max_ps(_mm256_andnot_ps(sign, _mm256_loadu_ps(pixel)), _mm256_andnot_ps(sign, _mm256_loadu_ps(pixel + 8)));
        for (int32_t k = 1; k < 2 * W; k++) m[t] = _mm256_max_ps(m[t], _mm256_andnot_ps(sign, _mm256_loadu_ps(pixel + 8 * k)));
    }
    for (int t = QPW_AVX2_TILE; t < 8; t++) m[t] = _mm256_setzero_ps();
    _Alignas(32) float inverses[8];
    _mm256_store_ps(inverses, tile_scales_avx2(m, s));
    for (int t = 0; t < QPW_AVX2_TILE; t++) {
        const float *pixel = x + (intptr_t)t * 16 * W;
        const __m256 inverse = _mm256_broadcast_ss(inverses + t);
        for (int32_t k = 0; k < W; k++) {
            const __m256i a = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(pixel + 16 * k), inverse));
            const __m256i b = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(pixel + 16 * k + 8), inverse));
            _mm256_storeu_si256((__m256i *)(q[t] + 16 * k), _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), _MM_SHUFFLE(3, 1, 2, 0)));
        }
    }
}

/// The epilogue of 8 channels from `o` of one pixel, from `d = A − Z`
/// (exact) and `scale = t[o…]·s`. Whole-vector loads and stores where all 8
/// channels exist (AMD runs `vmaskmovps` stores slowly).
QPW_AVX2_TARGET static inline __attribute__((always_inline)) void store_avx2(const facepipe_qpw_params *p, int32_t first, int32_t second,
                                                                           __m256i d, __m256 scale, int32_t pixel, int32_t o) {
    __m256 v = _mm256_fmadd_ps(_mm256_cvtepi32_ps(d), scale, _mm256_loadu_ps(p->bias + o));
    v = activate_avx2(v, first, p->first_slopes, o);
    if (p->residual) {
        const int32_t rc = p->residual_channels;
        const float *r = p->residual + (intptr_t)pixel * rc + o;
        v = _mm256_add_ps(v, o + 8 <= rc ? _mm256_loadu_ps(r) : _mm256_maskload_ps(r, lanes_avx2(rc - o)));
    }
    v = activate_avx2(v, second, p->second_slopes, o);
    float *out = p->output + (intptr_t)pixel * p->out_channels + o;
    if (o + 8 <= p->out_channels) {
        _mm256_storeu_ps(out, v);
    } else {
        _mm256_maskstore_ps(out, lanes_avx2(p->out_channels - o), v);
    }
}

/// Tiles of 6 pixels × 8 channels in 12 accumulators. The pixels are
/// quantized once per tile to signed 16-bit values (`q − 128`), so the sums
/// are `A − Z` directly; a group's four values, broadcast, meet the group's
/// weights of 8 channels widened to 16 bits in two `vpmaddwd`s (channels
/// 0–3 and 4–7, two 32-bit lanes per channel), added up over all groups and
/// paired by one `vphaddd` at the end (lanes 0 1 4 5 | 2 3 6 7, then put in
/// order). Exact: each lane adds at most 2·G products of magnitude ≤ 127².
/// `first` and `second` are constants where it is inlined.
QPW_AVX2_TARGET static inline __attribute__((always_inline)) void qpw_avx2(const facepipe_qpw_params *p, int32_t first, int32_t second) {
    const int32_t I = p->in_channels, G = qpw_groups(p), O = p->out_channels;
    _Alignas(32) int16_t q[QPW_AVX2_TILE][FACEPIPE_QPW_MAX_IN_CHANNELS + 16];
    float s[8];
    const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
    for (int32_t pixel = 0; pixel < p->pixels; pixel += QPW_AVX2_TILE) {
        const int32_t T = p->pixels - pixel < QPW_AVX2_TILE ? p->pixels - pixel : QPW_AVX2_TILE;
        if (T == QPW_AVX2_TILE && I == 16) {
            quantize16_whole_avx2(p->input + (intptr_t)pixel * I, 1, q, s);
        } else if (T == QPW_AVX2_TILE && I == 32) {
            quantize16_whole_avx2(p->input + (intptr_t)pixel * I, 2, q, s);
        } else if (T == QPW_AVX2_TILE && I == 64) {
            quantize16_whole_avx2(p->input + (intptr_t)pixel * I, 4, q, s);
        } else {
            quantize16_avx2(p->input + (intptr_t)pixel * I, I, G, T, q, s);
        }
        for (int32_t o = 0; o < O; o += 8) {
            const int8_t *w = p->weights + (intptr_t)(o / 16) * G * 64 + (o % 16) * 4;
            __m256i a[QPW_AVX2_TILE][2];
            for (int t = 0; t < QPW_AVX2_TILE; t++) a[t][0] = a[t][1] = _mm256_setzero_si256();
            for (int32_t g = 0; g < G; g++) {
                const __m256i w0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w + g * 64)));
                const __m256i w1 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w + g * 64 + 16)));
                _Pragma("clang loop unroll(full)")
                for (int t = 0; t < QPW_AVX2_TILE; t++) {
                    int64_t four;
                    memcpy(&four, q[t] + 4 * g, 8);
                    const __m256i x = _mm256_set1_epi64x(four);
                    a[t][0] = _mm256_add_epi32(a[t][0], _mm256_madd_epi16(x, w0));
                    a[t][1] = _mm256_add_epi32(a[t][1], _mm256_madd_epi16(x, w1));
                }
            }
            const __m256 scales = _mm256_loadu_ps(p->scales + o);
            _Pragma("clang loop unroll(full)")
            for (int t = 0; t < QPW_AVX2_TILE; t++) {
                if (t < T) {
                    const __m256i d = _mm256_permutevar8x32_epi32(_mm256_hadd_epi32(a[t][0], a[t][1]), order);
                    store_avx2(p, first, second, d, _mm256_mul_ps(scales, _mm256_set1_ps(s[t])), pixel + t, o);
                }
            }
        }
    }
}

QPW_AVX2_TARGET void facepipe_qpw_u8s8_6x8_avx2(const facepipe_qpw_params *params) {
    // A local copy: the output stores cannot alias it, so its fields stay in registers.
    const facepipe_qpw_params local = *params, *p = &local;
    // BlazeFace's projections: no activation before the residual, ReLU after it.
    if (p->first == FACEPIPE_QPW_NONE && p->second == FACEPIPE_QPW_RELU) {
        qpw_avx2(p, FACEPIPE_QPW_NONE, FACEPIPE_QPW_RELU);
    } else if (p->first == FACEPIPE_QPW_NONE && p->second == FACEPIPE_QPW_NONE) {
        // YuNet-s's 1×1 layers: no activation (ReLU follows the depthwise
        // layer); with the kinds known the epilogue's activation switches
        // fold away (a streamed YuNet-s column 5 % faster).
        qpw_avx2(p, FACEPIPE_QPW_NONE, FACEPIPE_QPW_NONE);
    } else {
        qpw_avx2(p, p->first, p->second);
    }
}

// MARK: - AVX-512 VNNI

#define QPW_VNNI_TARGET __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512vnni")))

QPW_VNNI_TARGET static inline __mmask16 lanes_avx512(int32_t count) {
    return count >= 16 ? (__mmask16)0xFFFF : (count <= 0 ? (__mmask16)0 : (__mmask16)((1u << count) - 1));
}

QPW_VNNI_TARGET static inline __m512 activate_avx512(__m512 v, int32_t kind, const float *slopes, int32_t o) {
    switch (kind) {
    case FACEPIPE_QPW_RELU: return _mm512_max_ps(v, _mm512_setzero_ps());
    case FACEPIPE_QPW_RELU6: return _mm512_min_ps(_mm512_max_ps(v, _mm512_setzero_ps()), _mm512_set1_ps(6.0f));
    case FACEPIPE_QPW_PRELU: {
        const __mmask16 negative = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ);
        return _mm512_mask_mul_ps(v, negative, v, _mm512_loadu_ps(slopes + o));
    }
    default: return v;
    }
}

/// Quantizes 8 pixels (`I` channels each, `I` floats apart) into `q`
/// (`4·G` bytes each, 128 beyond I) and their scales into `s`: each
/// pixel's largest magnitude first, then one division per vector for all
/// eight. |x·(127/m)| ≤ 127·(1 + 2⁻²³) rounds inside [−127, 127], so the
/// scalar kernel's clamp never acts and is left out here.
QPW_VNNI_TARGET static void quantize8_avx512(const float *x, int32_t I, int32_t G, uint8_t q[8][QPW_ROW_BYTES], float s[8]) {
    // Each pixel's largest magnitude on 16 lanes, folded to 8 for `tile_scales_avx2`.
    __m256 h[8];
    for (int t = 0; t < 8; t++) {
        const float *pixel = x + (intptr_t)t * I;
        __m512 m = _mm512_setzero_ps();
        for (int32_t i = 0; i < I; i += 16) m = _mm512_max_ps(m, _mm512_abs_ps(_mm512_maskz_loadu_ps(lanes_avx512(I - i), pixel + i)));
        h[t] = _mm256_max_ps(_mm512_castps512_ps256(m), _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(m), 1)));
    }
    _Alignas(32) float inverses[8];
    _mm256_store_ps(inverses, tile_scales_avx2(h, s));
    for (int t = 0; t < 8; t++) {
        const float *pixel = x + (intptr_t)t * I;
        const __m512 inverse = _mm512_set1_ps(inverses[t]);
        for (int32_t i = 0; i < 4 * G; i += 16) {
            const __m512i n = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_maskz_loadu_ps(lanes_avx512(I - i), pixel + i), inverse));
            // Whole 16-byte stores: the row has room past 4·G.
            _mm_storeu_si128((__m128i *)(q[t] + i), _mm512_cvtepi32_epi8(_mm512_add_epi32(n, _mm512_set1_epi32(128))));
        }
    }
}

/// Where the 16-float vectors of a tile of 8 pixels fall, for `I` a
/// multiple of 4 from 16 to `QPW_FLAT_MAX_IN` (`qpw_flat_fits`): the tile is
/// `I/2` whole vectors, each within one pixel or across the boundary of
/// two. Built once per call.
enum { QPW_FLAT_MAX_IN = 128 };
typedef struct {
    int32_t vectors;
    /// Per vector: its first pixel, where in that pixel's row it starts,
    /// and how many of its lanes belong to that pixel (16: all).
    uint8_t pixel[QPW_FLAT_MAX_IN / 2], start[QPW_FLAT_MAX_IN / 2], lanes[QPW_FLAT_MAX_IN / 2];
    /// Per vector: each lane's pixel, for `vpermps` of the 8 inverse scales.
    _Alignas(64) int32_t owner[QPW_FLAT_MAX_IN / 2][16];
    /// The last partial vector of a pixel's channels (all but `I mod 16` lanes clear).
    __mmask16 rest;
} qpw_flat_tile;

static inline int qpw_flat_fits(int32_t I) { return I % 4 == 0 && I >= 16 && I <= QPW_FLAT_MAX_IN; }

/// No divisions: a call may cover a single row of a few dozen pixels.
static void qpw_flat_tile_init(qpw_flat_tile *f, int32_t I) {
    f->vectors = I / 2;
    int32_t pixel = 0, end = I;
    for (int32_t v = 0; v < f->vectors; v++) {
        const int32_t first = 16 * v;
        if (first == end) { pixel += 1; end += I; }
        f->pixel[v] = (uint8_t)pixel;
        f->start[v] = (uint8_t)(first - (end - I));
        f->lanes[v] = (uint8_t)(end - first < 16 ? end - first : 16);
        for (int32_t l = 0; l < 16; l++) {
            if (first + l == end) { pixel += 1; end += I; }
            f->owner[v][l] = pixel;
        }
    }
    f->rest = (__mmask16)((1u << (I % 16)) - 1);
}

/// `quantize8_avx512` for a tile that `f` describes, with the same bits:
/// each pixel's largest magnitude from whole vectors (the last one masked),
/// then the tile converted as `I/2` flat vectors, each scaled by its lanes'
/// own pixels' inverses, and stored into the one or two pixel rows it
/// covers (a whole 16-byte store each; a row's bytes past `I` and the
/// 16 before the next row's are slack: `QPW_ROW_BYTES` ≥ `I` + 32).
QPW_VNNI_TARGET static void quantize8_flat_avx512(const float *x, int32_t I, const qpw_flat_tile *f, uint8_t q[8][QPW_ROW_BYTES], float s[8]) {
    __m256 h[8];
    const int32_t whole = I / 16;
    for (int t = 0; t < 8; t++) {
        const float *pixel = x + (intptr_t)t * I;
        __m512 m = _mm512_setzero_ps();
        for (int32_t k = 0; k < whole; k++) m = _mm512_max_ps(m, _mm512_abs_ps(_mm512_loadu_ps(pixel + 16 * k)));
        if (f->rest) m = _mm512_max_ps(m, _mm512_abs_ps(_mm512_maskz_loadu_ps(f->rest, pixel + 16 * whole)));
        h[t] = _mm256_max_ps(_mm512_castps512_ps256(m), _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(m), 1)));
    }
    const __m512 inverses = _mm512_castps256_ps512(tile_scales_avx2(h, s));
    const __m512i offset = _mm512_set1_epi32(128);
    for (int32_t v = 0; v < f->vectors; v++) {
        const __m512 inverse = _mm512_permutexvar_ps(_mm512_load_si512((const void *)f->owner[v]), inverses);
        const __m512i n = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(x + 16 * v), inverse));
        const __m128i bytes = _mm512_cvtepi32_epi8(_mm512_add_epi32(n, offset));
        const int32_t pixel = f->pixel[v], lanes = f->lanes[v];
        _mm_storeu_si128((__m128i *)(q[pixel] + f->start[v]), bytes);
        if (lanes < 16) _mm_storeu_si128((__m128i *)(q[pixel + 1] - lanes), bytes);
    }
}

/// `quantize8_avx512` for `I = 16·W` channels (W = 1, 2 or 4: a constant
/// where it is inlined), with the same bits: every vector lies within one
/// pixel, so each is scaled by its pixel's inverse broadcast, with no lane
/// table, masks or second store (YuNet-s's 16-, 32- and 64-channel maps).
QPW_VNNI_TARGET static inline __attribute__((always_inline)) void quantize8_whole_avx512(const float *x, int32_t W, uint8_t q[8][QPW_ROW_BYTES], float s[8]) {
    __m256 h[8];
    for (int t = 0; t < 8; t++) {
        const float *pixel = x + (intptr_t)t * 16 * W;
        __m512 m = _mm512_abs_ps(_mm512_loadu_ps(pixel));
        for (int32_t k = 1; k < W; k++) m = _mm512_max_ps(m, _mm512_abs_ps(_mm512_loadu_ps(pixel + 16 * k)));
        h[t] = _mm256_max_ps(_mm512_castps512_ps256(m), _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(m), 1)));
    }
    _Alignas(32) float inverses[8];
    _mm256_store_ps(inverses, tile_scales_avx2(h, s));
    const __m512i offset = _mm512_set1_epi32(128);
    for (int t = 0; t < 8; t++) {
        const float *pixel = x + (intptr_t)t * 16 * W;
        const __m512 inverse = _mm512_set1_ps(inverses[t]);
        for (int32_t k = 0; k < W; k++) {
            const __m512i n = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(pixel + 16 * k), inverse));
            _mm_storeu_si128((__m128i *)(q[t] + 16 * k), _mm512_cvtepi32_epi8(_mm512_add_epi32(n, offset)));
        }
    }
}

/// The epilogue of the 16 channels from `o` of one pixel whose sums (less
/// the zero sums) are `a`; `scale` is `t[o…]·s`.
QPW_VNNI_TARGET static inline __attribute__((always_inline)) void store16_avx512(const facepipe_qpw_params *p, int32_t first, int32_t second,
                                                                               __m512i a, __m512 scale, int32_t pixel, int32_t o) {
    __m512 v = _mm512_fmadd_ps(_mm512_cvtepi32_ps(a), scale, _mm512_loadu_ps(p->bias + o));
    v = activate_avx512(v, first, p->first_slopes, o);
    if (p->residual) {
        const int32_t rc = p->residual_channels;
        v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(lanes_avx512(rc - o), p->residual + (intptr_t)pixel * rc + o));
    }
    v = activate_avx512(v, second, p->second_slopes, o);
    _mm512_mask_storeu_ps(p->output + (intptr_t)pixel * p->out_channels + o, lanes_avx512(p->out_channels - o), v);
}

/// `store16_avx512` for 8 channels.
QPW_VNNI_TARGET static inline __attribute__((always_inline)) void store8_avx512(const facepipe_qpw_params *p, int32_t first, int32_t second,
                                                                              __m256i a, __m256 scale, int32_t pixel, int32_t o) {
    __m256 v = _mm256_fmadd_ps(_mm256_cvtepi32_ps(a), scale, _mm256_loadu_ps(p->bias + o));
    v = activate_avx2(v, first, p->first_slopes, o);
    if (p->residual) {
        const int32_t rc = p->residual_channels;
        v = _mm256_add_ps(v, _mm256_maskz_loadu_ps(lanes_avx512(rc - o) & 0xFF, p->residual + (intptr_t)pixel * rc + o));
    }
    v = activate_avx2(v, second, p->second_slopes, o);
    _mm256_mask_storeu_ps(p->output + (intptr_t)pixel * p->out_channels + o, (__mmask8)(lanes_avx512(p->out_channels - o) & 0xFF), v);
}

/// 8 pixels × `16·BLOCKS` channels from `o`: one accumulator per pixel
/// and block, starting at −Z so the sums come out less the zero sums.
#define QPW_TILE_AVX512(BLOCKS)                                                                                  \
    do {                                                                                                         \
        const int8_t *w = p->weights + (intptr_t)(o / 16) * G * 64;                                              \
        __m512i acc[BLOCKS][8];                                                                                  \
        for (int b = 0; b < (BLOCKS); b++) {                                                                     \
            const __m512i start = _mm512_sub_epi32(_mm512_setzero_si512(),                                       \
                                                   _mm512_loadu_si512((const void *)(p->zero_sums + o + 16 * b))); \
            for (int t = 0; t < 8; t++) acc[b][t] = start;                                                       \
        }                                                                                                        \
        for (int32_t g = 0; g < G; g++) {                                                                        \
            __m512i wv[BLOCKS];                                                                                  \
            for (int b = 0; b < (BLOCKS); b++) wv[b] = _mm512_loadu_si512((const void *)(w + ((intptr_t)b * G + g) * 64)); \
            for (int t = 0; t < 8; t++) {                                                                        \
                const __m512i x = _mm512_set1_epi32((int32_t)qpw_load32(q[t] + 4 * g));                          \
                for (int b = 0; b < (BLOCKS); b++) acc[b][t] = _mm512_dpbusd_epi32(acc[b][t], x, wv[b]);         \
            }                                                                                                    \
        }                                                                                                        \
        _Pragma("clang loop unroll(full)")                                                                       \
        for (int b = 0; b < (BLOCKS); b++) {                                                                     \
            const __m512 scales = _mm512_loadu_ps(p->scales + o + 16 * b);                                       \
            _Pragma("clang loop unroll(full)")                                                                   \
            for (int t = 0; t < 8; t++)                                                                          \
                if (t < T) store16_avx512(p, first, second, acc[b][t], _mm512_mul_ps(scales, _mm512_set1_ps(s[t])), pixel + t, o + 16 * b); \
        }                                                                                                        \
    } while (0)

/// 8 pixels × the last 8 channels from `o` (an output count of 16k + 1…8):
/// half-width vectors, which cost half on CPUs that split 512-bit operations.
#define QPW_TILE8_AVX512()                                                                                       \
    do {                                                                                                         \
        const int8_t *w = p->weights + (intptr_t)(o / 16) * G * 64;                                              \
        const __m256i start = _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_loadu_si256((const __m256i *)(p->zero_sums + o))); \
        __m256i acc[8];                                                                                          \
        for (int t = 0; t < 8; t++) acc[t] = start;                                                              \
        for (int32_t g = 0; g < G; g++) {                                                                        \
            const __m256i wv = _mm256_loadu_si256((const __m256i *)(w + (intptr_t)g * 64));                      \
            for (int t = 0; t < 8; t++)                                                                          \
                acc[t] = _mm256_dpbusd_epi32(acc[t], _mm256_set1_epi32((int32_t)qpw_load32(q[t] + 4 * g)), wv);  \
        }                                                                                                        \
        const __m256 scales = _mm256_loadu_ps(p->scales + o);                                                    \
        _Pragma("clang loop unroll(full)")                                                                       \
        for (int t = 0; t < 8; t++)                                                                              \
            if (t < T) store8_avx512(p, first, second, acc[t], _mm256_mul_ps(scales, _mm256_set1_ps(s[t])), pixel + t, o);      \
    } while (0)

/// A tile's `O` output channels in blocks of 32; a last 17–24 as 16 + 8,
/// 9–16 as 16, 1–8 as 8 (`q`, `s` and `T` the tile's quantized pixels).
#define QPW_OUTPUT_BLOCKS_AVX512()                                                                               \
    do {                                                                                                         \
        int32_t o = 0;                                                                                           \
        while (o < O) {                                                                                          \
            const int32_t left = O - o;                                                                          \
            if (left > 24) {                                                                                     \
                QPW_TILE_AVX512(2);                                                                              \
                o += 32;                                                                                         \
            } else if (left > 8) {                                                                               \
                QPW_TILE_AVX512(1);                                                                              \
                o += 16;                                                                                         \
            } else {                                                                                             \
                QPW_TILE8_AVX512();                                                                              \
                o += 8;                                                                                          \
            }                                                                                                    \
        }                                                                                                        \
    } while (0)

/// The kernel for activations `first` and `second` (constants where it is
/// inlined, so the epilogue's activation switch folds away).
QPW_VNNI_TARGET static inline __attribute__((always_inline)) void qpw_avx512vnni(const facepipe_qpw_params *p, int32_t first, int32_t second) {
    const int32_t I = p->in_channels, O = p->out_channels, G = qpw_groups(p);
    _Alignas(64) uint8_t q[8][QPW_ROW_BYTES];
    _Alignas(64) float tail[8 * FACEPIPE_QPW_MAX_IN_CHANNELS];
    float s[8];
    qpw_flat_tile flat;
    const int flatTiles = qpw_flat_fits(I);
    if (flatTiles) qpw_flat_tile_init(&flat, I);
    for (int32_t pixel = 0; pixel < p->pixels; pixel += 8) {
        const int32_t T = p->pixels - pixel < 8 ? p->pixels - pixel : 8;
        const float *x = p->input + (intptr_t)pixel * I;
        if (T < 8) {
            // The last pixels, beside zero pixels (scale 0): read from a copy.
            memset(tail, 0, sizeof(float) * 8 * (size_t)I);
            memcpy(tail, x, sizeof(float) * (size_t)T * (size_t)I);
            x = tail;
        }
        if (I == 16) {
            quantize8_whole_avx512(x, 1, q, s);
        } else if (I == 32) {
            quantize8_whole_avx512(x, 2, q, s);
        } else if (I == 64) {
            quantize8_whole_avx512(x, 4, q, s);
        } else if (flatTiles) {
            quantize8_flat_avx512(x, I, &flat, q, s);
        } else {
            quantize8_avx512(x, I, G, q, s);
        }
        QPW_OUTPUT_BLOCKS_AVX512();
    }
}

QPW_VNNI_TARGET void facepipe_qpw_u8s8_8x32_avx512vnni(const facepipe_qpw_params *params) {
    // A local copy: the output stores cannot alias it, so its fields stay in registers.
    const facepipe_qpw_params local = *params, *p = &local;
    // BlazeFace's projections: no activation before the residual, ReLU after it.
    if (p->first == FACEPIPE_QPW_NONE && p->second == FACEPIPE_QPW_RELU) {
        qpw_avx512vnni(p, FACEPIPE_QPW_NONE, FACEPIPE_QPW_RELU);
    } else if (p->first == FACEPIPE_QPW_NONE && p->second == FACEPIPE_QPW_NONE) {
        // YuNet-s's 1×1 layers: no activation (ReLU follows the depthwise
        // layer); with the kinds known the epilogue's activation switches
        // fold away (a streamed YuNet-s column 5 % faster).
        qpw_avx512vnni(p, FACEPIPE_QPW_NONE, FACEPIPE_QPW_NONE);
    } else {
        qpw_avx512vnni(p, p->first, p->second);
    }
}

#else

// Not x86: every kernel is the scalar one (the planner never chooses the others).
void facepipe_qpw_u8s8_6x8_avx2(const facepipe_qpw_params *p) { facepipe_qpw_u8s8_1x1_scalar(p); }
void facepipe_qpw_u8s8_8x32_avx512vnni(const facepipe_qpw_params *p) { facepipe_qpw_u8s8_1x1_scalar(p); }

#endif
