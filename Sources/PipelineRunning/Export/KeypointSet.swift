import FaceAnalysis
import Pipeline
import RunFolders

/// The keypoints an export writes per face, taken from the run's point groups.
package enum KeypointSet: String, Sendable, CaseIterable {
    /// Eyes, nose tip, mouth corners: the 5 points RetinaFace, SCRFD and
    /// YOLO-face train on, in their order (subject's right eye first, which is
    /// the image's left on a frontal face): right eye and left eye (iris
    /// centres), nose tip (mesh 1), right and left mouth corner (mesh 61, 291).
    /// Needs the mesh and both irises (`faces`, `training-annotations`, `whole-frame`).
    case five = "5"
    /// ML Kit's ten landmarks, in ML Kit's order (the `mlkit_landmarks` group;
    /// `training-annotations`).
    case mlkit = "mlkit10"
    /// The iBUG 300-W 68 points (the `ibug68` group; `training-annotations`).
    case ibug68 = "ibug68"

    /// The point names, in order (COCO's category `keypoints`).
    package var names: [String] {
        switch self {
        case .five: ["right_eye", "left_eye", "nose_tip", "right_mouth_corner", "left_mouth_corner"]
        case .mlkit: MLKitLandmarks.names
        case .ibug68: (1...68).map { "ibug\($0)" }
        }
    }

    /// 1-based index pairs to draw between (COCO's category `skeleton`).
    package var skeleton: [(Int, Int)] {
        switch self {
        case .five: return [(1, 2), (1, 3), (2, 3), (3, 4), (3, 5), (4, 5)]
        case .mlkit:
            // Eyes to nose base, nose base to the mouth, mouth corners to the bottom lip, cheeks to ears.
            return [(4, 9), (4, 6), (9, 6), (6, 5), (6, 10), (5, 1), (10, 1), (2, 3), (7, 8)]
        case .ibug68:
            // The 300-W outlines: jaw, brows, nose ridge and base; eyes and lips closed.
            func chain(_ range: ClosedRange<Int>, closed: Bool = false) -> [(Int, Int)] {
                let links = range.dropLast().map { ($0, $0 + 1) }
                return closed ? links + [(range.upperBound, range.lowerBound)] : links
            }
            return chain(1...17) + chain(18...22) + chain(23...27) + chain(28...31) + chain(32...36)
                + chain(37...42, closed: true) + chain(43...48, closed: true)
                + chain(49...60, closed: true) + chain(61...68, closed: true)
        }
    }

    /// The JSON point groups this set is made of.
    package var pointGroups: Set<String> {
        switch self {
        case .five: [PointGroup.Name.mesh.text, PointGroup.Name.leftIris.text, PointGroup.Name.rightIris.text]
        case .mlkit: [PointGroup.Name.mlkitLandmarks.text]
        case .ibug68: [PointGroup.Name.ibug68.text]
        }
    }

    /// The point groups a face needs for this set (for the error message).
    var needs: String {
        switch self {
        case .five: "mesh and iris points"
        case .mlkit: "ML Kit landmarks (mlkit_landmarks)"
        case .ibug68: "iBUG 68 points (ibug68)"
        }
    }

    /// The face's points of this set in pixels; throws when the run did not compute them.
    func points(of face: ExportFace, in image: ExportImage) throws(ExportError) -> [(x: Double, y: Double)] {
        func group(_ name: PointGroup.Name, count: Int) throws(ExportError) -> [(x: Double, y: Double)] {
            guard let points = face.groups[name.text], points.count == count else {
                throw .missingPoints(keypoints: rawValue, entry: EntryDisplayName.of(archive: image.archive, entry: image.entry) + " face \(face.face)", needs: needs)
            }
            return points
        }
        switch self {
        case .five:
            let mesh = try group(.mesh, count: FaceLandmarks.meshPointCount)
            let right = try group(.rightIris, count: 5)[0], left = try group(.leftIris, count: 5)[0]
            let mouth = FaceMeshTopology.mouthOuterCorners
            return [right, left, mesh[FaceMeshTopology.noseTip], mesh[mouth.right], mesh[mouth.left]]
        case .mlkit: return try group(.mlkitLandmarks, count: MLKitLandmarks.names.count)
        case .ibug68: return try group(.ibug68, count: 68)
        }
    }
}
