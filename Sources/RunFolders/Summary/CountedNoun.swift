extension BinaryInteger {
    /// "1 entry", "3 entries": the count and the noun that agrees with it,
    /// for summary and progress lines.
    package func counted(_ singular: String, _ plural: String) -> String {
        "\(self) \(self == 1 ? singular : plural)"
    }
}
