import ArchiveIO

extension RunInput {
    /// `inputs` named as their outputs are: each name made safe by
    /// ``OutputNames`` (a plain name stays as it is), and a name an earlier
    /// input already has (`a/x.tar` and `b/x.tar` are both `x.tar`) gets
    /// `~<position>` before its extension (its 0-based position among the
    /// inputs: `x~1.tar`). An image file's outputs lie directly under
    /// `images/`, `faces/` and `crops/` (`images/a.jpg.png`, `isImageFile`)
    /// beside the other inputs' folders, so a folder, archive or video whose
    /// name is an image file's name, a dot and more (`a.jpg.png` beside the
    /// image `a.jpg`) gets `~<position>` too (`a.jpg~2.png`), whichever
    /// comes first. The name is the manifest's `archive` value, the output
    /// folder (or file name) and run.json's input `name`, so each of them
    /// tells the inputs apart and they agree.
    static func withUniqueNames(_ inputs: [RunInput]) -> [RunInput] {
        var names = OutputNames()
        let claimed = inputs.enumerated().map { position, input in
            names.claim(rawName: Array(input.name.utf8).filter { $0 != UInt8(ascii: "/") }, index: position)
        }
        let imageFileNames = inputs.indices.filter { inputs[$0].isImageFile }.map { claimed[$0] + "." }
        return inputs.enumerated().map { position, input in
            var name = claimed[position]
            if !input.isImageFile, imageFileNames.contains(where: { name.hasPrefix($0) }) {
                name = SafeOutputPath.disambiguated(name, index: position)
            }
            return name == input.name ? input : RunInput(name: name, path: input.path, byteSize: nil,
                                                         isImageFile: input.isImageFile, isOneFile: input.isOneFile,
                                                         reading: input.openSource)
        }
    }
}
