import FaceAnalysis
import Foundation
import Pipeline
import Testing

@Suite struct ModelSearchPathTests {
    static let file = FaceModel.shortRangeDetector.fileName

    func search(option: String? = "/opt/flag", environment: [String: String] = ["FACEPIPE_MODELS": "/env", "HOME": "/home/u"])
        -> ModelSearchPath {
        ModelSearchPath(option: option, environment: environment,
                        executable: URL(fileURLWithPath: "/usr/local/bin/facepipe"),
                        checkout: URL(fileURLWithPath: "/src/facepipe"))
    }

    @Test func placesComeInTheDocumentedOrder() {
        #expect(search().places.map(\.origin) == ["--models", "$FACEPIPE_MODELS", "installed", "checkout", "user cache"])
        #expect(search().places.map { $0.folder?.path } == [
            "/opt/flag", "/env", "/usr/local/share/facepipe/models", "/src/facepipe/models", "/home/u/.cache/facepipe/models",
        ])
    }

    @Test func theFirstFolderHoldingEveryFileWins() {
        let present: Set<String> = ["/env/a", "/usr/local/share/facepipe/models/a", "/usr/local/share/facepipe/models/b",
                                    "/home/u/.cache/facepipe/models/a", "/home/u/.cache/facepipe/models/b"]
        #expect(search().folder(holding: ["a"]) { present.contains($0) }?.path == "/env")
        #expect(search().folder(holding: ["a", "b"]) { present.contains($0) }?.path == "/usr/local/share/facepipe/models")
        #expect(search().folder(holding: ["c"]) { present.contains($0) } == nil)
    }

    @Test func unsetPlacesAreSkippedAndNamed() {
        let bare = search(option: nil, environment: ["FACEPIPE_MODELS": ""])
        #expect(bare.places.map { $0.folder == nil } == [true, true, false, false, true])
        let message = bare.notFound(file: Self.file)
        #expect(message.hasPrefix("model \(Self.file) not found; looked in, in order:"))
        let lines = message.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("  --models") && lines[1].hasSuffix("(not given)"))
        #expect(lines[2].hasPrefix("  $FACEPIPE_MODELS") && lines[2].hasSuffix("(not set)"))
        #expect(lines[3].hasSuffix("/usr/local/share/facepipe/models"))
        #expect(lines[4].hasSuffix("/src/facepipe/models"))
        #expect(lines[5].hasPrefix("  user cache") && lines[5].hasSuffix("(not set)"))
    }
}
