import Pipeline
import RunFolders

/// Who a position of the run is, as the writer names it in rows, records
/// and messages: carried from the ordered step (``OrderedWriter/order(_:)``)
/// through the encode step to the placement.
struct OutputPosition: Sendable {
    let archiveNumber: Int
    let archiveName: String
    /// The manifest's `entry` (empty for an input-level outcome).
    let entryName: String
    /// What outputs are named by (``EntryName/rawName``).
    let rawName: [UInt8]
    /// Entry index in its input; nil for an input-level outcome.
    let index: Int?
    /// A video frame's index in its video and time (nil for anything else).
    let frame: Int?
    let time: Double?
    /// The first position of an input, or of a video's frames: the writer
    /// finishes the video before it and keeps `otherStreamsNote`.
    let beginsSequence: Bool
    /// What the run says of a video's streams left out (``VideoSource``).
    let otherStreamsNote: String?

    init(_ item: SequencedOutcome, beginsSequence: Bool) {
        archiveNumber = item.archiveNumber
        archiveName = item.archiveName
        entryName = item.entryName
        rawName = item.rawName
        index = item.index
        frame = item.frame
        time = item.time
        self.beginsSequence = beginsSequence
        otherStreamsNote = beginsSequence ? item.origin?.source.otherStreamsNote : nil
    }
}
