#define _GNU_SOURCE
#include <sys/mman.h>

#include "CMemoryFile.h"

int facepipe_memory_file(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
}
