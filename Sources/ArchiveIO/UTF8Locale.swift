#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs libarchive calls under a UTF-8 `LC_CTYPE` for the current thread only.
///
/// libarchive converts entry names between UTF-8 (pax, zip) and the locale's
/// multibyte form. Swift programs run in the "C" locale, where non-ASCII names
/// cannot be converted (and libarchive 3.6's pax writer crashes on the failed
/// conversion). `uselocale` changes only the calling thread, and the previous
/// locale is restored before returning, so nothing else in the process sees it.
enum UTF8Locale {
    /// The UTF-8 locale object, created once and never freed.
    private struct Handle: @unchecked Sendable {
        // Safe to share: a `locale_t` from `newlocale` is immutable, and
        // `uselocale` with the same object from several threads is allowed.
        let locale: locale_t?
    }

    private static let handle: Handle = {
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8", "UTF-8"] {
            if let locale = newlocale(LC_CTYPE_MASK, name, nil) { return Handle(locale: locale) }
        }
        return Handle(locale: nil)
    }()

    /// Whether a UTF-8 locale exists on this system.
    static var isAvailable: Bool { handle.locale != nil }

    /// `body()` with the thread's `LC_CTYPE` set to UTF-8 (as is, when unavailable).
    static func run<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard let locale = handle.locale else { return try body() }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return try body()
    }
}
