#include "facepipe_png_decode.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct read_state {
    const uint8_t *data;
    size_t size;
    size_t position;
    char message[200];
} read_state;

static void on_read(png_structp png, png_bytep out, size_t length) {
    read_state *state = (read_state *)png_get_io_ptr(png);
    if (length > state->size - state->position) {
        png_error(png, "read beyond end of data");
    }
    memcpy(out, state->data + state->position, length);
    state->position += length;
}

static void on_error(png_structp png, png_const_charp message) {
    read_state *state = (read_state *)png_get_io_ptr(png);
    if (state != NULL && state->message[0] == '\0') {
        snprintf(state->message, sizeof state->message, "%s", message);
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

int facepipe_png_decode_rgba8(const uint8_t *data, size_t size, uint32_t expected_width, uint32_t expected_height,
                              uint8_t *destination, char *message, size_t message_capacity) {
    read_state state;
    memset(&state, 0, sizeof state);
    state.data = data;
    state.size = size;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
    if (png == NULL) {
        snprintf(message, message_capacity, "cannot create a read struct");
        return 1;
    }
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile rows = NULL;
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        snprintf(message, message_capacity, "cannot create an info struct");
        return 1;
    }
    png_set_read_fn(png, &state, on_read);
    if (setjmp(png_jmpbuf(png))) {
        free((void *)rows);
        png_destroy_read_struct(&png, &info, NULL);
        snprintf(message, message_capacity, "%s", state.message[0] ? state.message : "unknown read error");
        return 1;
    }
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    if (width != expected_width || height != expected_height) {
        png_error(png, "IHDR size differs from the one checked");
    }
    int color_type = png_get_color_type(png, info);
    png_set_expand(png); /* palette → RGB, grey < 8 bits → 8 bits, tRNS → alpha */
    png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER); /* no-op when alpha exists */
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "unexpected row size after transforms");
    }
    rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
    if (rows == NULL) {
        png_error(png, "out of memory for row pointers");
    }
    for (png_uint_32 y = 0; y < height; y++) {
        rows[y] = destination + (size_t)y * width * 4;
    }
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free((void *)rows);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}
