// What the bound measurements (benchmarks/*-bound.c) share: the thread's
// CPU clock and one stream of random floats in [−1, 1).
#ifndef FACEPIPE_BENCHMARKS_BOUND_COMMON_H
#define FACEPIPE_BENCHMARKS_BOUND_COMMON_H

#include <stdint.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t bound_state = 0x9E3779B97F4A7C15u;
static float bound_random(void) {
    bound_state ^= bound_state << 13;
    bound_state ^= bound_state >> 7;
    bound_state ^= bound_state << 17;
    return (float)(bound_state >> 40) / (float)(1 << 24) * 2.0f - 1.0f;
}

#endif
