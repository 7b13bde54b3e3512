/// Where a container's bytes come from.
public enum VideoInput: Sendable {
    /// An open regular file. The caller owns the descriptor and keeps it open while any decoder or encoder uses it.
    /// VideoIO reads it with pread at its own offsets and never moves the descriptor's offset,
    /// so one descriptor can serve a decoder and an encoder's audio copy at once.
    case fileDescriptor(Int32)
    /// A whole container in memory (a tar member).
    case bytes([UInt8])
}
