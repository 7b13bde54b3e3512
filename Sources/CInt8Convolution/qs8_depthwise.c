#include "CInt8Convolution.h"
#include "qs8_rounding.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define QS8_DW_X86 1
#endif

// The QS8 3×3 depthwise convolution (see qs8.h). Every kernel computes the
// exact integer A of each output (padding as byte 128, which adds 0), then
// `qs8_grid_byte`'s epilogue lane by lane, so all write the same bytes.
#pragma STDC FP_CONTRACT OFF

// MARK: - Scalar

void facepipe_qs8_dw3x3_scalar(const facepipe_qs8_dw_params *p) {
    const int32_t C = p->channels, W = p->width;
    for (int32_t r = 0; r < p->out_height; r++)
        for (int32_t x = 0; x < W; x++)
            for (int32_t c = 0; c < C; c++) {
                int32_t a = 0;
                for (int32_t ky = 0; ky < 3; ky++) {
                    const int32_t row = r - p->pad_top + ky;
                    if (row < 0 || row >= p->in_height) continue;
                    for (int32_t kx = 0; kx < 3; kx++) {
                        const int32_t column = x - 1 + kx;
                        if (column < 0 || column >= W) continue;
                        const int32_t value = p->input[((intptr_t)row * W + column) * C + c];
                        a += (value - 128) * p->taps[(ky * 3 + kx) * C + c];
                    }
                }
                p->output[((intptr_t)r * W + x) * C + c] = qs8_grid_byte(fmaf((float)a, p->multipliers[c], p->bias[c]));
            }
}

#if QS8_DW_X86

// MARK: - AVX2

#define QS8_DW_AVX2 __attribute__((target("avx2,fma")))

/// Channels per band: the taps, multipliers and bias of a band live on the stack as floats.
enum { DW_AVX2_BAND = 256 };

/// A band's constants as 8-lane floats, per chunk of 8 channels (the last may hold 4).
typedef struct {
    _Alignas(32) float taps[DW_AVX2_BAND / 8][9][8];
    /// Σ over each kernel row's three taps.
    _Alignas(32) float rows[DW_AVX2_BAND / 8][3][8];
    _Alignas(32) float multipliers[DW_AVX2_BAND / 8][8], bias[DW_AVX2_BAND / 8][8];
    /// For the output row at hand: −128·Σ of the taps on input rows that exist.
    _Alignas(32) float start[DW_AVX2_BAND / 8][8];
} dw_band_avx2;

/// Channels 0…7 (0…3 when `four`; the rest zero) of the bytes at `x`, as floats.
QS8_DW_AVX2 static inline __attribute__((always_inline)) __m256 bytes8_avx2(const uint8_t *x, int four) {
    int32_t head;
    memcpy(&head, x, 4);
    const __m128i b = four ? _mm_cvtsi32_si128(head) : _mm_loadl_epi64((const __m128i *)x);
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b));
}

/// The epilogue of 8 (or 4) channels with sums `a`, stored at `out`.
QS8_DW_AVX2 static inline __attribute__((always_inline)) void relu_store_avx2(uint8_t *out, __m256 a, const float *m, const float *b, int four) {
    __m256 v = _mm256_fmadd_ps(a, _mm256_load_ps(m), _mm256_load_ps(b));
    v = _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(255.0f));
    const __m256i n = _mm256_cvtps_epi32(v);
    // 0…255 survives both saturating packs: bytes 0–3 of each half hold channels 0–3 and 4–7.
    const __m256i words = _mm256_packs_epi32(n, n);
    const __m256i bytes = _mm256_packus_epi16(words, words);
    const __m128i ordered = _mm_unpacklo_epi32(_mm256_castsi256_si128(bytes), _mm256_extracti128_si256(bytes, 1));
    if (four) {
        const int32_t head = _mm_cvtsi128_si32(ordered);
        memcpy(out, &head, 4);
    } else {
        _mm_storel_epi64((__m128i *)out, ordered);
    }
}

