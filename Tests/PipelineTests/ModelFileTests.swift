import Foundation
import Pipeline
import Testing
import _TestSupport

/// The model hashes exist twice: in scripts/models.sha256 (what setup verifies
/// when it downloads) and in `ModelFile` (what `compile()` verifies before a run).
/// They must never drift apart.
@Test func modelHashesMatchTheSetupChecksums() throws {
    let listing = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("scripts/models.sha256"), encoding: .utf8)
    var expected: [String: String] = [:]
    for line in listing.split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 2 else { continue }
        expected[String(fields[1])] = String(fields[0])
    }
    let inCode: [ModelFile] = [.shortRangeDetector, .fullRangeDetector, .sparseFullRangeDetector,
                               .backCameraDetector, .faceMesh, .iris]
    #expect(expected.count == inCode.count)
    for model in inCode {
        #expect(expected[model.fileName] == model.sha256, "\(model.fileName)")
    }
}
