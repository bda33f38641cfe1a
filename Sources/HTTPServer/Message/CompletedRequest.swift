/// What the server reports to its observer after each response (for metrics).
public struct CompletedRequest: Sendable {
    /// The request method, or `-` when the request was rejected before its method was read.
    public let method: String
    /// The matched route pattern (`/auth/sessions/:id`); nil for 404s and rejected requests.
    public let route: String?
    /// The response status.
    public let status: HTTPStatus
    /// Time from the first byte of the request head to the response being queued, in microseconds.
    public let durationMicroseconds: UInt64
}
