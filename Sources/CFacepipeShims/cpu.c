#include "CFacepipeShims.h"
#include <string.h>

static char missing[64];

const char *facepipe_cpu_missing_features(void) {
    missing[0] = '\0';
#if defined(FACEPIPE_REQUIRES_X86_V3) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2")) strcat(missing, "avx2 ");
    if (!__builtin_cpu_supports("fma")) strcat(missing, "fma ");
    if (!__builtin_cpu_supports("f16c")) strcat(missing, "f16c ");
    size_t n = strlen(missing);
    if (n > 0) missing[n - 1] = '\0';
#endif
    return missing;
}

int facepipe_cpu_supports_build_target(void) {
    return facepipe_cpu_missing_features()[0] == '\0';
}
