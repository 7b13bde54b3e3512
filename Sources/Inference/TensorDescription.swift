/// The name and shape of a model input or output.
public struct TensorDescription: Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let shape: [Int]
    /// Number of float32 elements (product of `shape`).
    public var elementCount: Int { shape.reduce(1, *) }

    public init(name: String, shape: [Int]) {
        self.name = name
        self.shape = shape
    }

    public var description: String { "\(name) \(shape.map(String.init).joined(separator: "×"))" }
}
