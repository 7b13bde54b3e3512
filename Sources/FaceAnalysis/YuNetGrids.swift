import Inference

/// YuNet-s's static int8 grids (``DetectorArithmetic/staticInt8``,
/// `ActivationGrids`): the step of each tensor held as bytes, from the
/// largest magnitude it held when `scripts/calibrate-yunet.sh` ran the
/// search `faces` runs over a calibration archive the project builds
/// (`datasets/build-bench.py` with its own seed: not the pictures
/// `make bench-pipeline` times, nor the labelled sets `make eval` scores).
/// Named: the first layer's output, every 1×1 and depthwise layer's
/// output but the heads' (floats), and the neck's sums; pools and
/// upsamplings keep their input's grid. Regenerate the table with
/// `scripts/calibrate-yunet.sh` (it rewrites the lines between the markers).
package enum YuNetGrids {
    /// The grids of the calibrated tensors.
    package static let calibrated = grids(largest)

    /// Grids from each tensor's largest magnitude, and whether it held negative values.
    package static func grids(_ largest: [(tensor: String, largest: Float, signed: Bool)]) -> ActivationGrids {
        ActivationGrids(steps: Dictionary(uniqueKeysWithValues: largest.map {
            ($0.tensor, ActivationGrids.step(largest: $0.largest, signed: $0.signed))
        }))
    }

    /// A calibration in progress: the largest magnitude of each tensor the
    /// grids name (``names(_:)``) over the values observed, and whether it
    /// held a negative value (`YuNetDetector.observer`, `Interpreter.invoke(observing:)`).
    package struct Calibration {
        private var seen: [String: (largest: Float, signed: Bool)] = [:]

        package init() {}

        /// Takes `values` of tensor `name` into account (other tensors are ignored).
        package mutating func observe(_ name: String, _ values: UnsafeBufferPointer<Float>) {
            guard YuNetGrids.names(name) else { return }
            var high: Float = 0, low: Float = 0
            for value in values {
                high = max(high, value)
                low = min(low, value)
            }
            let before = seen[name] ?? (0, false)
            seen[name] = (max(before.largest, max(high, -low)), before.signed || low < 0)
        }

        /// What was observed, by tensor name: the rows of the table ``largest``.
        package var table: [(tensor: String, largest: Float, signed: Bool)] {
            seen.keys.sorted().map { ($0, seen[$0]!.largest, seen[$0]!.signed) }
        }

        package var grids: ActivationGrids { YuNetGrids.grids(table) }
    }

    /// Whether the grids name tensor `name` of ``YuNetGraph``: the first
    /// layer's output, the 1×1 and depthwise layers' but the heads', the
    /// neck's sums (`add…`).
    package static func names(_ name: String) -> Bool {
        !name.hasPrefix("bbox_head") && (name.hasSuffix("_pw") || name.hasSuffix("_dw") || name.hasPrefix("add"))
    }

    // BEGIN CALIBRATION (scripts/calibrate-yunet.sh)
    // Calibrated on 200 pictures of calibration-2027-200.tar: tensor, largest magnitude, signed.
    static let largest: [(tensor: String, largest: Float, signed: Bool)] = [
        ("add32", 8.519131, false),
        ("add38", 6.891013, false),
        ("backbone__model0_dp_dw", 7.6954875, false),
        ("backbone__model0_dp_pw", 2.439588, true),
        ("backbone__model0_pw", 6.400489, false),
        ("backbone__model1_dp1_dw", 5.286062, false),
        ("backbone__model1_dp1_pw", 9.068463, true),
        ("backbone__model1_dp2_dw", 6.263455, false),
        ("backbone__model1_dp2_pw", 4.44821, true),
        ("backbone__model2_dp1_dw", 3.854875, false),
        ("backbone__model2_dp1_pw", 4.75237, true),
        ("backbone__model2_dp2_dw", 3.0373466, false),
        ("backbone__model2_dp2_pw", 2.5182555, true),
        ("backbone__model3_dp1_dw", 4.290273, false),
        ("backbone__model3_dp1_pw", 2.2527232, true),
        ("backbone__model3_dp2_dw", 4.1881137, false),
        ("backbone__model3_dp2_pw", 2.3358011, true),
        ("backbone__model4_dp1_dw", 4.830116, false),
        ("backbone__model4_dp1_pw", 2.8558104, true),
        ("backbone__model4_dp2_dw", 7.479859, false),
        ("backbone__model4_dp2_pw", 4.1775947, true),
        ("backbone__model5_dp1_dw", 4.570865, false),
        ("backbone__model5_dp1_pw", 7.062514, true),
        ("backbone__model5_dp2_dw", 3.669109, false),
        ("backbone__model5_dp2_pw", 1.6231359, true),
        ("neck__lateral_convs__0_dw", 9.107926, false),
        ("neck__lateral_convs__0_pw", 6.0337677, true),
        ("neck__lateral_convs__1_dw", 6.8570366, false),
        ("neck__lateral_convs__1_pw", 3.4026892, true),
        ("neck__lateral_convs__2_dw", 8.519131, false),
        ("neck__lateral_convs__2_pw", 1.9529599, true),
    ]
    // END CALIBRATION
}
