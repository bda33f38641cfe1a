#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sends `X-App-Integrity: debug:<secret>`: for simulators, CI and development builds, accepted only by a server with
/// `integrity.allowDebugTokens` on and the secret's SHA-256 in `integrity.debugTokens`. Never talks to `/integrity/*`
/// and never expires. Keep it out of release builds.
public struct DebugIntegrityProvider: AppIntegrityProvider {
    private let secret: String

    /// Creates a provider for `secret` (the value whose SHA-256 hex the server lists).
    public init(secret: String) {
        self.secret = secret
    }

    /// `debug:<secret>`, valid forever; `exchange` is not used.
    public func integrityToken(using exchange: IntegrityExchange) async throws -> IntegrityCredential {
        IntegrityCredential(value: "debug:\(secret)", expiresAt: .distantFuture)
    }
}
