/// The runner's scheduling rules as a value with no I/O: how many entries
/// may be in flight, when the producer must wait, and in which order
/// finished outcomes are released to the writer.
///
/// Every manifest position gets a sequence number when it is produced.
/// Entries run on workers (at most `workers` at once); outcomes made by the
/// producer itself (a resumed entry, an archive error) take no worker. The
/// producer also waits while `window` positions are produced but not yet
/// released, or while the finished outcomes waiting for an earlier one
/// hold more than `byteBudget` bytes (`bytes` tells how many an outcome
/// holds: a 12 MP picture's PNG is 20 MB, a 2 MP one's 3 MB), so memory
/// stays bounded when one slow entry holds up the others. Decoded video
/// frames are bounded in bytes as well (`frameBudget`): a frame is held
/// (its pixels, then what it became) from `start(holding:)` until the writer
/// takes it, and the producer waits while the frames held and the next one
/// would exceed the budget, unless none is held (one always fits). Released
/// outcomes come out in sequence order, whatever order they finished in.
package struct RunSchedule<Outcome> {
    package let workers: Int
    package let window: Int
    /// Entries handed to workers and not finished.
    package private(set) var inFlight = 0
    /// Sequence number the next produced position gets (= positions produced).
    package private(set) var produced = 0
    package let byteBudget: Int
    /// Bytes the finished outcomes not yet released hold.
    package private(set) var waitingBytes = 0
    private let bytes: @Sendable (Outcome) -> Int
    private var reorder = ReorderBuffer<Outcome>()
    /// Bytes the frames started and not yet released may hold.
    package let frameBudget: Int
    /// Bytes of the frames started and not yet released (`start(holding:)`).
    package private(set) var heldFrameBytes = 0
    /// What each such frame holds, by sequence number.
    private var held: [Int: Int] = [:]

    package init(workers: Int, window: Int, byteBudget: Int = .max, bytes: @escaping @Sendable (Outcome) -> Int = { _ in 0 },
                 frameBudget: Int = .max) {
        precondition(workers >= 1 && window >= workers, "window \(window) must be at least workers \(workers) ≥ 1")
        self.workers = workers
        self.window = window
        self.byteBudget = byteBudget
        self.bytes = bytes
        self.frameBudget = frameBudget
    }

    /// Whether a new entry may start now; when false, wait for one to finish.
    /// Waiting bytes over the budget stop the producer only while an entry
    /// is in flight (it releases them when it finishes).
    package var canStart: Bool { canStart(holding: 0) }

    /// Whether an entry holding `frameBytes` (a decoded frame's pixels; 0
    /// for anything else) may start now: as ``canStart``, and the frames
    /// held with it within `frameBudget`, unless no frame is held.
    package func canStart(holding frameBytes: Int) -> Bool {
        inFlight < workers && produced - reorder.nextSequence < window && (waitingBytes <= byteBudget || inFlight == 0)
            && (frameBytes == 0 || heldFrameBytes == 0 || frameBytes <= frameBudget - heldFrameBytes)
    }

    /// Positions produced but not yet released to the writer.
    package var pending: Int { produced - reorder.nextSequence }

    /// Reserves the next position for an entry that goes to a worker.
    package mutating func start() -> Int { start(holding: 0) }

    /// Reserves the next position for an entry holding `frameBytes` that goes to a worker.
    package mutating func start(holding frameBytes: Int) -> Int {
        precondition(canStart(holding: frameBytes), "start() while the schedule is full")
        inFlight += 1
        if frameBytes > 0 {
            held[produced] = frameBytes
            heldFrameBytes += frameBytes
        }
        defer { produced += 1 }
        return produced
    }

    /// Reserves the next position for an outcome the producer makes itself.
    package mutating func reserve() -> Int {
        defer { produced += 1 }
        return produced
    }

    /// A worker finished the entry at `sequence`: the outcomes now releasable, in order.
    package mutating func finished(_ outcome: Outcome, at sequence: Int) -> [Outcome] {
        precondition(inFlight > 0, "finished() with nothing in flight")
        inFlight -= 1
        return insert(outcome, at: sequence)
    }

    /// The producer's own outcome for a position from ``reserve()``.
    package mutating func made(_ outcome: Outcome, at sequence: Int) -> [Outcome] {
        insert(outcome, at: sequence)
    }

    private mutating func insert(_ outcome: Outcome, at sequence: Int) -> [Outcome] {
        waitingBytes += bytes(outcome)
        let released = reorder.insert(outcome, at: sequence)
        for element in released { waitingBytes -= bytes(element) }
        for position in (reorder.nextSequence - released.count)..<reorder.nextSequence {
            if let frameBytes = held.removeValue(forKey: position) { heldFrameBytes -= frameBytes }
        }
        return released
    }
}
