/// Counts reported by `facepipe model inspect`.
public struct ModelStatistics: Sendable {
    /// Operators in the file, by name, in first-seen order.
    public var operatorCounts: [(name: String, count: Int)] = []
    /// Multiply-accumulates of one invocation (convolutions and depthwise convolutions).
    public var multiplyAccumulates = 0
    /// Weight and bias values (after dequantization and densification).
    public var parameters = 0
    /// Floats in one interpreter's arena.
    public var arenaFloats = 0
    /// Executable steps after fusion.
    public var steps = 0

    mutating func count(_ name: String) {
        if let index = operatorCounts.firstIndex(where: { $0.name == name }) {
            operatorCounts[index].count += 1
        } else {
            operatorCounts.append((name, 1))
        }
    }
}
