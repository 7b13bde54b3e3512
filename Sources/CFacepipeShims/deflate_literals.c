#include "CFacepipeShims.h"
#include "CCPUFeatures.h"

#include <string.h>

// Huffman-codes runs of deflate literals 64 at a time with AVX-512.
//
// Each code is looked up as a "marked" code: the bit-reversed code with a 1
// just above its top bit, so the value alone gives its length (the position
// of the highest set bit). Marked codes of neighbouring literals are then
// joined in vector lanes, twice: pairs in 32-bit lanes (two codes of at most
// 14 bits), then pairs of pairs in 64-bit lanes (at most 56 bits and the
// mark). Joining a and b is (a without its mark) | (b << length(a)). What is
// left serial is one shift-or-store per eight literals (two groups of four
// joined once more when they fit 56 bits, as they usually do) or per four.
// The bit stream is the same as writing the codes one by one.

#if defined(__x86_64__)
#include <immintrin.h>

#define LITERAL_ATTRIBUTES __attribute__((target("avx512f,avx512bw,avx512cd,avx512vbmi,avx512vl,bmi,bmi2,lzcnt")))

int facepipe_deflate_vector_literals_available(void) {
    return facepipe_cpu_has(FACEPIPE_CPU_AVX512F | FACEPIPE_CPU_AVX512BW | FACEPIPE_CPU_AVX512CD
                            | FACEPIPE_CPU_AVX512VBMI | FACEPIPE_CPU_AVX512VL | FACEPIPE_CPU_BMI2);
}

/// Joins the two marked codes in each 32-bit lane (low half first).
LITERAL_ATTRIBUTES static inline __m512i join_halves32(__m512i pairs) {
    const __m512i low_half = _mm512_set1_epi32(0xFFFF);
    const __m512i top_bit = _mm512_set1_epi32(31);
    __m512i first = _mm512_and_si512(pairs, low_half);
    __m512i second = _mm512_srli_epi32(pairs, 16);
    __m512i length = _mm512_sub_epi32(top_bit, _mm512_lzcnt_epi32(first));
    __m512i code = _mm512_xor_si512(first, _mm512_sllv_epi32(_mm512_set1_epi32(1), length));
    return _mm512_or_si512(code, _mm512_sllv_epi32(second, length));
}

/// Joins the two marked codes in each 64-bit lane (low half first).
LITERAL_ATTRIBUTES static inline __m512i join_halves64(__m512i pairs) {
    const __m512i low_half = _mm512_set1_epi64(0xFFFFFFFF);
    const __m512i top_bit = _mm512_set1_epi64(63);
    __m512i first = _mm512_and_si512(pairs, low_half);
    __m512i second = _mm512_srli_epi64(pairs, 32);
    __m512i length = _mm512_sub_epi64(top_bit, _mm512_lzcnt_epi64(first));
    __m512i code = _mm512_xor_si512(first, _mm512_sllv_epi64(_mm512_set1_epi64(1), length));
    return _mm512_or_si512(code, _mm512_sllv_epi64(second, length));
}

/// Marked codes of 64 literals joined into 16 groups of four, in literal
/// order; literals past `valid` are neither read nor coded (empty codes).
LITERAL_ATTRIBUTES static inline void code_chunk(const uint8_t *literals, size_t valid, __m512i low0, __m512i low1, __m512i low2, __m512i low3,
                                                 __m512i high0, __m512i high1, __m512i high2, __m512i high3,
                                                 __m512i first_order, __m512i second_order, uint64_t *groups) {
    __m512i symbols;
    __mmask64 present = ~(__mmask64)0;
    if (valid >= 64) {
        symbols = _mm512_loadu_si512(literals);
    } else {
        present = ((__mmask64)1 << valid) - 1;
        symbols = _mm512_maskz_loadu_epi8(present, literals);  // masked-out bytes are not touched
    }
    __mmask64 upper = _mm512_movepi8_mask(symbols);  // symbol ≥ 128: the second half of each table
    __m512i low = _mm512_mask_blend_epi8(upper, _mm512_permutex2var_epi8(low0, symbols, low1),
                                         _mm512_permutex2var_epi8(low2, symbols, low3));
    __m512i high = _mm512_mask_blend_epi8(upper, _mm512_permutex2var_epi8(high0, symbols, high1),
                                          _mm512_permutex2var_epi8(high2, symbols, high3));
    if (valid < 64) {
        // An absent literal gets the empty code: just the mark, 1.
        low = _mm512_mask_blend_epi8(present, _mm512_set1_epi8(1), low);
        high = _mm512_maskz_mov_epi8(present, high);
    }
    // 16-bit marked codes. Per 128-bit lane L: `firsts` holds literals
    // 16L…16L+7, `seconds` 16L+8…16L+15.
    __m512i firsts = _mm512_unpacklo_epi8(low, high);
    __m512i seconds = _mm512_unpackhi_epi8(low, high);
    firsts = join_halves64(join_halves32(firsts));
    seconds = join_halves64(join_halves32(seconds));
    // Now each 64-bit lane holds four literals: firsts' lanes 2L and
    // 2L+1 are literals 16L…16L+7, seconds' 16L+8…16L+15.
    _mm512_storeu_si512(groups, _mm512_permutex2var_epi64(firsts, first_order, seconds));
    _mm512_storeu_si512(groups + 8, _mm512_permutex2var_epi64(firsts, second_order, seconds));
}

