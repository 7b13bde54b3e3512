import FaceAnalysis
import ImageCore

/// The geometry of aligned face crops, from a face's mesh landmarks.
///
/// The five points, image-left first for an upright face (the subject's
/// right side first), as the ArcFace template lists them:
/// - eye centres: the iris centres (`right_iris`, `left_iris`, first
///   point) when ``Landmarks`` ran Iris, otherwise the mean of each eye's
///   two mesh corners (33 + 133, 362 + 263);
/// - nose tip: mesh 4 (see ``noseTip``);
/// - mouth corners: mesh 61 and 291 (outer corners).
package enum FaceAlignment {
    /// The nose point: mesh vertex 4, on the tip just above vertex 1 (the
    /// most protruding point). On the frontal face of `t1.jpg` the five
    /// points then sit at most 1.0 px from the template after the fit,
    /// against 2.2 px with vertex 1 (whose projection lies below the point
    /// the template's detectors mark).
    package static let noseTip = 4

    /// The ArcFace 112×112 template (insightface's `arcface_dst`), in its
    /// pixel-centre convention (pixel `i` at `i`).
    package static let arcfaceTemplate: [Point] = [
        Point(x: 38.2946, y: 51.6963), Point(x: 73.5318, y: 51.5014), Point(x: 56.0252, y: 71.7366),
        Point(x: 41.5493, y: 92.3655), Point(x: 70.7299, y: 92.2041),
    ]

    /// The five alignment points of `face`, nil without a mesh.
    package static func fivePoints(of face: FaceRecord) -> [Point]? {
        guard let mesh = face.points(.mesh)?.points, mesh.count == 468 else { return nil }
        let t = FaceMeshTopology.self
        func mean(_ i: Int, _ j: Int) -> Point { Point(x: (mesh[i].x + mesh[j].x) / 2, y: (mesh[i].y + mesh[j].y) / 2) }
        let rightEye = face.points(.rightIris)?.points.first ?? mean(t.rightEyeCorners.outer, t.rightEyeCorners.inner)
        let leftEye = face.points(.leftIris)?.points.first ?? mean(t.leftEyeCorners.outer, t.leftEyeCorners.inner)
        return [rightEye, leftEye, mesh[noseTip], mesh[t.mouthOuterCorners.right], mesh[t.mouthOuterCorners.left]]
    }

    /// Image → crop map (continuous coordinates) putting the five points
    /// onto the ArcFace template scaled to `size` (112 gives the template
    /// itself): the least-squares similarity, as insightface's `norm_crop`.
    package static func arcface(_ points: [Point], size: Int) -> AffineMap? {
        let scale = Float(size) / 112
        let target = arcfaceTemplate.map { Point(x: $0.x * scale + 0.5, y: $0.y * scale + 0.5) }
        return AffineMap.leastSquaresSimilarity(from: points, to: target)
    }

    /// Image → crop map (continuous coordinates) of FFHQ's alignment: the
    /// square centred 0.1 of the eye-to-mouth vector below the eyes' midpoint,
    /// turned by the eye line and the eye-to-mouth line together, with a side
    /// of max(4 × eye distance, 3.6 × eye-to-mouth distance), onto `size`×`size`.
    package static func ffhq(_ points: [Point], size: Int) -> AffineMap? {
        let eyeLeft = points[0], eyeRight = points[1], mouthLeft = points[3], mouthRight = points[4]
        let eyeMid = Point(x: (eyeLeft.x + eyeRight.x) / 2, y: (eyeLeft.y + eyeRight.y) / 2)
        let eyeToEye = Point(x: eyeRight.x - eyeLeft.x, y: eyeRight.y - eyeLeft.y)
        let mouthMid = Point(x: (mouthLeft.x + mouthRight.x) / 2, y: (mouthLeft.y + mouthRight.y) / 2)
        let eyeToMouth = Point(x: mouthMid.x - eyeMid.x, y: mouthMid.y - eyeMid.y)
        func length(_ p: Point) -> Float { (p.x * p.x + p.y * p.y).squareRoot() }
        // x: the crop's horizontal half-axis; y: x turned a quarter (down).
        var x = Point(x: eyeToEye.x + eyeToMouth.y, y: eyeToEye.y - eyeToMouth.x)
        let xLength = length(x)
        guard xLength > 0 else { return nil }
        let half = max(length(eyeToEye) * 2, length(eyeToMouth) * 1.8)
        x = Point(x: x.x / xLength * half, y: x.y / xLength * half)
        let y = Point(x: -x.y, y: x.x)
        let centre = Point(x: eyeMid.x + eyeToMouth.x * 0.1, y: eyeMid.y + eyeToMouth.y * 0.1)
        let s = Float(size)
        let cropToImage = AffineMap(a: 2 * x.x / s, b: 2 * y.x / s, c: 2 * x.y / s, d: 2 * y.y / s,
                                    tx: centre.x - x.x - y.x, ty: centre.y - x.y - y.y)
        return cropToImage.inverted()
    }
}
