#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Verifies Apple App Attest attestations and assertions as Apple's "Validating apps that connect to your
/// server" specifies, with no round trip to Apple: pure functions of their inputs, the pinned root and `now`.
///
/// PENDING (issue 34): the **apple** helper implements this type (CBOR, the x5c chain through OpenSSL, the nonce
/// extension `1.2.840.113635.100.8.2`, authenticator data); the signatures below are the contract.
public struct AppAttestVerifier: Sendable {
    /// The accepted apps, `TEAMID.bundle.id` (`integrity.apple.appIds`).
    public let appIDs: [String]
    /// Whether the development AAGUID is accepted (`integrity.apple.allowDevelopment`).
    public let allowDevelopment: Bool

    /// A verifier for `appIDs`.
    /// - Parameter rootCertificatePEM: the trust anchor's PEM (`integrity.apple.rootCertificateFile`, for tests);
    ///   nil: the built-in Apple App Attestation Root CA.
    /// - Throws: a root that does not parse (path `integrity.apple.rootCertificateFile`); an app id that is not
    ///   `TEAMID.bundle.id` (path `integrity.apple.appIds`).
    public init(appIDs: [String], allowDevelopment: Bool, rootCertificatePEM: String? = nil)
        throws(IntegrityConfigurationError)
    {
        self.appIDs = appIDs
        self.allowDevelopment = allowDevelopment
    }

    /// Verifies an attestation (`POST /integrity/apple/attest`).
    /// - Parameters:
    ///   - keyID: the key id as the app sent it (standard base64 of 32 bytes; anything else is `.malformed`).
    ///   - attestation: the decoded CBOR attestation object (at most 16 KiB, else `.malformed`).
    ///   - clientDataHash: `SHA256(challenge's UTF-8 bytes)`.
    ///   - now: the moment the certificates must be valid at.
    /// - Throws: `.malformed` for CBOR or a structure that does not parse; `.failed` with `format`,
    ///   `certificate`, `expired`, `nonce`, `key_id`, `app_id`, `counter`, `aaguid` or `development`.
    public func verifyAttestation(keyID: String, attestation: [UInt8], clientDataHash: [UInt8], now: Date)
        throws(IntegrityError) -> VerifiedAttestation
    {
        throw .malformed("App Attest verification is not implemented yet")
    }

    /// Verifies an assertion (`POST /integrity/apple/assert`) by a stored key.
    /// - Parameters:
    ///   - assertion: the decoded CBOR `{signature, authenticatorData}` (at most 4 KiB, else `.malformed`).
    ///   - clientDataHash: `SHA256(challenge's UTF-8 bytes)`.
    ///   - publicKey: the stored key's uncompressed point.
    ///   - appID: the stored key's app; the RP id hash must be its SHA-256.
    ///   - storedCounter: the stored counter; the assertion's must be greater.
    /// - Returns: the assertion's counter (the caller advances the stored one atomically with it).
    /// - Throws: `.malformed`; `.failed` with `signature`, `app_id` or `counter`.
    public func verifyAssertion(
        _ assertion: [UInt8], clientDataHash: [UInt8], publicKey: [UInt8], appID: String, storedCounter: UInt32
    ) throws(IntegrityError) -> UInt32 {
        throw .malformed("App Attest verification is not implemented yet")
    }
}
