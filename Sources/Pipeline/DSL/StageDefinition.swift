import FaceAnalysis
import Foundation

/// What a stage is, independent of any image: its name, options, the model
/// files it needs and, for containers like ``ForEachFace``, its children.
/// The canonical text of a definition is what fingerprints hash.
public struct StageDefinition: Sendable, Hashable, Codable {
    public var name: String
    /// Option name → value as text, kept in declaration order.
    public var options: [Option]
    public var models: [FaceModel]
    public var children: [StageDefinition]

    public struct Option: Sendable, Hashable, Codable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    public init(_ name: String, options: KeyValuePairs<String, String> = [:],
                models: [FaceModel] = [], children: [StageDefinition] = []) {
        self.name = name
        self.options = options.map { Option($0.key, $0.value) }
        self.models = models
        self.children = children
    }

    /// A stage's definition whose options are those of its ``Stage/optionTable``,
    /// in table order, with their current text.
    public init<S: Stage>(_ name: String, optionsOf stage: S, models: [FaceModel] = [], children: [StageDefinition] = []) {
        self.name = name
        self.options = S.optionTable.map { Option($0.name, $0.text(of: stage)) }
        self.models = models
        self.children = children
    }

    /// One line per stage (children indented), as `facepipe describe` prints it.
    public func describedLines(indent: String = "") -> [String] {
        var line = indent + name
        if !options.isEmpty {
            line += "(" + options.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + ")"
        }
        if !models.isEmpty {
            line += "  [models: " + models.map(\.fileName).joined(separator: ", ") + "]"
        }
        return [line] + children.flatMap { $0.describedLines(indent: indent + "    ") }
    }

    /// A stable, unambiguous text form: the input of the fingerprint.
    public var canonicalText: String {
        func quote(_ s: String) -> String {
            "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let opts = options.map { quote($0.name) + "=" + quote($0.value) }.joined(separator: ",")
        let mods = models.map { quote($0.fileName) + "@" + $0.sha256 }.joined(separator: ",")
        let kids = children.map(\.canonicalText).joined(separator: ",")
        return "\(quote(name)){options[\(opts)]models[\(mods)]children[\(kids)]}"
    }

    /// All names in this definition and its children (for `--from`/`--only` lookup).
    var allNames: [String] { [name] + children.flatMap(\.allNames) }
}
