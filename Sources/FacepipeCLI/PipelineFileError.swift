/// Why a pipeline file (`facepipe run --pipeline MyPipeline.swift …`) could not be
/// compiled or started. Every case is a usage or setup problem: exit 2,
/// nothing written outside the pipeline cache.
package enum PipelineFileError: Error, Equatable, CustomStringConvertible {
    /// The value of --pipeline ends in `.swift` but names no regular file.
    case notAFile(path: String)
    /// The file's path holds control characters (a newline would split it in the compiler's response files).
    case unprintableName(path: String)
    /// The file cannot be read.
    case unreadable(path: String, reason: String)
    /// The file has no top-level `let pipeline = Pipeline(…)` (or `var`).
    case noPipelineDeclaration(path: String)
    /// Neither an installed kit (PREFIX/lib/facepipe) nor a build folder next to the executable.
    case kitNotFound(executable: String, searched: [String])
    /// The kit is there but a file it needs is missing or malformed.
    case kitDamaged(path: String, reason: String)
    /// No `swiftc` on PATH.
    case compilerNotFound(path: String)
    /// `swiftc --version` differs from the compiler facepipe's modules were built with.
    case compilerMismatch(found: String, builtWith: String)
    /// `swiftc --version` could not be run or said nothing.
    case compilerVersionUnreadable(compiler: String, reason: String)
    /// The compiler rejected the file (its own messages were printed above).
    case compileFailed(path: String, status: Int32)
    /// The built tool did not say its pipeline's name.
    case nameUnreadable(path: String, reason: String)
    /// The cache folder could not be created or written.
    case cacheUnwritable(path: String, reason: String)
    /// A folder or file of the cache (or above it) that someone else could
    /// change: not the caller's (or root's, above the cache), writable by
    /// group or others, a link.
    case cacheNotPrivate(path: String, reason: String)
    /// The built tool could not be started.
    case launchFailed(executable: String, reason: String)

    package var description: String {
        switch self {
        case let .notAFile(path):
            return "\(path): no such pipeline file (the value of --pipeline that ends in .swift names a pipeline file to compile)"
        case let .unprintableName(path):
            return "\(path): a pipeline file's path must not hold control characters (a newline, an escape…): rename it"
        case let .unreadable(path, reason):
            return "\(path): cannot read the pipeline file: \(reason)"
        case let .noPipelineDeclaration(path):
            return "\(path) declares no pipeline: a pipeline file declares `let pipeline = Pipeline(\"name\") { … }` at the top level "
                + "(docs/PIPELINES.md, \"A pipeline in one file\")"
        case let .kitNotFound(executable, searched):
            return "pipeline files need facepipe's modules and library, which \(executable) cannot find (looked in "
                + searched.joined(separator: ", ") + "): install facepipe with `make install`, or run facepipe from its build folder"
        case let .kitDamaged(path, reason):
            return "facepipe's modules for pipeline files are damaged: \(path): \(reason) (reinstall with `make install`)"
        case let .compilerNotFound(path):
            return "pipeline files are compiled with swiftc, and there is no swiftc on PATH (\(path))"
        case let .compilerMismatch(found, builtWith):
            return "the swiftc on PATH is \(found), but facepipe's modules were built with \(builtWith): Swift modules load only in "
                + "the compiler that built them, so put that Swift on PATH (or rebuild facepipe with this one)"
        case let .compilerVersionUnreadable(compiler, reason):
            return "\(compiler) --version failed: \(reason)"
        case let .compileFailed(path, status):
            return "\(path) did not compile (swiftc exited \(status); its messages are above)"
        case let .nameUnreadable(path, reason):
            return "the tool built from \(path) did not start: \(reason)"
        case let .cacheUnwritable(path, reason):
            return "cannot write the pipeline cache \(path): \(reason) (set XDG_CACHE_HOME to a writable folder)"
        case let .cacheNotPrivate(path, reason):
            return "the pipeline cache is not yours alone: \(path) \(reason), so someone else could put a program there "
                + "for facepipe to run; nothing was run. Make it yours and not writable by others (chown, chmod go-w), "
                + "remove it, or set XDG_CACHE_HOME to a folder of your own"
        case let .launchFailed(executable, reason):
            return "cannot start \(executable): \(reason)"
        }
    }
}
