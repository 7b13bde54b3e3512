#ifndef FACEPIPE_PNG_DECODE_H
#define FACEPIPE_PNG_DECODE_H

#include <stddef.h>
#include <stdint.h>

/// Decodes a PNG with libpng's classic read API into 8-bit RGBA (straight
/// alpha; opaque files get alpha 255): palette and grey expanded, tRNS turned
/// into alpha, 16-bit samples scaled with rounding (png_set_scale_16), Adam7
/// de-interlaced. No gamma conversion. `destination` must hold width*height*4
/// bytes; the caller reads width and height from IHDR first.
///
/// Used where libpng 1.6.39's simplified API returns wrong pixels (16-bit
/// interlaced files). libpng's longjmp stays inside this function.
/// Returns 0 on success, otherwise writes libpng's message into `message`.
int facepipe_png_decode_rgba8(const uint8_t *data, size_t size, uint32_t expected_width, uint32_t expected_height,
                              uint8_t *destination, char *message, size_t message_capacity);

#endif
