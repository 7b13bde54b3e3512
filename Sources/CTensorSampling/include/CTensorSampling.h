#ifndef C_TENSOR_SAMPLING_H
#define C_TENSOR_SAMPLING_H

#include <stdint.h>

/// Fills a `size × size × 3` NHWC float tensor from an 8-bit RGB picture
/// (`width × height`, rows packed) through the affine map
/// `x = a·u + b·v + c`, `y = d·u + e·v + f` (`transform` = a…f) of the
/// tensor pixel centre (u + 0.5, v + 0.5), with one bilinear tap per pixel:
/// taps clamp to the edge pixels, points outside the picture are black.
/// Writes `sample·value_scale + value_offset`; `flip` mirrors the columns.
/// Bit for bit the arithmetic of ImageCore's `TensorSampler.sample` (no fused
/// multiply-adds); interior runs of eight pixels use AVX2 gathers.
void facepipe_sample_bilinear(const uint8_t *pixels, int32_t width, int32_t height, const float *transform,
                              int32_t size, float value_scale, float value_offset, int32_t flip, float *tensor);

#endif
