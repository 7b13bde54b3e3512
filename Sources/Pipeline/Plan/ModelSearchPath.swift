import FaceAnalysis
import Foundation

/// Where facepipe looks for the verified models, in order: `--models DIR`,
/// `$FACEPIPE_MODELS`, the installed share folder
/// (`<binary's folder>/../share/facepipe/models`), the checkout the binary
/// was built from (`<repository>/models`), then `~/.cache/facepipe/models`.
///
/// The search is a value built from the option, an environment dictionary
/// and paths, so it never reads the process's own environment itself. A run
/// uses the first place whose folder holds every model file its pipeline
/// needs; when none does, ``notFound(file:)`` names every place in order.
public struct ModelSearchPath: Sendable, Equatable {
    /// One place to look: where it comes from and its folder (nil when the
    /// option is not given or the variable is not set).
    public struct Place: Sendable, Equatable {
        /// `--models`, `$FACEPIPE_MODELS`, `installed`, `checkout` or `user cache`.
        public let origin: String
        public let folder: URL?
    }

    /// Every place, in search order.
    public let places: [Place]

    /// The places for a process with these inputs: `option` is `--models`
    /// (nil when not given), `environment` holds `FACEPIPE_MODELS` and
    /// `HOME`, `executable` is the running binary, `checkout` the repository
    /// root it was built from.
    public init(option: String?, environment: [String: String], executable: URL?, checkout: URL?) {
        func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        places = [
            Place(origin: "--models", folder: nonEmpty(option).map { URL(fileURLWithPath: $0, isDirectory: true) }),
            Place(origin: "$FACEPIPE_MODELS", folder: nonEmpty(environment["FACEPIPE_MODELS"]).map {
                URL(fileURLWithPath: $0, isDirectory: true)
            }),
            Place(origin: "installed", folder: executable.map {
                $0.deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("share/facepipe/models", isDirectory: true).standardizedFileURL
            }),
            Place(origin: "checkout", folder: checkout?.appendingPathComponent("models", isDirectory: true)),
            Place(origin: "user cache", folder: nonEmpty(environment["HOME"]).map {
                URL(fileURLWithPath: $0, isDirectory: true).appendingPathComponent(".cache/facepipe/models", isDirectory: true)
            }),
        ]
    }

    /// The first folder that holds every file in `files`, or nil.
    /// `fileExists` answers for a path (tests pass their own).
    public func folder(holding files: [String],
                       fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> URL? {
        places.lazy.compactMap(\.folder).first { folder in
            files.allSatisfy { fileExists(folder.appendingPathComponent($0).path) }
        }
    }

    /// The folder to compile `pipeline` with: the first that holds all its
    /// models, else the first place given (its compile error then names the
    /// missing file, which ``notFound(file:)`` turns into the full list).
    public func folder(for pipeline: Pipeline) -> URL {
        folder(holding: pipeline.models.map(\.fileName))
            ?? places.lazy.compactMap(\.folder).first
            ?? URL(fileURLWithPath: "models", isDirectory: true)
    }

    /// The message for a model file found in no place: every place, in order.
    public func notFound(file: String) -> String {
        var lines = ["model \(file) not found; looked in, in order:"]
        for place in places {
            let label = place.origin.padding(toLength: 17, withPad: " ", startingAt: 0)
            lines.append("  \(label) \(place.folder?.path ?? (place.origin == "--models" ? "(not given)" : "(not set)"))")
        }
        lines.append("run `make models`, pass --models DIR or set FACEPIPE_MODELS")
        return lines.joined(separator: "\n")
    }
}