/// 8 output pixels from `x` (all of whose taps lie inside the row) × one
/// chunk: each input byte vector of a row is widened once and meets the up
/// to three output pixels that read it. The sums start at −128·Σk (over
/// the rows that exist) and add `byte·k`: every partial sum is an integer
/// of magnitude under 2²⁴, so they are exact in float.
QS8_DW_AVX2 static inline __attribute__((always_inline)) void interior8_avx2(const dw_band_avx2 *band, int32_t chunk, const uint8_t *const rows[3],
                                                                           int32_t C, int32_t x, int32_t c, uint8_t *out, int four) {
    __m256 acc[8];
    const __m256 start = _mm256_load_ps(band->start[chunk]);
    for (int t = 0; t < 8; t++) acc[t] = start;
    for (int ky = 0; ky < 3; ky++) {
        if (!rows[ky]) continue;
        const float *k = band->taps[chunk][3 * ky];
        const __m256 k0 = _mm256_load_ps(k), k1 = _mm256_load_ps(k + 8), k2 = _mm256_load_ps(k + 16);
        for (int q = 0; q < 10; q++) {
            const __m256 v = bytes8_avx2(rows[ky] + (intptr_t)(x - 1 + q) * C + c, four);
            if (q < 8) acc[q] = _mm256_fmadd_ps(v, k0, acc[q]);
            if (q >= 1 && q < 9) acc[q - 1] = _mm256_fmadd_ps(v, k1, acc[q - 1]);
            if (q >= 2) acc[q - 2] = _mm256_fmadd_ps(v, k2, acc[q - 2]);
        }
    }
    for (int t = 0; t < 8; t++) relu_store_avx2(out + (intptr_t)(x + t) * C + c, acc[t], band->multipliers[chunk], band->bias[chunk], four);
}

/// One output pixel × one chunk, any column: columns outside the row are padding (byte 128).
QS8_DW_AVX2 static inline __attribute__((always_inline)) void pixel_avx2(const dw_band_avx2 *band, int32_t chunk, const uint8_t *const rows[3],
                                                                       int32_t C, int32_t W, int32_t x, int32_t c, uint8_t *out, int four) {
    __m256 acc = _mm256_load_ps(band->start[chunk]);
    const __m256 padding = _mm256_set1_ps(128.0f);
    for (int ky = 0; ky < 3; ky++) {
        if (!rows[ky]) continue;
        for (int kx = 0; kx < 3; kx++) {
            const int32_t column = x - 1 + kx;
            const __m256 v = column >= 0 && column < W ? bytes8_avx2(rows[ky] + (intptr_t)column * C + c, four) : padding;
            acc = _mm256_fmadd_ps(v, _mm256_load_ps(band->taps[chunk][3 * ky + kx]), acc);
        }
    }
    relu_store_avx2(out + (intptr_t)x * C + c, acc, band->multipliers[chunk], band->bias[chunk], four);
}

/// The band's constants for channels `c0 …` (`chunks` chunks; the last of 4 channels when `C − c0` ends so).
QS8_DW_AVX2 static void band_init_avx2(const facepipe_qs8_dw_params *p, int32_t c0, int32_t chunks, dw_band_avx2 *band) {
    const int32_t C = p->channels;
    for (int32_t chunk = 0; chunk < chunks; chunk++) {
        const int32_t c = c0 + 8 * chunk;
        const int four = C - c < 8;
        for (int t = 0; t < 9; t++) {
            int32_t head;
            memcpy(&head, p->taps + t * C + c, 4);
            const __m128i b = four ? _mm_cvtsi32_si128(head) : _mm_loadl_epi64((const __m128i *)(p->taps + t * C + c));
            _mm256_store_ps(band->taps[chunk][t], _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(b)));
        }
        for (int ky = 0; ky < 3; ky++) {
            const __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_load_ps(band->taps[chunk][3 * ky]), _mm256_load_ps(band->taps[chunk][3 * ky + 1])),
                                             _mm256_load_ps(band->taps[chunk][3 * ky + 2]));
            _mm256_store_ps(band->rows[chunk][ky], sum);
        }
        // Four channels: the low half, zeros above (read no further than the arrays' end).
        _mm256_store_ps(band->multipliers[chunk],
                        four ? _mm256_zextps128_ps256(_mm_loadu_ps(p->multipliers + c)) : _mm256_loadu_ps(p->multipliers + c));
        _mm256_store_ps(band->bias[chunk], four ? _mm256_zextps128_ps256(_mm_loadu_ps(p->bias + c)) : _mm256_loadu_ps(p->bias + c));
    }
}

