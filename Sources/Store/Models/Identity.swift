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

    /// Creates an identity value.
    public init(provider: String, subject: String, userID: String, email: String?, createdAt: Date) {
        self.provider = provider
        self.subject = subject
        self.userID = userID
        self.email = email
        self.createdAt = createdAt
    }
}
