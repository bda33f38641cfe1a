/// Answer of `GET /moss-token` and `POST /stream-token`: `{"token", "expiresIn"}`.
public struct VendedToken: Codable, Sendable, Equatable {
    /// The raw token (no `Bearer ` prefix).
    public var token: String
    /// Seconds the token stays usable from the response. For `/moss-token` the server has already
    /// subtracted its own 60 s margin.
    public var expiresIn: Int

    /// Creates a vended token.
    public init(token: String, expiresIn: Int) {
        self.token = token
        self.expiresIn = expiresIn
    }
}

extension VendedToken: CustomStringConvertible, CustomDebugStringConvertible {
    /// `VendedToken(<n bytes>, expiresIn: <s>)`; the token itself is redacted, so the value is safe to log.
    public var description: String {
        "VendedToken(<\(token.utf8.count) bytes>, expiresIn: \(expiresIn))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }
}
