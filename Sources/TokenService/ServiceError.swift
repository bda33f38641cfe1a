public import AuthAPI

/// Every failure a handler answers with: its error code and message here, its status and headers in
/// `ServiceError+HTTP.swift` (API.md's table).
///
/// Messages are fixed strings chosen here: they never carry a password, token, key, hash or SQL, and the
/// refresh and login failures keep one body for every cause so that an attacker learns nothing from them.
public enum ServiceError: Error, Sendable, Equatable {
    /// 400: malformed JSON, missing/extra/ill-typed member, invalid email, password outside policy.
    case invalidRequest(String)
    /// 400: a new password that is one of the 10,000 most common passwords.
    case weakPassword
    /// 400: an email code that is wrong, expired, used, or killed by five wrong tries (one body for every cause).
    case invalidCode
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
    /// 401 `invalid_grant`: an ID token that is not accepted, one body for every reason (the reason is logged and
    /// counted, never sent).
    case invalidIDToken
    /// 409: an ID token's verified email belongs to an account its identity is not linked to.
    case identityConflict
    /// 401: `DELETE /auth/account` without proof that the caller is the account holder now: a missing or wrong
    /// password, or (for an account without one) a sign-in older than `maxAge` seconds
    /// (`account.reauthenticationSeconds`).
    case reauthenticationRequired(maxAge: Int)
    /// 401: a route at `require` without `X-App-Integrity` or `X-Firebase-AppCheck`.
    case integrityRequired
    /// 401: an app-integrity token, attestation, assertion or verdict that fails a check; one body for every
    /// reason (the reason is logged and counted, never sent).
    case integrityInvalid
    /// 400 at the token endpoints (`atTokenEndpoint`), else 401 with `WWW-Authenticate: DPoP
    /// error="invalid_dpop_proof"`: a `DPoP` proof missing where one is needed, two of them, over 8 KiB, or one that
    /// fails a check (RFC 9449 §4.3, §7.1); one body for every reason (logged and counted, never sent).
    case invalidDPoPProof(atTokenEndpoint: Bool)
    /// 400 at the token endpoints, else 401 with `WWW-Authenticate: DPoP error="use_dpop_nonce"`; both carry
    /// `DPoP-Nonce: nonce` (RFC 9449 §8, §9).
    case useDPoPNonce(nonce: String, atTokenEndpoint: Bool)
    /// 401 `invalid_token` with `WWW-Authenticate: DPoP error="invalid_token"`: a DPoP-bound access token sent as
    /// `Bearer` (or from a cookie), or an unbound one sent with the `DPoP` scheme (RFC 9449 §7.2).
    case dpopSchemeMismatch
    /// 401 `invalid_credential` with `WWW-Authenticate: WebAuthn realm="tokenvend"`: a passkey registration or
    /// assertion that fails a check, or names an unknown credential; one body for every reason (logged and counted
    /// in `tokenvend_passkey_ceremonies_total`, never sent). Not `Bearer`: the caller's access token is fine.
    case invalidPasskey
    /// 409 `last_sign_in_method`: deleting the passkey would leave the account no way to sign in.
    case lastSignInMethod

    /// The `error` member of the body.
    public var code: ErrorCode {
        switch self {
        case .invalidRequest: .invalidRequest
        case .weakPassword: .weakPassword
        case .invalidCode: .invalidCode
        case .invalidCredentials: .invalidCredentials
        case .invalidToken: .invalidToken
        case .invalidGrant: .invalidGrant
        case .insufficientScope, .csrfFailed: .insufficientScope
        case .registrationClosed: .registrationClosed
        case .notFound: .notFound
        case .emailTaken: .emailTaken
        case .unsupportedMediaType: .unsupportedMediaType
        case .tooManyRequests: .tooManyRequests
        case .upstream: .upstreamError
        case .unavailable: .unavailable
        case .invalidIDToken: .invalidGrant
        case .identityConflict: .identityConflict
        case .reauthenticationRequired: .reauthenticationRequired
        case .integrityRequired: .integrityRequired
        case .integrityInvalid: .integrityInvalid
        case .invalidDPoPProof: .invalidDPoPProof
        case .useDPoPNonce: .useDPoPNonce
        case .dpopSchemeMismatch: .invalidToken
        case .invalidPasskey: .invalidCredential
        case .lastSignInMethod: .lastSignInMethod
        }
    }

    /// The `message` member of the body.
    public var message: String {
        switch self {
        case .invalidRequest(let detail): detail
        case .weakPassword: "The password is one of the most common passwords; choose another."
        case .invalidCode: "The code is wrong, expired or used; request a new one."
        case .invalidCredentials: "The email or password is not correct."
        case .invalidToken(presented: false): "An access token is required."
        case .invalidToken(presented: true): "The access token is invalid or expired."
        case .invalidGrant: "The refresh token is invalid, expired or revoked."
        case .insufficientScope: "The request asks for something that does not belong to the caller."
        case .csrfFailed: "The X-CSRF-Token header is missing or does not match the __Host-csrf_token cookie."
        case .registrationClosed: "Registration is closed."
        case .notFound: "Not found."
        case .emailTaken: "An account with this email exists."
        case .unsupportedMediaType: "The request body must be application/json."
        case .tooManyRequests: "Too many requests; retry later."
        case .upstream(let detail): detail
        case .unavailable(let detail, _): detail
        case .invalidIDToken: "The ID token is invalid, expired, not issued to this app, or used before."
        case .identityConflict:
            "An account with this email exists; sign in to it and link the provider, or use another account."
        case .reauthenticationRequired:
            "Confirm it is you: give the account's password, or sign in again and retry within a few minutes."
        case .integrityRequired: "This request needs proof that it comes from the genuine app (X-App-Integrity)."
        case .integrityInvalid: "The app's integrity could not be verified."
        case .invalidDPoPProof: "The DPoP proof is missing, malformed or invalid."
        case .useDPoPNonce: "The DPoP proof must carry the nonce of the DPoP-Nonce header; sign a new one."
        case .dpopSchemeMismatch:
            "The access token's binding does not match the scheme: send a DPoP-bound token as 'DPoP' with a proof."
        case .invalidPasskey: "The passkey could not be verified."
        case .lastSignInMethod:
            "This passkey is the account's last way to sign in; set a password or add another passkey first."
        }
    }
}