/// One output row × 8 pixels × 8 channels (channel-inner, so each input
/// line is read once for all chunks), the left and right columns and the
/// pixels past the last group one at a time. Input rows outside the input
/// are left out, and their taps out of the sums' start.
QS8_DW_AVX2 void facepipe_qs8_dw3x3_8px_avx2(const facepipe_qs8_dw_params *params) {
    const facepipe_qs8_dw_params local = *params, *p = &local;
    const int32_t C = p->channels, W = p->width;
    if (C % 4 != 0) {
        facepipe_qs8_dw3x3_scalar(p);
        return;
    }
    dw_band_avx2 band;
    for (int32_t c0 = 0; c0 < C; c0 += DW_AVX2_BAND) {
        const int32_t bandChannels = C - c0 < DW_AVX2_BAND ? C - c0 : DW_AVX2_BAND;
        const int32_t chunks = (bandChannels + 7) / 8, whole = bandChannels / 8;
        band_init_avx2(p, c0, chunks, &band);
        for (int32_t r = 0; r < p->out_height; r++) {
            const uint8_t *rows[3];
            for (int ky = 0; ky < 3; ky++) {
                const int32_t row = r - p->pad_top + ky;
                rows[ky] = row >= 0 && row < p->in_height ? p->input + (intptr_t)row * W * C : NULL;
            }
            for (int32_t chunk = 0; chunk < chunks; chunk++) {
                __m256 sum = _mm256_setzero_ps();
                for (int ky = 0; ky < 3; ky++)
                    if (rows[ky]) sum = _mm256_add_ps(sum, _mm256_load_ps(band.rows[chunk][ky]));
                _mm256_store_ps(band.start[chunk], _mm256_mul_ps(sum, _mm256_set1_ps(-128.0f)));
            }
            uint8_t *out = p->output + (intptr_t)r * W * C;
            int32_t x = 1;
            for (; x + 8 <= W - 1; x += 8) {
                for (int32_t chunk = 0; chunk < whole; chunk++) interior8_avx2(&band, chunk, rows, C, x, c0 + 8 * chunk, out, 0);
                if (whole < chunks) interior8_avx2(&band, whole, rows, C, x, c0 + 8 * whole, out, 1);
            }
            for (int32_t column = 0; column < W; column++) {
                if (column >= 1 && column < x) continue;
                for (int32_t chunk = 0; chunk < whole; chunk++) pixel_avx2(&band, chunk, rows, C, W, column, c0 + 8 * chunk, out, 0);
                if (whole < chunks) pixel_avx2(&band, whole, rows, C, W, column, c0 + 8 * whole, out, 1);
            }
        }
    }
}

// MARK: - AVX-512 VNNI + VBMI

#define QS8_DW_VBMI __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512vnni,avx512vbmi")))

enum {
    /// The most channels (32 planes of 16).
    DW_MAX_CHANNELS = 512,
    /// Bytes of one input row's strip across all planes: six such rows are the stack scratch.
    DW_STRIP_BYTES = 4096,
    /// Output rows a band (`strips_avx512`).
    DW_BAND = 16,
};

/// A call's constants per plane of 16 channels: the taps of each kernel
/// row as 4-byte groups `(k₀, k₁, k₂, 0)` per channel, and the sums' start
/// −128·Σk (padding is byte 128 in the strips, so it holds for every pixel).
typedef struct {
    __m512i taps[DW_MAX_CHANNELS / 16][3];
    __m512i start[DW_MAX_CHANNELS / 16];
} dw_planes_avx512;

/// Byte i of a gather: channel i/4, tap i%4 of the pixel at the vector's
/// start (`first`) or one pixel on (`second`); the 4th byte of each group is masked off.
QS8_DW_VBMI static inline __m512i gather_index(int shift) {
    _Alignas(64) uint8_t index[64];
    for (int i = 0; i < 64; i++) index[i] = (uint8_t)(((i % 4) + shift) * 16 + i / 4);
    return _mm512_load_si512((const void *)index);
}
static const __mmask64 dw_taps = 0x7777777777777777ull;

