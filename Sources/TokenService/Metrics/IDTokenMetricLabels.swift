public import IdentityProviders

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

/// `tokenvend_idtoken_rejections_total{reason}`: every `IDTokenRejection` of the verifier under its own label
/// (`unknown_kid`, `replayed`, …), plus `user_disabled`: a valid token of a disabled user, or whose verified email
/// belongs to a disabled user, refused with the same 401; and, with `identity.requireServerNonce`,
/// `nonce_required` (the app sent no nonce) and `nonce_not_issued` (not an unused nonce of `POST /auth/nonce`).
public enum IDTokenRejectionReason: MetricLabel {
    /// The verifier refused the token, or (`replayed`) the service had seen it before.
    case token(IDTokenRejection)
    /// A valid token of a disabled account.
    case userDisabled
    /// A valid token sent without a nonce while `identity.requireServerNonce` is on.
    case nonceRequired
    /// A valid token whose nonce was never issued by `POST /auth/nonce`, was used already, or expired.
    case nonceNotIssued

    static let userDisabledLabel = "user_disabled"
    static let nonceRequiredLabel = "nonce_required"
    static let nonceNotIssuedLabel = "nonce_not_issued"

    /// Every verifier reason, then `user_disabled`, `nonce_required` and `nonce_not_issued`.
    public static var allCases: [Self] {
        IDTokenRejection.allCases.map(Self.token) + [.userDisabled, .nonceRequired, .nonceNotIssued]
    }

    /// The reason a label names; nil for any other text.
    public init?(rawValue: String) {
        if rawValue == Self.userDisabledLabel {
            self = .userDisabled
        } else if rawValue == Self.nonceRequiredLabel {
            self = .nonceRequired
        } else if rawValue == Self.nonceNotIssuedLabel {
            self = .nonceNotIssued
        } else if let rejection = IDTokenRejection(rawValue: rawValue) {
            self = .token(rejection)
        } else {
            return nil
        }
    }

    /// The label: the verifier's own for `token`.
    public var rawValue: String {
        switch self {
        case .token(let rejection): rejection.label
        case .userDisabled: Self.userDisabledLabel
        case .nonceRequired: Self.nonceRequiredLabel
        case .nonceNotIssued: Self.nonceNotIssuedLabel
        }
    }
}