/// Appends two groups (one write when they fit 56 bits, as they usually do).
LITERAL_ATTRIBUTES static inline __attribute__((always_inline)) void write_pair(const uint64_t *pair, uint8_t *base, size_t *position,
                                                                                uint64_t *bits, uint32_t *bit_count) {
    uint64_t first = pair[0], second = pair[1];
    uint32_t first_length = 63 - (uint32_t)__builtin_clzll(first);
    uint32_t second_length = 63 - (uint32_t)__builtin_clzll(second);
    uint64_t first_code = _bzhi_u64(first, first_length), second_code = _bzhi_u64(second, second_length);
    if (first_length + second_length <= 56) {
        *bits |= (first_code | second_code << first_length) << *bit_count;
        *bit_count += first_length + second_length;
        memcpy(base + *position, bits, 8);
        *position += *bit_count >> 3;
        *bits >>= *bit_count & ~7u;
        *bit_count &= 7;
    } else {
        *bits |= first_code << *bit_count;
        *bit_count += first_length;  // ≤ 7 + 56
        memcpy(base + *position, bits, 8);
        *position += *bit_count >> 3;
        *bits >>= *bit_count & ~7u;
        *bit_count &= 7;
        *bits |= second_code << *bit_count;
        *bit_count += second_length;
        memcpy(base + *position, bits, 8);
        *position += *bit_count >> 3;
        *bits >>= *bit_count & ~7u;
        *bit_count &= 7;
    }
}

LITERAL_ATTRIBUTES
size_t facepipe_deflate_write_literals(facepipe_bit_stream *stream, const uint8_t *literals, size_t count,
                                       const uint8_t *marked_codes) {
    if (count == 0) return 0;
    const __m512i low0 = _mm512_loadu_si512(marked_codes), low1 = _mm512_loadu_si512(marked_codes + 64);
    const __m512i low2 = _mm512_loadu_si512(marked_codes + 128), low3 = _mm512_loadu_si512(marked_codes + 192);
    const __m512i high0 = _mm512_loadu_si512(marked_codes + 256), high1 = _mm512_loadu_si512(marked_codes + 320);
    const __m512i high2 = _mm512_loadu_si512(marked_codes + 384), high3 = _mm512_loadu_si512(marked_codes + 448);
    // Literal order of the 64-bit lanes after the unpacks below (see the loop).
    const __m512i first_order = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
    const __m512i second_order = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);

    uint8_t *base = stream->base;
    size_t position = stream->position;
    uint64_t bits = stream->bits;
    uint32_t bit_count = stream->bit_count;
    // Software-pipelined: the vector work for the next 64 literals is
    // issued before the serial writes of the current ones, so the groups
    // stored to memory are long complete when they are read back.
    uint64_t groups[2][16];
    size_t chunks = (count + 63) / 64;
    code_chunk(literals, count, low0, low1, low2, low3, high0, high1, high2, high3, first_order, second_order, groups[0]);
    for (size_t chunk = 0; chunk < chunks; chunk++) {
        if (chunk + 1 < chunks) {
            code_chunk(literals + 64 * (chunk + 1), count - 64 * (chunk + 1), low0, low1, low2, low3, high0, high1, high2, high3,
                       first_order, second_order, groups[(chunk + 1) & 1]);
        }
        const uint64_t *current = groups[chunk & 1];
        size_t remaining = count - 64 * chunk;
        if (remaining >= 64) {
            for (int group = 0; group < 16; group += 2) write_pair(current + group, base, &position, &bits, &bit_count);
        } else {
            // The last, partial chunk: pairs of groups up to its last literal.
            for (int group = 0; group < (int)(remaining + 7) / 8 * 2; group += 2) {
                write_pair(current + group, base, &position, &bits, &bit_count);
            }
        }
    }
    stream->position = position;
    stream->bits = bits;
    stream->bit_count = bit_count;
    return count;
}

#else

int facepipe_deflate_vector_literals_available(void) { return 0; }

size_t facepipe_deflate_write_literals(facepipe_bit_stream *stream, const uint8_t *literals, size_t count,
                                       const uint8_t *marked_codes) {
    (void)stream; (void)literals; (void)count; (void)marked_codes;
    return 0;
}

#endif
