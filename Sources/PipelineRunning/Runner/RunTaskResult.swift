import Pipeline
import RunFolders

/// What a task of the run's task group gives back: a worker's outcome
/// (to the ordered step), or a position's encoded outputs (to placement).
enum RunTaskResult<Encoded: EncodedPosition>: Sendable {
    case processed(SequencedOutcome)
    case encoded(PendingPlacement<Encoded>, at: Int)
}

/// A position between its ordered step and its placement: its encoded
/// outputs or why they could not be made (the run's write failure), and
/// how a person names it (the failure's message) and what they hear of it.
struct PendingPlacement<Encoded: EncodedPosition>: Sendable {
    /// `archive/entry` (``EntryDisplayName``), for a write failure's message.
    let name: String
    /// Said as the position is placed (a failed entry), if anything.
    let notice: RunNotice?
    var result: Result<Encoded, any Error>

    var heldBytes: Int { (try? result.get())?.heldBytes ?? 0 }
}
