import ArchiveIO

/// What an output asks of the producer, so the scheduler needs no branch
/// per output kind: where each entry it reads goes, whether each input's
/// end is marked in the ordered sequence, and in which format images are
/// written. A plain run processes every entry; the redacted tars
/// (``RedactedTars/routing(copyUnknown:)``) pass members known to carry no
/// picture to the writer as they are, leave the others out, and need each
/// input's end to name its tar.
struct EntryRouting: Sendable {
    /// Where one entry goes.
    enum Route: Equatable, Sendable {
        /// Through the pipeline's stages on a worker.
        case process
        /// To the writer in input order, its bytes untouched and without a manifest row.
        case copy
        /// Nowhere: listed as skipped with the reason.
        case leaveOut(reason: String)
    }

    /// The route of an entry, from its name and bytes.
    var route: @Sendable (_ name: String, _ data: [UInt8]) -> Route
    /// Whether the writer hears of each input's end, in sequence with its entries.
    var marksInputEnds: Bool
    /// Whether images are written in their entry's format (PNG stays PNG) rather than the pipeline's.
    var imagesInEntryFormat: Bool

    /// Every entry processed, nothing marked: what a run without redacted tars does.
    static let processEveryEntry = EntryRouting(route: { _, _ in .process }, marksInputEnds: false, imagesInEntryFormat: false)
}
