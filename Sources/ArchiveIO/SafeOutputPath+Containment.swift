/// Defence in depth for writers: whatever produced a relative path, check
/// it again right before writing (`OutputDirectory` and the output tar do).
extension SafeOutputPath {
    /// Throws unless `relative` stays below the folder it is written into,
    /// lexically: non-empty, not absolute, no empty, `.` or `..`
    /// component, no NUL and no backslash. (Links below the folder are the
    /// writer's job: it opens every component without following them.)
    public static func checkRelative(_ relative: String) throws(OutputPathError) {
        guard !relative.isEmpty, !relative.hasPrefix("/") else { throw .notRelative(relative) }
        for component in relative.split(separator: "/", omittingEmptySubsequences: false) {
            if component.isEmpty || component == "." || component == ".." || component.contains("\0") || component.contains("\\") {
                throw .unsafeComponent(path: relative, component: String(component))
            }
        }
    }
}
