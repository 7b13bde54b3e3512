import Inference

/// One detector family: the model it runs, how its output becomes
/// detections, and how it may cover a picture. The families facepipe
/// ships are one list (``all``, DetectorFamilies.swift), as an engine lists
/// its kernels; a ``DetectorComposition`` (what a ``DetectorMode`` means)
/// picks among them. Adding a detector is its decoder's file plus one row.
package struct DetectorFamily: Sendable, Hashable, CustomStringConvertible {
    /// How the network's outputs become ``DetectionCandidate``s.
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
    /// When Face Mesh's presence output is asked about a face this family
    /// alone found (``FaceDetection/needsSecondOpinion``).
    package var secondOpinion: SecondOpinion
    /// Which 1×1 convolutions of its search pass run in int8 under
    /// ``DetectorArithmetic/int8`` (``pointwise(_:)``).
    package var int8Pointwise: Int8Pointwise
    /// The tensors its search pass holds as bytes under
    /// ``DetectorArithmetic/staticInt8`` (``grids(_:)``); nil: none.
    package var activationGrids: ActivationGrids?

    package init(name: String, model: FaceModel, decoding: Decoding, searches: Set<Search>, pyramid: PyramidSearch? = nil,
                 faceBox: FaceBox = .blazeFace, foundBy: FaceDetection.Detectors = .blazeFace,
                 secondOpinion: SecondOpinion = .always, int8Pointwise: Int8Pointwise = .blockProjections,
                 activationGrids: ActivationGrids? = nil) {
        self.name = name
        self.model = model
        self.decoding = decoding
        self.searches = searches
        self.pyramid = pyramid
        self.faceBox = faceBox
        self.foundBy = foundBy
        self.secondOpinion = secondOpinion
        self.int8Pointwise = int8Pointwise
        self.activationGrids = activationGrids
    }

    /// When a face one family alone found is checked by Face Mesh's
    /// presence output before it is kept.
    package enum SecondOpinion: Sendable, Hashable {
        /// Always (MediaPipe's own practice for BlazeFace).
        case always
        /// For a face from `size` px (longer box side) scored under `score`
        /// (below that size the presence output is not calibrated; above
        /// that score the detector is right).
        case whenLargeAndUnsure(size: Float, score: Float)

        /// Whether `face` is asked about.
        package func asks(about face: FaceDetection) -> Bool {
            switch self {
            case .always: true
            case let .whenLargeAndUnsure(size, score): face.box.longerSide >= size && face.score < score
            }
        }
    }

    /// Which 1×1 convolutions a family's search pass plans in int8 under
    /// ``DetectorArithmetic/int8``.
    package enum Int8Pointwise: Sendable, Hashable {
        /// The block projections (1×1 after a depthwise convolution): ``DetectorArithmetic/pointwise``.
        case blockProjections
        /// Every one: ``DetectorArithmetic/yunetPointwise``.
        case every
    }

    /// The second-opinion rule of faces whose ``FaceDetection/foundBy`` is
    /// `found`: the row of the family that reports it; nil for a face two
    /// families found (``DetectorFusion``), which is never asked about.
    package static func secondOpinion(of found: FaceDetection.Detectors) -> SecondOpinion? {
        all.first { $0.foundBy == found }?.secondOpinion
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
    /// `arithmetic` (``DetectorArithmetic``), as its row's ``int8Pointwise``
    /// says: YuNet-s takes every one in int8 under `.int8`, BlazeFace its
    /// block projections.
    package func pointwise(_ arithmetic: DetectorArithmetic) -> PointwiseConvolution {
        switch int8Pointwise {
        case .blockProjections: arithmetic.pointwise
        case .every: arithmetic.yunetPointwise
        }
    }

    /// The tensors this family's search pass holds as bytes in `arithmetic`:
    /// its ``activationGrids`` under ``DetectorArithmetic/staticInt8``.
    package func grids(_ arithmetic: DetectorArithmetic) -> ActivationGrids? {
        arithmetic == .staticInt8 ? activationGrids : nil
    }
}
