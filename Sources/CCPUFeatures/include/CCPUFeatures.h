#ifndef CCPUFEATURES_H
#define CCPUFEATURES_H

/// 1 when this CPU runs AVX-512 F, BW, DQ and VL (what code compiled for
/// skylake-avx512 uses), 0 otherwise or on a non-x86 CPU.
int facepipe_cpu_has_avx512(void);

/// Asks the CPU to start loading the cache line holding `address` (a hint:
/// no fault, no effect on results). For gathers whose addresses the
/// hardware prefetcher cannot guess.
static inline void facepipe_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
