#ifndef CCPUFEATURES_H
#define CCPUFEATURES_H

#include <stdint.h>

/// Instruction-set extensions of the running CPU, one bit each, as returned
/// by `facepipe_cpu_features`. Every C loop and every Swift kernel choice
/// asks this one probe (Swift: `CPUFeatures` in `Inference`).
enum {
    FACEPIPE_CPU_SSE4_1 = 1u << 0,
    FACEPIPE_CPU_PCLMUL = 1u << 1,
    FACEPIPE_CPU_AVX2 = 1u << 2,
    FACEPIPE_CPU_FMA = 1u << 3,
    FACEPIPE_CPU_F16C = 1u << 4,
    FACEPIPE_CPU_BMI2 = 1u << 5,
    FACEPIPE_CPU_AVX512F = 1u << 6,
    FACEPIPE_CPU_AVX512BW = 1u << 7,
    FACEPIPE_CPU_AVX512CD = 1u << 8,
    FACEPIPE_CPU_AVX512DQ = 1u << 9,
    FACEPIPE_CPU_AVX512VL = 1u << 10,
    FACEPIPE_CPU_AVX512VBMI = 1u << 11,
    FACEPIPE_CPU_AVX512VNNI = 1u << 12,
};

/// The `FACEPIPE_CPU_*` bits of the running CPU (0 on a non-x86 CPU).
/// Probed on the first call and cached; safe from any thread. Compiled
/// without any -march flag, so it runs on any x86-64 CPU.
uint32_t facepipe_cpu_features(void);

/// 1 when `facepipe_cpu_features()` has every bit of `required`, 0 otherwise.
static inline int facepipe_cpu_has(uint32_t required) { return (facepipe_cpu_features() & required) == required; }

/// Asks the CPU to start loading the cache line holding `address` (a hint:
/// no fault, no effect on results). For gathers whose addresses the
/// hardware prefetcher cannot guess.
static inline void facepipe_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
