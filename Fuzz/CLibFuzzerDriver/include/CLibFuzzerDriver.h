#ifndef FACEPIPE_LIBFUZZER_DRIVER_H
#define FACEPIPE_LIBFUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver (`LLVMFuzzerRunDriver`, from the toolchain's
/// `libclang_rt.fuzzer_no_main`) with the command line and `test` as the
/// fuzz target. A C shim because SwiftPM names an executable's entry point
/// itself (`<module>_main`), so libFuzzer's own `main` cannot be used.
int facepipe_fuzz_run(int argc, char **argv, int (*test)(const uint8_t *data, size_t size));

/// An anonymous in-memory file (`memfd_create`, which Swift's Glibc module
/// does not declare), for targets that read through a descriptor.
int facepipe_fuzz_memory_file(void);

/// libFuzzer's own mutations (`LLVMFuzzerMutate`, in the fuzzer runtime), for a
/// target's custom mutator (`LLVMFuzzerCustomMutator`) to fall back on.
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

#endif
