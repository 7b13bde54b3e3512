import RunFolders

extension RunSummary {
    /// Adds an entry that was not processed, to ``RunSummary/skipped`` (and to
    /// ``RunSummary/leftOutMembers`` when it is a member left out of its redacted shard).
    public mutating func addSkipped(_ record: SkippedRecord) {
        skipped.append(record)
        guard RedactedTarMember.isLeftOut(record) else { return }
        var members = leftOutMembers ?? SkippedList()
        members.append(record)
        leftOutMembers = members
    }
}
