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
    case malformed
    case tooLarge = "too_large"
    case algorithm
    case missingKID = "missing_kid"
    case unknownKID = "unknown_kid"
    case signature, issuer, audience, azp, expired
    case issuedInFuture = "issued_in_future"
    case tooOld = "too_old"
    case nonceMissing = "nonce_missing"
    case nonceMismatch = "nonce_mismatch"
    case nonceUnexpected = "nonce_unexpected"
    case replayed
    case userDisabled = "user_disabled"

    /// The label of a verifier's rejection (the same name).
    init(_ rejection: IDTokenRejection) {
        self = Self(rawValue: rejection.rawValue) ?? .malformed
    }
}
