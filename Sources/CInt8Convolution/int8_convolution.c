#include "CInt8Convolution.h"
#include "qs8_rounding.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define FACEPIPE_QCONV_X86 1
#endif

// The kernels share one driver (`convolve`): it splits each output row into
// border pixels, copied into the packed window layout with a mask, and one
// run of interior pixels read in place, and hands each to the kernel's
// `run` function. Only `run` differs between instruction sets; it sums
// whole groups of four taps, so every kernel adds the same integers.

/// Pixels whose windows share one layout: `count` pixels `pixel_step`
/// bytes apart, kernel rows `row_step` bytes apart, outputs from element
/// `output` of the output tensor (floats or bytes).
typedef struct {
    const uint8_t *pixels;
    /// NULL: Q is `weight_sums`; otherwise a window of ones and zeros laid
    /// out like `pixels` whose dot product with the weights is Q.
    const uint8_t *mask;
    intptr_t pixel_step, row_step;
    int32_t count;
    intptr_t output;
} qconv_run;

typedef void (*qconv_run_function)(const facepipe_qconv_params *p, const qconv_run *run);

static inline int32_t groups_per_row(const facepipe_qconv_params *p) { return (p->kernel_width * p->in_channels + 3) / 4; }
static inline int32_t padded_channels(const facepipe_qconv_params *p) { return (p->out_channels + 7) / 8 * 8; }

/// Output value `y` (clamped) at element `at`: a float, or a byte on the grid.
static inline void store_scalar(const facepipe_qconv_params *p, intptr_t at, float y) {
    if (p->output_bytes) {
        p->output_bytes[at] = qs8_grid_byte(y * p->inverse_step);
    } else {
        p->output[at] = y;
    }
}

static inline uint32_t load32(const uint8_t *p) {
    uint32_t value;
    memcpy(&value, p, 4);
    return value;
}

/// The first and one-past-last output index whose window lies inside
/// `extent` input positions.
static void interior_range(int32_t extent, int32_t pad, int32_t kernel, int32_t stride, int32_t outputs,
                           int32_t *first, int32_t *end) {
    int32_t start = (pad + stride - 1) / stride;
    int32_t last = extent + pad - kernel;  // largest o·stride inside
    int32_t stop = last < 0 ? 0 : last / stride + 1;
    if (start > outputs) start = outputs;
    if (stop > outputs) stop = outputs;
    if (stop < start) stop = start;
    *first = start;
    *end = stop;
}

static void convolve(const facepipe_qconv_params *p, qconv_run_function run) {
    const int32_t C = p->in_channels, KH = p->kernel_height, KW = p->kernel_width;
    const int32_t O = p->out_channels, H = p->in_height, W = p->in_width;
    const int32_t rowBytes = 4 * groups_per_row(p);
    const intptr_t inRow = p->in_row_bytes;
    int32_t y0, y1, x0, x1;
    interior_range(H, p->pad_top, KH, p->stride_height, p->out_height, &y0, &y1);
    interior_range(W, p->pad_left, KW, p->stride_width, p->out_width, &x0, &x1);
    _Alignas(64) uint8_t patch[FACEPIPE_QCONV_MAX_WINDOW_BYTES + 64];
    _Alignas(64) uint8_t mask[FACEPIPE_QCONV_MAX_WINDOW_BYTES + 64];
    for (int32_t oy = 0; oy < p->out_height; oy++) {
        const int32_t iy = oy * p->stride_height - p->pad_top;
        const int insideRows = oy >= y0 && oy < y1;
        const intptr_t outRow = (intptr_t)oy * p->out_width * O;
        int32_t ox = 0;
        while (ox < p->out_width) {
            const int32_t ix = ox * p->stride_width - p->pad_left;
            if (insideRows && ox >= x0 && ox < x1) {
                qconv_run interior = {
                    .pixels = p->input + iy * inRow + (intptr_t)ix * C, .mask = NULL,
                    .pixel_step = (intptr_t)p->stride_width * C, .row_step = inRow,
                    .count = x1 - ox, .output = outRow + (intptr_t)ox * O,
                };
                run(p, &interior);
                ox = x1;
                continue;
            }
            memset(patch, 0, (size_t)(KH * rowBytes + 4));
            memset(mask, 0, (size_t)(KH * rowBytes + 4));
            for (int32_t ky = 0; ky < KH; ky++) {
                const int32_t y = iy + ky;
                if (y < 0 || y >= H) continue;
                for (int32_t kx = 0; kx < KW; kx++) {
                    const int32_t x = ix + kx;
                    if (x < 0 || x >= W) continue;
                    for (int32_t c = 0; c < C; c++) {
                        patch[ky * rowBytes + kx * C + c] = p->input[y * inRow + (intptr_t)x * C + c];
                        mask[ky * rowBytes + kx * C + c] = 1;
                    }
                }
            }
            qconv_run border = {
                .pixels = patch, .mask = mask, .pixel_step = 0, .row_step = rowBytes,
                .count = 1, .output = outRow + (intptr_t)ox * O,
            };
            run(p, &border);
            ox++;
        }
    }
}

