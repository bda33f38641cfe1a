/// Why a call to Sign in with Apple's REST API did not succeed. No case carries a token, a code or a secret;
/// Apple's `error` code is kept only when it is a short ASCII word (`invalid_grant`, `invalid_client`).
public enum AppleRESTFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer within the deadline.
    case timedOut
    /// No answer: the connection failed (refused, unreachable, TLS, lost).
    case unreachable(String)
    /// Apple answered 5xx (or 429): worth another try.
    case serverError(status: Int)
    /// Apple answered another 4xx: the request was refused and another try would be too.
    case refused(status: Int, error: String?)
    /// The answer was larger than the limit.
    case tooLarge
    /// A 2xx answer that is not the JSON expected.
    case malformedAnswer
    /// A 2xx token answer without a `refresh_token`.
    case missingRefreshToken
    /// The client secret could not be signed.
    case clientSecret

    /// Whether another try may succeed: timeouts, connection failures, 5xx and 429.
    public var isRetryable: Bool {
        switch self {
        case .timedOut, .unreachable, .serverError: true
        case .refused, .tooLarge, .malformedAnswer, .missingRefreshToken, .clientSecret: false
        }
    }

    /// One of a fixed set of words, for a metric label: `timeout`, `unreachable`, `server_error`, `refused`,
    /// `malformed`.
    public var label: String {
        switch self {
        case .timedOut: "timeout"
        case .unreachable: "unreachable"
        case .serverError: "server_error"
        case .refused: "refused"
        case .tooLarge, .malformedAnswer, .missingRefreshToken, .clientSecret: "malformed"
        }
    }

    public var description: String {
        switch self {
        case .timedOut: "no answer within the deadline"
        case .unreachable(let reason): "no answer: \(reason)"
        case .serverError(let status): "Apple answered \(status)"
        case .refused(let status, let error): "Apple refused with \(status)\(error.map { " \($0)" } ?? "")"
        case .tooLarge: "answer larger than the limit"
        case .malformedAnswer: "answer is not the JSON expected"
        case .missingRefreshToken: "token answer without refresh_token"
        case .clientSecret: "the client secret could not be signed"
        }
    }
}
