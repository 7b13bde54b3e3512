/// Why a path was refused for writing below an output root.
public enum OutputPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Empty, or absolute where a relative path was required.
    case notRelative(String)
    /// A component that could step out of or confuse the root (`..`, `.`, empty, NUL, `\`).
    case unsafeComponent(path: String, component: String)

    public var description: String {
        switch self {
        case .notRelative(let path): "output path \"\(path)\" is not a relative path"
        case .unsafeComponent(let path, let component): "output path \"\(path)\" has an unsafe component \"\(component)\""
        }
    }
}
