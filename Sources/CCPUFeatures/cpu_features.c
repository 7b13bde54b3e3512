#include "CCPUFeatures.h"

// The one CPU probe of the project: no other file calls
// __builtin_cpu_supports. Bit 31 marks the cached value as probed, so a
// CPU without any of the features is still probed only once.
#define PROBED (1u << 31)

static uint32_t cached;

static uint32_t probe(void) {
    uint32_t features = 0;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.1")) features |= FACEPIPE_CPU_SSE4_1;
    if (__builtin_cpu_supports("pclmul")) features |= FACEPIPE_CPU_PCLMUL;
    if (__builtin_cpu_supports("avx2")) features |= FACEPIPE_CPU_AVX2;
    if (__builtin_cpu_supports("fma")) features |= FACEPIPE_CPU_FMA;
    if (__builtin_cpu_supports("f16c")) features |= FACEPIPE_CPU_F16C;
    if (__builtin_cpu_supports("bmi2")) features |= FACEPIPE_CPU_BMI2;
    if (__builtin_cpu_supports("avx512f")) features |= FACEPIPE_CPU_AVX512F;
    if (__builtin_cpu_supports("avx512bw")) features |= FACEPIPE_CPU_AVX512BW;
    if (__builtin_cpu_supports("avx512cd")) features |= FACEPIPE_CPU_AVX512CD;
    if (__builtin_cpu_supports("avx512dq")) features |= FACEPIPE_CPU_AVX512DQ;
    if (__builtin_cpu_supports("avx512vl")) features |= FACEPIPE_CPU_AVX512VL;
    if (__builtin_cpu_supports("avx512vbmi")) features |= FACEPIPE_CPU_AVX512VBMI;
    if (__builtin_cpu_supports("avx512vnni")) features |= FACEPIPE_CPU_AVX512VNNI;
#endif
    return features;
}

uint32_t facepipe_cpu_features(void) {
    uint32_t value = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);
    if (!(value & PROBED)) {
        // Two threads may both probe; they store the same value.
        value = probe() | PROBED;
        __atomic_store_n(&cached, value, __ATOMIC_RELEASE);
    }
    return value & ~PROBED;
}
