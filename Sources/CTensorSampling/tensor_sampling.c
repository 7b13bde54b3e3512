#include "CTensorSampling.h"

#include <math.h>
#include <stddef.h>

// Every product and sum is rounded on its own, as in the Swift reference:
// no contraction into fused multiply-adds.
#pragma clang fp contract(off)

#if defined(__AVX2__)
#include <immintrin.h>
#endif

/// One tensor pixel, as `TensorSampler.sample` computes it with one tap.
static void sample_one(const uint8_t *pixels, int32_t width, int32_t height, float x, float y, float rgb[3]) {
    rgb[0] = rgb[1] = rgb[2] = 0;
    if (!(isfinite(x) && isfinite(y) && x >= 0 && y >= 0 && x <= (float)width && y <= (float)height)) return;
    float sx = x - 0.5f, sy = y - 0.5f;
    sx = sx > 0 ? sx : 0;
    sy = sy > 0 ? sy : 0;
    sx = sx < (float)(width - 1) ? sx : (float)(width - 1);
    sy = sy < (float)(height - 1) ? sy : (float)(height - 1);
    float fx0 = floorf(sx), fy0 = floorf(sy);
    float tx = sx - fx0, ty = sy - fy0;
    int32_t x0 = (int32_t)fx0, y0 = (int32_t)fy0;
    for (int channel = 0; channel < 3; channel++) {
        float tap[2][2];
        for (int j = 0; j < 2; j++) {
            for (int i = 0; i < 2; i++) {
                int32_t px = x0 + i, py = y0 + j;
                tap[j][i] = px < width && py < height ? (float)pixels[((size_t)py * (size_t)width + (size_t)px) * 3 + channel] : 0;
            }
        }
        float top = tap[0][0] * (1 - tx) + tap[0][1] * tx;
        float bottom = tap[1][0] * (1 - tx) + tap[1][1] * tx;
        rgb[channel] = 0.0f + (top * (1 - ty) + bottom * ty);
    }
}

static void store_pixel(float *tensor, int32_t size, int32_t v, int32_t u, int32_t flip, const float rgb[3],
                        float value_scale, float value_offset) {
    int32_t column = flip ? size - 1 - u : u;
    float *out = tensor + ((size_t)v * (size_t)size + (size_t)column) * 3;
    for (int channel = 0; channel < 3; channel++) out[channel] = rgb[channel] * value_scale + value_offset;
}

void facepipe_sample_bilinear(const uint8_t *pixels, int32_t width, int32_t height, const float *transform,
                              int32_t size, float value_scale, float value_offset, int32_t flip, float *tensor) {
    const float a = transform[0], b = transform[1], c = transform[2];
    const float d = transform[3], e = transform[4], f = transform[5];
#if defined(__AVX2__)
    // Gather offsets are 32-bit: larger pictures take the scalar path.
    const int vectors = width >= 3 && height >= 2 && (int64_t)width * height * 3 < INT32_MAX - 8;
    const __m256 lane_centres = _mm256_add_ps(_mm256_cvtepi32_ps(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)), _mm256_set1_ps(0.5f));
    const __m256 one = _mm256_set1_ps(1), zero = _mm256_setzero_ps(), half = _mm256_set1_ps(0.5f);
    const __m256 last_x = _mm256_set1_ps((float)(width - 1)), last_y = _mm256_set1_ps((float)(height - 1));
    const __m256i byte_mask = _mm256_set1_epi32(0xFF);
    const __m256i row_bytes = _mm256_set1_epi32(width * 3);
