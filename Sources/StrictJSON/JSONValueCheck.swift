/// The checks of a configuration value's type that more than one module's configuration uses, with the one
/// wording of each refusal: a conforming type says how a reason becomes its own error (``fail(_:)``, which adds
/// the key or member path), and gets ``string(_:)``, ``secret(_:)``, ``choice(_:of:)`` and ``stringList(_:)``.
///
/// ```swift
/// struct Member: JSONValueCheck {
///     let path: String
///     func fail(_ reason: String) -> MyConfigurationError { .invalid(path: path, reason: reason) }
/// }
/// let name = try Member(path: "apple.clientId").string(value)  // "expected a string, got 42"
/// ```
package protocol JSONValueCheck {
    /// The error a refusal is thrown as.
    associatedtype Failure: Error

    /// The error for `reason` (a lower-case phrase such as `expected a string, got 42`).
    func fail(_ reason: String) -> Failure
}

extension JSONValueCheck {
    /// A string with something besides whitespace.
    package func string(_ value: JSONValue) throws(Failure) -> String {
        guard case .string(let text) = value else { throw fail("expected a string, got \(value.summary)") }
        guard text.contains(where: { !$0.isWhitespace }) else { throw fail("expected a non-empty string") }
        return text
    }

    /// Like ``string(_:)`` but never shows the value (and accepts a value of whitespace only).
    package func secret(_ value: JSONValue) throws(Failure) -> String {
        guard case .string(let text) = value else { throw fail("expected a string") }
        guard !text.isEmpty else { throw fail("expected a non-empty string") }
        return text
    }

    /// One of `choices` (given in lower case), compared case-insensitively; returned lowercased.
    package func choice(_ value: JSONValue, of choices: [String]) throws(Failure) -> String {
        guard case .string(let text) = value, choices.contains(text.lowercased()) else {
            throw fail("expected one of \(choices.joined(separator: ", ")), got \(value.summary)")
        }
        return text.lowercased()
    }

    /// A non-empty list of strings with something besides whitespace, without duplicates.
    package func stringList(_ value: JSONValue) throws(Failure) -> [String] {
        guard case .array(let items) = value else { throw fail("expected a list of strings, got \(value.summary)") }
        guard !items.isEmpty else { throw fail("expected at least one string, got an empty list") }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item, text.contains(where: { !$0.isWhitespace }) else {
                throw fail("item \(index + 1) is not a non-empty string: \(item.summary)")
            }
            guard !strings.contains(text) else { throw fail("item \(index + 1) repeats \(item.summary)") }
            strings.append(text)
        }
        return strings
    }
}
