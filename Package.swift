// swift-tools-version:6.2
import PackageDescription

// MARK: - SIMD target
//
// The inference kernels and image loops are written with SIMD types and
// `addingProduct`. Without a target CPU Swift lowers those to scalar `fmaf`
// calls (measured 0.7 GFLOP/s instead of ~90). The flag lives here, on the two
// targets that hold hot loops, so `swift build`, `swift test` and the Makefile
// all compile the same code. `FACEPIPE_TARGET_CPU=generic swift build` builds
// a portable binary; any other value is passed to `-target-cpu`.
// The command-line entry point is compiled without the flag and checks the CPU
// (CFacepipeShims, through the one probe in CCPUFeatures) before any SIMD code
// runs, so an old CPU gets a message, not SIGILL. These are `unsafeFlags`;
// SwiftPM accepts them in a package that depends on facepipe by version only
// because this manifest's tools version is 6.2 or later (below 6.2 the
// dependency is refused: "contains unsafe build flags");
// scripts/check-url-dependency.sh checks it. See docs/DEVELOPMENT.md,
// "CPU target".
let targetCPU = Context.environment["FACEPIPE_TARGET_CPU"] ?? "haswell"
let simdSwift: [SwiftSetting] = targetCPU == "generic" ? [] : [.unsafeFlags(["-target-cpu", targetCPU])]
let simdC: [CSetting] = targetCPU == "generic" ? [] : [.unsafeFlags(["-march=\(targetCPU)"])]
let cpuCheck: [CSetting] = targetCPU == "generic" ? [] : [.define("FACEPIPE_REQUIRES_X86_V3")]
// The AVX-512 micro-kernels (InferenceWide) are compiled for skylake-avx512 and
// chosen by the planner only when the kernel set is `.avx512` (by default: when
// CCPUFeatures reports AVX-512 F/BW/DQ/VL); a generic build compiles them
// without the flag and never chooses them. See docs/DEVELOPMENT.md "CPU target".
let wideSwift: [SwiftSetting] = targetCPU == "generic"
    ? [] : [.unsafeFlags(["-target-cpu", "skylake-avx512"]), .define("FACEPIPE_WIDE_AVX512")]

// MARK: - Fuzzing
//
// `FACEPIPE_FUZZ=<libFuzzer no-main archive> swift build --build-path .build/fuzz
// --product fuzz-NAME` (what `make fuzz` runs) compiles the fuzzed modules
// with libFuzzer's coverage and AddressSanitizer and adds one libFuzzer
// executable per reader under `Fuzz/`, linked with the toolchain's
// `libclang_rt.fuzzer_no_main` (SwiftPM names an executable's entry point
// itself, so libFuzzer's own `main` cannot be used). Without the variable
// neither exists, so `swift build` and `swift test` never need the fuzzer
// runtime. See docs/DEVELOPMENT.md, Fuzzing.
let fuzzRuntime = Context.environment["FACEPIPE_FUZZ"]
let fuzzing = fuzzRuntime != nil
let fuzzed: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : []

// MARK: - Benchmarks
//
// `FACEPIPE_BENCHMARKS=1 swift build -c release --product facepipe` (what the
// `make bench*` targets and the scripts in benchmarks/ run) compiles the
// measuring commands into facepipe (`facepipe bench-codecs`, `facepipe model
// bench`) and adds the timing probes (`facepipe-probes`, benchmarks/probes).
// Without the variable neither exists: the shipped binary holds what users
// run, and `swift build` builds no probes. See docs/BENCHMARKS.md.
let benchmarks = Context.environment["FACEPIPE_BENCHMARKS"] != nil

