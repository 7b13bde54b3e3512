#ifndef C_INT8_POINTWISE_H
#define C_INT8_POINTWISE_H

#include <stdint.h>

/// An int8 1×1 convolution (a GEMM over pixels) of float NHWC pixels
/// (batch 1), quantized as it reads them: each pixel's channels are scaled
/// by their own largest magnitude m to integers in [−127, 127] and stored
/// offset by 128 as bytes (`q`), with the pixel's scale `s = m/127` (0 for
/// a zero pixel); weights are 8-bit in [−127, 127] per output channel (`k`,
/// scale `t`).
/// For pixel p and output channel o:
///
///     A   = Σ_i q[p][i]·k[o][i]                       (int32, exact)
///     v   = fma((float)(A − Z[o]), t[o]·s[p], bias[o])  with Z[o] = 128·Σ_i k[o][i]
///     out = second(first(v) + residual[p][o])
///
/// where the residual (if any) has `residual_channels` ≤ O channels per
/// pixel and adds 0 beyond them. Quantizing a pixel is
/// `q = clamp(rint(x·(127/m)), −127, 127) + 128` in the default rounding
/// (to nearest, ties to even). Every kernel computes these same integers
/// and this same float sequence, so all give the same bits.
///
/// Weights are packed `[ceil(O/16)][G][16][4]` bytes with `G = ceil(I/4)`:
/// each group of four input channels holds its four weights for each of 16
/// output channels (zero beyond I and O). `zero_sums`, `scales`, `bias`
/// and PReLU slopes hold `roundUp16(O)` values (zero beyond O).
typedef enum {
    FACEPIPE_QPW_NONE = 0,
    FACEPIPE_QPW_RELU = 1,
    FACEPIPE_QPW_RELU6 = 2,
    FACEPIPE_QPW_PRELU = 3,
} facepipe_qpw_activation;

typedef struct {
    /// `pixels × in_channels` floats.
    const float *input;
    int32_t pixels, in_channels, out_channels;
    const int8_t *weights;
    const int32_t *zero_sums;
    const float *scales;
    const float *bias;
    /// NULL, or `pixels × residual_channels` floats.
    const float *residual;
    int32_t residual_channels;
    int32_t first, second;
    /// PReLU slopes of `first` / `second` (NULL unless PRELU).
    const float *first_slopes, *second_slopes;
    /// `pixels × out_channels` floats.
    float *output;
} facepipe_qpw_params;

/// The most input channels the kernels take (a tile's quantized pixels live on the stack).
enum { FACEPIPE_QPW_MAX_IN_CHANNELS = 512 };

/// Plain C, one product at a time: the reference.
void facepipe_qpw_u8s8_1x1_scalar(const facepipe_qpw_params *params);
/// AVX2: both operands widened to 16 bits (pixels as `q − 128`), `vpmaddwd` (exact: `vpmaddubsw`
/// would saturate on 8-bit weights); tiles of 6 pixels × 8 channels.
void facepipe_qpw_u8s8_6x8_avx2(const facepipe_qpw_params *params);
/// AVX-512 VNNI: `vpdpbusd`; tiles of 8 pixels × 32 channels (a last 17–24 as 16 + 8).
void facepipe_qpw_u8s8_8x32_avx512vnni(const facepipe_qpw_params *params);

#endif
