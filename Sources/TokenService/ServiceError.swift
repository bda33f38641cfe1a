/// Every failure a handler answers with, mapped to the status and error code of API.md in one place.
///
/// Messages are fixed strings chosen here: they never carry a password, token, key, hash or SQL, and the
/// refresh and login failures keep one body for every cause so that an attacker learns nothing from them.
public enum ServiceError: Error, Sendable, Equatable {
    /// 400: malformed JSON, missing/extra/ill-typed member, invalid email, password outside policy.
    case invalidRequest(String)
    /// 400: a new password that is one of the 10,000 most common passwords.
    case weakPassword
    /// 401: login failed (one body for unknown email and wrong password).
    case invalidCredentials
    /// 401: access token missing (`presented` false) or unusable (`presented` true).
    case invalidToken(presented: Bool)
    /// 401: refresh token unknown, expired, revoked or reused.
    case invalidGrant
    /// 403: asking for something that is not the caller's.
    case insufficientScope
    /// 403: cookie-authenticated unsafe request without the matching `X-CSRF-Token`.
    case csrfFailed
    /// 403: registration disabled by configuration.
    case registrationClosed
    /// 404: no such resource (a session that is not the caller's).
    case notFound
    /// 409: registration with an email that exists.
    case emailTaken
    /// 415: a body that is not `application/json`.
    case unsupportedMediaType
    /// 429: rate limited; retry after the given seconds.
    case tooManyRequests(retryAfter: Int)
    /// 502: an upstream token service refused or answered garbage.
    case upstream(String)
    /// 503: not configured, overloaded, or the database cannot take writes; retry after the given seconds.
    case unavailable(String, retryAfter: Int)

    /// The HTTP status code.
    public var statusCode: Int {
        switch self {
        case .invalidRequest, .weakPassword: 400
        case .invalidCredentials, .invalidToken, .invalidGrant: 401
        case .insufficientScope, .csrfFailed, .registrationClosed: 403
        case .notFound: 404
        case .emailTaken: 409
        case .unsupportedMediaType: 415
        case .tooManyRequests: 429
        case .upstream: 502
        case .unavailable: 503
        }
    }

    /// The `error` member of the body.
    public var code: String {
        switch self {
        case .invalidRequest: "invalid_request"
        case .weakPassword: "weak_password"
        case .invalidCredentials: "invalid_credentials"
        case .invalidToken: "invalid_token"
        case .invalidGrant: "invalid_grant"
        case .insufficientScope, .csrfFailed: "insufficient_scope"
        case .registrationClosed: "registration_closed"
        case .notFound: "not_found"
        case .emailTaken: "email_taken"
        case .unsupportedMediaType: "unsupported_media_type"
        case .tooManyRequests: "too_many_requests"
        case .upstream: "upstream_error"
        case .unavailable: "unavailable"
        }
    }

    /// The `message` member of the body.
    public var message: String {
        switch self {
        case .invalidRequest(let detail): detail
        case .weakPassword: "The password is one of the most common passwords; choose another."
        case .invalidCredentials: "The email or password is not correct."
        case .invalidToken(presented: false): "An access token is required."
        case .invalidToken(presented: true): "The access token is invalid or expired."
        case .invalidGrant: "The refresh token is invalid, expired or revoked."
        case .insufficientScope: "The request asks for something that does not belong to the caller."
        case .csrfFailed: "The X-CSRF-Token header is missing or does not match the csrf_token cookie."
        case .registrationClosed: "Registration is closed."
        case .notFound: "Not found."
        case .emailTaken: "An account with this email exists."
        case .unsupportedMediaType: "The request body must be application/json."
        case .tooManyRequests: "Too many requests; retry later."
        case .upstream(let detail): detail
        case .unavailable(let detail, _): detail
        }
    }

    /// Headers the status requires: `WWW-Authenticate` on 401 (RFC 6750 §3), `Retry-After` on 429 and 503.
    public var headerFields: [(String, String)] {
        switch self {
        case .invalidToken(presented: false):
            [("WWW-Authenticate", #"Bearer realm="tokenvend""#)]
        case .invalidToken(presented: true):
            [("WWW-Authenticate", #"Bearer realm="tokenvend", error="invalid_token""#)]
        case .invalidCredentials, .invalidGrant:
            [("WWW-Authenticate", #"Bearer realm="tokenvend""#)]
        case .tooManyRequests(let seconds), .unavailable(_, let seconds):
            [("Retry-After", String(seconds))]
        default:
            []
        }
    }
}
