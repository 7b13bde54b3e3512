import ArchiveIO

/// How facepipe names an entry to a person: in notices while a run goes
/// on, in the problems grouped by reason (the end of a run, `facepipe
/// report`, report.html) and in export messages. `archive/entry`, the entry
/// without the leading `./` components `tar -C dir .` stores
/// (`photos.tar/./t1.jpg` is shown as `photos.tar/t1.jpg`, by the rule of
/// output names, ``OutputNames``); an input alone (an archive error, an
/// entry without a name) by the input's name. The manifest's `entry` column
/// keeps the name as stored.
package enum EntryDisplayName {
    package static func of(archive: String, entry: String) -> String {
        entry.isEmpty ? archive : archive + "/" + Self.entry(entry)
    }

    /// The entry's part of its name as shown (report.html's gallery joins
    /// it to the archive's name in the page's script).
    package static func entry(_ entry: String) -> String {
        OutputNames.withoutLeadingCurrentFolder(entry)
    }
}
