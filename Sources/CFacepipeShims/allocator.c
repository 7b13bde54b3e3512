#include "CFacepipeShims.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void facepipe_tune_allocator(int arenas, int mmap_threshold) {
#if defined(__GLIBC__)
    // glibc gives every thread that allocates concurrently its own arena
    // (up to 8 per core), and each keeps its freed memory: with Swift's
    // cooperative pool that is several copies of a worker's peak footprint.
    if (arenas > 0) mallopt(M_ARENA_MAX, arenas);
    // A fixed threshold also stops glibc raising it to the size of each
    // large block freed (up to 32 MiB), after which picture-sized buffers
    // come from the arenas and their freed space stays resident, scattered.
    if (mmap_threshold > 0) mallopt(M_MMAP_THRESHOLD, mmap_threshold);
#else
    (void)arenas;
    (void)mmap_threshold;
#endif
}
