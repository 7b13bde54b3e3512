/// The process exit codes facepipe promises.
public enum ExitStatus: Int32, Sendable {
    /// Every entry was processed.
    case ok = 0
    /// Some entries failed; each has its row in the manifest.
    case someEntriesFailed = 1
    /// Usage or setup error: nothing was processed.
    case usageOrSetup = 2
}
