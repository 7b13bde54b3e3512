import Pipeline
import RunFolders

/// One position as the ordered step (``OrderedWriter/order(_:)``) leaves
/// it: the ordered passes applied, every output named. ``encoded()`` is the
/// one encode step: it makes every byte the writer then places.
struct EntryRender: EntryRendering {
    let position: OutputPosition
    let work: Work

    enum Work: Sendable {
        /// Nothing to encode (an error row, a resumed entry, a copied member, an input's end).
        case ready(EncodedEntry.Content)
        /// An entry's outputs, to encode.
        case entry(EntryOutputs)
    }

    var encodes: Bool {
        if case .entry = work { return true }
        return false
    }

    var heldBytes: Int {
        switch work {
        case .ready(let content): content.heldBytes
        case .entry(let outputs): outputs.heldBytes
        }
    }

    func encoded() throws -> EncodedEntry {
        switch work {
        case .ready(let content): EncodedEntry(position: position, content: content)
        case .entry(let outputs): EncodedEntry(position: position, content: .files(try outputs.encoded()))
        }
    }
}