// MARK: - Scalar

static void run_scalar(const facepipe_qconv_params *p, const qconv_run *r) {
    const int32_t G = groups_per_row(p), O = p->out_channels, O8 = padded_channels(p);
    for (int32_t i = 0; i < r->count; i++) {
        const uint8_t *pixels = r->pixels + i * r->pixel_step;
        for (int32_t c = 0; c < O; c++) {
            int32_t a = 0, q = 0;
            for (int32_t ky = 0; ky < p->kernel_height; ky++) {
                for (int32_t g = 0; g < G; g++) {
                    const int8_t *w = p->weights + ((intptr_t)(ky * G + g) * O8 + c) * 4;
                    const uint8_t *x = pixels + ky * r->row_step + 4 * g;
                    for (int32_t j = 0; j < 4; j++) {
                        a += (int32_t)x[j] * w[j];
                        if (r->mask) q += (int32_t)r->mask[ky * r->row_step + 4 * g + j] * w[j];
                    }
                }
            }
            if (!r->mask) q = p->weight_sums[c];
            float y = fmaf(p->half_scales[c], (float)(2 * a - 255 * q), p->bias[c]);
            y = y > p->lower ? y : p->lower;
            y = y < p->upper ? y : p->upper;
            store_scalar(p, r->output + (intptr_t)i * O + c, y);
        }
    }
}

void facepipe_qconv_u8s7_1x8_scalar(const facepipe_qconv_params *params) { convolve(params, run_scalar); }

#if FACEPIPE_QCONV_X86

// MARK: - AVX2

#define AVX2_TARGET __attribute__((target("avx2,fma")))

/// `acc + Σ₄ a·w` per 32-bit lane: pairs of u8·s8 products (at most
/// 2·255·64 = 32640, so `vpmaddubsw` never saturates), then pairs of those.
AVX2_TARGET static inline __m256i dot8_avx2(__m256i acc, __m256i a, const int8_t *w) {
    const __m256i pairs = _mm256_maddubs_epi16(a, _mm256_loadu_si256((const __m256i *)w));
    return _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
}

/// The epilogue on 8 channels from `c`: stores `count` ≤ 8 of them.
AVX2_TARGET static inline void store8_avx2(const facepipe_qconv_params *p, __m256i a, __m256i q, int32_t c, intptr_t at, int32_t count) {
    const __m256i t = _mm256_sub_epi32(_mm256_add_epi32(a, a), _mm256_mullo_epi32(q, _mm256_set1_epi32(255)));
    __m256 y = _mm256_fmadd_ps(_mm256_loadu_ps(p->half_scales + c), _mm256_cvtepi32_ps(t), _mm256_loadu_ps(p->bias + c));
    y = _mm256_max_ps(y, _mm256_set1_ps(p->lower));
    y = _mm256_min_ps(y, _mm256_set1_ps(p->upper));
    if (p->output_bytes) {
        // qs8_grid_byte's rounding: max, then min (a NaN goes to 0), then cvtps2dq.
        __m256 v = _mm256_mul_ps(y, _mm256_set1_ps(p->inverse_step));
        v = _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(255.0f));
        const __m256i w = _mm256_cvtps_epi32(v);
        const __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
        const __m128i bytes = _mm_packus_epi16(words, words);
        if (count >= 8) {
            _mm_storel_epi64((__m128i *)(p->output_bytes + at), bytes);
        } else {
            uint8_t lanes[16];
            _mm_storeu_si128((__m128i *)lanes, bytes);
            memcpy(p->output_bytes + at, lanes, (size_t)count);
        }
        return;
    }
    if (count >= 8) {
        _mm256_storeu_ps(p->output + at, y);
    } else {
        float lanes[8];
        _mm256_storeu_ps(lanes, y);
        memcpy(p->output + at, lanes, (size_t)count * sizeof(float));
    }
}

