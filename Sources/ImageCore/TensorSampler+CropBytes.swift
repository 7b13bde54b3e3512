extension TensorSampler {
    /// Copies the `width × height` rectangle of `image` at (`x`, `y`) into
    /// NHWC bytes 1:1, black (0) outside the image: the bytes whose
    /// `crop(…, valueScale: 2/255, valueOffset: -1)` is the float canvas
    /// (black there is −1), for a model with an int8 first convolution.
    package static func cropBytes(_ image: RGBImage, x: Int, y: Int, width: Int, height: Int,
                                  into tensor: UnsafeMutableBufferPointer<UInt8>) {
        walkCrop(image, x: x, y: y, width: width, height: height, into: tensor, outside: 0) { source, target, count in
            target.update(from: source, count: count)
        }
    }
}
