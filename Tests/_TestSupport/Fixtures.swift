import FaceAnalysis
import Foundation

/// Locations of committed fixtures and of set-up data (models, photos).
public enum Fixtures {
    /// The repository root, found from this file's path.
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `Tests/Fixtures/<name>`.
    public static func url(_ name: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name)
    }

    /// `models/<file>` as `make models` leaves it.
    public static func model(_ file: String) -> URL {
        repositoryRoot.appendingPathComponent("models").appendingPathComponent(file)
    }

    /// `datasets/sources/<file>`: photos extracted from registry packages by `make sources`.
    public static func photo(_ file: String) -> URL {
        repositoryRoot.appendingPathComponent("datasets/sources").appendingPathComponent(file)
    }

    /// Whether tests that need the MediaPipe models run: when every model
    /// file is present, and always under `make test` (which sets
    /// `FACEPIPE_REQUIRE_MODELS=1` after fetching them), where a missing
    /// model must fail a test instead of skipping it.
    public static let modelsAvailable: Bool = {
        if ProcessInfo.processInfo.environment["FACEPIPE_REQUIRE_MODELS"] == "1" { return true }
        return FaceModel.allCases.allSatisfy { FileManager.default.fileExists(atPath: model($0.fileName).path) }
    }()

    public static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }
}
