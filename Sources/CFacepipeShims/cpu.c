#include "CFacepipeShims.h"
#include "CCPUFeatures.h"
#include <string.h>

static char missing[64];

const char *facepipe_cpu_missing_features(void) {
    missing[0] = '\0';
#if defined(FACEPIPE_REQUIRES_X86_V3) && (defined(__x86_64__) || defined(__i386__))
    uint32_t features = facepipe_cpu_features();
    if (!(features & FACEPIPE_CPU_AVX2)) strcat(missing, "avx2 ");
    if (!(features & FACEPIPE_CPU_FMA)) strcat(missing, "fma ");
    if (!(features & FACEPIPE_CPU_F16C)) strcat(missing, "f16c ");
    size_t n = strlen(missing);
    if (n > 0) missing[n - 1] = '\0';
#endif
    return missing;
}

int facepipe_cpu_supports_build_target(void) {
    return facepipe_cpu_missing_features()[0] == '\0';
}
