import Inference

/// One detector family: the model it runs, how its output becomes
/// detections, and how it may cover a picture. The families facepipe
/// ships are one list (``all``, DetectorFamilies.swift), as an engine lists
/// its kernels; a ``DetectorComposition`` (what a ``DetectorMode`` means)
/// picks among them. Adding a detector is its decoder's file plus one row.
package struct DetectorFamily: Sendable, Hashable, CustomStringConvertible {
    /// How the network's outputs become ``NormalizedDetection``s.
    package enum Decoding: Sendable, Hashable {
        /// BlazeFace: SSD anchors laid out as the configuration says
        /// (``DetectionDecoder``), sigmoid scores, then MediaPipe's weighted
        /// NMS (``NonMaximumSuppression/weighted(_:iouThreshold:)``).
        case anchors(DetectorConfiguration)
        /// YuNet-s: anchor-free heads at strides 8, 16 and 32
        /// (``YuNetDecoder``), then libfacedetection's greedy NMS
        /// (``NonMaximumSuppression/greedy(_:overlapThreshold:candidateLimit:keepLimit:)``).
        case yunetHeads
    }

    /// How the family can cover a picture.
    package enum Search: Sendable, Hashable {
        /// The whole frame letterboxed into the model's square input.
        case wholeFrame
        /// Canvases of an image pyramid read at any size by a fully
        /// convolutional model (``DetectionRegionPlan``: levels down to the
        /// smallest face asked for, canvases aligned to the layout's total
        /// stride, overlapping by the largest face a canvas keeps, faces on
        /// an inner edge left to the neighbour), plus the whole frame.
        case canvasPyramid
        /// Tiles of the picture at its own resolution and of copies 4×
        /// smaller each (``YuNetSearchPlan``: tiles aligned to 32 px,
        /// overlapping by the largest face a tile keeps).
        case tiledLevels
    }

    /// Names the family in messages and plans.
    package var name: String
    /// The catalogue model it runs.
    package var model: FaceModel
    package var decoding: Decoding
    /// The searches it can run (every family can read the whole frame;
    /// ``DetectorComposition`` checks the search it is given).
    package var searches: Set<Search>

    package init(name: String, model: FaceModel, decoding: Decoding, searches: Set<Search>) {
        self.name = name
        self.model = model
        self.decoding = decoding
        self.searches = searches
    }

    package var description: String { name }

    /// The anchor layout of a BlazeFace-style family (nil for YuNet-s's heads).
    package var anchorLayout: DetectorConfiguration? {
        if case let .anchors(layout) = decoding { return layout }
        return nil
    }

    /// The 1×1 convolutions' plan option of this family's search pass in
    /// `arithmetic` (``DetectorArithmetic``): YuNet-s takes every one in
    /// int8 under `.int8`, BlazeFace its block projections.
    package func pointwise(_ arithmetic: DetectorArithmetic) -> PointwiseConvolution {
        switch decoding {
        case .anchors: arithmetic.pointwise
        case .yunetHeads: arithmetic.yunetPointwise
        }
    }
}
