import RunFolders

/// Something a user should hear about while the run goes on, not only at
/// its end: an input that cannot be read, an entry skipped, an entry
/// that failed. Each also ends up in the manifest or run.json.
public enum RunNotice: Sendable, Equatable {
    /// An input could not be opened, or reading it stopped at damage (later entries are lost).
    case inputFailed(input: String, reason: String)
    /// An entry was not processed (a link, a device, unreadable, too large, not an image).
    case entrySkipped(RunSummary.SkippedRecord)
    /// An entry failed in a stage; its manifest row has the reason.
    case entryFailed(input: String, entry: String, reason: String)
}