/// The taps of 16 channels as three kernel rows of `(k₀, k₁, k₂, 0)`,
/// gathered as the pixels are, and −128·Σk (a `vpdpbusd` with bytes 128).
QS8_DW_VBMI static void planes_init_avx512(const facepipe_qs8_dw_params *p, dw_planes_avx512 *planes) {
    const int32_t C = p->channels;
    const __m512i first = gather_index(0), bytes128 = _mm512_set1_epi8((char)0x80);
    for (int32_t s = 0; s < C / 16; s++) {
        __m512i sum = _mm512_setzero_si512();
        for (int ky = 0; ky < 3; ky++) {
            const int8_t *k = p->taps + ky * 3 * C + 16 * s;
            __m512i row = _mm512_zextsi128_si512(_mm_loadu_si128((const __m128i *)k));
            row = _mm512_inserti32x4(row, _mm_loadu_si128((const __m128i *)(k + C)), 1);
            row = _mm512_inserti32x4(row, _mm_loadu_si128((const __m128i *)(k + 2 * C)), 2);
            planes->taps[s][ky] = _mm512_maskz_permutexvar_epi8(dw_taps, first, row);
            sum = _mm512_dpbusd_epi32(sum, bytes128, planes->taps[s][ky]);
        }
        planes->start[s] = _mm512_sub_epi32(_mm512_setzero_si512(), sum);
    }
}

/// Copies input row `row` (padding when outside the input) at columns
/// `x0 − 1 … x0 + n` into `strip`: plane s holds those `n + 2` pixels'
/// channels `16s …` at `slot` bytes from plane s − 1, 16 bytes a pixel;
/// columns outside the row are byte 128. 16-, 32- and 64k-channel pixels
/// are moved four at a time through whole vectors (128-bit lanes shuffled
/// into planes); other counts 16 bytes at a time.
QS8_DW_VBMI static void strip_row_avx512(const facepipe_qs8_dw_params *p, int32_t row, int32_t x0, int32_t n, int32_t slot, uint8_t *strip) {
    const int32_t C = p->channels, W = p->width, planes = C / 16;
    const __m128i padding = _mm_set1_epi8((char)0x80);
    if (row < 0 || row >= p->in_height) {
        for (int32_t s = 0; s < planes; s++)
            for (int32_t j = 0; j < n + 2; j++) _mm_storeu_si128((__m128i *)(strip + (intptr_t)s * slot + 16 * j), padding);
        return;
    }
    const uint8_t *source = p->input + (intptr_t)row * W * C;
    // Columns `first … last − 1` exist; pixel j of the strip is column x0 − 1 + j.
    const int32_t first = x0 > 0 ? x0 - 1 : 0, last = x0 + n + 1 < W ? x0 + n + 1 : W;
    const int32_t offset = 1 - x0;
    for (int32_t s = 0; s < planes; s++) {
        for (int32_t j = 0; j < first + offset; j++) _mm_storeu_si128((__m128i *)(strip + (intptr_t)s * slot + 16 * j), padding);
        for (int32_t j = last + offset; j < n + 2; j++) _mm_storeu_si128((__m128i *)(strip + (intptr_t)s * slot + 16 * j), padding);
    }
    int32_t column = first;
    if (C == 16) {
        const int32_t bytes = (last - first) * 16;
        const uint8_t *from = source + (intptr_t)first * 16;
        uint8_t *to = strip + 16 * (first + offset);
        int32_t i = 0;
        for (; i + 64 <= bytes; i += 64) _mm512_storeu_si512((void *)(to + i), _mm512_loadu_si512((const void *)(from + i)));
        const __mmask64 rest = (1ull << (bytes - i)) - 1;  // bytes − i < 64
        _mm512_mask_storeu_epi8(to + i, rest, _mm512_maskz_loadu_epi8(rest, from + i));
        return;
    }
    if (C == 32) {
        for (; column + 4 <= last; column += 4) {
            const __m512i a = _mm512_loadu_si512((const void *)(source + (intptr_t)column * 32));
            const __m512i b = _mm512_loadu_si512((const void *)(source + (intptr_t)column * 32 + 64));
            uint8_t *to = strip + 16 * (column + offset);
            _mm512_storeu_si512((void *)to, _mm512_shuffle_i64x2(a, b, 0x88));
            _mm512_storeu_si512((void *)(to + slot), _mm512_shuffle_i64x2(a, b, 0xDD));
        }
    } else if (C % 64 == 0) {
        for (; column + 4 <= last; column += 4) {
            const uint8_t *from = source + (intptr_t)column * C;
            uint8_t *to = strip + 16 * (column + offset);
            for (int32_t h = 0; h < C / 64; h++) {
                const __m512i v0 = _mm512_loadu_si512((const void *)(from + 64 * h)), v1 = _mm512_loadu_si512((const void *)(from + C + 64 * h));
                const __m512i v2 = _mm512_loadu_si512((const void *)(from + 2 * C + 64 * h)), v3 = _mm512_loadu_si512((const void *)(from + 3 * C + 64 * h));
                // A 4×4 transpose of 128-bit lanes: pixel i, lane l → plane 4h + l, pixel i.
                const __m512i t0 = _mm512_shuffle_i64x2(v0, v1, 0x44), t1 = _mm512_shuffle_i64x2(v0, v1, 0xEE);
                const __m512i t2 = _mm512_shuffle_i64x2(v2, v3, 0x44), t3 = _mm512_shuffle_i64x2(v2, v3, 0xEE);
                uint8_t *plane = to + (intptr_t)4 * h * slot;
                _mm512_storeu_si512((void *)plane, _mm512_shuffle_i64x2(t0, t2, 0x88));
                _mm512_storeu_si512((void *)(plane + slot), _mm512_shuffle_i64x2(t0, t2, 0xDD));
                _mm512_storeu_si512((void *)(plane + 2 * slot), _mm512_shuffle_i64x2(t1, t3, 0x88));
                _mm512_storeu_si512((void *)(plane + 3 * slot), _mm512_shuffle_i64x2(t1, t3, 0xDD));
            }
        }
    }
    for (; column < last; column++)
        for (int32_t s = 0; s < planes; s++)
            _mm_storeu_si128((__m128i *)(strip + (intptr_t)s * slot + 16 * (column + offset)),
                             _mm_loadu_si128((const __m128i *)(source + (intptr_t)column * C + 16 * s)));
}

