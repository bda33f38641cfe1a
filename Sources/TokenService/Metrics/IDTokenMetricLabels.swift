import IdentityProviders

/// `tokenvend_idtoken_signins_total{result}`: how each `POST /auth/idtoken` that named a configured provider ended.
public enum IDTokenSignInResult: String, MetricLabel {
    /// A known identity signed in its user.
    case signedIn = "signed_in"
    /// An unknown identity was linked to the user with its verified email (`identity.linkVerifiedEmail`).
    case linked
    /// A new user was made for the identity.
    case created
    /// The token (or its account) was refused: 401 `invalid_grant`; the reason is counted in
    /// `tokenvend_idtoken_rejections_total`.
    case rejected
    /// 409 `identity_conflict`.
    case conflict
    /// 403 `registration_closed`.
    case registrationClosed = "registration_closed"
    /// 429.
    case rateLimited = "rate_limited"
    /// 503: no keys cached and the provider cannot be reached.
    case providerUnavailable = "provider_unavailable"
}

/// `tokenvend_idtoken_rejections_total{reason}`: every `IDTokenRejection` of the verifier, plus `user_disabled`
/// (a valid token for a disabled account, refused with the same 401).
public enum IDTokenRejectionReason: String, MetricLabel {
    /// Not a compact JWS, bad base64url or JSON, a claim of the wrong type, or no `sub`.
    case malformed
    /// Over `IDTokenVerifier.maximumTokenBytes` (8 KiB).
    case tooLarge = "too_large"
    /// `alg` missing or not one of the provider's algorithms (never `none` or HMAC), or not the key's.
    case algorithm
    /// No `kid` in the header.
    case missingKID = "missing_kid"
    /// A `kid` the provider's key set does not hold, even after a refetch.
    case unknownKID = "unknown_kid"
    /// The signature does not verify with the key.
    case signature
    /// `iss` is not one of the provider's issuers exactly.
    case issuer
    /// `aud` holds none of the provider's audiences.
    case audience
    /// `aud` has several entries and `azp` is not one of ours.
    case azp
    /// `exp` is past, beyond the 60 s leeway.
    case expired
    /// `iat` (or `nbf`) is in the future, beyond the 60 s leeway.
    case issuedInFuture = "issued_in_future"
    /// `iat` is older than `identity.maxTokenAgeSeconds`.
    case tooOld = "too_old"
    /// The request sent a nonce the token does not carry.
    case nonceMissing = "nonce_missing"
    /// The token's nonce does not match the one sent (per the provider's nonce mode).
    case nonceMismatch = "nonce_mismatch"
    /// The token carries a nonce the request did not send.
    case nonceUnexpected = "nonce_unexpected"
    /// The token (its signed part) was accepted before and is still remembered.
    case replayed
    /// A valid token of a disabled user, or whose verified email belongs to a disabled user.
    case userDisabled = "user_disabled"

    /// The label of a verifier's rejection (the same name).
    init(_ rejection: IDTokenRejection) {
        self = Self(rawValue: rejection.rawValue) ?? .malformed
    }
}
