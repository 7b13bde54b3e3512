import Foundation
import Pipeline
import RunFolders

/// Whether a run may write into an output folder that already holds
/// something, decided from the folder's `run.json`.
///
/// A new or empty folder, a folder without any of facepipe's names, and a
/// folder whose `run.json` names the same pipeline fingerprint and inputs (a
/// plain rerun, which reuses the stage cache) are written into. A folder
/// with another run's results is refused, naming what differs, unless the
/// run passes `--resume` (continue into it) or `--overwrite` (remove what
/// facepipe writes there, ``OutputLayout/OutputLayout.facepipeNames``, and nothing else, first).
package enum OutputFolderRule {
    /// What identifies a run's results: the pipeline and its fingerprint,
    /// and the inputs by name and size (sizes are compared without reading
    /// the archives; entries are matched by content hash in the cache anyway).
    package struct RunIdentity: Equatable {
        package struct Pipeline: Equatable {
            package var name: String
            package var fingerprint: String
            package init(name: String, fingerprint: String) { self.name = name; self.fingerprint = fingerprint }
        }
        package struct Input: Equatable {
            package var name: String
            package var bytes: Int64?
            package init(name: String, bytes: Int64?) { self.name = name; self.bytes = bytes }
        }
        package var pipeline: Pipeline
        package var inputs: [Input]
        package init(pipeline: Pipeline, inputs: [Input]) { self.pipeline = pipeline; self.inputs = inputs }

        /// The identity a folder's run record gives.
        init(_ record: RunRecord) {
            pipeline = Pipeline(name: record.pipeline.name, fingerprint: record.pipeline.fingerprint)
            inputs = record.inputs.map { Input(name: $0.name, bytes: $0.bytes) }
        }
    }

    package enum Decision: Equatable {
        /// Write into the folder as it is.
        case write
        /// Remove these facepipe names first, then write.
        case remove([String])
        /// Refuse the folder, for this reason.
        case refuse(String)
    }

    /// The decision for a folder holding the facepipe names `present`, with
    /// the identity read from its `run.json` (nil when absent or unreadable).
    package static func decide(present: [String], previous: RunIdentity?, current: RunIdentity,
                       overwrite: Bool, resume: Bool) -> Decision {
        if resume || present.isEmpty { return .write }
        if overwrite { return .remove(present) }
        let overrides = "--overwrite removes facepipe's files there (\(OutputLayout.listed(OutputLayout.facepipeNames))) "
            + "and starts over, --resume continues into them, or choose another --out"
        guard let previous else {
            return .refuse("holds facepipe outputs (\(present.joined(separator: ", "))) without a readable run.json; \(overrides)")
        }
        var differences: [String] = []
        if previous.pipeline.name != current.pipeline.name {
            differences.append("pipeline \(previous.pipeline.name) (this run: \(current.pipeline.name))")
        } else if previous.pipeline.fingerprint != current.pipeline.fingerprint {
            differences.append("pipeline \(previous.pipeline.name) with other stages or options "
                + "(fingerprint \(previous.pipeline.fingerprint.prefix(12)), this run: \(current.pipeline.fingerprint.prefix(12)))")
        }
        // Sizes are compared where both runs know one (regular files); a
        // folder or a stream is compared by name.
        func same(_ a: RunIdentity.Input, _ b: RunIdentity.Input) -> Bool {
            a.name == b.name && (a.bytes == nil || b.bytes == nil || a.bytes == b.bytes)
        }
        if previous.inputs.count != current.inputs.count || !zip(previous.inputs, current.inputs).allSatisfy(same) {
            func list(_ inputs: [RunIdentity.Input]) -> String {
                inputs.map { input in input.bytes.map { "\(input.name) (\($0) bytes)" } ?? input.name }
                    .joined(separator: ", ")
            }
            differences.append("inputs \(list(previous.inputs)) (this run: \(list(current.inputs)))")
        }
        if differences.isEmpty { return .write }
        return .refuse("holds the results of another run: \(differences.joined(separator: "; ")); \(overrides)")
    }

    /// Decides for `layout` and carries the decision out: removes what
    /// `--overwrite` replaces (through `directory`, the folder's handle:
    /// links are removed, never followed), throws when the folder is refused.
    static func apply(to layout: OutputLayout, directory: OutputDirectory, plan: CompiledPipeline, inputs: [RunInput],
                      overwrite: Bool, resume: Bool) throws(PipelineError) {
        let files = FileManager.default
        let present = OutputLayout.facepipeNames.filter { name in
            (try? files.attributesOfItem(atPath: layout.root.appendingPathComponent(name).path)) != nil
        }
        let previous = directory.contents(of: OutputLayout.runRecordName).flatMap { try? RunRecord(decoding: $0) }.map(RunIdentity.init)
        let current = RunIdentity(pipeline: .init(name: plan.name, fingerprint: plan.fingerprint), inputs: inputs.map { input in
            // Only a regular file has a size worth comparing (not a folder or a stream).
            let attributes = input.path.flatMap { try? files.attributesOfItem(atPath: $0) }
            let size = attributes?[.type] as? FileAttributeType == .typeRegular ? attributes?[.size] as? NSNumber : nil
            return .init(name: input.name, bytes: size?.int64Value)
        })
        switch decide(present: present, previous: previous, current: current, overwrite: overwrite, resume: resume) {
        case .write:
            return
        case .remove(let names):
            for name in names {
                do {
                    try directory.removeItem(name)
                } catch {
                    throw .outputUnusable(path: layout.root.path, reason: "cannot remove \(name) for --overwrite: \(error)")
                }
            }
        case .refuse(let reason):
            throw .outputUnusable(path: layout.root.path, reason: reason)
        }
    }
}
