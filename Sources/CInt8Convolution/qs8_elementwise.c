#include "CInt8Convolution.h"
#include "qs8_rounding.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define QS8_EW_X86 1
#endif

// The QS8 byte maps (see qs8.h): 2×2 max pool, ADD onto a grid, floats
// onto a grid. A max is exact; the other two run `qs8_grid_byte`'s
// epilogue lane by lane, so every kernel writes the same bytes.
#pragma STDC FP_CONTRACT OFF

// MARK: - Scalar

static inline uint8_t max_byte(uint8_t a, uint8_t b) { return a > b ? a : b; }

void facepipe_qs8_maxpool2x2_scalar(const uint8_t *input, int32_t in_width, int32_t out_height, int32_t out_width, int32_t channels,
                                    uint8_t *output) {
    const intptr_t row = (intptr_t)in_width * channels;
    for (int32_t r = 0; r < out_height; r++) {
        const uint8_t *a = input + 2 * r * row, *b = a + row;
        uint8_t *out = output + (intptr_t)r * out_width * channels;
        for (int32_t x = 0; x < out_width; x++)
            for (int32_t c = 0; c < channels; c++) {
                const intptr_t left = (intptr_t)2 * x * channels + c, right = left + channels;
                out[(intptr_t)x * channels + c] = max_byte(max_byte(a[left], a[right]), max_byte(b[left], b[right]));
            }
    }
}

void facepipe_qs8_add_scalar(const uint8_t *a, const uint8_t *b, float ma, float mb, uint8_t *output, int64_t count) {
    for (int64_t i = 0; i < count; i++) output[i] = qs8_grid_byte(fmaf((float)a[i], ma, (float)b[i] * mb));
}

void facepipe_qs8_quantize_scalar(const float *input, float inverse_scale, uint8_t *output, int64_t count) {
    for (int64_t i = 0; i < count; i++) output[i] = qs8_grid_byte(input[i] * inverse_scale);
}

#if QS8_EW_X86

// MARK: - AVX2

#define QS8_EW_AVX2 __attribute__((target("avx2,fma")))

/// 8 floats on the grid as 8 bytes in the low half.
QS8_EW_AVX2 static inline __m128i grid8_avx2(__m256 v) {
    v = _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(255.0f));
    const __m256i n = _mm256_cvtps_epi32(v);
    // 0…255 survives both saturating packs: bytes 0–3 of each half hold lanes 0–3 and 4–7.
    const __m256i words = _mm256_packs_epi32(n, n);
    const __m256i bytes = _mm256_packus_epi16(words, words);
    return _mm_unpacklo_epi32(_mm256_castsi256_si128(bytes), _mm256_extracti128_si256(bytes, 1));
}

/// 32 floats (four vectors) on the grid as 32 bytes in order: the packs
/// leave each 128-bit half holding v₀…v₃'s lanes 4h…4h + 3; one `vpermd`
/// puts those dwords in order.
QS8_EW_AVX2 static inline __m256i grid32_avx2(const __m256 v[4]) {
    __m256i n[4];
    for (int k = 0; k < 4; k++) n[k] = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(v[k], _mm256_setzero_ps()), _mm256_set1_ps(255.0f)));
    const __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(n[0], n[1]), _mm256_packs_epi32(n[2], n[3]));
    return _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

/// The largest of the four pixels of output pixel `x`, `C` channels from `c`, 32, 16 then 1 bytes at a time.
QS8_EW_AVX2 static inline void pool_pixel_avx2(const uint8_t *a, const uint8_t *b, int32_t C, int32_t x, int32_t c, uint8_t *out) {
    const intptr_t left = (intptr_t)2 * x * C, right = left + C;
    for (; c + 32 <= C; c += 32) {
        const __m256i top = _mm256_max_epu8(_mm256_loadu_si256((const __m256i *)(a + left + c)), _mm256_loadu_si256((const __m256i *)(a + right + c)));
        const __m256i bottom = _mm256_max_epu8(_mm256_loadu_si256((const __m256i *)(b + left + c)), _mm256_loadu_si256((const __m256i *)(b + right + c)));
        _mm256_storeu_si256((__m256i *)(out + (intptr_t)x * C + c), _mm256_max_epu8(top, bottom));
    }
    for (; c + 16 <= C; c += 16) {
        const __m128i top = _mm_max_epu8(_mm_loadu_si128((const __m128i *)(a + left + c)), _mm_loadu_si128((const __m128i *)(a + right + c)));
        const __m128i bottom = _mm_max_epu8(_mm_loadu_si128((const __m128i *)(b + left + c)), _mm_loadu_si128((const __m128i *)(b + right + c)));
        _mm_storeu_si128((__m128i *)(out + (intptr_t)x * C + c), _mm_max_epu8(top, bottom));
    }
    for (; c < C; c++) out[(intptr_t)x * C + c] = max_byte(max_byte(a[left + c], a[right + c]), max_byte(b[left + c], b[right + c]));
}

