import ImageCore

/// A face whose box holds a much smaller face that scores higher is not a
/// face: it is the person, the group or the scene around that face, which
/// both detectors can score from 0.6 at their coarsest levels (a box of a
/// person's head and shoulders, or of a whole picture of three people).
/// Both families agreeing, it passes `DetectorFusion` and never meets Face
/// Mesh's second opinion, which would find a face in it anyway: the smaller
/// one.
///
/// On `make eval`'s composite set such boxes were 3 of the 7 false faces
/// upright (303–913 px around faces of 116–200 px, scored 0.71–0.77) and 5
/// and 8 of them with the pictures turned −30° and +30°; on 400 real photos
/// (`bench.tar`) and the crowd set upright, none (docs/BENCHMARKS.md,
/// "Detection accuracy"). Applied where precision comes first
/// (``UnconfirmedFaces/scored``): when redacting, a box around a face only
/// blurs more.
package enum NestedFaces {
    /// The inner face's longer side is at most this fraction of the outer one's.
    package static let maximumInnerSide: Float = 0.5
    /// At least this fraction of the inner face's box lies inside the outer box.
    package static let minimumInside: Float = 0.9

    /// `faces` without those whose box holds another of `faces` that scores
    /// higher and is at most `maximumInnerSide` its size, in input order.
    /// Each face is judged against all the others, so the result does not
    /// depend on the order.
    package static func removingContainers(_ faces: [FaceDetection]) -> [FaceDetection] {
        faces.filter { outer in
            !faces.contains { inner in
                inner.score > outer.score && holds(outer.box, inner.box)
            }
        }
    }

    /// Whether `outer` holds `inner` as a face around a much smaller one.
    package static func holds(_ outer: Rect, _ inner: Rect) -> Bool {
        guard inner.longerSide <= maximumInnerSide * outer.longerSide else { return false }
        let shared = outer.intersectionArea(inner)
        return shared > 0 && shared >= minimumInside * inner.width * inner.height
    }
}
