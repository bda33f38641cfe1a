public import AuthAPI

/// Why a Moss project token could not be obtained, with the HTTP answer `GET /moss-token` gives for it.
///
/// Mapping (API.md, "GET /moss-token"):
///
/// | case | status | error code |
/// |---|---|---|
/// | ``notConfigured`` | 503 | `unavailable` |
/// | ``upstreamUnavailable`` (refused, DNS, TLS, dropped, timed out) | 503 | `unavailable` |
/// | ``coolingDown(retryAfterSeconds:)`` (a recent refresh failed; no upstream call) | 503 | `unavailable` |
/// | ``upstreamRejected(status:)`` (upstream 401/403) | 502 | `upstream_error` |
/// | ``upstreamFailed(status:)`` (any other non-2xx, including 5xx) | 502 | `upstream_error` |
/// | ``badUpstreamResponse`` (garbage, missing fields, absurd lifetime) | 502 | `upstream_error` |
///
/// An upstream 5xx maps to 502, not 503: the upstream was reached and answered, but refused to issue a token;
/// only "could not reach it in time" and "not configured" are 503.
///
/// No case carries text from the upstream body, and ``description`` and ``publicMessage`` never contain the
/// project key or a token.
public enum MossError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `moss.projectId` or `moss.projectKey` is not set.
    case notConfigured
    /// The upstream could not be reached or did not answer within the timeout.
    case upstreamUnavailable
    /// A refresh failed recently, so the upstream is left alone for the backoff; retry after the given seconds.
    case coolingDown(retryAfterSeconds: Int)
    /// The upstream refused the project credentials (HTTP 401 or 403).
    case upstreamRejected(status: Int)
    /// The upstream answered with another non-success status (3xx, 4xx other than 401/403, or 5xx).
    case upstreamFailed(status: Int)
    /// The upstream answered 2xx with a body that is not `{"token": <non-empty string>, "expiresIn": <seconds>}`,
    /// or with a lifetime outside the accepted range.
    case badUpstreamResponse

    /// The HTTP status to answer with: 502 or 503.
    public var httpStatus: Int {
        switch self {
        case .notConfigured, .upstreamUnavailable, .coolingDown: 503
        case .upstreamRejected, .upstreamFailed, .badUpstreamResponse: 502
        }
    }

    /// The API error code: `upstream_error` for 502, `unavailable` for 503.
    public var code: ErrorCode {
        httpStatus == 503 ? .unavailable : .upstreamError
    }

    /// The value of `Retry-After` (seconds) for 503 answers, `nil` for 502.
    public var retryAfterSeconds: Int? {
        switch self {
        case .notConfigured: 3600
        case .upstreamUnavailable: 5
        case .coolingDown(let seconds): seconds
        case .upstreamRejected, .upstreamFailed, .badUpstreamResponse: nil
        }
    }

    /// A message safe to show to API clients: no key, no token, no upstream body text.
    public var publicMessage: String {
        switch self {
        case .notConfigured: "Moss token vending is not configured"
        case .upstreamUnavailable: "the Moss token service is unreachable or did not answer in time"
        case .coolingDown: "the Moss token service failed recently; retry after the time in Retry-After"
        case .upstreamRejected: "the Moss token service rejected the project credentials"
        case .upstreamFailed: "the Moss token service failed to issue a token"
        case .badUpstreamResponse: "the Moss token service answered with an invalid response"
        }
    }

    /// A log-friendly description: the case and the upstream status, never a secret.
    public var description: String {
        switch self {
        case .notConfigured: "MossError.notConfigured"
        case .upstreamUnavailable: "MossError.upstreamUnavailable"
        case .coolingDown(let seconds): "MossError.coolingDown(retryAfterSeconds: \(seconds))"
        case .upstreamRejected(let status): "MossError.upstreamRejected(status: \(status))"
        case .upstreamFailed(let status): "MossError.upstreamFailed(status: \(status))"
        case .badUpstreamResponse: "MossError.badUpstreamResponse"
        }
    }
}
