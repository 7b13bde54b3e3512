#ifndef C_QS8_H
#define C_QS8_H

#include <stdint.h>

/// Static int8 ("QS8", as XNNPACK runs it): activations held as bytes `b`
/// on a fixed grid per tensor, value `S·(b − z)`, with `z = 0` for a
/// non-negative tensor and `z = 128` for a signed one. Every tensor is NHWC,
/// batch 1, pixels and rows contiguous.
///
/// Each operation sums integers exactly and rounds once, in one float
/// epilogue written the same way in every kernel: `fmaf` where it says fma,
/// plain products and sums elsewhere (the files are compiled with
/// `FP_CONTRACT OFF`), a clamp `v = v > lo ? v : lo; v = v < hi ? v : hi`
/// in float before any conversion (so a huge or NaN value cannot wrap; NaN
/// goes to `lo`, as `maxps` does), then `rint` in the default mode (nearest,
/// ties to even; `cvtps2dq` under the default MXCSR). So every kernel of an
/// operation writes the same bytes (or float bits) as its scalar reference,
/// on every CPU.

// MARK: - 1×1 convolution

/// A 1×1 convolution (a GEMM over pixels) of non-negative bytes (`z = 0`)
/// with 8-bit weights, for pixel p and output channel o:
///
///     A = Σ_i input[p][i]·k[o][i]                      (int32, exact)
///     v = fmaf((float)A, multipliers[o], bias[o])
///     bytes:  clamp(v, −127, 127), rint, stored + 128  (a signed grid, z = 128)
///     floats: v as is                                  (no activation)
///
/// The weights are packed as `int8_pointwise.h`'s (`Int8PointwiseWeights`):
/// `[ceil(O/16)][G][16][4]` bytes with `G = ceil(I/4)`, each group of four
/// input channels holding its four weights for each of 16 output channels,
/// zero beyond I and O, in −127…127. `multipliers` and `bias` hold
/// `roundUp16(O)` floats (zero beyond O).
typedef struct {
    /// `pixels × in_channels` bytes.
    const uint8_t *input;
    /// `pixels` ≥ 1, `in_channels` ≤ `FACEPIPE_QS8_PW_MAX_IN_CHANNELS`, `out_channels` ≥ 1.
    int32_t pixels, in_channels, out_channels;
    const int8_t *weights;
    const float *multipliers;
    const float *bias;
    /// Exactly one is non-NULL: `pixels × out_channels` bytes or floats.
    uint8_t *output_bytes;
    float *output_floats;
} facepipe_qs8_pw_params;

/// The most input channels the 1×1 kernels take (a tile's pixels may be copied to the stack).
enum { FACEPIPE_QS8_PW_MAX_IN_CHANNELS = 512 };

/// Plain C, one product at a time: the reference.
void facepipe_qs8_pw_1x1_scalar(const facepipe_qs8_pw_params *params);
/// AVX2: bytes widened to 16 bits, `vpmaddwd` (`vpmaddubsw` would saturate); tiles of 6 pixels × 8 channels.
void facepipe_qs8_pw_6x8_avx2(const facepipe_qs8_pw_params *params);
/// AVX-512 VNNI: `vpdpbusd` on the bytes as they are (no offset, so no
/// correction); tiles of 4 pixels × 64 channels (8 × 32, 8 × 16 or 8 × 8
/// for the last channels). Bytes out are packed four vectors to a store
/// where their 64 lie together (a pixel's 64 channels, two pixels' 32,
/// four pixels' 16).
void facepipe_qs8_pw_4x64_avx512vnni(const facepipe_qs8_pw_params *params);

// MARK: - 3×3 depthwise convolution

