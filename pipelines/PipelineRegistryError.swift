/// Why a set of pipelines cannot be registered (the command line prints
/// `description` and exits 2 before parsing anything).
public enum PipelineRegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An added pipeline has the name of one already registered (`taken`: every registered name).
    case nameTaken(String, taken: [String])
    /// Two of the pipelines given have this name.
    case duplicateName(String)
    /// A pipeline has no name (`summary` tells which).
    case emptyName(summary: String)

    public var description: String {
        switch self {
        case let .nameTaken(name, taken):
            return "a pipeline called \(name) is already registered (registered: \(taken.joined(separator: ", "))); "
                + "give yours another name"
        case let .duplicateName(name):
            return "two pipelines are called \(name); give each its own name"
        case let .emptyName(summary):
            return "a pipeline has an empty name (summary: \"\(summary)\"); give it a name to run it by"
        }
    }
}
