/// Every stored value of a stage as deterministic text, found by
/// reflection: the part of a stage's fingerprint that nothing can be left
/// out of. A stage's ``StageDefinition`` says what `describe` prints; this
/// text adds whatever the definition forgets, so a new property always
/// changes the fingerprint (and so the cache keys and `--resume` records).
///
/// Values print as Swift describes them (floats in their shortest exact
/// form); structs, tuples and collections list their parts; class instances
/// and closures print their type only (they have no value to compare).
enum StageReflection {
    static func text(of value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .class?:
            return "<\(type(of: value))>"
        case .optional?:
            guard let wrapped = mirror.children.first else { return "nil" }
            return text(of: wrapped.value)
        case .enum? where mirror.children.isEmpty:
            return String(describing: value)  // a case without a payload: its name
        case .struct?, .tuple?, .collection?, .set?, .dictionary?, .enum?:
            let parts = mirror.children.map { child in (child.label.map { $0 + "=" } ?? "") + text(of: child.value) }
            return "\(type(of: value)){" + parts.joined(separator: ",") + "}"
        default:
            return String(describing: value)
        }
    }
}
