/// What a detection mode runs, as a composition of detector families
/// (``DetectorFamily``): which family searches the picture and how, and
/// whether a second family confirms its candidates, the two fused by
/// ``DetectorFusion``. ``DetectorMode/composition(unconfirmed:)`` gives
/// each mode's; `FaceAnalyzer.detect` runs any composition the same way.
package struct DetectorComposition: Sendable, Hashable {
    /// How the picture is searched.
    package enum Search: Sendable, Hashable {
        /// One family on the whole frame.
        case wholeFrame(DetectorFamily)
        /// `canvases` on the canvases of an image pyramid and on the whole
        /// frame; pictures too small for a pyramid are read whole by
        /// `smallPictures`, whose input size sizes the pyramid.
        case canvasPyramid(canvases: DetectorFamily, smallPictures: DetectorFamily)
        /// One family over tiles and levels.
        case tiledLevels(DetectorFamily)

        /// The families it runs, the one sizing the search first.
        package var families: [DetectorFamily] {
            switch self {
            case let .wholeFrame(family), let .tiledLevels(family): [family]
            case let .canvasPyramid(canvases, smallPictures): [smallPictures, canvases]
            }
        }
    }

    /// A second family reading each candidate of the search (a square
    /// around it, and the whole frame), the two merged by ``DetectorFusion``.
    package struct Confirmation: Sendable, Hashable {
        package var family: DetectorFamily
        /// Which faces only one family found are kept.
        package var unconfirmed: UnconfirmedFaces
        /// With `UnconfirmedFaces.all`, a search of every pixel by the
        /// confirming side too (recall first, for the faces the searching
        /// family does not see at all), whose canvas faces under its own
        /// floor the searching family re-reads (``RecallReread``).
        package var recall: Search?
    }

    package var search: Search
    package var confirmation: Confirmation?

    package init(search: Search, confirmation: Confirmation? = nil) {
        self.search = search
        self.confirmation = confirmation
    }

    /// The catalogue models it runs, each once: the search's, the recall
    /// search's, then the confirming family's.
    package var models: [FaceModel] {
        var families = search.families
        if let confirmation { families += (confirmation.recall?.families ?? []) + [confirmation.family] }
        var models: [FaceModel] = []
        for family in families where !models.contains(family.model) { models.append(family.model) }
        return models
    }

    /// The pass ``DetectorArithmetic`` applies to (the search over many
    /// regions), or nil for a whole-frame search, which is always fp32.
    package var arithmeticPass: (family: DetectorFamily, subject: String)? {
        switch search {
        case .wholeFrame: nil
        case let .canvasPyramid(canvases, _): (canvases, "on the pyramid canvases")
        case let .tiledLevels(family): (family, "searching the picture")
        }
    }

    /// Checks that each family runs a search it declares and decodes as
    /// that search needs.
    package func validate() throws(FaceAnalysisError) {
        func check(_ search: Search) throws(FaceAnalysisError) {
            let needed: [(DetectorFamily, DetectorFamily.Search)]
            switch search {
            case let .wholeFrame(family): needed = [(family, .wholeFrame)]
            case let .canvasPyramid(canvases, small): needed = [(canvases, .canvasPyramid), (small, .wholeFrame)]
            case let .tiledLevels(family): needed = [(family, .tiledLevels)]
            }
            for (family, kind) in needed {
                let decodes = kind == .tiledLevels ? family.anchorLayout == nil : family.anchorLayout != nil
                guard family.searches.contains(kind), decodes, kind == .wholeFrame || family.pyramid != nil else {
                    throw .invalidOption("detector family \(family) cannot run a \(kind) search")
                }
            }
        }
        try check(search)
        if let confirmation {
            guard case .tiledLevels = search, confirmation.family.anchorLayout != nil else {
                throw .invalidOption("detector family \(confirmation.family) cannot confirm a \(search) search")
            }
            if let recall = confirmation.recall { try check(recall) }
        }
    }
}

extension DetectorMode {
    /// The families this mode runs and how (`unconfirmed` matters in
    /// `.accurate` only).
    package func composition(unconfirmed: UnconfirmedFaces) -> DetectorComposition {
        let pyramid = DetectorComposition.Search.canvasPyramid(canvases: .blazeFaceShortRange, smallPictures: .blazeFaceFullRange)
        switch self {
        case .fast: return DetectorComposition(search: .wholeFrame(.blazeFaceShortRange))
        case .sparse: return DetectorComposition(search: .wholeFrame(.blazeFaceFullRangeSparse))
        case .pyramid: return DetectorComposition(search: pyramid)
        case .yunet: return DetectorComposition(search: .tiledLevels(.yunetS))
        case .accurate:
            return DetectorComposition(search: .tiledLevels(.yunetS),
                                       confirmation: .init(family: .blazeFaceShortRange, unconfirmed: unconfirmed,
                                                           recall: unconfirmed == .all ? pyramid : nil))
        }
    }
}

extension FaceDetectionOptions {
    /// What `mode` runs with these options.
    package var composition: DetectorComposition { mode.composition(unconfirmed: unconfirmed) }
}
