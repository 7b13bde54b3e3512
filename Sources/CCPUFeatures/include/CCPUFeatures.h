#ifndef CCPUFEATURES_H
#define CCPUFEATURES_H

/// 1 when this CPU runs AVX-512 F, BW, DQ and VL (what code compiled for
/// skylake-avx512 uses), 0 otherwise or on a non-x86 CPU.
int facepipe_cpu_has_avx512(void);

#endif