/// `T` pixels (`pixel_step` apart) × one block of `LANES` channels from
/// `c`: one accumulator per pixel, so `T` independent sums are in flight
/// and each weight vector is loaded once for all of them. With a mask
/// (border windows, `T` = 1) Q is summed the same way.
#define QCONV_BLOCK(VEC, ZERO, BCAST, DOT, LOADQ, STORE, T)                                                         \
    do {                                                                                                            \
        VEC acc[T], q = ZERO();                                                                                     \
        for (int t = 0; t < (T); t++) acc[t] = ZERO();                                                              \
        for (int32_t ky = 0; ky < KH; ky++) {                                                                       \
            const int8_t *w = p->weights + ((intptr_t)ky * G * O8 + c) * 4;                                         \
            const uint8_t *x = pixels + ky * r->row_step;                                                           \
            for (int32_t g = 0; g < G; g++) {                                                                       \
                const int8_t *wg = w + (intptr_t)g * O8 * 4;                                                        \
                for (int t = 0; t < (T); t++) {                                                                     \
                    acc[t] = DOT(acc[t], BCAST((int32_t)load32(x + t * r->pixel_step + 4 * g)), wg);                \
                }                                                                                                   \
                if ((T) == 1 && r->mask) q = DOT(q, BCAST((int32_t)load32(r->mask + ky * r->row_step + 4 * g)), wg); \
            }                                                                                                       \
        }                                                                                                           \
        if ((T) > 1 || !r->mask) q = LOADQ(p->weight_sums + c);                                                     \
        for (int t = 0; t < (T); t++) STORE(p, acc[t], q, c, out + (intptr_t)t * O + c, O - c);                    \
    } while (0)

#define AVX2_BCAST(v) _mm256_set1_epi32(v)
#define AVX2_LOADQ(q) _mm256_loadu_si256((const __m256i *)(q))
#define AVX512_BCAST(v) _mm512_set1_epi32(v)
#define AVX512_LOADQ(q) _mm512_loadu_si512((const void *)(q))

/// A run: tiles of `TILE` pixels, then single pixels; 8-lane channel blocks.
AVX2_TARGET static void run_avx2(const facepipe_qconv_params *p, const qconv_run *r) {
    const int32_t G = groups_per_row(p), O = p->out_channels, O8 = padded_channels(p), KH = p->kernel_height;
    int32_t i = 0;
    for (; i + 4 <= r->count; i += 4) {
        const uint8_t *pixels = r->pixels + i * r->pixel_step;
        const intptr_t out = r->output + (intptr_t)i * O;
        for (int32_t c = 0; c < O8; c += 8) QCONV_BLOCK(__m256i, _mm256_setzero_si256, AVX2_BCAST, dot8_avx2, AVX2_LOADQ, store8_avx2, 4);
    }
    for (; i < r->count; i++) {
        const uint8_t *pixels = r->pixels + i * r->pixel_step;
        const intptr_t out = r->output + (intptr_t)i * O;
        for (int32_t c = 0; c < O8; c += 8) QCONV_BLOCK(__m256i, _mm256_setzero_si256, AVX2_BCAST, dot8_avx2, AVX2_LOADQ, store8_avx2, 1);
    }
}

void facepipe_qconv_u8s7_1x8_avx2(const facepipe_qconv_params *params) { convolve(params, run_avx2); }

// MARK: - AVX-512 (BW and VNNI)

#define AVX512_TARGET __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl")))
#define VNNI_TARGET __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512vnni")))

AVX512_TARGET static inline __m512i dot16_avx512bw(__m512i acc, __m512i a, const int8_t *w) {
    const __m512i pairs = _mm512_maddubs_epi16(a, _mm512_loadu_si512((const void *)w));
    return _mm512_add_epi32(acc, _mm512_madd_epi16(pairs, _mm512_set1_epi16(1)));
}

VNNI_TARGET static inline __m512i dot16_vnni(__m512i acc, __m512i a, const int8_t *w) {
    return _mm512_dpbusd_epi32(acc, a, _mm512_loadu_si512((const void *)w));
}

VNNI_TARGET static inline __m256i dot8_vnni(__m256i acc, __m256i a, const int8_t *w) {
    return _mm256_dpbusd_epi32(acc, a, _mm256_loadu_si256((const __m256i *)w));
}

