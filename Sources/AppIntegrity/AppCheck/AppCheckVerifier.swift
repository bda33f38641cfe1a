public import JWT

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Verifies Firebase App Check tokens as they are (`X-Firebase-AppCheck`): RS256 by a key of the App Check JWKS
/// (the caller fetches and caches it, as identity-provider keys are), `iss`, `aud`, `sub`, `exp`.
///
/// PENDING (issue 34): the **android** helper implements this type; the signatures below are the contract.
public struct AppCheckVerifier: Sendable {
    /// What is accepted.
    public let settings: AppCheckSettings

    /// A verifier with `settings`.
    public init(settings: AppCheckSettings) {
        self.settings = settings
    }

    /// The `kid` of the token's header, to look its key up (at most 8 KiB, else `.malformed`).
    /// - Throws: `.malformed` for a token that does not parse or has no `kid`; `.failed(.tokenType)` for an
    ///   `alg` other than RS256.
    public static func keyID(of token: String) throws(IntegrityError) -> String {
        throw .malformed("App Check verification is not implemented yet")
    }

    /// Verifies `token` against `keys` (the JWKS's keys for its `kid`).
    /// - Returns: the Firebase app id (`sub`).
    /// - Throws: `.malformed`; `.failed` with `signature`, `token_type`, `expired`, `issuer` or `audience`.
    public func verify(_ token: String, keys: JWTKeySet, now: Date) throws(IntegrityError) -> String {
        throw .malformed("App Check verification is not implemented yet")
    }
}