let package = Package(
    name: "facepipe",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "facepipe", targets: ["facepipe"]),
        // What a user's package depends on (examples/custom-pipeline, CHANGELOG.md):
        // the DSL, compile() and the runner (Pipeline), facepipe's own pipelines
        // (Pipelines) and the whole command line with theirs added (FacepipeCLI).
        .library(name: "Pipeline", targets: ["Pipeline"]),
        .library(name: "Pipelines", targets: ["Pipelines"]),
        .library(name: "FacepipeCLI", targets: ["FacepipeCLI"]),
    ],
    // Every direct dependency is pinned to an exact released version (no
    // Package.resolved in git: its commit ids depend on where packages are
    // mirrored). `make check-pins` (run by `make test`) fails on any other
    // requirement. To update a pin: change the version here, `swift package
    // resolve`, run `make test`. See README, Prerequisites.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        // Child processes (a pipeline file's compiler and tool; the tests' ffmpeg,
        // browser and export readers): spawned with every other descriptor closed,
        // not through Foundation's Process (docs/DEVELOPMENT.md, "Child processes").
        .package(url: "https://github.com/swiftlang/swift-subprocess", exact: "1.0.2"),
        // FilePath and FileDescriptor in Subprocess's API.
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
        // Tests only: reads the manifest back with a CSV reader that is not facepipe's.
        .package(url: "https://github.com/yaslab/CSV.swift", exact: "2.5.2"),
    ],
    targets: [
        // MARK: System libraries
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]),
        .target(name: "CFacepipeShims", dependencies: ["CPNG", "CTurboJPEG", "CArchive", "CCPUFeatures"], cSettings: cpuCheck),

        // MARK: CPU probe (the only one: C loops and Swift kernel choice all ask it)
        .target(name: "CCPUFeatures"),

        // MARK: Images and archives
        .target(name: "CTensorSampling", cSettings: simdC),
        .target(name: "ImageCore", dependencies: ["CTensorSampling"], swiftSettings: simdSwift + fuzzed),
        .target(name: "ImageCodecs", dependencies: ["ImageCore", "CTurboJPEG", "CPNG", "CFacepipeShims", "CCPUFeatures"], swiftSettings: simdSwift + fuzzed),
        .target(name: "ArchiveIO", dependencies: ["CArchive", "CFacepipeShims"], swiftSettings: fuzzed),
        // Video: demuxing and decoding inputs, encoding redacted video (FFmpeg 5.1).
        .target(name: "VideoIO", dependencies: ["CFFmpeg", "ImageCore"], swiftSettings: fuzzed),

        // MARK: Inference
        .target(name: "TFLite", swiftSettings: fuzzed),
        .target(name: "InferenceWide", swiftSettings: wideSwift),
        // The int8 first-layer kernels: C intrinsics (VNNI, vpmaddubsw), each
        // function compiled for its own instruction set through target
        // attributes, so the target takes no -march flag.
        .target(name: "CInt8Convolution"),
        // memfd_create, which Swift's Glibc module does not import (row rings).
        .target(name: "CMemoryFile"),
        .target(name: "Inference", dependencies: ["TFLite", "InferenceWide", "CCPUFeatures", "CInt8Convolution", "CMemoryFile"],
                swiftSettings: simdSwift + (benchmarks ? [.define("FACEPIPE_BENCHMARKS")] : [])),

        // MARK: Faces and pipelines
        .target(name: "FaceAnalysis", dependencies: [
            "ImageCore", "Inference", "TFLite", "CCPUFeatures",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: simdSwift),
        // Three modules by job (docs/ARCHITECTURE.md, "Modules"): what a
        // pipeline author imports (Pipeline: the DSL, the stages, the compiled
        // plan), the run folder read and written (RunFolders: layout, manifest,
        // run.json, completion records, record packs, stage cache, report,
        // merge) and running a plan (PipelineRunning: inputs, runner, writer,
        // sinks, redacted tars, sharded runs, export). Each depends only on the
        // ones above it; siblings share through `package` access.
        .target(name: "Pipeline", dependencies: [
            "ImageCore", "ImageCodecs", "FaceAnalysis", "Inference",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: fuzzed),
        .target(name: "RunFolders", dependencies: [
            "Pipeline", "ArchiveIO",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: fuzzed),
        .target(name: "PipelineRunning", dependencies: [
            "Pipeline", "RunFolders", "ImageCore", "ImageCodecs", "ArchiveIO", "VideoIO", "FaceAnalysis",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: fuzzed),
        .target(name: "Pipelines", dependencies: ["Pipeline"], path: "pipelines"),
        // MARK: Command line
        // Every verb, as a library: `facepipe` is `FacepipeCommand.main()`, a
        // user's tool `FacepipeCommand.main(adding: [its pipelines])`.
        .target(name: "FacepipeCLI", dependencies: [
            "Pipeline", "RunFolders", "PipelineRunning", "Pipelines", "Inference", "TFLite", "ImageCodecs", "ImageCore", "FaceAnalysis", "CFacepipeShims",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            // SHA-256 of pipeline files and of the cached tools built from them.
            .product(name: "Crypto", package: "swift-crypto"),
            // A pipeline file's compiler and tool, run as child processes.
            .product(name: "Subprocess", package: "swift-subprocess"),
            .product(name: "SystemPackage", package: "swift-system"),
        ], swiftSettings: benchmarks ? [.define("FACEPIPE_BENCHMARKS")] : []),
        // Linked with the Swift standard library and Foundation inside (static), so the
        // installed binary runs on a Debian 12 without the toolchain. Only the link
        // step takes the flags: `swift build --static-swift-stdlib` would compile every
        // module against the static resource folder, which has no Testing module, so
        // the tests could not share the build. Modules compiled against the shared
        // Foundation ask the linker only for libFoundation; the static one is split in
        // the archives named here (what swift_static's Foundation modules link).
        // `make check-install` (scripts/check-install.sh) checks the result.
        .executableTarget(name: "facepipe", dependencies: ["FacepipeCLI"],
        linkerSettings: [.unsafeFlags(["-static-stdlib", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims",
                                       "-l_FoundationCollections", "-lswiftSynchronization", "-lswiftDispatch",
                                       "-ldispatch", "-lBlocksRuntime"], .when(platforms: [.linux]))]),

        // MARK: Tests
        // Tests' child processes (ChildProcess): posix_spawn with every other descriptor closed.
        .target(name: "_CTestSpawn", path: "Tests/_CTestSpawn"),
        .target(name: "_TestSupport", dependencies: ["ImageCore", "FaceAnalysis", "Inference", "_CTestSpawn"], path: "Tests/_TestSupport"),
        .testTarget(name: "ImageCoreTests", dependencies: ["ImageCore", "_TestSupport"]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "ImageCore", "_TestSupport"]),
        .testTarget(name: "ArchiveIOTests", dependencies: ["ArchiveIO", "_TestSupport"]),
        .testTarget(name: "VideoIOTests", dependencies: ["VideoIO", "ImageCore", "_TestSupport"]),
        .testTarget(name: "TFLiteTests", dependencies: ["TFLite", "_TestSupport"]),
        .testTarget(name: "InferenceTests", dependencies: ["Inference", "InferenceWide", "CInt8Convolution", "TFLite", "_TestSupport"]),
        .testTarget(name: "FaceAnalysisTests", dependencies: ["FaceAnalysis", "ImageCodecs", "ImageCore", "Inference", "_TestSupport",
            .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "FacepipeCLITests", dependencies: ["FacepipeCLI", "Pipeline", "Pipelines", "ImageCodecs", "ImageCore", "_TestSupport"]),
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "RunFolders", "PipelineRunning", "Pipelines", "ArchiveIO", "ImageCodecs", "ImageCore", "_TestSupport", "FaceAnalysis",
            .product(name: "Crypto", package: "swift-crypto"), .product(name: "CSV", package: "CSV.swift")]),
    ]
)

