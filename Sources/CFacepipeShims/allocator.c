#include "CFacepipeShims.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void facepipe_tune_allocator(int arenas) {
#if defined(__GLIBC__)
    // glibc gives every thread that allocates concurrently its own arena
    // (up to 8 per core), and each keeps its freed memory: with Swift's
    // cooperative pool that is several copies of a worker's peak footprint.
    if (arenas > 0) mallopt(M_ARENA_MAX, arenas);
#else
    (void)arenas;
#endif
}
