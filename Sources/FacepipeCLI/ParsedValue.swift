/// A value a command's `validate()` reads from its options and keeps for
/// `run()`, so nothing is parsed twice. Not an argument: ArgumentParser
/// decodes it as nil (it is no `@Option`), and `validate()`, which runs
/// after the options are read and before `run()`, sets it.
@propertyWrapper
struct ParsedValue<Value>: Decodable {
    var wrappedValue: Value?

    init() { wrappedValue = nil }

    init(from decoder: any Decoder) throws { wrappedValue = nil }
}
