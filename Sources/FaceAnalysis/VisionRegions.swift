import ImageCore

/// Apple Vision's face landmark regions, derived from the mesh.
///
/// Stored in image pixels (origin top-left, like every facepipe output);
/// `normalized(to:imageHeight:)` converts to Vision's own convention. Sides
/// are the subject's. Mappings (mesh indices, `FaceMeshTopology`):
/// `faceContour` the jawline temple–chin–temple (23); eyes the 16-point
/// openings; eyebrows the top edge then the bottom edge reversed (a closed
/// outline of 10); `nose` the outline around the nostrils (21); `noseCrest`
/// the ridge 168…1 (7); `medianLine` forehead to chin (22); `outerLips` the
/// outer lip line (20, closed); `innerLips` the inner line (20, closed);
/// pupils the iris centres (1 each).
public struct VisionRegions: Sendable, Hashable, Codable {
    public var faceContour, leftEye, rightEye, leftEyebrow, rightEyebrow: [Point]
    public var nose, noseCrest, medianLine, outerLips, innerLips: [Point]
    public var leftPupil, rightPupil: [Point]

    public init(_ landmarks: FaceLandmarks) {
        let t = FaceMeshTopology.self
        func points(_ indices: [Int]) -> [Point] { indices.map(landmarks.point) }
        faceContour = points(t.jawline)
        leftEye = points(t.leftEye)
        rightEye = points(t.rightEye)
        leftEyebrow = points(t.leftEyebrowTop + t.leftEyebrowBottom.reversed())
        rightEyebrow = points(t.rightEyebrowTop + t.rightEyebrowBottom.reversed())
        nose = points(t.noseOutline)
        noseCrest = points(t.noseCrest)
        medianLine = points(t.medianLine)
        outerLips = points(t.upperLipOuter + t.lowerLipOuter.reversed())
        innerLips = points([t.mouthInnerCorners.right] + t.upperLipInner + [t.mouthInnerCorners.left] + t.lowerLipInner.reversed())
        leftPupil = [landmarks.leftEyeCenter]
        rightPupil = [landmarks.rightEyeCenter]
    }

    /// Every region's points, in the order the properties are declared.
    public var allPoints: [Point] {
        faceContour + leftEye + rightEye + leftEyebrow + rightEyebrow + nose + noseCrest + medianLine
            + outerLips + innerLips + leftPupil + rightPupil
    }

    /// The same regions in Vision's convention: each point normalized to
    /// `faceBox` (0…1 across the box) with the origin at the box's
    /// **bottom-left** and y up. `faceBox` is in image pixels, origin top-left.
    public func normalized(to faceBox: Rect) -> VisionRegions {
        var copy = self
        let w = faceBox.width > 0 ? faceBox.width : 1, h = faceBox.height > 0 ? faceBox.height : 1
        func convert(_ points: [Point]) -> [Point] {
            points.map { Point(x: ($0.x - faceBox.x) / w, y: 1 - ($0.y - faceBox.y) / h) }
        }
        copy.faceContour = convert(faceContour); copy.leftEye = convert(leftEye); copy.rightEye = convert(rightEye)
        copy.leftEyebrow = convert(leftEyebrow); copy.rightEyebrow = convert(rightEyebrow); copy.nose = convert(nose)
        copy.noseCrest = convert(noseCrest); copy.medianLine = convert(medianLine); copy.outerLips = convert(outerLips)
        copy.innerLips = convert(innerLips); copy.leftPupil = convert(leftPupil); copy.rightPupil = convert(rightPupil)
        return copy
    }

    /// A face box in Vision's convention: normalized to the image, origin bottom-left.
    public static func normalizedBoundingBox(_ box: Rect, imageWidth: Int, imageHeight: Int) -> Rect {
        let w = Float(max(imageWidth, 1)), h = Float(max(imageHeight, 1))
        return Rect(x: box.x / w, y: 1 - (box.y + box.height) / h, width: box.width / w, height: box.height / h)
    }
}
