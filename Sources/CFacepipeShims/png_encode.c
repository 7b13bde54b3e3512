#include "facepipe_png_encode.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Output sink and error slot shared with libpng's callbacks.
typedef struct encode_state {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int out_of_memory;
    char message[200];
} encode_state;

static void on_error(png_structp png, png_const_charp message) {
    encode_state *state = (encode_state *)png_get_io_ptr(png);
    if (state != NULL && state->message[0] == '\0') {
        snprintf(state->message, sizeof state->message, "libpng: %s", message);
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message; /* Encoding warnings carry no information the caller can act on. */
}

static void on_write(png_structp png, png_bytep bytes, size_t length) {
    encode_state *state = (encode_state *)png_get_io_ptr(png);
    if (length > SIZE_MAX - state->size) {
        state->out_of_memory = 1;
        png_error(png, "output size overflow");
    }
    size_t needed = state->size + length;
    if (needed > state->capacity) {
        size_t capacity = state->capacity < 4096 ? 4096 : state->capacity;
        while (capacity < needed) {
            capacity = capacity > SIZE_MAX / 2 ? needed : capacity * 2;
        }
        uint8_t *grown = (uint8_t *)realloc(state->data, capacity);
        if (grown == NULL) {
            state->out_of_memory = 1;
            png_error(png, "out of memory for the output buffer");
        }
        state->data = grown;
        state->capacity = capacity;
    }
    memcpy(state->data + state->size, bytes, length);
    state->size = needed;
}

static void on_flush(png_structp png) { (void)png; }

static void fail(facepipe_png_encode_result *result, const char *message) {
    result->status = 1;
    snprintf(result->message, sizeof result->message, "%s", message);
}

void facepipe_png_encode(const facepipe_png_encode_params *params, facepipe_png_encode_result *result) {
    memset(result, 0, sizeof *result);
    if (params == NULL || params->rows == NULL || params->width == 0 || params->height == 0) {
        fail(result, "empty image or missing rows");
        return;
    }
    if (params->compression_level < 0 || params->compression_level > 9) {
        fail(result, "compression level must be 0...9");
        return;
    }
    encode_state state;
    memset(&state, 0, sizeof state);

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
    if (png == NULL) {
        fail(result, "libpng: cannot create a write struct");
        return;
    }
    png_infop info = png_create_info_struct(png);
    /* Both are freed on every path below; volatile because they live across setjmp. */
    png_bytep *volatile row_pointers = NULL;
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        fail(result, "libpng: cannot create an info struct");
        return;
    }
    png_set_write_fn(png, &state, on_write, on_flush);

    if (setjmp(png_jmpbuf(png))) {
        free((void *)row_pointers);
        png_destroy_write_struct(&png, &info);
        free(state.data);
        fail(result, state.message[0] != '\0' ? state.message : "libpng: unknown write error");
        return;
    }

    png_set_IHDR(png, info, params->width, params->height, params->bit_depth, params->color_type,
                 params->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (params->palette != NULL && params->palette_entries > 0) {
        png_color colours[256];
        int count = params->palette_entries > 256 ? 256 : params->palette_entries;
        for (int i = 0; i < count; i++) {
            colours[i].red = params->palette[3 * i];
            colours[i].green = params->palette[3 * i + 1];
            colours[i].blue = params->palette[3 * i + 2];
        }
        png_set_PLTE(png, info, colours, count);
    }
    if (params->trns_alpha != NULL && params->trns_count > 0) {
        png_set_tRNS(png, info, params->trns_alpha, params->trns_count, NULL);
    } else if (params->has_trns_colour) {
        png_color_16 colour;
        memset(&colour, 0, sizeof colour);
        colour.gray = params->trns_grey;
        colour.red = params->trns_rgb[0];
        colour.green = params->trns_rgb[1];
        colour.blue = params->trns_rgb[2];
        png_set_tRNS(png, info, NULL, 0, &colour);
    }
#ifdef PNG_eXIf_SUPPORTED
    if (params->exif != NULL && params->exif_length > 0) {
        png_set_eXIf_1(png, info, params->exif_length, (png_bytep)params->exif);
    }
#endif
    png_set_compression_level(png, params->compression_level);
    png_set_compression_strategy(png, params->compression_strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, params->filters & PNG_ALL_FILTERS);
    /* A larger zlib output buffer means fewer IDAT chunks and callbacks. */
    png_set_compression_buffer_size(png, 1 << 17);

    png_write_info(png, info);

    row_pointers = (png_bytep *)malloc(sizeof(png_bytep) * params->height);
    if (row_pointers == NULL) {
        png_error(png, "out of memory for row pointers");
    }
    for (uint32_t y = 0; y < params->height; y++) {
        row_pointers[y] = (png_bytep)(params->rows + (size_t)y * params->row_stride);
    }
    png_write_image(png, row_pointers);
    png_write_end(png, info);

    free((void *)row_pointers);
    png_destroy_write_struct(&png, &info);
    result->status = 0;
    result->data = state.data;
    result->size = state.size;
}

void facepipe_png_encode_result_free(facepipe_png_encode_result *result) {
    if (result == NULL) return;
    free(result->data);
    result->data = NULL;
    result->size = 0;
}
