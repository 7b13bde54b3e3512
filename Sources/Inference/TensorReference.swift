/// A tensor of a model file as errors name it: its index and its name.
public struct TensorReference: Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var name: String

    public init(index: Int, name: String) {
        self.index = index
        self.name = name
    }

    public var description: String { "tensor \(index) '\(name)'" }
}
