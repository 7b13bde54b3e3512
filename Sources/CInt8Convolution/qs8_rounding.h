#ifndef C_QS8_ROUNDING_H
#define C_QS8_ROUNDING_H

// The rounding of a value onto a QS8 grid (qs8.h), in plain C: the one
// reference every scalar kernel uses and every vector kernel reproduces
// lane by lane. Private to CInt8Convolution (not in include/).

#include <math.h>
#include <stdint.h>

/// `v` (in grid steps) on a non-negative grid: clamp to 0…255 in float
/// (a NaN goes to 0, as `maxps` with zero second does), then round.
static inline uint8_t qs8_grid_byte(float v) {
    v = v > 0.0f ? v : 0.0f;
    v = v < 255.0f ? v : 255.0f;
    return (uint8_t)(int32_t)rintf(v);
}

/// `v` (in grid steps) on a signed grid: clamp to ±127 in float, round, offset by the zero point 128.
static inline uint8_t qs8_signed_byte(float v) {
    v = v > -127.0f ? v : -127.0f;
    v = v < 127.0f ? v : 127.0f;
    return (uint8_t)((int32_t)rintf(v) + 128);
}

#endif
