extension StringProtocol {
    /// The text without spaces and horizontal tabs at either end: RFC 9110 §5.6.3's optional whitespace around
    /// header field values and list members (`CharacterSet.whitespaces` is not in FoundationEssentials).
    func trimmingOptionalWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
