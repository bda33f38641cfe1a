/// The body of a `200` answer to `GET /moss-token`: `{"token": "...", "expiresIn": <seconds>}`.
///
/// `expiresIn` is what remains of the project token's lifetime minus the 60 s refresh margin, in whole seconds,
/// and at least 1; for a token that lives no longer than the margin (served uncached), what remains of its
/// lifetime, at least 1. The answer must carry `Cache-Control: no-store` and `Pragma: no-cache`.
/// ``description`` redacts the token, so the value is safe to log.
public struct MossVendedToken: Sendable, Equatable, Encodable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The raw Moss project token (no `Bearer ` prefix).
    public var token: String
    /// Seconds the caller may use the token before asking again; at least 1.
    public var expiresIn: Int

    /// Creates the answer body.
    public init(token: String, expiresIn: Int) {
        self.token = token
        self.expiresIn = expiresIn
    }

    /// `MossVendedToken(<n bytes>, expiresIn: <s>)`; the token itself is redacted.
    public var description: String {
        "MossVendedToken(<\(token.utf8.count) bytes>, expiresIn: \(expiresIn))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }
}
