public import JWT

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What a verified ID token says about the person signing in.
public struct VerifiedIDToken: Sendable, Equatable {
    /// The provider's configured name (e.g. `"apple"`).
    public let provider: String
    /// `sub`: the provider's stable identifier of the account; with `provider`, the identity's key.
    public let subject: String
    /// `email`, only when the provider vouches for it (`email_verified` true, or the string `"true"` as Apple
    /// sends it); `nil` otherwise.
    public let email: String?
    /// Whether `email_verified` is true or `"true"` (false when absent or anything else).
    public let emailVerified: Bool
    /// `exp`, as the token states it.
    public let expiresAt: Date
    /// How long a replay of this token must be remembered: `exp` plus `IDTokenVerifier.leeway` (60 s), the last
    /// moment the verifier still accepts it. Remembering it only until `exp` would let it be used again in the
    /// leeway after.
    public var rememberUntil: Date { expiresAt.addingTimeInterval(TimeInterval(IDTokenVerifier.leeway)) }
    /// The lowercase hex SHA-256 of the token's signing input (`header.payload`), the key to remember it by (never
    /// the token itself). The signature is left out: an ECDSA signature has a second valid form (`s` → `n − s`)
    /// and a base64url text may have other spellings, so hashing the whole text would let one token be replayed
    /// under another hash.
    public let tokenHash: String
    /// Every verified claim, for what a caller may need beyond the above (e.g. `is_private_email` from Apple).
    public let claims: JWTClaims

    /// Creates a value; the verifier is the one place that makes them outside tests.
    public init(
        provider: String, subject: String, email: String?, emailVerified: Bool, expiresAt: Date, tokenHash: String,
        claims: JWTClaims
    ) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.expiresAt = expiresAt
        self.tokenHash = tokenHash
        self.claims = claims
    }
}
