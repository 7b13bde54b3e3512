#ifndef C_FACEPIPE_SHIMS_H
#define C_FACEPIPE_SHIMS_H

#include <stddef.h>
#include <stdint.h>

/// Returns 1 when the running CPU supports every instruction-set extension the
/// SIMD targets were compiled for (AVX2, FMA, F16C), 0 otherwise.
/// Compiled without any -march flag so it is safe to call on any x86-64 CPU.
int facepipe_cpu_supports_build_target(void);

/// A human-readable list of the required extensions the CPU lacks ("" when none).
const char *facepipe_cpu_missing_features(void);

/// Caps glibc's malloc arenas at `arenas` and fixes its mmap threshold at
/// `mmap_threshold` bytes (0: leave either as it is; no-op elsewhere).
/// Called once at start-up, before any worker thread allocates.
void facepipe_tune_allocator(int arenas, int mmap_threshold);

/// Advances a CRC-32 register (`*state`: before the final inversion) over a
/// prefix of `data` with carry-less multiplication, when the CPU has it and
/// `length` ≥ 64. Returns how many bytes it consumed (a multiple of 16, or 0);
/// the caller feeds the rest through a table.
size_t facepipe_crc32_fold(uint32_t *state, const uint8_t *data, size_t length);

/// A deflate bit stream in memory (`DeflateBitWriter`'s state): bytes before
/// `position` are final; `bits` holds `bit_count` (≤ 7) more, least
/// significant first. The memory extends at least 8 bytes past every byte
/// the stream reaches.
typedef struct facepipe_bit_stream {
    uint8_t *base;
    size_t position;
    uint64_t bits;
    uint32_t bit_count;
} facepipe_bit_stream;

/// A deflate match (a run) and the number of literals before it.
typedef struct facepipe_run_piece {
    uint32_t literals_before;
    uint16_t length;
    uint16_t distance;
} facepipe_run_piece;

/// The first pass over one deflate block (`DeflateCompressor`): when
/// `find_runs`, finds runs of at least 8 bytes repeating the byte 1 or the
/// pixel 3 before (checked at every 8th byte after the last run), records
/// them in `pieces` (at most 258 bytes each) and counts their length and
/// distance symbols into `literal_lengths` (by `length_codes[length] & 0x1FF`)
/// and `distances`; counts every other byte into `literal_counts` (sixteen
/// 256-entry tables, to be added up). Returns the number of pieces.
/// `allow_vectors` = 0 forces the 8-byte loop (the same results, for tests).
size_t facepipe_deflate_scan(const uint8_t *block, size_t length, int find_runs, int allow_vectors,
                             const uint32_t *length_codes, facepipe_run_piece *pieces,
                             uint32_t *literal_counts, uint32_t *literal_lengths, uint32_t *distances);

/// 1 when `facepipe_deflate_write_literals` runs on this CPU (AVX-512 F, BW,
/// CD, VBMI, VL and BMI2), 0 otherwise.
int facepipe_deflate_vector_literals_available(void);

/// Appends the Huffman codes of the `count` bytes of `literals` to `stream`
/// and returns how many it wrote: `count`, or 0 when the CPU lacks the
/// instructions. `marked_codes` holds 512 bytes: for each byte value v, the
/// low byte (at v) and the high byte (at 256 + v) of `code | 1 << length`,
/// where `code` is the bit-reversed literal code of at most 14 bits; every
/// byte of `literals` must have a code. No byte past `literals + count` is read.
size_t facepipe_deflate_write_literals(facepipe_bit_stream *stream, const uint8_t *literals, size_t count,
                                       const uint8_t *marked_codes);

#include "facepipe_png_encode.h"
#include "facepipe_png_decode.h"

#endif