/// 16 channels: two output pixels a vector (the rows' maxima of four input
/// pixels, then the even pixels' 128-bit lanes against the odd ones');
/// other counts one output pixel at a time (32k channels in whole vectors).
QS8_EW_AVX2 void facepipe_qs8_maxpool2x2_avx2(const uint8_t *input, int32_t in_width, int32_t out_height, int32_t out_width, int32_t channels,
                                              uint8_t *output) {
    const intptr_t row = (intptr_t)in_width * channels;
    for (int32_t r = 0; r < out_height; r++) {
        const uint8_t *a = input + 2 * r * row, *b = a + row;
        uint8_t *out = output + (intptr_t)r * out_width * channels;
        int32_t x = 0;
        if (channels == 16) {
            for (; x + 2 <= out_width; x += 2) {
                const uint8_t *at = a + 32 * x, *bt = b + 32 * x;
                const __m256i low = _mm256_max_epu8(_mm256_loadu_si256((const __m256i *)at), _mm256_loadu_si256((const __m256i *)bt));
                const __m256i high = _mm256_max_epu8(_mm256_loadu_si256((const __m256i *)(at + 32)), _mm256_loadu_si256((const __m256i *)(bt + 32)));
                const __m256i even = _mm256_permute2x128_si256(low, high, 0x20), odd = _mm256_permute2x128_si256(low, high, 0x31);
                _mm256_storeu_si256((__m256i *)(out + 16 * x), _mm256_max_epu8(even, odd));
            }
        }
        if (channels % 32 == 0) {
            // Whole 32-byte runs: no tails to test.
            for (; x < out_width; x++) {
                const intptr_t left = (intptr_t)2 * x * channels, right = left + channels;
                for (int32_t c = 0; c < channels; c += 32) {
                    const __m256i top = _mm256_max_epu8(_mm256_loadu_si256((const __m256i *)(a + left + c)), _mm256_loadu_si256((const __m256i *)(a + right + c)));
                    const __m256i bottom = _mm256_max_epu8(_mm256_loadu_si256((const __m256i *)(b + left + c)), _mm256_loadu_si256((const __m256i *)(b + right + c)));
                    _mm256_storeu_si256((__m256i *)(out + (intptr_t)x * channels + c), _mm256_max_epu8(top, bottom));
                }
            }
        }
        for (; x < out_width; x++) pool_pixel_avx2(a, b, channels, x, 0, out);
    }
}

QS8_EW_AVX2 void facepipe_qs8_add_avx2(const uint8_t *a, const uint8_t *b, float ma, float mb, uint8_t *output, int64_t count) {
    const __m256 vma = _mm256_set1_ps(ma), vmb = _mm256_set1_ps(mb);
    int64_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256 v[4];
        for (int k = 0; k < 4; k++) {
            const __m256 x = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(a + i + 8 * k))));
            const __m256 y = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(b + i + 8 * k))));
            v[k] = _mm256_fmadd_ps(x, vma, _mm256_mul_ps(y, vmb));
        }
        _mm256_storeu_si256((__m256i *)(output + i), grid32_avx2(v));
    }
    for (; i + 8 <= count; i += 8) {
        const __m256 x = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(a + i))));
        const __m256 y = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(b + i))));
        _mm_storel_epi64((__m128i *)(output + i), grid8_avx2(_mm256_fmadd_ps(x, vma, _mm256_mul_ps(y, vmb))));
    }
    facepipe_qs8_add_scalar(a + i, b + i, ma, mb, output + i, count - i);
}

QS8_EW_AVX2 void facepipe_qs8_quantize_avx2(const float *input, float inverse_scale, uint8_t *output, int64_t count) {
    const __m256 scale = _mm256_set1_ps(inverse_scale);
    int64_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256 v[4];
        for (int k = 0; k < 4; k++) v[k] = _mm256_mul_ps(_mm256_loadu_ps(input + i + 8 * k), scale);
        _mm256_storeu_si256((__m256i *)(output + i), grid32_avx2(v));
    }
    for (; i + 8 <= count; i += 8) _mm_storel_epi64((__m128i *)(output + i), grid8_avx2(_mm256_mul_ps(_mm256_loadu_ps(input + i), scale)));
    facepipe_qs8_quantize_scalar(input + i, inverse_scale, output + i, count - i);
}

