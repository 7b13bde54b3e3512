import ArgumentParser

/// The measuring commands, in the binary only when it is built with
/// `FACEPIPE_BENCHMARKS` set (Package.swift, "Benchmarks"; `make bench*` and
/// the scripts in benchmarks/ set it): `facepipe bench-codecs` and
/// `facepipe model bench`. The shipped binary holds what users run.
enum BenchmarkCommands {
    /// Top-level commands.
    static var top: [any ParsableCommand.Type] {
        #if FACEPIPE_BENCHMARKS
        [BenchCodecsCommand.self]
        #else
        []
        #endif
    }

    /// Subcommands of `facepipe model`.
    static var model: [any ParsableCommand.Type] {
        #if FACEPIPE_BENCHMARKS
        [ModelBench.self]
        #else
        []
        #endif
    }
}
