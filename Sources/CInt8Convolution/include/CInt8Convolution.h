#ifndef C_INT8_CONVOLUTION_H
#define C_INT8_CONVOLUTION_H

#include <stdint.h>
#include "int8_pointwise.h"
#include "qs8.h"

/// One int8 convolution of 8-bit NHWC pixels (batch 1) with 7-bit signed
/// weights, for a network's first layer when its input is `p·(2/255) − 1`.
/// Zero padding in that normalised space is the pixel value 127.5, which
/// contributes nothing: for output channel c,
///
///     A   = Σ q·p over the in-bounds taps (int32, exact)
///     Q   = Σ q   over the in-bounds taps (`weight_sums[c]` for interior pixels)
///     out = clamp(fma(half_scales[c], (float)(2·A − 255·Q), bias[c]), lower, upper)
///
/// Every kernel computes these same integers and this same float sequence,
/// so all give the same bits.
///
/// Weights are packed `[KH][G][O8][4]` bytes: each kernel row's `KW·I`
/// taps in `G = ceil(KW·I / 4)` groups of four (zero beyond `KW·I`), each
/// group holding four taps for every one of `O8 = roundUp8(O)` channels
/// (zero beyond O). Interior pixels read the input rows' `4·G` bytes in
/// place (up to 3 bytes past the window: the input must have 4 readable
/// bytes beyond its end); border pixels are first copied into the same
/// layout with zeros outside the input, beside a mask of ones that gives Q.
typedef struct {
    const uint8_t *input;
    int32_t in_height, in_width, in_channels;
    /// Bytes from one input row to the next (at least `in_width × in_channels`).
    int32_t in_row_bytes;
    int32_t out_height, out_width, out_channels;
    int32_t kernel_height, kernel_width;
    int32_t stride_height, stride_width;
    int32_t pad_top, pad_left;
    /// `[KH][G][O8][4]`, see above.
    const int8_t *weights;
    /// Q over all taps, per channel (`O8` values).
    const int32_t *weight_sums;
    /// Half the dequantisation scale, per channel (`O8` values).
    const float *half_scales;
    /// `O8` values.
    const float *bias;
    /// The activation as a clamp (−∞/+∞ for none, 0/+∞ for ReLU, 0/6 for ReLU6).
    float lower, upper;
    /// `out_height × out_width × out_channels` floats, or NULL when `output_bytes` is given.
    float *output;
    /// NULL, or `out_height × out_width × out_channels` bytes on a
    /// non-negative grid instead of floats (`qs8.h`): each clamped `out`
    /// stored as `rint(clamp(out · inverse_step, 0, 255))`, the rounding of
    /// `facepipe_qs8_quantize_*`, so no float tensor is written.
    uint8_t *output_bytes;
    float inverse_step;
} facepipe_qconv_params;

/// The largest `KH·G·4` (bytes of one packed window) the kernels take.
enum { FACEPIPE_QCONV_MAX_WINDOW_BYTES = 1024 };

/// Plain C, one tap at a time: the reference.
void facepipe_qconv_u8s7_1x8_scalar(const facepipe_qconv_params *params);
/// AVX2: `vpmaddubsw` (u8·s8 pairs → s16) then `vpmaddwd` with ones (→ s32), 8 channels per vector.
void facepipe_qconv_u8s7_1x8_avx2(const facepipe_qconv_params *params);
/// AVX-512BW: as the AVX2 kernel on 16 channels per vector (8 for an odd last block).
void facepipe_qconv_u8s7_1x16_avx512bw(const facepipe_qconv_params *params);
/// AVX-512 VNNI: `vpdpbusd` (four u8·s8 products summed into s32), 16 channels per vector.
void facepipe_qconv_u8s7_1x16_avx512vnni(const facepipe_qconv_params *params);

#endif
