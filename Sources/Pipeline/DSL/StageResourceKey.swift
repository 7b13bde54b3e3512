/// Names a value each worker makes once and keeps (an image decoder with its
/// C handle, a face engine with its interpreters), and says how to make it.
/// A stage asks its context for the value with ``StageContext/resource(_:)``
/// and gets a `Value`, typed by the key:
///
/// ```swift
/// enum TileBuffer: StageResourceKey {
///     static func makeValue(shared: SharedResources) -> [Float] { [] }
/// }
/// let buffer = try context.resource(TileBuffer.self)   // [Float]
/// ```
///
/// Two keys are two values even when their `Value` types are the same.
public protocol StageResourceKey {
    associatedtype Value
    /// The worker's value, made on its first use.
    static func makeValue(shared: SharedResources) throws -> Value
}
