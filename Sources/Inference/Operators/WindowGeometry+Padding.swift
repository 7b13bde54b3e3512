import TFLite

extension WindowGeometry {
    /// The output size and leading padding of a windowed operator
    /// (TensorFlow's SAME and VALID rules), for CONV_2D,
    /// DEPTHWISE_CONV_2D and MAX_POOL_2D.
    /// - Throws: `InferenceError` for a kernel or stride outside 1…64, a
    ///   VALID kernel larger than its input, or an empty output.
    init(inHeight: Int, inWidth: Int, channels: Int, outChannels: Int, kernelHeight: Int, kernelWidth: Int,
         strideHeight: Int, strideWidth: Int, padding: Padding) throws {
        guard kernelHeight >= 1, kernelWidth >= 1, kernelHeight <= 64, kernelWidth <= 64, strideHeight <= 64, strideWidth <= 64 else {
            throw InferenceError(.window(kernelHeight: kernelHeight, kernelWidth: kernelWidth, strideHeight: strideHeight, strideWidth: strideWidth))
        }
        func axis(_ size: Int, _ kernel: Int, _ stride: Int) throws -> (out: Int, before: Int) {
            switch padding {
            case .same:
                let out = (size + stride - 1) / stride
                let total = max((out - 1) * stride + kernel - size, 0)
                return (out, total / 2)
            case .valid:
                guard size >= kernel else { throw InferenceError(.kernelLargerThanInput(kernel: kernel, input: size)) }
                return ((size - kernel) / stride + 1, 0)
            }
        }
        let (outH, top) = try axis(inHeight, kernelHeight, strideHeight)
        let (outW, left) = try axis(inWidth, kernelWidth, strideWidth)
        guard outH >= 1, outW >= 1, channels >= 1, outChannels >= 1 else {
            throw InferenceError(.emptyOutput(height: outH, width: outW, channels: outChannels))
        }
        self.init(inHeight: inHeight, inWidth: inWidth, inChannels: channels, outHeight: outH, outWidth: outW,
                  outChannels: outChannels, kernelHeight: kernelHeight, kernelWidth: kernelWidth,
                  strideHeight: strideHeight, strideWidth: strideWidth, padTop: top, padLeft: left)
    }
}
