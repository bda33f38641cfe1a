/// What the client's token-bearing types show in place of a secret (a token, a PKCE verifier, a one-time code, a
/// `state`) in their `description`, `debugDescription` and `customMirror`, so that `print`, `String(describing:)`,
/// `String(reflecting:)`, `dump` and string interpolation never write one to a log.
///
/// It is also the value a redacted field has in a mirror, where `dump` prints it as `<redacted>`.
struct Redacted: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The text shown in place of a secret.
    static let text = "<redacted>"

    var description: String { Self.text }
    var debugDescription: String { Self.text }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: nil) }

    /// `<redacted>` when `secret` is present, `nil` when it is not (whether there is a secret is no secret).
    static func optional(_ secret: String?) -> Redacted? {
        secret.map { _ in Redacted() }
    }

    /// `Type(label: value, …)` as Swift prints a struct, every value as `String(reflecting:)` shows it: give
    /// secrets as ``Redacted`` values.
    static func describe(_ type: String, _ fields: KeyValuePairs<String, Any>) -> String {
        let shown = fields.map { label, value in "\(label): \(String(reflecting: value))" }
        return "\(type)(\(shown.joined(separator: ", ")))"
    }

    /// A mirror of `subject` with `fields` as its children, in order.
    static func mirror<Subject>(_ subject: Subject, _ fields: KeyValuePairs<String, Any>) -> Mirror {
        Mirror(subject, children: fields.map { (label: Optional($0.key), value: $0.value) }, displayStyle: .struct)
    }
}
