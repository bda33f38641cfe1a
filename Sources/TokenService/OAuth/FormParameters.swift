import IdentityProviders

/// `application/x-www-form-urlencoded` parameters (a URL query, or a `POST` body as AppAuth sends it): `name=value`
/// pairs joined by `&`, percent-decoded, `+` as a space.
///
/// Strict, because the values are codes, states and redirect URIs compared exactly: a parameter given twice, a
/// malformed `%` escape, bytes that are not UTF-8, or a control character refuse the whole input (RFC 6749 §3.1:
/// "Request and response parameters MUST NOT be included more than once").
struct FormParameters: Sendable, Equatable {
    /// Why an input was refused; the text never echoes a value.
    enum Failure: Error, Sendable, Equatable {
        case duplicated(String)
        case malformedEscape
        case notUTF8
        case controlCharacter
        case tooMany
    }

    /// The most parameters accepted; a browser flow needs at most six.
    static let maximumCount = 32

    /// The values by name.
    private(set) var values: [String: String]

    /// Parses `text` (without the leading `?`); nil or empty gives no parameters. An empty pair (`a=1&&b=2`) is
    /// skipped; a name without `=` has the empty value.
    init(_ text: String?) throws(Failure) {
        values = [:]
        guard let text, !text.isEmpty else { return }
        let pairs = text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
        guard pairs.count <= Self.maximumCount else { throw .tooMany }
        for pair in pairs {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0])
            let value = parts.count > 1 ? try Self.decode(parts[1]) : ""
            guard values[name] == nil else { throw .duplicated(name) }
            values[name] = value
        }
    }

    /// The value of `name`, if given.
    subscript(name: String) -> String? { values[name] }

    /// The names given, sorted.
    var names: [String] { values.keys.sorted() }

    /// Percent-decodes one name or value (`+` is a space).
    static func decode(_ bytes: Substring.UTF8View.SubSequence) throws(Failure) -> String {
        try decode(Array(bytes))
    }

    static func decode(_ bytes: [UInt8]) throws(Failure) -> String {
        guard let decoded = FormEncoding.percentDecode(bytes) else { throw .malformedEscape }
        guard decoded.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { throw .controlCharacter }
        guard let text = String(validating: decoded, as: UTF8.self) else { throw .notUTF8 }
        return text
    }

    /// `base` with `parameters` appended as a query: after `?`, or `&` when `base` has a query already.
    static func appending(_ parameters: [(String, String)], to base: String) -> String {
        let query = parameters.map { "\(FormEncoding.percentEncode($0.0))=\(FormEncoding.percentEncode($0.1))" }.joined(
            separator: "&")
        guard !query.isEmpty else { return base }
        return base + (base.contains("?") ? "&" : "?") + query
    }
}
