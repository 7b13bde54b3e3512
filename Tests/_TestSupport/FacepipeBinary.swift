import Foundation

/// The built `facepipe` binary beside the test bundle (`swift build
/// --build-tests` builds both), for the tests that run it as a user does.
public enum FacepipeBinary {
    public static let url: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return bundle.deletingLastPathComponent().appendingPathComponent("facepipe")
    }()

    /// Whether the process tests run: when the binary is there, and always
    /// under `make test` (`FACEPIPE_REQUIRE_MODELS=1`, which builds it), where
    /// a missing binary must fail them instead of skipping them.
    public static let available: Bool = {
        if ProcessInfo.processInfo.environment["FACEPIPE_REQUIRE_MODELS"] == "1" { return true }
        return FileManager.default.isExecutableFile(atPath: url.path)
    }()
}
