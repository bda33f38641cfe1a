public import AuthAPI

/// A vendor the fake server answers `POST /vend/<name>` for.
public struct FakeVendor: Sendable {
    /// The answer's shape.
    public enum Shape: Sendable {
        /// 200 `{"token", "expiresIn", "expiresAt"}`.
        case token
        /// 201 `{"server_url", "participant_token"}`.
        case liveKit(serverURL: String)
    }

    public var shape: Shape
    /// The token's lifetime in seconds: its `exp` is the fake clock's now plus this.
    public var ttl: Int
    /// Seconds added to the `exp` for the answer's `expiresAt`; `nil` leaves `expiresAt` out (an older server).
    public var expiresAtOffset: Int?
    /// The body members accepted; any other is 400 `invalid_request` naming it. `customerIds` must be an object
    /// of ``FakeAuthServer/customerIds`` pairs (else 403 `insufficient_scope`); absent, all of them.
    public var parameters: Set<String>
    /// Every request is answered with this error instead (with ``FakeAuthServer/State/retryAfter``).
    public var failure: (status: Int, code: ErrorCode)?

    public init(
        shape: Shape = .token, ttl: Int = 600, expiresAtOffset: Int? = 0, parameters: Set<String> = [],
        failure: (status: Int, code: ErrorCode)? = nil
    ) {
        self.shape = shape
        self.ttl = ttl
        self.expiresAtOffset = expiresAtOffset
        self.parameters = parameters
        self.failure = failure
    }
}
