/// Places text labels beside boxes, one after another, so that every label
/// lies inside the picture, no label overlaps (or touches) one placed
/// before it, and labels avoid the other boxes where they can.
///
/// For each label the placer tries, in this order: above the box
/// left-aligned, above right-aligned, below left-aligned, below
/// right-aligned, inside the box at its top, inside at its bottom; then
/// positions stepped away from the spots above and below (half a label
/// height at a time, up to ``searchSteps`` steps, nearest first). Every
/// candidate is first shifted into the picture. The first candidate that
/// touches neither a placed label nor a box wins; else the first that
/// touches no placed label; else (a picture too crowded for its labels) the
/// one overlapping placed labels least. The label's own box counts only
/// for the positions outside it. Everything is in whole pixels, so the same
/// requests in the same order give the same places on every machine.
public struct LabelPlacer: Sendable {
    /// A rectangle of whole pixels: columns `x..<x+width`, rows `y..<y+height`.
    public struct Box: Sendable, Hashable, CustomStringConvertible {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
        public var maxX: Int { x + width }
        public var maxY: Int { y + height }
        public var area: Int { width * height }
        public var description: String { "\(width)×\(height) at (\(x), \(y))" }

        /// The pixels both boxes cover (0 when they are apart or one is empty).
        public func overlapArea(_ other: Box) -> Int {
            let w = min(maxX, other.maxX) - max(x, other.x)
            let h = min(maxY, other.maxY) - max(y, other.y)
            return w > 0 && h > 0 ? w * h : 0
        }

        /// The box grown by `margin` pixels on every side.
        public func grown(by margin: Int) -> Box {
            Box(x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin)
        }

        /// The smallest whole-pixel box holding `rect` grown by `outset` on
        /// every side (a stroke centred on its edges); nil for a rectangle
        /// with a non-finite or absurd coordinate.
        public init?(covering rect: Rect, outset: Float = 0) {
            let x0 = Double(min(rect.x, rect.x + rect.width) - outset)
            let y0 = Double(min(rect.y, rect.y + rect.height) - outset)
            let x1 = Double(max(rect.x, rect.x + rect.width) + outset)
            let y1 = Double(max(rect.y, rect.y + rect.height) + outset)
            let limit = Double(1 << 30)
            guard [x0, y0, x1, y1].allSatisfy({ abs($0) <= limit }) else { return nil }
            let left = Int(x0.rounded(.down)), top = Int(y0.rounded(.down))
            self.init(x: left, y: top, width: Int(x1.rounded(.up)) - left, height: Int(y1.rounded(.up)) - top)
        }
    }

    /// How many half-label-height steps the search goes from the spots
    /// above and below the box, up, down and sideways.
    public static let searchSteps = 6

    public let pictureWidth: Int
    public let pictureHeight: Int
    /// Empty pixels kept between two labels.
    public let spacing: Int
    /// The boxes labels should not cover (every face's, in whole pixels).
    public let obstacles: [Box]
    /// The labels placed so far, in order.
    public private(set) var placed: [Box] = []

    /// - Parameters:
    ///   - obstacles: boxes to keep labels off where possible (a face box
    ///     grown by half its stroke, ``Box/init(covering:outset:)``).
    ///   - spacing: empty pixels to keep between labels (≥ 0).
    public init(pictureWidth: Int, pictureHeight: Int, obstacles: [Box] = [], spacing: Int = 1) {
        self.pictureWidth = max(pictureWidth, 0)
        self.pictureHeight = max(pictureHeight, 0)
        self.obstacles = obstacles
        self.spacing = max(spacing, 0)
    }

    /// Places a `width × height` label beside `box` (a box in whole pixels,
    /// its stroke included) and remembers it. A label larger than the
    /// picture is put at its top or left edge and overhangs the other one.
    public mutating func place(width: Int, height: Int, beside box: Box) -> Box {
        let width = max(width, 0), height = max(height, 0)
        var best: (box: Box, rank: Int, overlap: Int)?
        for candidate in candidates(width: width, height: height, beside: box) {
            let label = clamped(candidate.label)
            let overlap = placed.reduce(0) { $0 + label.overlapArea($1.grown(by: spacing)) }
            let coversBox = obstacles.contains { obstacle in
                label.overlapArea(obstacle) > 0 && (obstacle != box || !candidate.inside)
            }
            let rank = overlap > 0 ? 2 : coversBox ? 1 : 0
            if rank == 0 { best = (label, 0, 0); break }
            if let current = best, (current.rank, current.overlap) <= (rank, rank == 2 ? overlap : 0) { continue }
            best = (label, rank, rank == 2 ? overlap : 0)
        }
        let label = best?.box ?? clamped(Box(x: box.x, y: box.y, width: width, height: height))
        placed.append(label)
        return label
    }

    /// The positions tried for a label beside `box`, in order of preference.
    func candidates(width: Int, height: Int, beside box: Box) -> [(label: Box, inside: Bool)] {
        let above = box.y - height, below = box.maxY
        let left = box.x, right = box.maxX - width
        var list: [(label: Box, inside: Bool)] = [
            (Box(x: left, y: above, width: width, height: height), false),
            (Box(x: right, y: above, width: width, height: height), false),
            (Box(x: left, y: below, width: width, height: height), false),
            (Box(x: right, y: below, width: width, height: height), false),
            (Box(x: left, y: box.y, width: width, height: height), true),
            (Box(x: left, y: box.maxY - height, width: width, height: height), true),
        ]
        // Nearest first: by the number of steps, then up/down before
        // sideways, left before right, above before below.
        let step = max(height / 2, 1)
        let n = Self.searchSteps
        for distance in 1...(2 * n) {
            for vertical in stride(from: min(distance, n), through: max(0, distance - n), by: -1) {
                let sideways = distance - vertical
                for dx in sideways == 0 ? [0] : [-sideways, sideways] {
                    list.append((Box(x: left + dx * step, y: above - vertical * step, width: width, height: height), false))
                    list.append((Box(x: left + dx * step, y: below + vertical * step, width: width, height: height), false))
                }
            }
        }
        return list
    }

    /// `label` shifted into the picture (to its top-left edge when larger).
    func clamped(_ label: Box) -> Box {
        var label = label
        label.x = max(0, min(label.x, pictureWidth - label.width))
        label.y = max(0, min(label.y, pictureHeight - label.height))
        return label
    }
}
