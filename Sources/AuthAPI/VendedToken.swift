/// Answer of `GET /moss-token`, `POST /stream-token` and `POST /vend/{vendor}`: `{"token", "expiresIn", "expiresAt"}`.
public struct VendedToken: Codable, Sendable, Equatable {
    /// The raw token (no `Bearer ` prefix).
    public var token: String
    /// Seconds the token stays usable from the response. For `/moss-token` the server has already
    /// subtracted its own 60 s margin.
    public var expiresIn: Int
    /// The same point as an absolute time, in Unix seconds (what an app that is suspended, or a session model
    /// like AuthSessionKit's, needs). Optional when decoding, so answers of servers before it still decode.
    public var expiresAt: Int64?

    /// Creates a vended token.
    public init(token: String, expiresIn: Int, expiresAt: Int64? = nil) {
        self.token = token
        self.expiresIn = expiresIn
        self.expiresAt = expiresAt
    }
}

extension VendedToken: CustomStringConvertible, CustomDebugStringConvertible {
    /// `VendedToken(<n bytes>, expiresIn: <s>, expiresAt: <t>)`; the token itself is redacted, so the value is safe
    /// to log.
    public var description: String {
        let at = expiresAt.map { ", expiresAt: \($0)" } ?? ""
        return "VendedToken(<\(token.utf8.count) bytes>, expiresIn: \(expiresIn)\(at))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }
}
