import ImageCore

/// `DetectorMode.accurate`'s merge of YuNet-s's faces with BlazeFace's.
///
/// The two detectors draw different boxes for one face (YuNet's is about
/// 1.25 times taller than wide, from brows to chin; BlazeFace's is square
/// and reaches the ears), so a face both found is recognised by a lower
/// overlap than NMS uses within one detector: pairs with IoU ≥
/// `pairingIoU`, highest IoU first. A pair becomes one face with the two
/// boxes' mean corners (matching a label drawn either way), the higher
/// score, the mean of the four keypoints both give (eyes, nose tip, mouth
/// centre) and BlazeFace's tragions. A face one detector found alone is
/// kept as `unconfirmed` says. The result is in no particular order.
///
/// In accurate mode the YuNet list holds candidates from
/// `BlazeFaceConfirmation.candidateMinScore` and the BlazeFace list only
/// faces BlazeFace saw around a candidate or on the whole frame; faces
/// under the run's `minScore` are dropped after the merge (so with
/// `UnconfirmedFaces.all` a YuNet face alone is kept from `minScore`).
package enum DetectorFusion {
    /// Smallest IoU of a YuNet box and a BlazeFace box that are one face.
    package static let pairingIoU: Float = 0.3
    /// A face only YuNet found is kept from this score (with
    /// `UnconfirmedFaces.scored`); at 0.5 the crowd set's precision is 0.91.
    package static let yunetAloneMinScore: Float = 0.6
    /// A face only BlazeFace found is kept from this score (with
    /// `UnconfirmedFaces.scored`), and Face Mesh is asked about it.
    package static let blazeFaceAloneMinScore: Float = 0.7

    package static func merge(yunet: [FaceDetection], blazeFace: [FaceDetection], unconfirmed: UnconfirmedFaces) -> [FaceDetection] {
        var candidates: [(iou: Float, y: Int, b: Int)] = []
        for (y, a) in yunet.enumerated() {
            for (b, c) in blazeFace.enumerated() {
                let overlap = a.box.intersectionOverUnion(c.box)
                if overlap >= pairingIoU { candidates.append((overlap, y, b)) }
            }
        }
        candidates.sort { l, r in l.iou != r.iou ? l.iou > r.iou : (l.y, l.b) < (r.y, r.b) }
        var yunetPaired = [Bool](repeating: false, count: yunet.count)
        var blazePaired = [Bool](repeating: false, count: blazeFace.count)
        var merged: [FaceDetection] = []
        for candidate in candidates where !yunetPaired[candidate.y] && !blazePaired[candidate.b] {
            yunetPaired[candidate.y] = true
            blazePaired[candidate.b] = true
            merged.append(pair(yunet[candidate.y], blazeFace[candidate.b]))
        }
        let yunetBar = unconfirmed == .scored ? yunetAloneMinScore : 0
        let blazeBar = unconfirmed == .scored ? blazeFaceAloneMinScore : 0
        for (index, face) in yunet.enumerated() where !yunetPaired[index] && face.score >= yunetBar {
            merged.append(face)
        }
        for (index, face) in blazeFace.enumerated() where !blazePaired[index] && face.score >= blazeBar {
            merged.append(face)
        }
        return merged
    }

    /// One face from a YuNet face and a BlazeFace face.
    package static func pair(_ yunet: FaceDetection, _ blazeFace: FaceDetection) -> FaceDetection {
        let a = yunet.box, b = blazeFace.box
        let x0 = (a.x + b.x) / 2, y0 = (a.y + b.y) / 2
        let x1 = (a.x + a.width + b.x + b.width) / 2, y1 = (a.y + a.height + b.y + b.height) / 2
        var keypoints = blazeFace.keypoints
        for k in 0..<min(4, yunet.keypoints.count, keypoints.count) {
            keypoints[k] = Point(x: (yunet.keypoints[k].x + keypoints[k].x) / 2, y: (yunet.keypoints[k].y + keypoints[k].y) / 2)
        }
        return FaceDetection(box: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), score: max(yunet.score, blazeFace.score),
                             keypoints: keypoints, foundBy: .both)
    }
}
