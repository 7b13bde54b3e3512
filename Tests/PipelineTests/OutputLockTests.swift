#if canImport(Glibc)
import ArchiveIO
import Foundation
import Glibc
import Pipeline
import PipelineRunning
import Synchronization
import Testing
#endif

/// One run per output folder.
@Suite struct OutputLockTests {
    /// A source whose first `next()` says so and then waits for the test.
    final class Gate: Sendable {
        let entered = Atomic<Bool>(false)
        let released = DispatchSemaphore(value: 0)
    }

    struct GatedSource: EntrySource {
        let gate: Gate
        var inner: InMemoryEntrySource
        var waited = false

        var position: ReadPosition { inner.position }

        mutating func next() throws -> SourceItem? {
            if !waited {
                waited = true
                gate.entered.store(true, ordering: .sequentiallyConsistent)
                gate.released.wait()
            }
            return try inner.next()
        }
    }

    @Test func aSecondRunIntoTheSameFolderStopsAtOnceNamingTheFirst() async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("out")
        let gate = Gate()
        let items = sampleItems(archive: "a.tar", count: 4)
        let first = Task {
            try await run(redSquarePipeline(), [RunInput(name: "a.tar", path: nil) {
                GatedSource(gate: gate, inner: InMemoryEntrySource(items: items))
            }], out: out)
        }
        let entered = await FacepipeProcess.waitUntil { gate.entered.load(ordering: .sequentiallyConsistent) }
        #expect(entered)

        var refusal: PipelineError?
        do {
            _ = try await run(redSquarePipeline(), [memoryInput("b.tar", sampleItems(archive: "b.tar", count: 2))], out: out)
        } catch let error as PipelineError {
            refusal = error
        }
        gate.released.signal()
        let summary = try await first.value

        let message = try #require(refusal).description
        #expect(message.contains("another facepipe run"), "\(message)")
        #expect(message.contains("PID \(getpid())"), "names the first run's PID: \(message)")
        #expect(message.contains(CommandLine.arguments[0]), "and its command: \(message)")
        #expect(summary.entries == 4, "the first run was not disturbed")
        #expect(try manifestRows(out).allSatisfy { $0[0] == "a.tar" })

        // Once the first run has ended, the folder is free again.
        _ = try await run(redSquarePipeline(), [memoryInput("a.tar", items)], out: out)
    }
}
