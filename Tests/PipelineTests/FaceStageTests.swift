import ArchiveIO
import FaceAnalysis
import Foundation
import ImageCodecs
import ImageCore
import Pipeline
import PipelineRunning
import Pipelines
import RunFolders
import Testing
import _TestSupport

/// A stand-in face engine: red squares are faces (red within JPEG's error
/// of pure red), the mesh is a fixed spiral inside the box. Lets the face
/// stages, the named pipelines and the per-worker engine wiring run without
/// the inference engine. Counts engines ("engine") and detector calls ("detect").
final class RedSquareFaceEngine: FaceEngine {
    let made: CallCounter

    init(made: CallCounter) {
        self.made = made
        made.hit("engine")
    }

    func detect(in image: RGBImage, options: FaceDetectionOptions) throws -> [FaceDetection] {
        made.hit("detect")
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 3
                if image.pixels[i] >= 224, image.pixels[i + 1] <= 32, image.pixels[i + 2] <= 32 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        guard maxX >= 0 else { return [] }
        let box = Rect(x: Float(minX), y: Float(minY), width: Float(maxX - minX + 1), height: Float(maxY - minY + 1))
        let cx = box.x + box.width / 2, cy = box.y + box.height / 2
        let keypoints = [Point(x: cx - box.width / 4, y: cy - box.height / 6), Point(x: cx + box.width / 4, y: cy - box.height / 6),
                         Point(x: cx, y: cy), Point(x: cx, y: cy + box.height / 4),
                         Point(x: box.x, y: cy), Point(x: box.x + box.width, y: cy)]
        return [FaceDetection(box: box, score: 0.93, keypoints: keypoints)]
    }

    func landmarkOutcome(for detection: FaceDetection, in image: RGBImage, iris: Bool) throws -> LandmarkOutcome {
        .found(landmarks(for: detection, iris: iris))
    }

    func landmarks(for detection: FaceDetection, iris: Bool) -> FaceLandmarks {
        let b = detection.box
        func spiral(_ count: Int, _ cx: Float, _ cy: Float, _ r: Float) -> [Point3] {
            (0..<count).map { i in
                let angle = Float(i) * 2.399963, radius = r * (Float(i) / Float(count)).squareRoot()
                return Point3(x: cx + radius * cos(angle), y: cy + radius * sin(angle), z: Float(i % 7) - 3)
            }
        }
        let mesh = spiral(468, b.x + b.width / 2, b.y + b.height / 2, b.width / 2)
        guard iris else { return FaceLandmarks(mesh: mesh, presence: 0.99) }
        return FaceLandmarks(mesh: mesh, presence: 0.99,
                             leftIris: spiral(5, mesh[33].x, mesh[33].y, 2), rightIris: spiral(5, mesh[263].x, mesh[263].y, 2),
                             leftEyeContour: spiral(71, mesh[33].x, mesh[33].y, 4), rightEyeContour: spiral(71, mesh[263].x, mesh[263].y, 4))
    }
}

@Suite struct FaceStageTests {
    static func archive(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("faces.tar").path
        let writer = try TarWriter(path: path)
        for i in 0..<6 {
            var image = RGBImage(width: 64, height: 48, fill: (30, UInt8(40 + i), 90))
            if i != 3 {
                for y in (8 + i)..<(30 + i) { for x in (16 + i)..<(40 + i) {
                    let p = (y * 64 + x) * 3
                    image.pixels[p] = 255; image.pixels[p + 1] = 0; image.pixels[p + 2] = 0
                } }
            }
            try writer.add(path: "p\(i).png", data: try PNGEncoder.encode(image))
        }
        try writer.finish()
        return path
    }

    @Test(arguments: ["faces", "training-annotations", "passport", "fast-boxes", "whole-frame"])
    func namedPipelinesRunWithAFaceEngine(_ name: String) async throws {
        guard FileManager.default.fileExists(atPath: Fixtures.model("iris_landmark.tflite").path) else {
            Issue.record("models missing: run `make models`")
            return
        }
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = CallCounter()
        let plan = try PipelineRegistry.builtIn.named(name).compile(modelsDirectory: Fixtures.model(""))
        var outputs: [[String: Data]] = []
        for workers in [1, 3] {
            let out = folder.appendingPathComponent("out\(workers)")
            let summary = try await PipelineRunner.run(plan, inputs: [.archive(path: try Self.archive(in: folder))],
                                                       configuration: RunConfiguration(
                                                           outputDirectory: out, workers: workers,
                                                           faceEngine: FaceEngineFactory { _ in RedSquareFaceEngine(made: made) }),
                                                       toolVersion: "test")
            #expect(summary.failedEntries == 0)
            #expect(summary.faces == 5)
            let rows = try manifestRows(out)
            #expect(rows.map { $0[3] }.filter { $0 == "no_face" }.count == 1)
            if name == "passport" {
                #expect(rows.contains { $0[3] == "rejected" && $0[Manifest.columns.firstIndex(of: "rejection")!].hasPrefix("passport: ") })
            } else if name != "fast-boxes" {
                let roll = rows[0][Manifest.columns.firstIndex(of: "roll")!]
                #expect(!roll.isEmpty, "pose filled")
            }
            outputs.append(try outputFiles(out))
        }
        #expect(outputs[0] == outputs[1], "byte-identical for 1 and 3 workers")
        #expect(made.count("engine") <= 1 + 3, "one engine per worker, not per image")
    }
}