// MARK: - Fuzz targets (only with FACEPIPE_FUZZ set; see above)
if fuzzing {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("fuzz-tar", ["ArchiveIO"]),
        ("fuzz-image", ["ImageCodecs"]),
        ("fuzz-exif", ["ImageCodecs"]),
        ("fuzz-tflite", ["TFLite"]),
        ("fuzz-stage-cache", ["Pipeline", "RunFolders"]),
        ("fuzz-run-folder", ["Pipeline", "RunFolders"]),
        ("fuzz-video", ["VideoIO"]),
    ]
    package.targets.append(.target(name: "CLibFuzzerDriver", path: "Fuzz/CLibFuzzerDriver"))
    for target in fuzzTargets {
        package.targets.append(.executableTarget(
            name: target.name, dependencies: target.dependencies + ["CLibFuzzerDriver"], path: "Fuzz/\(target.name)",
            swiftSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])],
            linkerSettings: [.unsafeFlags(["-sanitize=address", "-Xlinker", fuzzRuntime!, "-lstdc++"])]))
        package.products.append(.executable(name: target.name, targets: [target.name]))
    }
}

// MARK: - Timing probes (only with FACEPIPE_BENCHMARKS set; see above)
if benchmarks {
    // Print, never assert; in this package for `package` APIs.
    package.targets.append(.executableTarget(name: "facepipe-probes", dependencies: [
        "FaceAnalysis", "ImageCodecs", "ImageCore", "ArchiveIO", "Inference", "_TestSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
    ], path: "benchmarks/probes", swiftSettings: simdSwift))
}
