#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A challenge of a passkey ceremony (`POST /auth/passkeys/…/options`), stored in `passkey_challenges` by the
/// SHA-256 hex of its raw value until the ceremony consumes it or it expires (transient: `tokenvend db copy`
/// copies none).
public struct PasskeyChallenge: Sendable, Equatable {
    /// Which ceremony the challenge was issued for; a challenge answers only its own.
    public enum Ceremony: String, Sendable, Hashable, CaseIterable {
        /// `POST /auth/passkeys/registration`: a signed-in account adds a passkey.
        case registration
        /// `POST /auth/passkeys/signup`: a new account with a passkey.
        case signup
        /// `POST /auth/passkeys/authentication`: sign-in with a discoverable credential.
        case authentication
    }

    /// Lowercase hex SHA-256 of the challenge's raw bytes: the primary key.
    public var hash: String
    /// The ceremony.
    public var ceremony: Ceremony
    /// Registration: the account that asked; nil otherwise.
    public var userID: String?
    /// Registration and sign-up: the user handle (base64url) the options named; nil for authentication.
    public var userHandle: String?
    /// Sign-up: the normalised email the new account gets, or nil.
    public var email: String?
    /// When it expires (`passkeys.timeoutSeconds` after issue).
    public var expiresAt: Date

    /// Creates a challenge record.
    public init(
        hash: String, ceremony: Ceremony, userID: String? = nil, userHandle: String? = nil, email: String? = nil,
        expiresAt: Date
    ) {
        self.hash = hash
        self.ceremony = ceremony
        self.userID = userID
        self.userHandle = userHandle
        self.email = email
        self.expiresAt = expiresAt
    }
}
