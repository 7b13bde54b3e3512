import Crypto
import FaceAnalysis
import Foundation
import ImageCore
import Inference
import Testing
import _TestSupport

/// YuNet-s on facepipe's engine against libfacedetection itself
/// (`yuface.detect`, fixtures from scripts/make-yunet-fixtures.py): every
/// reference detection matched — box corners within 1 px after the
/// reference's integer conversion, score within 0.01 — and no detection
/// the reference does not report above its threshold.
@Suite struct YuNetParityTests {
    struct Fixture: Decodable, Sendable, CustomStringConvertible {
        struct Detection: Decodable, Sendable {
            var score: Int
            var box: [Int]
            var landmarks: [[Int]]
        }
        var photo: String
        var photoSHA256: String
        var boxAverage: Int
        var width: Int
        var height: Int
        var pixelsSHA256: String
        var confidence: Float
        var detections: [Detection]
        var description: String { boxAverage == 1 ? photo : "\(photo) ÷\(boxAverage)" }
    }

    static let fixtureNames = ["t1.json", "t1-by4.json", "astronaut.json", "lenna.json"]

    static var weightsAvailable: Bool {
        ProcessInfo.processInfo.environment["FACEPIPE_REQUIRE_MODELS"] == "1"
            || FileManager.default.fileExists(atPath: Fixtures.model("yunet_s.weights").path)
    }

    /// YuNet-s loaded as every run loads it (``FaceModels``: SHA-256 checked).
    static func detector(minimumScore: Float) throws -> YuNetDetector {
        try YuNetDetector(model: FaceModels.load([.yunet], from: Fixtures.model("")).model(.yunet), minimumScore: minimumScore)
    }

    static func fixture(_ name: String) throws -> Fixture {
        try JSONDecoder().decode(Fixture.self, from: Data(Fixtures.bytes(Fixtures.url("faces/yunet/\(name)"))))
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// The fixture's picture: the photo decoded, shrunk by the rounded box average it records.
    static func picture(_ fixture: Fixture) throws -> RGBImage {
        let bytes = try Fixtures.bytes(Fixtures.photo(fixture.photo))
        try #require(hex(SHA256.hash(data: bytes)) == fixture.photoSHA256, "\(fixture.photo) is not the photo the fixture was made from")
        let photo = try FaceTestSupport.photo(fixture.photo)
        let f = fixture.boxAverage
        let width = photo.width / f, height = photo.height / f
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 {
                    var sum = 0
                    for dy in 0..<f { for dx in 0..<f { sum += Int(photo.pixels[((y * f + dy) * photo.width + x * f + dx) * 3 + c]) } }
                    pixels[(y * width + x) * 3 + c] = UInt8((sum + f * f / 2) / (f * f))
                }
            }
        }
        let picture = RGBImage(width: width, height: height, pixels: pixels)
        try #require(picture.width == fixture.width && picture.height == fixture.height)
        try #require(hex(SHA256.hash(data: picture.pixels)) == fixture.pixelsSHA256, "decoded pixels differ from the reference's")
        return picture
    }

    /// libfacedetection's integers: corners truncated toward zero, size
    /// truncated from the float difference, score as truncated percent.
    static func referenceInts(_ d: FaceDetection) -> (score: Int, box: [Int]) {
        let x0 = d.box.x, y0 = d.box.y
        return (Int(d.score * 100), [Int(x0), Int(y0), Int(d.box.width), Int(d.box.height)])
    }

    @Test(.enabled(if: weightsAvailable, "needs models/yunet_s.weights (make models)"), arguments: fixtureNames)
    func matchesLibfacedetection(_ name: String) throws {
        let fixture = try Self.fixture(name)
        let picture = try Self.picture(fixture)
        let detector = try YuNetParityTests.detector(minimumScore: 0)
        let found = try detector.detect(picture)
        var unmatched = Array(found.indices)
        for reference in fixture.detections {
            let referenceCorners = [reference.box[0], reference.box[1], reference.box[0] + reference.box[2], reference.box[1] + reference.box[3]]
            let match = unmatched.firstIndex { index in
                let (_, box) = Self.referenceInts(found[index])
                let corners = [box[0], box[1], box[0] + box[2], box[1] + box[3]]
                return zip(corners, referenceCorners).allSatisfy { abs($0 - $1) <= 1 }
            }
            guard let match else {
                Issue.record("\(fixture): reference detection \(reference.box) score \(reference.score) not found among \(found.map(\.box))")
                continue
            }
            let detection = found[unmatched.remove(at: match)]
            // The reference truncates score·100: its percent p means a score in [p/100, (p+1)/100).
            #expect(abs(detection.score - (Float(reference.score) + 0.5) / 100) <= 0.01 + 0.005,
                    "\(fixture): score \(detection.score) against the reference's \(reference.score) %")
            for (point, referencePoint) in zip(detection.keypoints, reference.landmarks) {
                #expect(abs(Int(point.x) - referencePoint[0]) <= 1 && abs(Int(point.y) - referencePoint[1]) <= 1,
                        "\(fixture): landmark \(point) against \(referencePoint)")
            }
        }
        // Nothing the reference drops: every other detection is at or below its threshold (within the score tolerance).
        for index in unmatched {
            let (percent, box) = Self.referenceInts(found[index])
            #expect(Float(percent) <= fixture.confidence * 100 + 1, "\(fixture): extra detection \(box) score \(found[index].score)")
        }
    }
}