/// Pixels j … j + 3 (`low`) and j + 2 … j + 5 (`high`) of one plane of a
/// row whose pixels are `P` bytes (a constant where it is inlined): 16, a
/// plane (or a 16-channel row in place); 32, whole pixels read in place,
/// two a vector, the plane's 128-bit lanes of two vectors picked by
/// `vpermt2q` (`lanes`: `plane_lanes`); 64, whole pixels in place, `row`
/// at the plane's first channel, each pixel's 16 bytes broadcast into its
/// lane (cheaper here than `vpermt2q` or copying the strips: measured).
QS8_DW_VBMI static inline __attribute__((always_inline)) void plane_windows(const uint8_t *row, int32_t j, int P, __m512i lanes,
                                                                          __m512i *low, __m512i *high) {
    if (P == 16) {
        *low = _mm512_loadu_si512((const void *)(row + 16 * j));
        *high = _mm512_loadu_si512((const void *)(row + 16 * (j + 2)));
    } else if (P == 32) {
        // A vector holds two pixels: the plane's lanes of two vectors give four pixels.
        const __m512i a = _mm512_loadu_si512((const void *)(row + 32 * j)), b = _mm512_loadu_si512((const void *)(row + 32 * (j + 2)));
        const __m512i c = _mm512_loadu_si512((const void *)(row + 32 * (j + 4)));
        *low = _mm512_permutex2var_epi64(a, lanes, b);
        *high = _mm512_permutex2var_epi64(b, lanes, c);
    } else {
        __m512i w = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(row + (intptr_t)P * j)));
        w = _mm512_mask_broadcast_i32x4(w, 0x00F0, _mm_loadu_si128((const __m128i *)(row + (intptr_t)P * (j + 1))));
        w = _mm512_mask_broadcast_i32x4(w, 0x0F00, _mm_loadu_si128((const __m128i *)(row + (intptr_t)P * (j + 2))));
        *low = _mm512_mask_broadcast_i32x4(w, 0xF000, _mm_loadu_si128((const __m128i *)(row + (intptr_t)P * (j + 3))));
        __m512i h = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(row + (intptr_t)P * (j + 2))));
        h = _mm512_mask_broadcast_i32x4(h, 0x00F0, _mm_loadu_si128((const __m128i *)(row + (intptr_t)P * (j + 3))));
        h = _mm512_mask_broadcast_i32x4(h, 0x0F00, _mm_loadu_si128((const __m128i *)(row + (intptr_t)P * (j + 4))));
        *high = _mm512_mask_broadcast_i32x4(h, 0xF000, _mm_loadu_si128((const __m128i *)(row + (intptr_t)P * (j + 5))));
    }
}

