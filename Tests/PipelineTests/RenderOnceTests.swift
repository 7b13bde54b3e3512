import Dispatch
import Foundation
import ImageCore
import Pipeline
import PipelineRunning
import RunFolders
import Synchronization
import Testing

/// Render once (issue 52): after the ordered passes, one encode step makes
/// every byte of a position's outputs on tasks beside the workers; the
/// writer's task (the producer) only places them. Before, the writer drew a
/// video frame's labels and encoded its picture itself, one frame after
/// another, and encoded the JSON a second time.
///
/// Shown with two frames' pictures (`videoFramesAsImages`, each frame an
/// image file, as `--output-tar` writes them): the first frame's encoding
/// waits for the second's to begin, at most ``patience`` seconds. On the
/// writer's one task that cannot happen (the second waits for the first),
/// so the first gives up and the rendezvous is missed. Needs two cores: the
/// waiting encoder holds one of the cooperative pool's threads.
@Suite(.enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2, "the encode steps need two threads to meet"))
struct RenderOnceTests {
    static let patience = 10.0

    /// The first encoding waits for the second to begin.
    final class Rendezvous: @unchecked Sendable {
        // `@unchecked`: the semaphore is thread-safe; the rest are atomics.
        private let arrived = Atomic<Int>(0)
        private let second = DispatchSemaphore(value: 0)
        let met = Atomic<Bool>(false)
        let encoded = Atomic<Int>(0)

        func encode(_ image: RGBImage) -> [UInt8] {
            switch arrived.add(1, ordering: .sequentiallyConsistent).newValue {
            case 1: met.store(second.wait(timeout: .now() + RenderOnceTests.patience) == .success, ordering: .sequentiallyConsistent)
            case 2: second.signal()
            default: break
            }
            encoded.add(1, ordering: .sequentiallyConsistent)
            return Array("P6\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
        }
    }

    @Test func twoFramesAreEncodedAtOnceOffTheWritersTask() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4")
        try VideoClips.movingSquare(clip, frames: 6)
        let rendezvous = Rendezvous()
        let format = ImageOutputFormat.custom(name: "ppm-rendezvous", fileExtension: "ppm") { rendezvous.encode($0) }
        let pipeline = Pipeline("render-once") {
            Decode()
            Orient()
            DetectReddish()
            Annotate()
            WriteOutputs(images: format, faceJSON: true)
        }.trackingFacesInVideo()
        let plan = try pipeline.compile(modelsDirectory: URL(fileURLWithPath: "/nonexistent-models"))
        let out = folder.appendingPathComponent("out")
        var configuration = RunConfiguration(outputDirectory: out, workers: 2)
        configuration.videoFramesAsImages = true
        let summary = try await PipelineRunner.run(plan, inputs: [try RunInput.fromArgument(clip.path)],
                                                   configuration: configuration, toolVersion: "test")
        #expect(summary.entries == 6 && summary.failedEntries == 0 && summary.writeFailure == nil)
        let encoded = rendezvous.encoded.load(ordering: .sequentiallyConsistent)
        let met = rendezvous.met.load(ordering: .sequentiallyConsistent)
        #expect(encoded == 6, "each frame's picture encoded once")
        #expect(met,
                "the first frame's picture waited \(Self.patience) s for the second's encoding to begin: they were encoded one after the other")
        // What a user reads: one picture and one JSON per frame, the JSON with the frame's tracking id.
        let pictures = try FileManager.default.subpathsOfDirectory(atPath: out.appendingPathComponent("images").path).filter { $0.hasSuffix(".ppm") }
        #expect(pictures.count == 6)
        let jsons = try FileManager.default.subpathsOfDirectory(atPath: out.appendingPathComponent("faces").path).filter { $0.hasSuffix(".json") }
        #expect(jsons.count == 6)
        let ids = try manifestRows(out).map { $0[Manifest.columns.firstIndex(of: "tracking_id")!] }
        #expect(!ids.isEmpty && ids.allSatisfy { $0 == "1" }, "tracking ids: \(ids)")
    }
}
