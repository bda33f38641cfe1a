#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A user's account at an identity provider (Sign in with Apple, Google): the provider's stable `sub` for the
/// user, linked to one tokenvend user. (provider, subject) is unique: an identity signs in exactly one user.
public struct Identity: Sendable, Equatable {
    /// The configured provider name (`apple`, `google`, …).
    public var provider: String
    /// The provider's `sub` claim: stable per user and app, never reassigned.
    public var subject: String
    /// The linked user.
    public var userID: String
    /// The verified email the provider gave when the identity was linked, or nil (Apple may relay or hide it).
    public var email: String?
    /// When the identity was linked.
    public var createdAt: Date
    /// The provider's refresh token for this user, sealed by the caller (AES-256-GCM under
    /// `identity.tokenEncryptionKeyFile`; `identities.refresh_token`), or nil: Sign in with Apple's, redeemed from
    /// the sign-in's `authorizationCode`, revoked when the account is deleted. Never logged, never returned.
    public var sealedRefreshToken: [UInt8]?
    /// Whether the provider's email relay forwards to the user (Apple's `email-enabled` / `email-disabled`
    /// notifications; `identities.email_forwarding`), or nil when no notification said.
    public var emailForwarding: Bool?

    /// Creates an identity value.
    public init(
        provider: String, subject: String, userID: String, email: String?, createdAt: Date,
        sealedRefreshToken: [UInt8]? = nil, emailForwarding: Bool? = nil
    ) {
        self.provider = provider
        self.subject = subject
        self.userID = userID
        self.email = email
        self.createdAt = createdAt
        self.sealedRefreshToken = sealedRefreshToken
        self.emailForwarding = emailForwarding
    }
}
