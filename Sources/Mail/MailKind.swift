/// What a message is for: each kind has its own template.
public enum MailKind: String, Sendable, CaseIterable {
    /// A code that proves the account's email.
    case verification
    /// A code that sets a new password.
    case passwordReset = "password_reset"
    /// A code that signs in (or signs up without a password).
    case signIn = "sign_in"
    /// A code, sent to the new address, that moves the account to it.
    case emailChange = "email_change"
    /// A notice to the old address that the account's email changed; no code.
    case emailChangedNotice = "email_changed_notice"
    /// A code that deletes the account (`POST /auth/account/deletion`, the page at `GET /account/delete`).
    case deletion

    /// Whether the message carries a code (`{{code}}` once in its plain text); all but the notice.
    public var carriesCode: Bool { self != .emailChangedNotice }
}
