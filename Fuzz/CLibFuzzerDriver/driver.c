#define _GNU_SOURCE
#include <sys/mman.h>
#include "CLibFuzzerDriver.h"

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

int facepipe_fuzz_run(int argc, char **argv, int (*test)(const uint8_t *data, size_t size)) {
    return LLVMFuzzerRunDriver(&argc, &argv, test);
}

int facepipe_fuzz_memory_file(void) {
    return memfd_create("facepipe-fuzz", 0);
}
