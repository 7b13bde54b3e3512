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

    public static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }
}