/// The qword indices of plane s's 128-bit lane in two vectors of two
/// 32-channel pixels each (lanes s and s + 2 of each), for `plane_windows`.
QS8_DW_VBMI static inline __m512i plane_lanes(int32_t s) {
    return _mm512_setr_epi64(2 * s, 2 * s + 1, 4 + 2 * s, 5 + 2 * s, 8 + 2 * s, 9 + 2 * s, 12 + 2 * s, 13 + 2 * s);
}

/// `R` output rows (4, 2 or 1: a constant where it is inlined) × `n` pixels
/// × the 16 channels of one plane, from input rows `in[0 … R + 1]` of
/// `P`-byte pixels (`plane_windows`; pixel 0 one left of the first output),
/// four pixels at a time: two windows of a row (pixels j … j + 3 and
/// j + 2 … j + 5) and four `vpermb`s give the three taps of output pixels
/// j … j + 3, each gather serving the up to three output rows that read
/// that row. `out[i]` is output row i at the first output pixel and the
/// plane's first channel; pixels are `C` bytes apart.
QS8_DW_VBMI static inline __attribute__((always_inline)) void plane_rows_avx512(const uint8_t *const in[6], int P, __m512i lanes, uint8_t *const out[4],
                                                                              int32_t C, int32_t n, const __m512i taps[3], __m512i start, __m512 m,
                                                                              __m512 b, int R) {
    const __m512i first = gather_index(0), second = gather_index(1);
    const __m512 zero = _mm512_setzero_ps(), top = _mm512_set1_ps(255.0f);
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    for (int32_t j = 0; j < n; j += 4) {
        __m512i acc[4][4];
        for (int i = 0; i < R; i++)
            for (int q = 0; q < 4; q++) acc[i][q] = start;
        for (int k = 0; k < R + 2; k++) {
            __m512i low, high;
            plane_windows(in[k], j, P, lanes, &low, &high);
            const __m512i g[4] = {_mm512_maskz_permutexvar_epi8(dw_taps, first, low), _mm512_maskz_permutexvar_epi8(dw_taps, second, low),
                                  _mm512_maskz_permutexvar_epi8(dw_taps, first, high), _mm512_maskz_permutexvar_epi8(dw_taps, second, high)};
            for (int i = 0; i < R; i++) {
                const int ky = k - i;
                if (ky < 0 || ky > 2) continue;
                for (int q = 0; q < 4; q++) acc[i][q] = _mm512_dpbusd_epi32(acc[i][q], g[q], taps[ky]);
            }
        }
        for (int i = 0; i < R; i++) {
            __m512i v[4];
            for (int q = 0; q < 4; q++) {
                const __m512 a = _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[i][q]), m, b);
                v[q] = _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(a, zero), top));
            }
            if (C == 16 && j + 4 <= n) {
                // Four pixels together: 0…255 survives the saturating packs, which leave each 128-bit lane
                // l holding pixels 0…3's channels 4l…4l + 3; one `vpermd` puts those dwords in order.
                const __m512i bytes = _mm512_packus_epi16(_mm512_packus_epi32(v[0], v[1]), _mm512_packus_epi32(v[2], v[3]));
                _mm512_storeu_si512((void *)(out[i] + 16 * j), _mm512_permutexvar_epi32(order, bytes));
                continue;
            }
            for (int q = 0; q < 4; q++)
                if (j + q < n) _mm_storeu_si128((__m128i *)(out[i] + (intptr_t)(j + q) * C), _mm512_cvtepi32_epi8(v[q]));
        }
    }
}

