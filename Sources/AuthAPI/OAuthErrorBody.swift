/// The error body of `POST /auth/token` (RFC 6749 §5.2): `{"error": "<code>", "error_description": "<text>"}`,
/// where `error` is `invalid_request`, `invalid_grant` or `unsupported_grant_type`. A 429 or 503 of that
/// endpoint keeps the usual ``ErrorBody``.
public struct OAuthErrorBody: Codable, Sendable, Equatable {
    /// The RFC 6749 error code.
    public var error: ErrorCode
    /// Human-readable text; never contains a code, verifier, token or secret.
    public var errorDescription: String

    /// Creates an error body.
    public init(error: ErrorCode, errorDescription: String) {
        self.error = error
        self.errorDescription = errorDescription
    }

    /// The snake_case wire names of RFC 6749.
    public enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
