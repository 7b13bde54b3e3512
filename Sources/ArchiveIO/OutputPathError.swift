/// Why a path was refused for writing below an output root.
public enum OutputPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Empty, or absolute where a relative path was required.
    case notRelative(String)
    /// A component that could step out of or confuse the root (`..`, `.`, empty, NUL, `\`).
    case unsafeComponent(path: String, component: String)
    /// An existing component below the root is a symbolic link, which could redirect the write.
    case symbolicLink(path: String, component: String)

    public var description: String {
        switch self {
        case .notRelative(let path): "output path \"\(path)\" is not a relative path"
        case .unsafeComponent(let path, let component): "output path \"\(path)\" has an unsafe component \"\(component)\""
        case .symbolicLink(let path, let component): "output path \"\(path)\" goes through the symbolic link \"\(component)\""
        }
    }
}