/// Where input row `row` of a strip lives in the ring of six (rows go in once a strip).
static inline int32_t ring_slot(int32_t row) { return ((row % 6) + 6) % 6; }

/// `R` output rows from `y0` of one strip (`x0`, `n` pixels): the input
/// rows not yet in the ring (from `*next` on) copied into planes, then
/// each plane's rows.
QS8_DW_VBMI static inline __attribute__((always_inline)) void strip_block_avx512(const facepipe_qs8_dw_params *p, const dw_planes_avx512 *planes,
                                                                               uint8_t *scratch, int32_t slot, int32_t x0, int32_t n, int32_t y0,
                                                                               int32_t *next, int R) {
    const int32_t C = p->channels, W = p->width, count = C / 16, stripBytes = count * slot;
    const int32_t first = y0 - p->pad_top;
    for (int32_t row = first > *next ? first : *next; row < first + R + 2; row++)
        strip_row_avx512(p, row, x0, n, slot, scratch + (intptr_t)ring_slot(row) * stripBytes);
    *next = first + R + 2;
    for (int32_t s = 0; s < count; s++) {
        const uint8_t *in[6];
        uint8_t *out[4];
        for (int k = 0; k < R + 2; k++) in[k] = scratch + (intptr_t)ring_slot(first + k) * stripBytes + (intptr_t)s * slot;
        for (int i = 0; i < R; i++) out[i] = p->output + ((intptr_t)(y0 + i) * W + x0) * C + 16 * s;
        plane_rows_avx512(in, 16, _mm512_setzero_si512(), out, C, n, planes->taps[s], planes->start[s], _mm512_loadu_ps(p->multipliers + 16 * s),
                          _mm512_loadu_ps(p->bias + 16 * s), R);
    }
}

/// Output columns `xa … xb − 1`, in bands of `DW_BAND` output rows (whose
/// input rows stay in L2 while the band is swept) and in strips of as many
/// pixels as fit `DW_STRIP_BYTES` a row (a multiple of 4, with room for the
/// two padding pixels and the last group's reads past them). Each strip of
/// a band is walked down in blocks of four output rows (then two, one),
/// its input rows copied into a ring of six with their padding
/// (`strip_row_avx512`), each row once.
QS8_DW_VBMI static void strips_avx512(const facepipe_qs8_dw_params *p, const dw_planes_avx512 *planes, int32_t xa, int32_t xb) {
    const int32_t count = p->channels / 16;
    int32_t strip = (DW_STRIP_BYTES / (count * 16) - 4) / 4 * 4;
    if (strip < 4) strip = 4;
    const int32_t slot = (strip + 4) * 16;
    _Alignas(64) uint8_t scratch[6 * DW_STRIP_BYTES];
    for (int32_t band = 0; band < p->out_height; band += DW_BAND) {
        const int32_t end = p->out_height - band < DW_BAND ? p->out_height : band + DW_BAND;
        for (int32_t x0 = xa; x0 < xb; x0 += strip) {
            const int32_t n = xb - x0 < strip ? xb - x0 : strip;
            int32_t next = INT32_MIN, y0 = band;
            for (; y0 + 4 <= end; y0 += 4) strip_block_avx512(p, planes, scratch, slot, x0, n, y0, &next, 4);
            if (y0 + 2 <= end) {
                strip_block_avx512(p, planes, scratch, slot, x0, n, y0, &next, 2);
                y0 += 2;
            }
            if (y0 < end) strip_block_avx512(p, planes, scratch, slot, x0, n, y0, &next, 1);
        }
    }
}

/// Bytes of an interior run's rows read in place at once (`DW_RUN / P` pixels), and a row of 128s as long for
/// the padding rows (with the last group's reads past it).
enum { DW_RUN = 16384 };
static const uint8_t dw_padding[DW_RUN + 8 * 64] = {[0 ... DW_RUN + 8 * 64 - 1] = 0x80};

