import Foundation
import _TestSupport

/// The Python readers of exports (`pycocotools`, `webdataset`), from the
/// pinned `.venv-export` that `make export-venv` creates, run through
/// `scripts/check-export.py`. Tests that need them run when the venv exists
/// and always under `make test` (`FACEPIPE_REQUIRE_EXPORT_READERS=1`), where
/// a missing venv fails them instead of skipping them.
enum ExportReaders {
    static let python = Fixtures.repositoryRoot.appendingPathComponent(".venv-export/bin/python")
    static let script = Fixtures.repositoryRoot.appendingPathComponent("scripts/check-export.py")

    static let available: Bool = ProcessInfo.processInfo.environment["FACEPIPE_REQUIRE_EXPORT_READERS"] == "1"
        || FileManager.default.isExecutableFile(atPath: python.path)

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `check-export.py ARGUMENTS` and returns the JSON object it prints.
    static func check(_ arguments: [String]) throws -> [String: Any] {
        try run(script, arguments)
    }

    /// Runs the venv's Python on `script ARGUMENTS` and returns the JSON object it prints.
    static func run(_ script: URL, _ arguments: [String]) throws -> [String: Any] {
        let name = script.lastPathComponent
        let result = try ChildProcess.run(python.path, [script.path] + arguments)
        guard result.status == 0 else {
            throw Failure(description: "\(name) \(arguments.joined(separator: " ")) exited \(result.status): \(result.errors)")
        }
        guard let object = try JSONSerialization.jsonObject(with: Data(result.output)) as? [String: Any] else {
            throw Failure(description: "\(name) printed no JSON object: \(String(decoding: result.output, as: UTF8.self))")
        }
        return object
    }
}
