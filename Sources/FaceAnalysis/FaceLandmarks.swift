import ImageCore

/// Face Mesh and Iris results for one face, in upright-image pixels.
///
/// Sides are the **subject's** (MediaPipe's and ML Kit's convention): for a
/// face looking at the camera, `leftIris` is on the image's right.
public struct FaceLandmarks: Sendable, Hashable, Codable {
    /// 468 points of MediaPipe's canonical face mesh topology; `z` is relative
    /// depth in pixels on the x scale, smaller = closer to the camera.
    public var mesh: [Point3]
    /// Face presence from the landmark model, 0…1 (> 0.5 means a face).
    public var presence: Float
    /// The presence above which Face Mesh's region holds a face (MediaPipe's threshold).
    public static let minimumPresence: Float = 0.5
    /// The subject's left iris: centre, then four points on the rim.
    public var leftIris: [Point3]
    /// The subject's right iris: centre, then four points on the rim.
    public var rightIris: [Point3]
    /// The iris model's 71 eye-contour points for the subject's left eye.
    public var leftEyeContour: [Point3]
    /// The iris model's 71 eye-contour points for the subject's right eye.
    public var rightEyeContour: [Point3]

    public init(mesh: [Point3], presence: Float, leftIris: [Point3] = [], rightIris: [Point3] = [],
                leftEyeContour: [Point3] = [], rightEyeContour: [Point3] = []) {
        self.mesh = mesh
        self.presence = presence
        self.leftIris = leftIris
        self.rightIris = rightIris
        self.leftEyeContour = leftEyeContour
        self.rightEyeContour = rightEyeContour
    }

    public static let meshPointCount = 468

    /// Mesh point `index` projected to 2D.
    public func point(_ index: Int) -> Point { Point(x: mesh[index].x, y: mesh[index].y) }

    /// Mean of the mesh points `indices` in 2D.
    package func mean(_ indices: [Int]) -> Point {
        var x: Float = 0, y: Float = 0
        for i in indices { x += mesh[i].x; y += mesh[i].y }
        let n = Float(max(indices.count, 1))
        return Point(x: x / n, y: y / n)
    }

    /// The subject's left eye centre: the iris centre when the iris model ran,
    /// else the mean of the mesh eye corners and lid midpoints.
    public var leftEyeCenter: Point {
        if let c = leftIris.first { return Point(x: c.x, y: c.y) }
        return mean([362, 263, 386, 374])
    }

    /// The subject's right eye centre (see `leftEyeCenter`).
    public var rightEyeCenter: Point {
        if let c = rightIris.first { return Point(x: c.x, y: c.y) }
        return mean([33, 133, 159, 145])
    }

    /// The smallest axis-aligned box holding every mesh point.
    public var meshBounds: Rect {
        var x0 = Float.infinity, y0 = Float.infinity, x1 = -Float.infinity, y1 = -Float.infinity
        for p in mesh { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
