/// The process exit codes facepipe promises (docs/RUNNING.md, "Exit codes").
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Every entry was processed.
    case ok = 0
    /// Some entries failed; each has its row in the manifest.
    case someEntriesFailed = 1
    /// Usage or setup error: nothing was processed.
    case usageOrSetup = 2
    /// Writing the outputs failed mid-run (disk full, an unwritable path):
    /// the run stopped there; manifest, completion records and run.json hold
    /// the entries written before it, and `--resume` finishes the run.
    case writeFailed = 3
    /// Stopped by Ctrl-C (SIGINT, 128 + 2) after the entries in flight finished.
    case interrupted = 130
    /// Stopped by SIGTERM (128 + 15), as Slurm and Kubernetes send before a kill,
    /// after the entries in flight finished.
    case terminated = 143
}
