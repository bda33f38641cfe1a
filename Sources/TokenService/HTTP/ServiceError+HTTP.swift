public import AuthAPI
public import HTTPServer

/// The one mapping of `ServiceError` onto an HTTP answer: status, code, message and the headers the status
/// requires (API.md's error table).
extension ServiceError: HTTPResponseError {
    /// The response status.
    public var status: HTTPStatus {
        switch self {
        case .invalidRequest, .weakPassword, .invalidCode: .badRequest
        case .invalidDPoPProof(let atTokenEndpoint), .useDPoPNonce(_, let atTokenEndpoint):
            atTokenEndpoint ? .badRequest : .unauthorized
        case .invalidCredentials, .invalidToken, .invalidGrant, .invalidIDToken, .reauthenticationRequired,
            .integrityRequired, .integrityInvalid, .dpopSchemeMismatch, .invalidPasskey:
            .unauthorized
        case .insufficientScope, .csrfFailed, .registrationClosed: .forbidden
        case .notFound: .notFound
        case .emailTaken, .identityConflict, .lastSignInMethod: .conflict
        case .unsupportedMediaType: .unsupportedMediaType
        case .tooManyRequests: .tooManyRequests
        case .upstream: .badGateway
        case .unavailable: .serviceUnavailable
        }
    }

    /// `code` as it goes on the wire.
    public var errorCode: String { code.rawValue }

    /// `message`.
    public var publicMessage: String { message }

    /// `WWW-Authenticate` on 401 (RFC 6750 §3), `Retry-After` on 429 and 503.
    public var headers: HTTPHeaders {
        var fields = HTTPHeaders()
        switch self {
        case .invalidToken(presented: false), .invalidCredentials, .invalidGrant, .invalidIDToken:
            fields.add(name: "WWW-Authenticate", value: #"Bearer realm="tokenvend""#)
        case .invalidToken(presented: true):
            fields.add(name: "WWW-Authenticate", value: #"Bearer realm="tokenvend", error="invalid_token""#)
        case .reauthenticationRequired(let maxAge):
            // RFC 9470 (step-up authentication): the token is valid, the sign-in behind it is not recent enough.
            fields.add(
                name: "WWW-Authenticate",
                value: #"Bearer realm="tokenvend", error="insufficient_user_authentication", max_age="#
                    + String(maxAge))
        case .integrityRequired, .integrityInvalid:
            // Not `Bearer`: the access token (if any) is fine, so a client must not refresh or sign out.
            fields.add(name: "WWW-Authenticate", value: #"AppIntegrity realm="tokenvend""#)
        case .invalidDPoPProof(atTokenEndpoint: false):
            fields.add(name: "WWW-Authenticate", value: #"DPoP realm="tokenvend", error="invalid_dpop_proof""#)
        case .useDPoPNonce(let nonce, let atTokenEndpoint):
            // RFC 9449 §8 (token endpoint: the OAuth error body alone) and §9 (resource: the DPoP challenge).
            if !atTokenEndpoint {
                fields.add(name: "WWW-Authenticate", value: #"DPoP realm="tokenvend", error="use_dpop_nonce""#)
            }
            fields.add(name: "DPoP-Nonce", value: nonce)
        case .dpopSchemeMismatch:
            fields.add(name: "WWW-Authenticate", value: #"DPoP realm="tokenvend", error="invalid_token""#)
        case .invalidPasskey:
            // Not `Bearer`: at `/auth/passkeys/registration` the access token is fine; a client must not refresh.
            fields.add(name: "WWW-Authenticate", value: #"WebAuthn realm="tokenvend""#)
        case .tooManyRequests(let seconds), .unavailable(_, let seconds):
            fields.add(name: "Retry-After", value: String(seconds))
        default:
            break
        }
        return fields
    }
}

extension MossError: HTTPResponseError {
    /// The response status: 502 or 503.
    public var status: HTTPStatus { HTTPStatus(code: httpStatus) }

    /// `code` as it goes on the wire.
    public var errorCode: String { code.rawValue }

    /// `Retry-After` on 503.
    public var headers: HTTPHeaders {
        var fields = HTTPHeaders()
        if let seconds = retryAfterSeconds { fields.add(name: "Retry-After", value: String(seconds)) }
        return fields
    }
}