/// `R` output rows from `y0` at columns `x0 … x0 + n − 1` of a map of
/// `P` = 16, 32 or 64 channels (a constant where it is inlined), read in
/// place: all their taps lie inside the row (x0 ≥ 1, n a multiple of 4 up
/// to `DW_RUN / P`, x0 + n < width); input rows outside the input read
/// `dw_padding`.
QS8_DW_VBMI static inline __attribute__((always_inline)) void interior_avx512(const facepipe_qs8_dw_params *p, const dw_planes_avx512 *planes,
                                                                            int32_t x0, int32_t n, int32_t y0, int P, int R) {
    const int32_t W = p->width;
    const uint8_t *in[6];
    for (int k = 0; k < R + 2; k++) {
        const int32_t row = y0 - p->pad_top + k;
        in[k] = row >= 0 && row < p->in_height ? p->input + ((intptr_t)row * W + x0 - 1) * P : dw_padding;
    }
    for (int32_t s = 0; s < P / 16; s++) {
        uint8_t *out[4];
        for (int i = 0; i < R; i++) out[i] = p->output + ((intptr_t)(y0 + i) * W + x0) * P + 16 * s;
        const uint8_t *rows[6];
        for (int k = 0; k < R + 2; k++) rows[k] = in[k] + (P == 64 ? 16 * s : 0);
        plane_rows_avx512(rows, P, P == 32 ? plane_lanes(s) : _mm512_setzero_si512(), out, P, n, planes->taps[s], planes->start[s],
                          _mm512_loadu_ps(p->multipliers + 16 * s), _mm512_loadu_ps(p->bias + 16 * s), R);
    }
}

/// The interior columns `start … end − 1` (see `interior_avx512`) in runs
/// of `DW_RUN / P` pixels, blocks of four output rows (then two, one).
QS8_DW_VBMI static inline __attribute__((always_inline)) void interior_rows_avx512(const facepipe_qs8_dw_params *p, const dw_planes_avx512 *planes,
                                                                                 int32_t start, int32_t end, int P) {
    const int32_t run = DW_RUN / P;
    for (int32_t x0 = start; x0 < end; x0 += run) {
        const int32_t n = end - x0 < run ? end - x0 : run;
        int32_t y0 = 0;
        for (; y0 + 4 <= p->out_height; y0 += 4) interior_avx512(p, planes, x0, n, y0, P, 4);
        if (y0 + 2 <= p->out_height) {
            interior_avx512(p, planes, x0, n, y0, P, 2);
            y0 += 2;
        }
        if (y0 < p->out_height) interior_avx512(p, planes, x0, n, y0, P, 1);
    }
}

/// Blocks of four output rows × four pixels (then two rows, one) on
/// 16-channel planes. The interior of a 16-, 32- or 64-channel map
/// (columns 4 … from the 5th to the last 1–4) is read in place, its planes
/// picked from whole pixels in registers (`plane_windows`); the columns at
/// its borders, and maps of other channel counts, go through the strips,
/// so every pixel, border or not, runs the same gathers.
QS8_DW_VBMI void facepipe_qs8_dw3x3_4x4_avx512vbmi(const facepipe_qs8_dw_params *params) {
    const facepipe_qs8_dw_params local = *params, *p = &local;
    const int32_t C = p->channels, W = p->width;
    if (C % 16 != 0 || C > DW_MAX_CHANNELS) {
        facepipe_qs8_dw3x3_8px_avx2(p);
        return;
    }
    dw_planes_avx512 planes;
    planes_init_avx512(p, &planes);
    if ((C != 16 && C != 32 && C != 64) || W < 9) {
        strips_avx512(p, &planes, 0, W);
        return;
    }
    const int32_t end = 4 + (W - 5) / 4 * 4;
    if (C == 16) {
        interior_rows_avx512(p, &planes, 4, end, 16);
    } else if (C == 32) {
        interior_rows_avx512(p, &planes, 4, end, 32);
    } else {
        interior_rows_avx512(p, &planes, 4, end, 64);
    }
    strips_avx512(p, &planes, 0, 4);
    strips_avx512(p, &planes, end, W);
}

#else

// Not x86: every kernel is the scalar one (the planner never chooses the others).
void facepipe_qs8_dw3x3_8px_avx2(const facepipe_qs8_dw_params *p) { facepipe_qs8_dw3x3_scalar(p); }
void facepipe_qs8_dw3x3_4x4_avx512vbmi(const facepipe_qs8_dw_params *p) { facepipe_qs8_dw3x3_scalar(p); }

#endif