/// The epilogue on 16 channels from `c`: stores `count` of them (all 16 when `count` ≥ 16).
AVX512_TARGET static inline void store16_avx512(const facepipe_qconv_params *p, __m512i a, __m512i q, int32_t c, intptr_t at, int32_t count) {
    const __m512i t = _mm512_sub_epi32(_mm512_add_epi32(a, a), _mm512_mullo_epi32(q, _mm512_set1_epi32(255)));
    __m512 y = _mm512_fmadd_ps(_mm512_loadu_ps(p->half_scales + c), _mm512_cvtepi32_ps(t), _mm512_loadu_ps(p->bias + c));
    y = _mm512_max_ps(y, _mm512_set1_ps(p->lower));
    y = _mm512_min_ps(y, _mm512_set1_ps(p->upper));
    const __mmask16 lanes = count >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << count) - 1);
    if (p->output_bytes) {
        // qs8_grid_byte's rounding: max, then min (a NaN goes to 0), then cvtps2dq.
        __m512 v = _mm512_mul_ps(y, _mm512_set1_ps(p->inverse_step));
        v = _mm512_min_ps(_mm512_max_ps(v, _mm512_setzero_ps()), _mm512_set1_ps(255.0f));
        _mm_mask_storeu_epi8(p->output_bytes + at, lanes, _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(v)));
        return;
    }
    _mm512_mask_storeu_ps(p->output + at, lanes, y);
}

/// The channel blocks of `T` pixels on AVX-512: 16 channels at a time, a
/// last 8 on 256-bit vectors.
#define QCONV_BLOCKS_AVX512(DOT16, DOT8, T)                                                                         \
    do {                                                                                                            \
        int32_t c = 0;                                                                                              \
        for (; O8 - c >= 16; c += 16)                                                                               \
            QCONV_BLOCK(__m512i, _mm512_setzero_si512, AVX512_BCAST, DOT16, AVX512_LOADQ, store16_avx512, T);       \
        if (c < O8) {                                                                                               \
            QCONV_BLOCK(__m256i, _mm256_setzero_si256, AVX2_BCAST, DOT8, AVX2_LOADQ, store8_avx2, T);               \
        }                                                                                                           \
    } while (0)

/// One AVX-512 run: tiles of 8 pixels, then single pixels. `DOT16`/`DOT8`
/// sum four taps into each 32-bit lane.
#define DEFINE_AVX512_RUN(NAME, TARGET, DOT16, DOT8)                                                                    \
    TARGET static void NAME(const facepipe_qconv_params *p, const qconv_run *r) {                                      \
        const int32_t G = groups_per_row(p), O = p->out_channels, O8 = padded_channels(p), KH = p->kernel_height;      \
        int32_t i = 0;                                                                                                  \
        for (; i + 8 <= r->count; i += 8) {                                                                             \
            const uint8_t *pixels = r->pixels + i * r->pixel_step;                                                      \
            const intptr_t out = r->output + (intptr_t)i * O;                                                                   \
            QCONV_BLOCKS_AVX512(DOT16, DOT8, 8);                                                                        \
        }                                                                                                               \
        for (; i < r->count; i++) {                                                                                     \
            const uint8_t *pixels = r->pixels + i * r->pixel_step;                                                      \
            const intptr_t out = r->output + (intptr_t)i * O;                                                                   \
            QCONV_BLOCKS_AVX512(DOT16, DOT8, 1);                                                                        \
        }                                                                                                               \
    }

DEFINE_AVX512_RUN(run_avx512bw, AVX512_TARGET, dot16_avx512bw, dot8_avx2)
DEFINE_AVX512_RUN(run_avx512vnni, VNNI_TARGET, dot16_vnni, dot8_vnni)

void facepipe_qconv_u8s7_1x16_avx512bw(const facepipe_qconv_params *params) { convolve(params, run_avx512bw); }
void facepipe_qconv_u8s7_1x16_avx512vnni(const facepipe_qconv_params *params) { convolve(params, run_avx512vnni); }

#else

// Not x86: every kernel is the scalar one (the planner never chooses the others).
void facepipe_qconv_u8s7_1x8_avx2(const facepipe_qconv_params *params) { convolve(params, run_scalar); }
void facepipe_qconv_u8s7_1x16_avx512bw(const facepipe_qconv_params *params) { convolve(params, run_scalar); }
void facepipe_qconv_u8s7_1x16_avx512vnni(const facepipe_qconv_params *params) { convolve(params, run_scalar); }

#endif
