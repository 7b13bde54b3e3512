#include "CFacepipeShims.h"
#include "CCPUFeatures.h"

#include <string.h>

// The first pass over a deflate block of PNG rows: literal histogram and
// runs (see `DeflateCompressor`). A run is checked for at every 8th byte
// after the literals since the last run: the 8 bytes there must each repeat
// the byte 1 before (distance 1) or 3 before (an RGB pixel, distance 3).
// With AVX2, 64 bytes are compared at once: one branch per 64 literal bytes
// instead of two per 8, and a run's end is found 64 bytes per step.

static inline uint64_t load_word(const uint8_t *bytes) {
    uint64_t word;
    memcpy(&word, bytes, 8);
    return word;
}

/// Counts the eight bytes of `word` into eight tables (one per byte lane),
/// so repeated bytes do not wait on one counter's store.
static inline void count_word(uint64_t word, uint32_t *counts) {
    counts[word & 0xFF]++;
    counts[256 + ((word >> 8) & 0xFF)]++;
    counts[512 + ((word >> 16) & 0xFF)]++;
    counts[768 + ((word >> 24) & 0xFF)]++;
    counts[1024 + ((word >> 32) & 0xFF)]++;
    counts[1280 + ((word >> 40) & 0xFF)]++;
    counts[1536 + ((word >> 48) & 0xFF)]++;
    counts[1792 + (word >> 56)]++;
}

static inline void count_bytes(const uint8_t *bytes, size_t count, uint32_t *counts) {
    size_t index = 0;
    // Two words at a time into tables 0–7 and 8–15: a byte value repeated
    // across both words does not wait on one store either.
    for (; index + 16 <= count; index += 16) {
        count_word(load_word(bytes + index), counts);
        count_word(load_word(bytes + index + 8), counts + 2048);
    }
    for (; index + 8 <= count; index += 8) count_word(load_word(bytes + index), counts);
    for (; index < count; index++) counts[bytes[index]]++;
}

/// Bit 8k + 7 set for the first 8-byte group k of `equal` whose bits are
/// all set (groups above the first may be flagged wrongly: only the
/// lowest flag is exact).
static inline uint64_t first_full_group(uint64_t equal) {
    uint64_t unequal = ~equal;
    return (unequal - 0x0101010101010101ULL) & ~unequal & 0x8080808080808080ULL;
}

#if defined(__x86_64__)
#include <immintrin.h>

/// Bit i: bytes[i] == bytes[i - distance], for i in 0..<64.
__attribute__((target("avx2"))) static inline uint64_t equal_mask(const uint8_t *bytes, size_t distance) {
    __m256i low = _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)bytes),
                                    _mm256_loadu_si256((const __m256i *)(bytes - distance)));
    __m256i high = _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(bytes + 32)),
                                     _mm256_loadu_si256((const __m256i *)(bytes + 32 - distance)));
    return (uint32_t)_mm256_movemask_epi8(low) | (uint64_t)(uint32_t)_mm256_movemask_epi8(high) << 32;
}
#define VECTOR_SCAN 1
#else
static inline uint64_t equal_mask(const uint8_t *bytes, size_t distance) {
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) mask |= (uint64_t)(bytes[i] == bytes[i - (ptrdiff_t)distance]) << i;
    return mask;
}
#define VECTOR_SCAN 0
#endif

