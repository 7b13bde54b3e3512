/// Fills a model's NHWC float input from an image: the one image-to-tensor
/// path of the pipeline. Every entry point writes `byte·valueScale +
/// valueOffset` per channel, black (that is, `valueOffset`) outside the
/// image, and checks the tensor's shape once before its loop.
///
/// - ``resize(_:region:size:valueScale:valueOffset:into:)``
///   (TensorSampler+Letterbox.swift): the axis-aligned, antialiased resize of
///   a ``SquareRegion`` that the detectors' letterbox uses.
/// - ``crop(_:x:y:width:height:valueScale:valueOffset:into:)``
///   (TensorSampler+Crop.swift): a 1:1 copy of a rectangle, the detector canvases.
/// - ``sample(_:transform:size:valueScale:valueOffset:flipHorizontal:supersample:referenceLoop:into:)``
///   (TensorSampler+RegionOfInterest.swift): one bilinear tap per tensor
///   pixel through an ``AffineMap``, the rotated region-of-interest crop for
///   Face Mesh and Iris; its one-tap case runs in C (CTensorSampling).
package enum TensorSampler {}
