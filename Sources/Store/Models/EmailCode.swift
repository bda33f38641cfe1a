#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What an email code is for (`email_codes.purpose`).
public enum EmailCodePurpose: String, Sendable, Hashable, CaseIterable {
    /// Proves the account's email (`POST /auth/email/verification`); subject: the user id.
    case verification
    /// Sets a new password (`POST /auth/password/reset`); subject: the normalised email.
    case passwordReset = "password_reset"
    /// Signs in, or signs up without a password (`POST /auth/email/code`); subject: the normalised email.
    case signIn = "sign_in"
    /// Moves the account to a new address (`POST /auth/email/change`); subject: the user id.
    case emailChange = "email_change"
    /// Deletes the account without the app (`POST /auth/account/deletion`, the page at `GET /account/delete`);
    /// subject: the normalised email.
    case deletion
}

/// A stored email code: never the code itself, only its keyed hash.
public struct EmailCode: Sendable, Equatable {
    /// What the code is for.
    public var purpose: EmailCodePurpose
    /// Whose code: the user id (verification, email change) or the normalised email (reset, sign-in). One code per
    /// purpose and subject; a new one replaces the old.
    public var subject: String
    /// The keyed hash of the code (lowercase hex), computed by the caller.
    public var hash: String
    /// The account the code is for, or nil (a sign-in code for an address without an account).
    public var userID: String?
    /// The address the code was sent to (for an email change, the new address).
    public var email: String
    /// Wrong tries so far.
    public var attempts: Int
    /// When the code was issued.
    public var createdAt: Date
    /// When the code stops being accepted.
    public var expiresAt: Date

    /// Creates a code record.
    public init(
        purpose: EmailCodePurpose, subject: String, hash: String, userID: String?, email: String, attempts: Int = 0,
        createdAt: Date, expiresAt: Date
    ) {
        self.purpose = purpose
        self.subject = subject
        self.hash = hash
        self.userID = userID
        self.email = email
        self.attempts = attempts
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// What presenting an email code found (`EmailStoring.redeemCode`).
public enum EmailCodeCheck: Sendable, Equatable {
    /// The right code, in time: it is deleted now and can never be used again.
    case accepted(EmailCode)
    /// A wrong code for a live one; `attemptsLeft` is 0 when this try killed it.
    case rejected(attemptsLeft: Int)
    /// No code for this purpose and subject, or an expired one.
    case missing
}
