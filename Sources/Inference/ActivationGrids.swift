/// Static int8 activations (QS8, as XNNPACK runs them), chosen when a model
/// is planned (`Model.resized(inputShape:firstConvolution:pointwise:grids:)`),
/// never by the CPU: each tensor named here is held as bytes `b` on a fixed
/// grid, its value `step · (b − z)`.
///
/// The zero point `z` follows from what writes the tensor (`Planner+QS8`):
/// 128 for a 1×1 convolution's output (signed, −127…127), 0 for one after a
/// ReLU (a depthwise convolution's, the first layer's), an ADD's (of two
/// non-negative tensors) and their max pools and nearest-neighbour
/// upsamplings, which keep their input's grid (the table need not name
/// those). A 1×1 convolution reading a byte tensor sums bytes against 8-bit
/// weights exactly (`QS8PointwiseKernel`), a depthwise one reading and
/// writing bytes does the same with 8-bit taps (`QS8DepthwiseKernel`); both
/// round once, in one float epilogue, so every CPU writes the same bytes.
/// A step that cannot write bytes (the first layer) writes floats that a
/// quantizing step rounds onto the grid. The steps come from a calibration:
/// the largest value each tensor held over a set of pictures, over 255
/// (non-negative) or 127 (signed).
public struct ActivationGrids: Sendable, Hashable {
    /// Grid step per tensor name.
    public var steps: [String: Float]

    public init(steps: [String: Float]) {
        self.steps = steps
    }

    /// The step that puts `largest` on the grid's last level, for a tensor
    /// with no negative value (`signed == false`: 255 levels above zero) or
    /// a signed one (127 on each side). A tensor that was always zero gets
    /// the step of 1.
    public static func step(largest: Float, signed: Bool) -> Float {
        largest > 0 ? largest / (signed ? 127 : 255) : 1
    }
}
