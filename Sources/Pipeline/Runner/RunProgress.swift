/// Progress after an entry was written.
public struct RunProgress: Sendable {
    /// Entries written so far (including failed and resumed ones).
    public var done: Int
    /// Entries in all archives, once the producer has read them all.
    public var total: Int?
    public var failed: Int
    /// Megapixels decoded so far.
    public var megapixels: Double
}
