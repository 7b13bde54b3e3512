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
    /// full-range model's cost per input pixel); the
    /// squares accurate mode confirms YuNet's candidates on.
    ///
    /// Its pyramid: a level whose pixels are `s` picture pixels serves
    /// faces from about `28·s` picture pixels (the model at 1:1 found
    /// 22/24 real faces of 28 px pasted on photo backgrounds, 19/24 at 24,
    /// 24/24 at 40, where the full-range model found 12/24 at 24 px and
    /// 16/24 at 32 in its 192-px input). The finest level makes a face of
    /// `minFaceSize` 26 px (`smallestFace`; never finer than the picture:
    /// at `minFaceSize` 0.05 `make eval` scored AP 0.501 with 26 against
    /// 0.492 with 28, with 11 % fewer canvas pixels); coarser levels shrink
    /// by one factor ≤ 2 until the whole frame (the 128-px model under the
    /// tiles' score floor: AP 0.950 against 0.939 with full range on `make
    /// eval`, and close-ups that fill the frame found) takes over. Tiles
    /// (canvases) span a level's height, up to 1056 px wide (row buffers of
    /// 16.0 MB; pictures up to 2048 px wide in two), sized in multiples of
    /// the model's total stride, overlapping by 64 px, above the largest
    /// face a level keeps (3 × 28 = 84 px wide: a wider box is often a
    /// partial, off-size one the next level sees whole); a face within
    /// 2 px of an inner edge is the neighbour's. A canvas runs only if one
    /// of its 16-px blocks has a grey-level deviation of 8 or more (no
    /// canvas that found a kept face on the bench archive scored under
    /// 13.7; skips blank pictures and blank columns).
    package static let blazeFaceShortRange = DetectorFamily(
        name: "blazeface-short-range", model: .shortRangeDetector, decoding: .anchors(.shortRange),
        searches: [.wholeFrame, .canvasPyramid],
        pyramid: PyramidSearch(smallestFace: 26, levels: .evenToWholeFrame, placement: .mirrored, maximumTile: 1056,
                               alignment: DetectorConfiguration.shortRange.totalStride, overlap: 64, innerEdgeMargin: 2,
                               largestFace: 3 * 28, minimumScore: blazeFaceCanvasMinScore,
                               contrast: .init(block: 16, deviation: 8)))
    /// The least score of a short-range detection on the pyramid and its
    /// whole frame (without tiles the whole frame keeps MediaPipe's 0.5):
    /// there the model also scores face-like texture (parts of larger
    /// faces, patterns) at 0.5–0.6; on `make eval` a floor of 0.6 kept
    /// every true positive and dropped about half the false ones.
    package static let blazeFaceCanvasMinScore: Float = 0.6
    /// `face_detection_full_range` (192×192) on the whole frame.
    package static let blazeFaceFullRange = DetectorFamily(
        name: "blazeface-full-range", model: .fullRangeDetector, decoding: .anchors(.fullRange),
        searches: [.wholeFrame])
    /// `face_detection_full_range_sparse` (192×192) on the whole frame.
    package static let blazeFaceFullRangeSparse = DetectorFamily(
        name: "blazeface-full-range-sparse", model: .fullRangeSparseDetector, decoding: .anchors(.fullRangeSparse),
        searches: [.wholeFrame])
    /// YuNet-s (docs/YUNET.md), made for small faces, over tiles and levels.
    ///
    /// Its pyramid: the stride-8 heads find faces from about 10 px, so the
    /// finest level is the picture when the smallest face asked for is
    /// under 20 px (else a copy on which it is 20 px); each later level is
    /// 4× smaller, until one fits 1024 px on both sides. Tiles span a
    /// level's height, up to 2112 px wide (a 4032-px photo in two: square
    /// 1024-px tiles read 1.2–1.3 × the pixels and saw their own cut edges,
    /// whole levels up to 4096 px took 60 MB more per worker), overlapping
    /// by 128 px, each starting on the network's 32-px grid, so every tile
    /// samples the picture as one pass over it does (YuNet-s's score for a
    /// small face moves with that grid: 0.32–0.67 for one 39-px face shifted
    /// pixel by pixel). A face within 4 px of an inner edge is the
    /// neighbour's; levels after the finest keep faces from 24 level px
    /// (128 / 4 is above that, so a face every tile of its level cuts is
    /// kept a level up). Its box is WIDER FACE's, taller than BlazeFace's:
    /// BlazeFace's side is 0.863 × its height, centred 0.07 × its height
    /// lower (medians of 138 faces both found, |roll| ≤ 8°, height ≥ 30 px,
    /// on `make eval` and `make eval-crowd`; quartiles 0.83–0.92, 0.05–0.10).
    package static let yunetS = DetectorFamily(
        name: "yunet-s", model: .yunet, decoding: .yunetHeads, searches: [.tiledLevels],
        pyramid: PyramidSearch(smallestFace: 20, levels: .byFactor(4, coarsestSide: 1024), placement: .onTheLevelGrid,
                               maximumTile: 2112, alignment: YuNetGraph.alignment, overlap: 128, innerEdgeMargin: 4,
                               coarseLevelSmallestFace: 24),
        faceBox: .fromHeight(side: 0.863, drop: 0.07), foundBy: .yunet,
        secondOpinion: .whenLargeAndUnsure(size: FaceDetection.yunetSecondOpinionSize, score: FaceDetection.yunetSecondOpinionScore),
        int8Pointwise: .every, activationGrids: YuNetGrids.calibrated)
}
