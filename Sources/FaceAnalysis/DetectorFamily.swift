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
        /// Tiles of an image pyramid read at any size by a fully
        /// convolutional model (the family's ``pyramid``, whose levels end
        /// in the whole frame), plus the whole frame.
        case canvasPyramid
        /// Tiles of the levels of the family's ``pyramid`` alone.
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
    /// Its levels, tiles, alignment, overlap and inner edges, for a
    /// `.canvasPyramid` or `.tiledLevels` search.
    package var pyramid: PyramidSearch?
    /// How its box stands for BlazeFace's (Face Mesh's region is made from
    /// BlazeFace's box).
    package var faceBox: FaceBox
    /// What its faces' ``FaceDetection/foundBy`` says.
    package var foundBy: FaceDetection.Detectors

    package init(name: String, model: FaceModel, decoding: Decoding, searches: Set<Search>, pyramid: PyramidSearch? = nil,
                 faceBox: FaceBox = .blazeFace, foundBy: FaceDetection.Detectors = .blazeFace) {
        self.name = name
        self.model = model
        self.decoding = decoding
        self.searches = searches
        self.pyramid = pyramid
        self.faceBox = faceBox
        self.foundBy = foundBy
    }

    /// How a family's face box stands for the BlazeFace box of the same
    /// face, the box Face Mesh's region of interest is made from
    /// (``RotatedSquare/faceMeshROI(for:)``).
    package enum FaceBox: Sendable, Hashable {
        /// BlazeFace's own box (as reported, `TurnedFaceBox`'s growth undone).
        case blazeFace
        /// A box of height `h` stands for a BlazeFace box of side `side·h`
        /// whose centre lies `drop·h` lower.
        case fromHeight(side: Float, drop: Float)
    }

    /// The box rule of faces whose ``FaceDetection/foundBy`` is `found`:
    /// the row of the family that reports it, or for a face two families
    /// found (``DetectorFusion``'s mean of the searching family's box and
    /// BlazeFace's), that family's rule applied to the mean.
    package static func faceBox(of found: FaceDetection.Detectors) -> (rule: FaceBox, meanWithBlazeFace: Bool) {
        if let row = all.first(where: { $0.foundBy == found }) { return (row.faceBox, false) }
        let searching = all.first { $0.faceBox != .blazeFace }?.faceBox ?? .blazeFace
        return (searching, true)
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