#endif
    for (int32_t v = 0; v < size; v++) {
        const float tv = (float)v + 0.5f;
        if (v + 2 < size) {
            // Two rows ahead, the source lines every fourth sample will read: the
            // tensor row crosses the picture on a slant the prefetcher does not follow.
            const float ahead = (float)(v + 2) + 0.5f;
            for (int32_t u = 0; u < size; u += 4) {
                float x = a * ((float)u + 0.5f) + b * ahead + c, y = d * ((float)u + 0.5f) + e * ahead + f;
                if (!isfinite(x) || !isfinite(y)) continue;
                float fx = x - 0.5f, fy = y - 0.5f;
                int32_t px = fx < 0 ? 0 : fx > (float)(width - 1) ? width - 1 : (int32_t)fx;
                int32_t py = fy < 0 ? 0 : fy > (float)(height - 1) ? height - 1 : (int32_t)fy;
                int32_t below = py + 1 < height ? py + 1 : height - 1;
                __builtin_prefetch(pixels + ((size_t)py * (size_t)width + (size_t)px) * 3, 0, 3);
                __builtin_prefetch(pixels + ((size_t)below * (size_t)width + (size_t)px) * 3, 0, 3);
            }
        }
        int32_t u = 0;
#if defined(__AVX2__)
        const __m256 bv = _mm256_set1_ps(b * tv), ev = _mm256_set1_ps(e * tv);
        for (; vectors && u + 8 <= size; u += 8) {
            __m256 tu = _mm256_add_ps(_mm256_set1_ps((float)u), lane_centres);
            __m256 x = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(a), tu), bv), _mm256_set1_ps(c));
            __m256 y = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(d), tu), ev), _mm256_set1_ps(f));
            __m256 sx = _mm256_sub_ps(x, half), sy = _mm256_sub_ps(y, half);
            // Interior: no clamping, all four taps inside, and the left taps
            // not in column 0 (their gather starts one byte before them).
            __m256 inside = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(sx, one, _CMP_GE_OQ), _mm256_cmp_ps(sx, last_x, _CMP_LT_OQ)),
                                          _mm256_and_ps(_mm256_cmp_ps(sy, zero, _CMP_GE_OQ), _mm256_cmp_ps(sy, last_y, _CMP_LT_OQ)));
            if (_mm256_movemask_ps(inside) != 0xFF) {
                for (int lane = 0; lane < 8; lane++) {
                    float tu1 = (float)(u + lane) + 0.5f, rgb[3];
                    sample_one(pixels, width, height, a * tu1 + b * tv + c, d * tu1 + e * tv + f, rgb);
                    store_pixel(tensor, size, v, u + lane, flip, rgb, value_scale, value_offset);
                }
                continue;
            }
            __m256 fx0 = _mm256_floor_ps(sx), fy0 = _mm256_floor_ps(sy);
            __m256 tx = _mm256_sub_ps(sx, fx0), ty = _mm256_sub_ps(sy, fy0);
            __m256 wx = _mm256_sub_ps(one, tx), wy = _mm256_sub_ps(one, ty);
            __m256i x0 = _mm256_cvttps_epi32(fx0), y0 = _mm256_cvttps_epi32(fy0);
            __m256i offset = _mm256_add_epi32(_mm256_mullo_epi32(y0, row_bytes), _mm256_mullo_epi32(x0, _mm256_set1_epi32(3)));
            // Left taps: bytes -1…2 of pixel x0 (R, G, B in bytes 1…3);
            // right taps: bytes -1…2 of pixel x0 + 1, i.e. 2…5 of x0.
            const int *base = (const int *)(pixels - 1);
            __m256i top_left = _mm256_i32gather_epi32(base, offset, 1);
            __m256i top_right = _mm256_i32gather_epi32(base, _mm256_add_epi32(offset, _mm256_set1_epi32(3)), 1);
            __m256i bottom_offset = _mm256_add_epi32(offset, row_bytes);
            __m256i bottom_left = _mm256_i32gather_epi32(base, bottom_offset, 1);
            __m256i bottom_right = _mm256_i32gather_epi32(base, _mm256_add_epi32(bottom_offset, _mm256_set1_epi32(3)), 1);
            float results[3][8];
            for (int channel = 0; channel < 3; channel++) {
                const int shift = 8 * (channel + 1);
#define CHANNEL(word) _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(word, shift), byte_mask))
                __m256 top = _mm256_add_ps(_mm256_mul_ps(CHANNEL(top_left), wx), _mm256_mul_ps(CHANNEL(top_right), tx));
                __m256 bottom = _mm256_add_ps(_mm256_mul_ps(CHANNEL(bottom_left), wx), _mm256_mul_ps(CHANNEL(bottom_right), tx));
#undef CHANNEL
                __m256 value = _mm256_add_ps(_mm256_mul_ps(top, wy), _mm256_mul_ps(bottom, ty));
                value = _mm256_add_ps(_mm256_mul_ps(value, _mm256_set1_ps(value_scale)), _mm256_set1_ps(value_offset));
                _mm256_storeu_ps(results[channel], value);
            }
            for (int lane = 0; lane < 8; lane++) {
                int32_t column = flip ? size - 1 - (u + lane) : u + lane;
                float *out = tensor + ((size_t)v * (size_t)size + (size_t)column) * 3;
                out[0] = results[0][lane];
                out[1] = results[1][lane];
                out[2] = results[2][lane];
            }
        }
#endif
        for (; u < size; u++) {
            float tu1 = (float)u + 0.5f, rgb[3];
            sample_one(pixels, width, height, a * tu1 + b * tv + c, d * tu1 + e * tv + f, rgb);
            store_pixel(tensor, size, v, u, flip, rgb, value_scale, value_offset);
        }
    }
}
