/// How one BlazeFace model's outputs are laid out: input size, SSD anchor
/// strides and anchors per cell. The layouts of the three detectors are
/// below; their families' rows (``DetectorFamily/all``) name them.
package struct DetectorConfiguration: Sendable, Hashable {
    package var model: FaceModel
    package var strides: [Int]
    /// Anchors per feature-map cell for each stride (MediaPipe's
    /// `interpolated_scale_aspect_ratio` 1.0 adds one per layer sharing a stride).
    package var anchorsPerCell: [Int]
    /// The network's total stride (input side ÷ its deepest feature map):
    /// a canvas of any other size must be a multiple of it, so every
    /// upsampled branch lines up with its shortcut.
    package var totalStride: Int

    package init(model: FaceModel, strides: [Int], anchorsPerCell: [Int], totalStride: Int) {
        self.model = model
        self.strides = strides
        self.anchorsPerCell = anchorsPerCell
        self.totalStride = totalStride
    }

    /// The model's file name (error messages name it).
    package var modelFile: String { model.fileName }
    /// Side of the square input the model declares.
    package var inputSize: Int { model.inputSide }

    /// Anchor centres, normalized 0…1, in the order the model emits them:
    /// stride level, row, column, repeat.
    package var anchors: [SIMD2<Float>] {
        var result: [SIMD2<Float>] = []
        for (stride, perCell) in zip(strides, anchorsPerCell) {
            let cells = (inputSize + stride - 1) / stride
            for y in 0..<cells {
                for x in 0..<cells {
                    let centre = SIMD2<Float>((Float(x) + 0.5) / Float(cells), (Float(y) + 0.5) / Float(cells))
                    result.append(contentsOf: repeatElement(centre, count: perCell))
                }
            }
        }
        return result
    }

    /// Anchors the model emits for a `width × height` input (multiples of `totalStride`).
    package func anchorCount(width: Int, height: Int) -> Int {
        zip(strides, anchorsPerCell).reduce(0) { total, level in total + (width / level.0) * (height / level.0) * level.1 }
    }

    package var anchorCount: Int {
        zip(strides, anchorsPerCell).reduce(0) { total, level in
            let cells = (inputSize + level.0 - 1) / level.0
            return total + cells * cells * level.1
        }
    }
}

// MARK: - The layouts of MediaPipe's detectors

extension DetectorConfiguration {
    package static let shortRange = DetectorConfiguration(
        model: .shortRangeDetector, strides: [8, 16], anchorsPerCell: [2, 6], totalStride: 16)
    package static let fullRange = DetectorConfiguration(
        model: .fullRangeDetector, strides: [4], anchorsPerCell: [1], totalStride: 32)
    package static let fullRangeSparse = DetectorConfiguration(
        model: .fullRangeSparseDetector, strides: [4], anchorsPerCell: [1], totalStride: 32)
}
