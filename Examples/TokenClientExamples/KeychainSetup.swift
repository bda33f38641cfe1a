import Foundation
import TokenClient

#if canImport(Security)
    // README: keychain-session
    /// An app and its extensions (a widget, a notification service) share one session: one Keychain item in an access
    /// group that every target lists in its Keychain Sharing entitlement. The item is readable from the first unlock
    /// after a restart on, so a background refresh works; before that the session is `.locked` and waits, signed in.
    func makeSharedSession(apiURL: URL) -> AuthSession {
        let store = KeychainTokenStore(
            service: "com.example.app.tokens", account: "session", accessGroup: "TEAMID1234.com.example.app.shared",
            accessibility: .afterFirstUnlockThisDeviceOnly)
        return AuthSession(baseURL: apiURL, store: store)
    }
// README-END
#endif

// README: file-session
/// A command-line tool (Linux, or a Mac without Keychain entitlements) keeps the session in a file only its owner can
/// read (0600, replaced atomically). The folder must exist.
func makeCommandLineSession(apiURL: URL, configFolder: URL) -> AuthSession {
    let store = FileTokenStore(url: configFolder.appending(path: "session.json"))
    return AuthSession(baseURL: apiURL, store: store)
}
// README-END
