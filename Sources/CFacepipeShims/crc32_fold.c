#include "CFacepipeShims.h"
#include "CCPUFeatures.h"

// CRC-32 (reflected polynomial 0xEDB88320) by carry-less multiplication:
// four 128-bit lanes are folded forward over 64-byte steps, then folded into
// one lane, reduced to 64 and 32 bits, and finished by Barrett reduction
// (Gopal et al., "Fast CRC Computation for Generic Polynomials Using
// PCLMULQDQ Instruction", Intel, 2009). The constants are powers of x modulo
// the bit-reflected polynomial, as that paper derives them.

#if defined(__x86_64__)
#include <immintrin.h>

#define FOLD_ATTRIBUTES __attribute__((target("pclmul,sse4.1")))

static const uint64_t k1k2[2] = {0x154442bd4ULL, 0x1c6e41596ULL};  // x^(4·128+32), x^(4·128−32)
static const uint64_t k3k4[2] = {0x1751997d0ULL, 0x0ccaa009eULL};  // x^(128+32), x^(128−32)
static const uint64_t k5[2] = {0x163cd6124ULL, 0};                 // x^64
static const uint64_t poly_mu[2] = {0x1db710641ULL, 0x1f7011641ULL};  // P', ⌊x^64 / P'⌋

FOLD_ATTRIBUTES static inline __m128i fold(__m128i lane, __m128i constants, __m128i next) {
    __m128i low = _mm_clmulepi64_si128(lane, constants, 0x00);
    __m128i high = _mm_clmulepi64_si128(lane, constants, 0x11);
    return _mm_xor_si128(_mm_xor_si128(low, high), next);
}

FOLD_ATTRIBUTES static uint32_t fold_crc32(uint32_t state, const uint8_t *data, size_t blocks) {
    // `blocks` 16-byte blocks, at least 4.
    __m128i x0 = _mm_loadu_si128((const __m128i *)data);
    __m128i x1 = _mm_loadu_si128((const __m128i *)(data + 16));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(data + 32));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(data + 48));
    x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)state));
    data += 64;
    blocks -= 4;
    __m128i constants = _mm_loadu_si128((const __m128i *)k1k2);
    while (blocks >= 4) {
        x0 = fold(x0, constants, _mm_loadu_si128((const __m128i *)data));
        x1 = fold(x1, constants, _mm_loadu_si128((const __m128i *)(data + 16)));
        x2 = fold(x2, constants, _mm_loadu_si128((const __m128i *)(data + 32)));
        x3 = fold(x3, constants, _mm_loadu_si128((const __m128i *)(data + 48)));
        data += 64;
        blocks -= 4;
    }
    constants = _mm_loadu_si128((const __m128i *)k3k4);
    __m128i x = fold(x0, constants, x1);
    x = fold(x, constants, x2);
    x = fold(x, constants, x3);
    while (blocks > 0) {
        x = fold(x, constants, _mm_loadu_si128((const __m128i *)data));
        data += 16;
        blocks -= 1;
    }
    // 128 → 64 bits: the low half times x^(128−32), plus the high half.
    x = _mm_xor_si128(_mm_clmulepi64_si128(x, constants, 0x10), _mm_srli_si128(x, 8));
    // 64 → 32 bits.
    const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
    x = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x, mask32), _mm_loadu_si128((const __m128i *)k5), 0x00),
                      _mm_srli_si128(x, 4));
    // Barrett reduction.
    const __m128i pm = _mm_loadu_si128((const __m128i *)poly_mu);
    __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x, mask32), pm, 0x10);
    t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), pm, 0x00);
    x = _mm_xor_si128(x, t);
    return (uint32_t)_mm_extract_epi32(x, 1);
}

size_t facepipe_crc32_fold(uint32_t *state, const uint8_t *data, size_t length) {
    if (length < 64 || !facepipe_cpu_has(FACEPIPE_CPU_PCLMUL | FACEPIPE_CPU_SSE4_1)) return 0;
    size_t blocks = length / 16;
    *state = fold_crc32(*state, data, blocks);
    return blocks * 16;
}

#else

size_t facepipe_crc32_fold(uint32_t *state, const uint8_t *data, size_t length) {
    (void)state; (void)data; (void)length;
    return 0;
}

#endif
