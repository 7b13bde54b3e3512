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

/// Caps glibc's malloc arenas at `arenas` (no-op elsewhere). Called once at
/// start-up, before any worker thread allocates.
void facepipe_tune_allocator(int arenas);

/// Advances a CRC-32 register (`*state`: before the final inversion) over a
/// prefix of `data` with carry-less multiplication, when the CPU has it and
/// `length` ≥ 64. Returns how many bytes it consumed (a multiple of 16, or 0);
/// the caller feeds the rest through a table.
size_t facepipe_crc32_fold(uint32_t *state, const uint8_t *data, size_t length);

#include "facepipe_png_encode.h"
#include "facepipe_png_decode.h"

#endif