/// The detector's edges: pictures smaller than or not a multiple of one
/// 32-px block are padded, not refused; a missing weights file is named.
@Suite struct YuNetDetectorTests {
    @Test func aMissingWeightsFileIsNamed() {
        #expect(throws: FaceAnalysisError.missingModel(file: "yunet_s.weights", directory: "/nonexistent")) {
            _ = try FaceModels.load([.yunet], from: URL(fileURLWithPath: "/nonexistent"))
        }
    }

    @Test(.enabled(if: YuNetParityTests.weightsAvailable, "needs models/yunet_s.weights (make models)"),
          arguments: [(1, 1), (31, 33), (64, 32), (97, 65)])
    func anySizeIsPaddedAndSearched(_ size: (Int, Int)) throws {
        let detector = try YuNetParityTests.detector(minimumScore: 0)
        let (width, height) = size
        let picture = RGBImage(width: width, height: height, pixels: (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let detections = try detector.detect(picture)
        for detection in detections {
            #expect(detection.score >= 0 && detection.score <= 1)
            #expect(detection.keypoints.count == 5)
        }
        // The same picture again (the interpreter kept its plan) gives the same answer.
        #expect(try detector.detect(picture) == detections)
    }

    /// A detector asked for scores under libfacedetection's floor of 0.2
    /// decodes them too, and gives the faces from 0.2 exactly as a detector
    /// at that floor does. (Until ae236df, 2026-11-27, the decoder stopped at 0.2
    /// whatever was asked.)
    @Test(.enabled(if: YuNetParityTests.weightsAvailable, "needs models/yunet_s.weights (make models)"),
          arguments: ["breakingbad.jpg", "tongue.jpg"])
    func aLowerFloorDecodesLowerScores(_ photo: String) throws {
        let picture = try FaceTestSupport.photo(photo)
        let low = try YuNetParityTests.detector(minimumScore: 0.15).detect(picture)
        let reference = try YuNetParityTests.detector(minimumScore: YuNetDecoder.candidateThreshold).detect(picture)
        let under = low.filter { $0.score < YuNetDecoder.candidateThreshold }
        #expect(!under.isEmpty && under.allSatisfy { $0.score >= 0.15 }, "\(photo): \(low.map(\.score))")
        #expect(low.filter { $0.score >= YuNetDecoder.candidateThreshold } == reference)
    }
}
