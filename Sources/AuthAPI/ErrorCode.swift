/// The `error` member of an error body. Open-ended: unknown codes decode as themselves, so a newer server
/// never breaks an older client. Compare with the static members (`code == .invalidGrant`).
public struct ErrorCode: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The code as sent on the wire, e.g. `"invalid_grant"`.
    public var rawValue: String

    /// Wraps any code string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a literal code string.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Decodes a bare JSON string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes as a bare JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The raw code.
    public var description: String { rawValue }

    /// 400: malformed JSON, missing/extra/ill-typed member, invalid email, password outside policy.
    public static let invalidRequest: Self = "invalid_request"
    /// 400: a new password that is one of the 10,000 most common passwords.
    public static let weakPassword: Self = "weak_password"
    /// 400: an email code that is wrong, expired, used, or killed by five wrong tries (`POST /auth/email/…/confirm`,
    /// `POST /auth/password/reset/confirm`).
    public static let invalidCode: Self = "invalid_code"
    /// `DELETE /auth/account`: a missing or wrong password, or a passwordless session that signed in longer than
    /// `account.reauthenticationSeconds` ago (sign in again, then retry).
    public static let reauthenticationRequired: Self = "reauthentication_required"
    /// 401: the route requires a valid app-integrity token (`X-App-Integrity` or `X-Firebase-AppCheck`) and the
    /// request carries none (`integrity.routes.<route>` is `require`).
    public static let integrityRequired: Self = "integrity_required"
    /// 401: an app-integrity token, attestation, assertion or Play Integrity verdict that fails a check
    /// (`/integrity/*`, or a present but bad `X-App-Integrity` / `X-Firebase-AppCheck` on a route that requires
    /// one). One body for every reason; the reason is in the log and `tokenvend_integrity_checks_total`.
    public static let integrityInvalid: Self = "integrity_invalid"
    /// 401: login failed.
    public static let invalidCredentials: Self = "invalid_credentials"
    /// 401: access token missing, malformed, expired, or its session revoked.
    public static let invalidToken: Self = "invalid_token"
    /// 401: refresh token unknown, expired, revoked or reused; or an ID token (`POST /auth/idtoken`) that is
    /// invalid, expired, for another app, or used before.
    public static let invalidGrant: Self = "invalid_grant"
    /// 400: `POST /auth/token` with a `grant_type` other than `authorization_code` (RFC 6749 §5.2).
    public static let unsupportedGrantType: Self = "unsupported_grant_type"
    /// 403: authenticated but asking for something not the caller's.
    public static let insufficientScope: Self = "insufficient_scope"
    /// 403: registration disabled.
    public static let registrationClosed: Self = "registration_closed"
    /// 404: unknown path.
    public static let notFound: Self = "not_found"
    /// 405: known path, wrong method.
    public static let methodNotAllowed: Self = "method_not_allowed"
    /// 408: the request head, a body pause or the whole request took too long; the connection closes.
    public static let requestTimeout: Self = "request_timeout"
    /// 409: email already registered.
    public static let emailTaken: Self = "email_taken"
    /// 409: an ID token's verified email belongs to an account the identity is not linked to (and the server does
    /// not link by email).
    public static let identityConflict: Self = "identity_conflict"
    /// 413: body over the limit.
    public static let payloadTooLarge: Self = "payload_too_large"
    /// 414: the request target is longer than the server accepts; the connection closes.
    public static let uriTooLong: Self = "uri_too_long"
    /// 415: body not JSON.
    public static let unsupportedMediaType: Self = "unsupported_media_type"
    /// 429: rate limited; see `Retry-After`.
    public static let tooManyRequests: Self = "too_many_requests"
    /// 431: the request header (or trailer) section is larger than the server accepts; the connection closes.
    public static let headerTooLarge: Self = "header_too_large"
    /// 500: unexpected server error.
    public static let internalError: Self = "internal_error"
    /// 501: a method the server does not implement (or `CONNECT`), or a transfer coding other than `chunked`.
    public static let notImplemented: Self = "not_implemented"
    /// 502: an upstream token service refused or answered garbage.
    public static let upstreamError: Self = "upstream_error"
    /// 503: not configured, overloaded or database unavailable; see `Retry-After`.
    public static let unavailable: Self = "unavailable"
    /// 505: an HTTP major version other than 1 (including the HTTP/2 preface); the connection closes.
    public static let httpVersionNotSupported: Self = "http_version_not_supported"

    /// 400 at the token endpoints, 401 (with `WWW-Authenticate: DPoP error="invalid_dpop_proof"`) elsewhere: a
    /// `DPoP` proof that is missing where one is needed, malformed, or fails a check (RFC 9449 §5, §7.1).
    public static let invalidDPoPProof: Self = "invalid_dpop_proof"
    /// 400 at the token endpoints, 401 elsewhere: the proof must carry the server's nonce, sent in `DPoP-Nonce`
    /// (RFC 9449 §8, §9); sign a new proof with it and retry once.
    public static let useDPoPNonce: Self = "use_dpop_nonce"

    /// 401: a passkey registration or assertion that fails a check (`/auth/passkeys/registration`, `/signup`,
    /// `/authentication`): wrong origin, RP id, challenge, signature, counter, flags, key or user handle, or an
    /// unknown credential. One body for every reason; the reason is in the log and
    /// `tokenvend_passkey_ceremonies_total`. Not to be confused with `invalid_credentials` (password login).
    public static let invalidCredential: Self = "invalid_credential"
    /// 409: `DELETE /auth/passkeys/{id}` of the account's last way to sign in (no password, no linked identity,
    /// no other passkey, and no email-code sign-in).
    public static let lastSignInMethod: Self = "last_sign_in_method"

    /// Every code API.md defines.
    public static let allKnown: [Self] = [
        .invalidRequest, .weakPassword, .invalidCredentials, .invalidToken, .invalidGrant, .insufficientScope,
        .registrationClosed, .notFound, .methodNotAllowed, .emailTaken, .payloadTooLarge,
        .unsupportedMediaType, .tooManyRequests, .internalError, .upstreamError, .unavailable, .requestTimeout,
        .notImplemented, .uriTooLong, .headerTooLarge, .httpVersionNotSupported, .identityConflict,
        .unsupportedGrantType, .invalidCode, .reauthenticationRequired, .integrityRequired, .integrityInvalid,
        .invalidDPoPProof, .useDPoPNonce, .invalidCredential, .lastSignInMethod,
    ]
}