/// A 3×3 depthwise convolution, stride 1, one pixel of zero padding left and
/// right, of signed bytes (`z = 128`) to non-negative bytes (`z = 0`) through
/// ReLU. Output row r reads input rows `r − pad_top + 0, 1, 2`; input rows
/// outside `[0, in_height)` and columns outside `[0, width)` are padding, of
/// value zero (byte 128). For output pixel (r, x) and channel c:
///
///     A = Σ over the 9 taps of (x − 128)·k               (int32, exact; padding adds 0)
///     v = fmaf((float)A, multipliers[c], bias[c])
///     out = rint(clamp(v, 0, 255))
///
/// `taps` is `[9][channels]` (the 3×3 window row-major, in −127…127). The
/// engine calls it on windows of rows: `out_height` ≥ 1, `in_height` ≥ 1,
/// any `pad_top` (rows past the input are padding too).
typedef struct {
    /// `in_height × width × channels` bytes.
    const uint8_t *input;
    int32_t in_height, out_height, width, channels;
    int32_t pad_top;
    const int8_t *taps;
    /// `channels` floats each.
    const float *multipliers, *bias;
    /// `out_height × width × channels` bytes.
    uint8_t *output;
} facepipe_qs8_dw_params;

/// Plain C, one tap at a time: the reference (any channel count).
void facepipe_qs8_dw3x3_scalar(const facepipe_qs8_dw_params *params);
/// AVX2: bytes widened to floats and summed with FMAs, exact because every
/// product and partial sum is an integer under 2²⁴; one row × 8 pixels × 8
/// channels. Channels a multiple of 4 (others run the scalar kernel).
void facepipe_qs8_dw3x3_8px_avx2(const facepipe_qs8_dw_params *params);
/// AVX-512 VNNI + VBMI: each output pixel's three horizontal taps of a row
/// gathered by one `vpermb` into 4-byte groups, one `vpdpbusd` a row of
/// taps; blocks of four rows × four pixels of a 16-channel plane. A 16-,
/// 32- or 64-channel map's interior is read in place; its border columns
/// (and maps of other channel counts) from strips copied to the stack with
/// their padding. Channels a multiple of 16, at most 512 (others run the
/// AVX2 kernel).
void facepipe_qs8_dw3x3_4x4_avx512vbmi(const facepipe_qs8_dw_params *params);

// MARK: - Byte maps

/// 2×2 max pool, stride 2, VALID, on bytes of any grid (a max commutes
/// with the grid): output (r, x) is the largest of input rows 2r, 2r + 1
/// at columns 2x, 2x + 1, channel by channel. `input` has rows of
/// `in_width × channels` bytes (`in_width` ≥ 2·`out_width`).
void facepipe_qs8_maxpool2x2_scalar(const uint8_t *input, int32_t in_width, int32_t out_height, int32_t out_width,
                                    int32_t channels, uint8_t *output);
void facepipe_qs8_maxpool2x2_avx2(const uint8_t *input, int32_t in_width, int32_t out_height, int32_t out_width,
                                  int32_t channels, uint8_t *output);
/// AVX-512 F + BW + VL.
void facepipe_qs8_maxpool2x2_avx512(const uint8_t *input, int32_t in_width, int32_t out_height, int32_t out_width,
                                    int32_t channels, uint8_t *output);

/// The sum of two non-negative byte tensors on a third non-negative grid:
/// `out = rint(clamp(fmaf((float)a, ma, (float)b·mb), 0, 255))`, `count` bytes.
void facepipe_qs8_add_scalar(const uint8_t *a, const uint8_t *b, float ma, float mb, uint8_t *output, int64_t count);
void facepipe_qs8_add_avx2(const uint8_t *a, const uint8_t *b, float ma, float mb, uint8_t *output, int64_t count);
/// AVX-512 F + BW + VL.
void facepipe_qs8_add_avx512(const uint8_t *a, const uint8_t *b, float ma, float mb, uint8_t *output, int64_t count);

/// Floats onto a non-negative grid: `out = rint(clamp(x·inverse_scale, 0, 255))`, `count` values.
void facepipe_qs8_quantize_scalar(const float *input, float inverse_scale, uint8_t *output, int64_t count);
void facepipe_qs8_quantize_avx2(const float *input, float inverse_scale, uint8_t *output, int64_t count);
/// AVX-512 F + BW + VL.
void facepipe_qs8_quantize_avx512(const float *input, float inverse_scale, uint8_t *output, int64_t count);

#endif
