import AuthAPI
import TokenClient

// README: sign-in-messages
/// What the sign-in screen tells the user; plain Swift, so it builds (and can be tested) on every platform.
enum SignInMessages {
    /// The message for a failed `login(email:password:)`.
    static func failure(_ error: any Error) -> String {
        switch error as? TokenClientError {
        case .server(_, let body)? where body?.error == .invalidCredentials: "Wrong email or password."
        case .server(status: 429, _)?: "Too many attempts. Try again in a few minutes."
        case .transport?: "No connection to the server."
        case .storageLocked?: "Unlock your device, then try again."
        case .integrity(.unsupported)?: "This device cannot verify the app."
        case .integrity?: "The app could not be verified. Update it, then try again."
        default: "Sign-in failed. Try again."
        }
    }

    /// A note above the sign-in form after the session ended by itself; `nil` after the user signed out.
    static func notice(after event: SessionEvent?) -> String? {
        switch event {
        case .signedOut(reason: .revoked)?: "You were signed out on the server. Sign in again."
        case .signedOut(reason: .expired)?: "Your session has expired. Sign in again."
        default: nil
        }
    }
}
// README-END
