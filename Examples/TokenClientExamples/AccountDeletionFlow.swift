import AuthAPI
import TokenClient

// README: account-deletion
/// The "Delete account" button's action (App Store Review Guideline 5.1.1(v)).
enum AccountDeletionFlow {
    /// What the screen does next.
    enum Outcome: Equatable {
        /// Gone: the session signed out (`.signedOut(reason: .accountDeleted)`); show the sign-in screen.
        case deleted
        /// The password was wrong (or missing): ask for it again.
        case askForPassword
        /// An account without a password whose sign-in is too old: sign in again (Apple, Google, a code), retry.
        case signInAgain
        /// Anything else: the account is still there.
        case failed(String)
    }

    /// Deletes the signed-in account; `password` is nil for an account without one.
    static func delete(_ session: AuthSession, password: String?) async -> Outcome {
        do {
            try await session.deleteAccount(password: password)
            return .deleted
        } catch let error as TokenClientError where error.accountDeletionFailure == .reauthenticationRequired {
            return password == nil ? .signInAgain : .askForPassword
        } catch let error as TokenClientError where error.accountDeletionFailure == .tooManyRequests {
            return .failed("Too many attempts. Try again in a few minutes.")
        } catch {
            return .failed("The account could not be deleted. Try again.")
        }
    }
}
// README-END
