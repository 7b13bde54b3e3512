import ArchiveIO

extension RunInput {
    /// `inputs` named as their folders under `images/` and `faces/` are:
    /// each name made safe by ``OutputNames`` (a plain name stays as it is),
    /// and a name an earlier input already has (`a/x.tar` and `b/x.tar` are
    /// both `x.tar`) gets `~<position>` before its extension (its 0-based
    /// position among the inputs: `x~1.tar`). The name is the manifest's
    /// `archive` value, the output folder and run.json's input `name`, so
    /// each of them tells the inputs apart and they agree.
    static func withUniqueNames(_ inputs: [RunInput]) -> [RunInput] {
        var names = OutputNames()
        return inputs.enumerated().map { position, input in
            let name = names.claim(rawName: Array(input.name.utf8).filter { $0 != UInt8(ascii: "/") }, index: position)
            return name == input.name ? input : RunInput(name: name, path: input.path, byteSize: nil, reading: input.openSource)
        }
    }
}
