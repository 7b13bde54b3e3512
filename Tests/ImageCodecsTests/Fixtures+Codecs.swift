import Foundation
import _TestSupport

extension Fixtures {
    /// Bytes of `Tests/Fixtures/codecs/<name>` (made by scripts/fixtures/codecs_fixtures.py).
    static func codecs(_ name: String) throws -> [UInt8] {
        try bytes(url("codecs").appendingPathComponent(name))
    }
}
