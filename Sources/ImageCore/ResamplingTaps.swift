/// Precomputed 1-D filter taps: output sample `k` is
/// `Σ weights[offsets[k] + t] · source[starts[k] + t]` for `t < counts[k]`.
/// Built once per resize axis so the pixel loops only multiply and add.
/// These feed the image-to-image resizes (``SeparableResampler``); the
/// detector letterbox into a tensor uses ``AntialiasedBilinearTaps``.
struct ResamplingTaps {
    var starts: [Int]
    var counts: [Int]
    var offsets: [Int]
    var weights: [Float]

    /// Whether every output has exactly two taps at `weights[2k]`, `weights[2k + 1]`.
    var isTwoTap: Bool { counts.allSatisfy { $0 == 2 } }

    /// Exact box-filter coverage: output sample `k` covers source interval
    /// `[k·f, (k+1)·f)` with `f = sourceCount / outputCount`; each source
    /// sample weighs the length of its overlap (so integer factors give weight 1).
    /// Weights are not normalised: their sum per output is `f`.
    static func areaCoverage(sourceCount: Int, outputCount: Int) -> ResamplingTaps {
        var taps = ResamplingTaps(starts: [], counts: [], offsets: [], weights: [])
        taps.starts.reserveCapacity(outputCount)
        for k in 0..<outputCount {
            // Boundaries computed as k·N/M exactly in integers where possible.
            let lower = Double(k * sourceCount) / Double(outputCount)
            let upper = Double((k + 1) * sourceCount) / Double(outputCount)
            let first = Int(lower.rounded(.down))
            let last = min(Int(upper.rounded(.up)), sourceCount)   // exclusive
            taps.starts.append(first)
            taps.offsets.append(taps.weights.count)
            var count = 0
            for s in first..<last {
                let overlap = min(upper, Double(s + 1)) - max(lower, Double(s))
                if overlap > 0 {
                    if count == 0 { taps.starts[k] = s }
                    taps.weights.append(Float(overlap))
                    count += 1
                }
            }
            taps.counts.append(count)
        }
        return taps
    }

    /// Two-tap linear interpolation with half-pixel centres
    /// (`src = (dst + 0.5)·N/M − 0.5`, clamped to the edge samples), as
    /// OpenCV `INTER_LINEAR` and TensorFlow `half_pixel_centers=true`.
    static func linear(sourceCount: Int, outputCount: Int) -> ResamplingTaps {
        var taps = ResamplingTaps(starts: [], counts: [], offsets: [], weights: [])
        let scale = Double(sourceCount) / Double(outputCount)
        for k in 0..<outputCount {
            let position = max((Double(k) + 0.5) * scale - 0.5, 0)
            let first = min(Int(position.rounded(.down)), sourceCount - 1)
            let fraction = Float(position - Double(first))
            taps.starts.append(first)
            taps.offsets.append(taps.weights.count)
            // Always two taps (the second may weigh 0) so the pixel loops
            // run a fixed shape; `first` is pulled back at the right edge so
            // both taps stay inside.
            taps.counts.append(2)
            if sourceCount == 1 {
                taps.starts[k] = 0
                taps.counts[k] = 1
                taps.weights.append(1)
            } else if first + 1 < sourceCount {
                taps.weights.append(1 - fraction)
                taps.weights.append(fraction)
            } else {
                taps.starts[k] = sourceCount - 2
                taps.weights.append(0)
                taps.weights.append(1)
            }
        }
        return taps
    }
}