// MARK: - AVX-512

#define QS8_EW_AVX512 __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl")))

/// 16 floats on the grid as 16 bytes.
QS8_EW_AVX512 static inline __m128i grid16_avx512(__m512 v) {
    v = _mm512_min_ps(_mm512_max_ps(v, _mm512_setzero_ps()), _mm512_set1_ps(255.0f));
    return _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(v));
}

/// 64 floats (four vectors) on the grid as 64 bytes in order: the packs
/// leave each 128-bit lane l holding v₀…v₃'s lanes 4l…4l + 3; one `vpermd`
/// puts those dwords in order.
QS8_EW_AVX512 static inline __m512i grid64_avx512(const __m512 v[4]) {
    __m512i n[4];
    for (int k = 0; k < 4; k++) n[k] = _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(v[k], _mm512_setzero_ps()), _mm512_set1_ps(255.0f)));
    const __m512i bytes = _mm512_packus_epi16(_mm512_packs_epi32(n[0], n[1]), _mm512_packs_epi32(n[2], n[3]));
    return _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), bytes);
}

/// Bytes `0..<count` (clamped to 0…64) set.
QS8_EW_AVX512 static inline __mmask64 bytes_mask(int64_t count) {
    return count >= 64 ? ~0ull : (count <= 0 ? 0ull : (1ull << count) - 1);
}

/// The largest of four 64-byte runs (the last `count` < 64 bytes masked).
QS8_EW_AVX512 static inline __m512i max4_avx512(const uint8_t *a0, const uint8_t *a1, const uint8_t *b0, const uint8_t *b1, __mmask64 lanes) {
    const __m512i top = _mm512_max_epu8(_mm512_maskz_loadu_epi8(lanes, a0), _mm512_maskz_loadu_epi8(lanes, a1));
    return _mm512_max_epu8(top, _mm512_max_epu8(_mm512_maskz_loadu_epi8(lanes, b0), _mm512_maskz_loadu_epi8(lanes, b1)));
}

/// The larger of two 64-byte runs.
QS8_EW_AVX512 static inline __m512i max2_avx512(const uint8_t *a, const uint8_t *b) {
    return _mm512_max_epu8(_mm512_loadu_si512((const void *)a), _mm512_loadu_si512((const void *)b));
}

/// 16 channels: four output pixels a vector, 32: two (the rows' maxima,
/// then the even pixels' lanes against the odd ones'); others one output
/// pixel at a time, 64 bytes (the last masked, unless C is 64k) at a time.
QS8_EW_AVX512 void facepipe_qs8_maxpool2x2_avx512(const uint8_t *input, int32_t in_width, int32_t out_height, int32_t out_width,
                                                  int32_t channels, uint8_t *output) {
    const int32_t C = channels;
    const intptr_t row = (intptr_t)in_width * C;
    for (int32_t r = 0; r < out_height; r++) {
        const uint8_t *a = input + 2 * r * row, *b = a + row;
        uint8_t *out = output + (intptr_t)r * out_width * C;
        int32_t x = 0;
        if (C == 16) {
            for (; x + 4 <= out_width; x += 4) {
                const __m512i low = max2_avx512(a + 32 * x, b + 32 * x);
                const __m512i high = max2_avx512(a + 32 * x + 64, b + 32 * x + 64);
                _mm512_storeu_si512((void *)(out + 16 * x), _mm512_max_epu8(_mm512_shuffle_i64x2(low, high, 0x88), _mm512_shuffle_i64x2(low, high, 0xDD)));
            }
        } else if (C == 32) {
            for (; x + 2 <= out_width; x += 2) {
                const __m512i low = max2_avx512(a + 64 * x, b + 64 * x);
                const __m512i high = max2_avx512(a + 64 * x + 64, b + 64 * x + 64);
                _mm512_storeu_si512((void *)(out + 32 * x), _mm512_max_epu8(_mm512_shuffle_i64x2(low, high, 0x44), _mm512_shuffle_i64x2(low, high, 0xEE)));
            }
        }
        if (C % 64 == 0) {
            // Whole 64-byte runs: no masks.
            for (; x < out_width; x++) {
                const intptr_t left = (intptr_t)2 * x * C, right = left + C;
                for (int32_t c = 0; c < C; c += 64) {
                    const __m512i top = max2_avx512(a + left + c, a + right + c), bottom = max2_avx512(b + left + c, b + right + c);
                    _mm512_storeu_si512((void *)(out + (intptr_t)x * C + c), _mm512_max_epu8(top, bottom));
                }
            }
        }
        for (; x < out_width; x++) {
            const intptr_t left = (intptr_t)2 * x * C, right = left + C;
            for (int32_t c = 0; c < C; c += 64) {
                const __mmask64 lanes = bytes_mask(C - c);
                _mm512_mask_storeu_epi8(out + (intptr_t)x * C + c, lanes, max4_avx512(a + left + c, a + right + c, b + left + c, b + right + c, lanes));
            }
        }
    }
}

