import Foundation
import TokenClient

#if canImport(DeviceCheck)
    // README: app-attest-session
    /// The app proves it is genuine with App Attest: the first request attests a Secure Enclave key (its id kept in
    /// the Keychain), later renewals sign the server's challenge with it. Every request to the server then carries
    /// `X-App-Integrity`.
    func makeAttestedSession(apiURL: URL) -> AuthSession {
        let integrity = AppAttestIntegrityProvider(
            service: DeviceCheckAppAttestService(),
            keyStore: KeychainAppAttestKeyStore(service: "com.example.app.tokens", account: "app-attest-key"))
        let store = KeychainTokenStore(service: "com.example.app.tokens", account: "session")
        return AuthSession(baseURL: apiURL, store: store, integrity: integrity)
    }
// README-END
#endif

// README: debug-integrity-session
/// The simulator, CI and development builds have no App Attest: they send `debug:<secret>`, accepted only by a server
/// with `integrity.allowDebugTokens` on and the secret's SHA-256 in `integrity.debugTokens`. Never ship the secret.
func makeDebugIntegritySession(apiURL: URL, debugSecret: String) -> AuthSession {
    AuthSession(baseURL: apiURL, integrity: DebugIntegrityProvider(secret: debugSecret))
}
// README-END
