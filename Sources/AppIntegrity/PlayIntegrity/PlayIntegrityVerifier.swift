#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Decrypts (JWE `A256KW` + `A256GCM`) and verifies (JWS `ES256`) classic Play Integrity tokens with the Play
/// Console's keys, then checks the verdict against ``PlayIntegritySettings``: no round trip to Google.
///
/// PENDING (issue 34): the **android** helper implements this type; the signatures below are the contract.
public struct PlayIntegrityVerifier: Sendable {
    /// What is accepted.
    public let settings: PlayIntegritySettings

    /// A verifier with `settings`.
    /// - Throws: a decryption key that is not 32 bytes (path `integrity.android.decryptionKeyFile`), a
    ///   verification key that is not a P-256 SubjectPublicKeyInfo (`integrity.android.verificationKeyFile`).
    public init(settings: PlayIntegritySettings) throws(IntegrityConfigurationError) {
        self.settings = settings
    }

    /// Verifies `token` (at most 16 KiB, else `.malformed`) for `challenge` (`requestDetails.nonce`).
    /// - Throws: `.malformed` for a JWE/JWS/JSON that does not parse; `.failed` with `decryption`, `signature`,
    ///   `token_type` (another `alg`/`enc`), `challenge` (another nonce), `package`, `app_recognition`,
    ///   `certificate_digest`, `device_verdict` or `timestamp` (more than 5 minutes old or 1 minute ahead).
    public func verify(_ token: String, challenge: String, now: Date) throws(IntegrityError) -> PlayIntegrityVerdict {
        throw .malformed("Play Integrity verification is not implemented yet")
    }
}
