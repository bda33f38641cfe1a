#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A user account as stored. `description` leaves out the password hash so a user can be logged.
public struct User: Sendable, Equatable, CustomStringConvertible {
    /// Opaque id (a lowercase UUID unless the caller chose another).
    public var id: String
    /// The normalised email (the caller normalises: NFKC, lowercase, trim), unique; nil for a user made from an
    /// identity whose provider gave no verified email.
    public var email: String?
    /// The PHC-format password hash (`$argon2id$…`), or nil for a user who signs in only through an identity
    /// provider (login answers such a user as it answers a wrong password).
    public var passwordHash: String?
    /// Default `"user"`.
    public var role: String
    /// Tenant, or nil.
    public var tenantID: String?
    /// When the account was disabled, or nil while it is active.
    public var disabledAt: Date?
    /// When the account was created.
    public var createdAt: Date
    /// When the email was verified (an operator created the account, or an identity provider vouched for
    /// it), or nil. Only a verified email may become a Bloomreach customer id.
    public var emailVerifiedAt: Date?
    /// Who verified the email (`users.email_verified_by`), or nil when it is unverified or the source is
    /// unknown. Linking a provider identity by email trusts only some sources (`identity.trustedForLinking`).
    public var emailVerifiedBy: EmailVerificationSource?

    /// Whether the email is verified.
    public var isEmailVerified: Bool { emailVerifiedAt != nil }

    /// Whether the account is disabled.
    public var isDisabled: Bool { disabledAt != nil }

    /// Creates a user value.
    public init(
        id: String, email: String?, passwordHash: String?, role: String, tenantID: String?, disabledAt: Date?,
        createdAt: Date, emailVerifiedAt: Date? = nil, emailVerifiedBy: EmailVerificationSource? = nil
    ) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.role = role
        self.tenantID = tenantID
        self.disabledAt = disabledAt
        self.createdAt = createdAt
        self.emailVerifiedAt = emailVerifiedAt
        self.emailVerifiedBy = emailVerifiedAt == nil ? nil : emailVerifiedBy
    }

    /// The user without the password hash.
    public var description: String {
        """
        User(id: \(id), email: \(email ?? "nil"), role: \(role), tenantID: \(tenantID ?? "nil"), \
        emailVerified: \(isEmailVerified), disabled: \(isDisabled))
        """
    }
}
