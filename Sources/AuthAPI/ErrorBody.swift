/// Every error answer: `{"error": "<code>", "message": "<human readable text>"}`.
public struct ErrorBody: Codable, Sendable, Equatable {
    /// Machine-readable code; see ``ErrorCode`` for the known ones.
    public var error: ErrorCode
    /// Human-readable text; never contains a password, token, key, hash or SQL.
    public var message: String

    /// Creates an error body.
    public init(error: ErrorCode, message: String) {
        self.error = error
        self.message = message
    }
}
