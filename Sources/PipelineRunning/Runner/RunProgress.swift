/// How far a run has got, after each entry read and each entry written.
public struct RunProgress: Sendable, Equatable {
    /// Entries written so far (including failed and resumed ones).
    public var done: Int
    /// Entries in all inputs, once the producer has read them all.
    public var total: Int?
    public var failed: Int
    /// Megapixels decoded so far.
    public var megapixels: Double
    /// Entries read from the inputs so far (written, in flight or waiting).
    public var read: Int
    /// The input being read (0-based) and how many the run has.
    public var input: Int
    public var inputCount: Int
    /// Where the current input's source is.
    public var position: ReadPosition
    /// The share of the whole run (0…1) of the inputs read to their end,
    /// and of the current one (`InputShares`).
    public var sharesRead: Double
    public var currentShare: Double

    public init(done: Int = 0, total: Int? = nil, failed: Int = 0, megapixels: Double = 0, read: Int = 0,
                input: Int = 0, inputCount: Int, position: ReadPosition = ReadPosition(unit: .entries, done: 0, total: nil),
                sharesRead: Double = 0, currentShare: Double) {
        self.done = done
        self.total = total
        self.failed = failed
        self.megapixels = megapixels
        self.read = read
        self.input = input
        self.inputCount = inputCount
        self.position = position
        self.sharesRead = sharesRead
        self.currentShare = currentShare
    }

    /// The share of the run's work done, 0…1, for a bar and an ETA: the
    /// share of the inputs read (their bytes or listed entries), times the
    /// share of the entries read so far that are written; once every input
    /// is read, entries written of the total. Nil while the current input
    /// has no total (a stream: rate only).
    public var fraction: Double? {
        if let total { return total > 0 ? min(Double(done) / Double(total), 1) : 1 }
        guard let inputFraction = position.fraction else { return nil }
        let readShare = min(sharesRead + currentShare * inputFraction, 1)
        return read > 0 ? readShare * Double(min(done, read)) / Double(read) : 0
    }

    /// Whether a line drawn now has what it promises: for a run with a
    /// total, the time left, which needs a rate, so an entry written
    /// (before that the share done is 0 and nothing tells how long an entry
    /// takes); for a stream, which has no total, its rates at once.
    /// The reporter draws its first line only then (the last one always).
    public var isReadyToShow: Bool {
        guard let fraction else { return true }
        return fraction > 0
    }

    /// Seconds left at the rate so far (`elapsed` seconds for `fraction`),
    /// nil without a fraction or before anything is done.
    public func secondsLeft(elapsed: Double) -> Double? {
        guard let fraction, fraction > 0, elapsed > 0 else { return nil }
        return elapsed * (1 - fraction) / fraction
    }
}
