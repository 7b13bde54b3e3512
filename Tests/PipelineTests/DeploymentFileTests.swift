import Foundation
import Testing
import _TestSupport

/// The deployment files under deploy/: the Kubernetes manifests parsed by
/// PyYAML (Kubernetes cannot run here; their structure is what can be
/// checked) and the Slurm scripts by bash.
@Suite struct DeploymentFileTests {
    static let root = Fixtures.repositoryRoot.appendingPathComponent("deploy")

    static func manifests() throws -> [String: [[String: Any]]] {
        let files = ["pvc.yaml", "job.yaml", "merge-job.yaml"].map { root.appendingPathComponent("kubernetes/\($0)").path }
        let parsed = try ExportReaders.run(Fixtures.repositoryRoot.appendingPathComponent("scripts/check-deploy.py"), files)
        return try #require(parsed as? [String: [[String: Any]]])
    }

    static func value(_ object: Any?, _ path: String...) -> Any? {
        var current = object
        for key in path {
            if let index = Int(key), let array = current as? [Any] { current = index < array.count ? array[index] : nil } else {
                current = (current as? [String: Any])?[key]
            }
        }
        return current
    }

    @Test(.enabled(if: ExportReaders.available, "needs .venv-export (make export-venv) for PyYAML"))
    func theIndexedJobRunsOneShardPerIndexAndTheMergeReadsTheSameFolder() throws {
        let manifests = try Self.manifests()
        let job = try #require(manifests["job.yaml"]?.first), merge = try #require(manifests["merge-job.yaml"]?.first)
        let claim = try #require(manifests["pvc.yaml"]?.first)
        #expect(Self.value(job, "apiVersion") as? String == "batch/v1" && Self.value(job, "kind") as? String == "Job")
        #expect(Self.value(job, "spec", "completionMode") as? String == "Indexed")
        let completions = try #require(Self.value(job, "spec", "completions") as? Int)
        let parallelism = try #require(Self.value(job, "spec", "parallelism") as? Int)
        #expect(parallelism >= 1 && parallelism <= completions)
        let container = Self.value(job, "spec", "template", "spec", "containers", "0")
        #expect(Self.value(job, "spec", "template", "spec", "restartPolicy") as? String == "Never")
        let environment = (Self.value(container, "env") as? [[String: Any]]) ?? []
        #expect(environment.first { $0["name"] as? String == "FACEPIPE_SHARD_COUNT" }?["value"] as? String == String(completions),
                "FACEPIPE_SHARD_COUNT must equal completions")
        let command = ((Self.value(container, "command") as? [String]) ?? []) + ((Self.value(container, "args") as? [String]) ?? [])
        let script = command.joined(separator: " ")
        #expect(script.contains("facepipe run") && script.contains("--shard auto"))
        let out = try #require(script.components(separatedBy: "--out ").dropFirst().first?.split(separator: " ").first.map(String.init))
        let mergeCommand = (Self.value(merge, "spec", "template", "spec", "containers", "0", "command") as? [String]) ?? []
        #expect(mergeCommand == ["facepipe", "merge", out], "the merge reads the folder the shards write")
        // Both jobs mount the claim the PVC declares, shared by every pod.
        let name = try #require(Self.value(claim, "metadata", "name") as? String)
        #expect((Self.value(claim, "spec", "accessModes") as? [String])?.contains("ReadWriteMany") == true)
        for spec in [job, merge] {
            #expect(Self.value(spec, "spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName") as? String == name)
            let mount = Self.value(spec, "spec", "template", "spec", "containers", "0", "volumeMounts", "0", "mountPath") as? String
            #expect(mount.map { out.hasPrefix($0 + "/") } == true, "\(out) lies on the shared volume")
        }
    }

    @Test(arguments: ["slurm/facepipe.sbatch", "slurm/merge.sbatch", "slurm/submit.sh"])
    func slurmScriptsParse(file: String) throws {
        let result = try ChildProcess.run("/bin/bash", ["-n", Self.root.appendingPathComponent(file).path])
        #expect(result.status == 0, "\(result.errors)")
        let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
        if file.hasSuffix("facepipe.sbatch") { #expect(text.contains("--shard auto") && text.contains("#SBATCH --requeue")) }
        if file.hasSuffix("submit.sh") { #expect(text.contains("--dependency=\"afterok:")) }
    }
}
