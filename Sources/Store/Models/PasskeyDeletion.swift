/// What `PasskeyStoring.deletePasskey` did.
public enum PasskeyDeletion: Sendable, Equatable {
    /// The passkey is gone.
    case deleted
    /// No passkey with that id belongs to that account (nothing changed).
    case notFound
    /// It is the account's last way to sign in (nothing changed).
    case lastSignInMethod
}
