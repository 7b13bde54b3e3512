extension RedactedTars {
    /// The producer's routing for redacted tars: pictures through the
    /// pipeline, members known to carry no picture copied, the others left
    /// out unless `copyUnknown` (``RedactedTarMember``),
    /// each input's end marked so its tar gets its name then, and PNG
    /// members written back as PNG.
    static func routing(copyUnknown: Bool) -> EntryRouting {
        EntryRouting(route: { name, data in
            switch RedactedTarMember(name: name, data: data, copyUnknown: copyUnknown) {
            case .image: .process
            case .copied: .copy
            case .leftOut(let reason): .leaveOut(reason: reason)
            }
        }, marksInputEnds: true, imagesInEntryFormat: true)
    }
}
