/// Why an ID token was not accepted: refused (one 401 `invalid_grant` for every reason), or not checkable now.
///
/// A refusal says whether the provider's signature held: `rejected` before it did (anyone can send such a token,
/// garbage included), `rejectedSigned` after it did, with the token's subject, so that the caller can count
/// refusals against the account the provider vouched for rather than against the sender's address.
public enum IDTokenFailure: Error, Sendable, Equatable {
    /// The token is refused before its signature held (size, structure, `typ`, `alg`, `kid`, key, signature), or
    /// after it without a usable `sub`; the reason is for the log and the metric label, never for the client.
    case rejected(IDTokenRejection)
    /// The signature held and a later check refused the token (`iss`, `aud`, `azp`, `exp`, `iat`, nonce): the
    /// reason, and the token's `sub` (non-empty), which the provider signed.
    case rejectedSigned(IDTokenRejection, subject: String)
    /// No keys are cached for the provider and its key URL cannot be fetched: answer 503 with `Retry-After`.
    /// The payload is the number of seconds until the cache tries the provider again (at least 1).
    case providerUnavailable(retryAfter: Int)

    /// The reason of a refusal, before or after the signature; nil for `providerUnavailable`.
    public var rejection: IDTokenRejection? {
        switch self {
        case .rejected(let reason), .rejectedSigned(let reason, _): reason
        case .providerUnavailable: nil
        }
    }
}

/// The fixed set of reasons an ID token is refused: the values of the `reason` metric label and log field.
///
/// The verifier checks in this order and reports the first failure: size, structure, `typ`, `alg`, `kid`, key,
/// signature, `iss`, `aud`, `azp`, `exp`, `iat`, nonce. `replayed` is reported by the caller that remembers used tokens.
public enum IDTokenRejection: String, Sendable, Hashable, CaseIterable {
    /// Not a compact JWS, bad base64url or JSON, a `crit` header, or a required claim (`sub`, `exp`, `iat`)
    /// missing or of the wrong type.
    case malformed
    /// Longer than `IDTokenVerifier.maximumTokenBytes`.
    case tooLarge = "too_large"
    /// The header's `typ` is neither absent nor `JWT` (compared case-insensitively): an access token (`at+jwt`) or
    /// another kind of JWT the provider signs is not an ID token.
    case tokenType = "token_type"
    /// `alg` missing, `none`, HS*, or not among the provider's `algorithms`, or not the algorithm of the key.
    case algorithm
    /// No `kid` in the header.
    case missingKID = "missing_kid"
    /// The `kid` is not in the provider's key set, even after the one refetch allowed.
    case unknownKID = "unknown_kid"
    /// The signature does not verify.
    case signature
    /// `iss` is not one of the provider's issuers (exact match).
    case issuer
    /// `aud` contains none of the provider's audiences.
    case audience
    /// `aud` also lists an audience the provider is not configured with (OpenID Connect Core §3.1.3.7: the token
    /// is refused when it lists audiences not trusted by the client).
    case untrustedAudience = "untrusted_audience"
    /// `aud` has several entries and `azp` is missing or not one of the provider's audiences.
    case azp
    /// `exp` is past (beyond the leeway).
    case expired
    /// `iat` (or `nbf`) is in the future beyond the leeway.
    case issuedInFuture = "issued_in_future"
    /// `iat` is older than the provider's `maxTokenAge`.
    case tooOld = "too_old"
    /// The app sent a nonce but the token carries none.
    case nonceMissing = "nonce_missing"
    /// The token's nonce does not match the app's nonce under the provider's mode.
    case nonceMismatch = "nonce_mismatch"
    /// The token carries a nonce but the app sent none.
    case nonceUnexpected = "nonce_unexpected"
    /// The same token was presented before (reported by the caller, which remembers token hashes until
    /// `VerifiedIDToken.rememberUntil`, `exp` plus the leeway).
    case replayed

    /// The metric label and log value, e.g. `"unknown_kid"`.
    public var label: String { rawValue }
}
