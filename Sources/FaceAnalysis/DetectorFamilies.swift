/// The detector families facepipe ships, one row each: the model, its
/// decoding and the searches it runs. A mode composes these
/// (``DetectorComposition``); a new detector is its decoder's file plus a
/// row here (Tests/FaceAnalysisTests/BackCameraFamily.swift adds one in
/// the tests, run through the same machinery).
extension DetectorFamily {
    package static let all: [DetectorFamily] = [blazeFaceShortRange, blazeFaceFullRange, blazeFaceFullRangeSparse, yunetS]

    /// `face_detection_short_range` (128×128): faces within about 2 m on
    /// the whole frame; the canvases of an image pyramid (its 128-px
    /// training frames hold faces of 20–75 % of the frame, so the 28–56 px
    /// faces a pyramid level serves sit in its range, at about 0.6× the
    /// full-range model's cost per input pixel: DetectionRegionPlan); the
    /// squares accurate mode confirms YuNet's candidates on.
    package static let blazeFaceShortRange = DetectorFamily(
        name: "blazeface-short-range", model: .shortRangeDetector, decoding: .anchors(.shortRange),
        searches: [.wholeFrame, .canvasPyramid])
    /// `face_detection_full_range` (192×192) on the whole frame.
    package static let blazeFaceFullRange = DetectorFamily(
        name: "blazeface-full-range", model: .fullRangeDetector, decoding: .anchors(.fullRange),
        searches: [.wholeFrame])
    /// `face_detection_full_range_sparse` (192×192) on the whole frame.
    package static let blazeFaceFullRangeSparse = DetectorFamily(
        name: "blazeface-full-range-sparse", model: .fullRangeSparseDetector, decoding: .anchors(.fullRangeSparse),
        searches: [.wholeFrame])
    /// YuNet-s (docs/YUNET.md), made for small faces, over tiles and levels.
    package static let yunetS = DetectorFamily(
        name: "yunet-s", model: .yunet, decoding: .yunetHeads, searches: [.tiledLevels])
}