/// The scan; `vector` selects 64-byte steps. Inlined into the two entry points below.
static inline __attribute__((always_inline)) size_t scan(const uint8_t *block, size_t length, int find_runs, int vector,
                                                         const uint32_t *length_codes, facepipe_run_piece *pieces,
                                                         uint32_t *literal_counts, uint32_t *literal_lengths, uint32_t *distances) {
    size_t count = 0, literal_start = 0, position = 0;
    if (find_runs) {
        // The first three bytes have no distance-3 predecessor.
        position = length < 3 ? length : 3;
        count_bytes(block, position, literal_counts);
        while (position + 8 <= length) {
            size_t distance;
            if (vector && position + 64 <= length) {
                uint64_t one = first_full_group(equal_mask(block + position, 1));
                uint64_t three = first_full_group(equal_mask(block + position, 3));
                uint64_t any = one | three;
                if (any == 0) {
                    count_bytes(block + position, 64, literal_counts);
                    position += 64;
                    continue;
                }
                // The lowest flag of either is exact; distance 1 wins a tie, as below.
                size_t group = (size_t)__builtin_ctzll(any) >> 3;
                count_bytes(block + position, 8 * group, literal_counts);
                position += 8 * group;
                distance = (one >> (8 * group + 7)) & 1 ? 1 : 3;
            } else {
                uint64_t current = load_word(block + position);
                if (current == load_word(block + position - 1)) {
                    distance = 1;
                } else if (current == load_word(block + position - 3)) {
                    distance = 3;
                } else {
                    count_word(current, literal_counts);
                    position += 8;
                    continue;
                }
            }
            // The run ends at the first byte that differs from the one `distance` before.
            size_t end = position + 8;
            int ended = 0;
            if (vector) {
                while (end + 64 <= length) {
                    uint64_t equal = equal_mask(block + end, distance);
                    if (equal != ~0ULL) {
                        end += (size_t)__builtin_ctzll(~equal);
                        ended = 1;
                        break;
                    }
                    end += 64;
                }
            }
            if (!ended) {
                while (end + 8 <= length && load_word(block + end) == load_word(block + end - distance)) end += 8;
                while (end < length && block[end] == block[end - distance]) end++;
            }
            // Pieces of at most 258 bytes; none shorter than 3.
            size_t remaining = end - position, literals = position - literal_start;
            while (remaining >= 3) {
                size_t piece = remaining <= 258 ? remaining : (remaining - 258 >= 3 ? 258 : remaining - 3);
                pieces[count].literals_before = (uint32_t)literals;
                pieces[count].length = (uint16_t)piece;
                pieces[count].distance = (uint16_t)distance;
                count++;
                literals = 0;
                remaining -= piece;
                literal_lengths[length_codes[piece] & 0x1FF]++;
                distances[distance - 1]++;
            }
            position = end;
            literal_start = end;
        }
    }
    count_bytes(block + position, length - position, literal_counts);
    return count;
}

#if VECTOR_SCAN
__attribute__((target("avx2"))) static size_t scan_vector(const uint8_t *block, size_t length, int find_runs,
                                                          const uint32_t *length_codes, facepipe_run_piece *pieces,
                                                          uint32_t *literal_counts, uint32_t *literal_lengths, uint32_t *distances) {
    return scan(block, length, find_runs, 1, length_codes, pieces, literal_counts, literal_lengths, distances);
}
#endif

static size_t scan_scalar(const uint8_t *block, size_t length, int find_runs, const uint32_t *length_codes,
                          facepipe_run_piece *pieces, uint32_t *literal_counts, uint32_t *literal_lengths, uint32_t *distances) {
    return scan(block, length, find_runs, 0, length_codes, pieces, literal_counts, literal_lengths, distances);
}

size_t facepipe_deflate_scan(const uint8_t *block, size_t length, int find_runs, int allow_vectors,
                             const uint32_t *length_codes, facepipe_run_piece *pieces,
                             uint32_t *literal_counts, uint32_t *literal_lengths, uint32_t *distances) {
#if VECTOR_SCAN
    if (allow_vectors && facepipe_cpu_has(FACEPIPE_CPU_AVX2)) {
        return scan_vector(block, length, find_runs, length_codes, pieces, literal_counts, literal_lengths, distances);
    }
#else
    (void)allow_vectors;
#endif
    return scan_scalar(block, length, find_runs, length_codes, pieces, literal_counts, literal_lengths, distances);
}