QS8_EW_AVX512 void facepipe_qs8_add_avx512(const uint8_t *a, const uint8_t *b, float ma, float mb, uint8_t *output, int64_t count) {
    const __m512 vma = _mm512_set1_ps(ma), vmb = _mm512_set1_ps(mb);
    int64_t i = 0;
    for (; i + 64 <= count; i += 64) {
        __m512 v[4];
        for (int k = 0; k < 4; k++) {
            const __m512 x = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(a + i + 16 * k))));
            const __m512 y = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(b + i + 16 * k))));
            v[k] = _mm512_fmadd_ps(x, vma, _mm512_mul_ps(y, vmb));
        }
        _mm512_storeu_si512((void *)(output + i), grid64_avx512(v));
    }
    for (; i < count; i += 16) {
        const __mmask16 lanes = (__mmask16)bytes_mask(count - i);
        const __m512 x = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(lanes, a + i)));
        const __m512 y = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(lanes, b + i)));
        const __m128i bytes = grid16_avx512(_mm512_fmadd_ps(x, vma, _mm512_mul_ps(y, vmb)));
        if (lanes == 0xFFFF) {
            _mm_storeu_si128((__m128i *)(output + i), bytes);
        } else {
            _mm_mask_storeu_epi8(output + i, lanes, bytes);
        }
    }
}

QS8_EW_AVX512 void facepipe_qs8_quantize_avx512(const float *input, float inverse_scale, uint8_t *output, int64_t count) {
    const __m512 scale = _mm512_set1_ps(inverse_scale);
    int64_t i = 0;
    for (; i + 64 <= count; i += 64) {
        __m512 v[4];
        for (int k = 0; k < 4; k++) v[k] = _mm512_mul_ps(_mm512_loadu_ps(input + i + 16 * k), scale);
        _mm512_storeu_si512((void *)(output + i), grid64_avx512(v));
    }
    for (; i < count; i += 16) {
        const __mmask16 lanes = (__mmask16)bytes_mask(count - i);
        const __m128i bytes = grid16_avx512(_mm512_mul_ps(_mm512_maskz_loadu_ps(lanes, input + i), scale));
        if (lanes == 0xFFFF) {
            _mm_storeu_si128((__m128i *)(output + i), bytes);
        } else {
            _mm_mask_storeu_epi8(output + i, lanes, bytes);
        }
    }
}

#else

// Not x86: every variant is the scalar one.
void facepipe_qs8_maxpool2x2_avx2(const uint8_t *input, int32_t in_width, int32_t out_height, int32_t out_width, int32_t channels, uint8_t *output) {
    facepipe_qs8_maxpool2x2_scalar(input, in_width, out_height, out_width, channels, output);
}
void facepipe_qs8_maxpool2x2_avx512(const uint8_t *input, int32_t in_width, int32_t out_height, int32_t out_width, int32_t channels, uint8_t *output) {
    facepipe_qs8_maxpool2x2_scalar(input, in_width, out_height, out_width, channels, output);
}
void facepipe_qs8_add_avx2(const uint8_t *a, const uint8_t *b, float ma, float mb, uint8_t *output, int64_t count) {
    facepipe_qs8_add_scalar(a, b, ma, mb, output, count);
}
void facepipe_qs8_add_avx512(const uint8_t *a, const uint8_t *b, float ma, float mb, uint8_t *output, int64_t count) {
    facepipe_qs8_add_scalar(a, b, ma, mb, output, count);
}
void facepipe_qs8_quantize_avx2(const float *input, float inverse_scale, uint8_t *output, int64_t count) {
    facepipe_qs8_quantize_scalar(input, inverse_scale, output, count);
}
void facepipe_qs8_quantize_avx512(const float *input, float inverse_scale, uint8_t *output, int64_t count) {
    facepipe_qs8_quantize_scalar(input, inverse_scale, output, count);
}

#endif
