#ifndef FACEPIPE_PNG_ENCODE_H
#define FACEPIPE_PNG_ENCODE_H

#include <stddef.h>
#include <stdint.h>

/// PNG row filters (bit mask, same values as libpng's PNG_FILTER_*).
enum {
    FACEPIPE_PNG_FILTER_NONE = 0x08,
    FACEPIPE_PNG_FILTER_SUB = 0x10,
    FACEPIPE_PNG_FILTER_UP = 0x20,
    FACEPIPE_PNG_FILTER_AVG = 0x40,
    FACEPIPE_PNG_FILTER_PAETH = 0x80,
    FACEPIPE_PNG_FILTER_ALL = 0xF8
};

/// What to write. Rows are `height` rows of `row_stride` bytes each, packed as
/// the PNG stores them (sub-byte depths packed MSB first, 16-bit samples big-endian).
typedef struct facepipe_png_encode_params {
    uint32_t width;
    uint32_t height;
    /// PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    int color_type;
    /// 1, 2, 4, 8 or 16 (as allowed for the colour type).
    int bit_depth;
    /// 0 none, 1 Adam7.
    int interlace;
    /// zlib level 0...9.
    int compression_level;
    /// zlib strategy: 0 default, 1 filtered, 2 huffman only, 3 RLE, 4 fixed.
    int compression_strategy;
    /// Bit mask of FACEPIPE_PNG_FILTER_* (several bits: libpng picks per row).
    int filters;
    const uint8_t *rows;
    size_t row_stride;
    /// Palette: `palette_entries` RGB triplets (colour type 3 only), or NULL.
    const uint8_t *palette;
    int palette_entries;
    /// tRNS for palette images: `trns_count` alpha bytes, or NULL.
    const uint8_t *trns_alpha;
    int trns_count;
    /// tRNS for grey (uses trns_grey) or RGB (uses trns_rgb) images when has_trns_colour != 0.
    int has_trns_colour;
    uint16_t trns_grey;
    uint16_t trns_rgb[3];
    /// Raw eXIf chunk payload (a TIFF header and IFDs), or NULL.
    const uint8_t *exif;
    uint32_t exif_length;
} facepipe_png_encode_params;

/// The encoded file, or an error. Free with `facepipe_png_encode_result_free`.
typedef struct facepipe_png_encode_result {
    /// 0 on success; otherwise `message` says what failed.
    int status;
    uint8_t *data;
    size_t size;
    char message[200];
} facepipe_png_encode_result;

/// Encodes with libpng's classic write API. libpng's longjmp-based error
/// handling stays inside this C function: it never crosses Swift frames.
/// No tIME or text chunks are written, so equal inputs give equal bytes.
void facepipe_png_encode(const facepipe_png_encode_params *params, facepipe_png_encode_result *result);

/// Releases `result->data` (safe to call on a failed or zeroed result).
void facepipe_png_encode_result_free(facepipe_png_encode_result *result);

#endif
