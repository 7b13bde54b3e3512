extension AffineMap {
    /// The similarity (uniform scale, rotation, translation; no reflection)
    /// that maps `source` onto `target` with the least sum of squared
    /// distances: Umeyama's estimate, which in two dimensions has the closed
    /// form below (the least-squares fit of `z ↦ m·z + t` over complex
    /// numbers). Sums in `Double`, in point order. Nil for fewer than two
    /// pairs, differing counts or coincident source points.
    public static func leastSquaresSimilarity(from source: [Point], to target: [Point]) -> AffineMap? {
        guard source.count == target.count, source.count >= 2 else { return nil }
        let n = Double(source.count)
        var sx = 0.0, sy = 0.0, tx = 0.0, ty = 0.0
        for (s, t) in zip(source, target) {
            sx += Double(s.x); sy += Double(s.y); tx += Double(t.x); ty += Double(t.y)
        }
        sx /= n; sy /= n; tx /= n; ty /= n
        var spread = 0.0, dot = 0.0, cross = 0.0
        for (s, t) in zip(source, target) {
            let ax = Double(s.x) - sx, ay = Double(s.y) - sy
            let bx = Double(t.x) - tx, by = Double(t.y) - ty
            spread += ax * ax + ay * ay
            dot += ax * bx + ay * by
            cross += ax * by - ay * bx
        }
        guard spread > 0, spread.isFinite else { return nil }
        let a = dot / spread, b = cross / spread
        let map = AffineMap(a: Float(a), b: Float(-b), c: Float(b), d: Float(a),
                            tx: Float(tx - (a * sx - b * sy)), ty: Float(ty - (b * sx + a * sy)))
        return map.isFinite ? map : nil
    }
}
