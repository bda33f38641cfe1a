import CBOR
import Cryptography
import WebAuthn

/// Verifies Apple App Attest attestations and assertions as Apple's "Validating apps that connect to your
/// server" specifies, with no round trip to Apple: pure functions of their inputs, the pinned root and `now`.
///
/// Attestation (in Apple's order): `fmt` is `apple-appattest`; the `x5c` chain (leaf, intermediate) verifies to
/// the pinned root at `now`; the leaf's extension `1.2.840.113635.100.8.2` holds `SHA256(authData ‖
/// clientDataHash)`; `keyId` is the SHA-256 of the leaf's uncompressed P-256 point; the RP id hash is the SHA-256
/// of one of ``appIDs``; the counter is 0; the AAGUID is production's (or development's, when allowed); the
/// credential id is `keyId`. Assertion: ES256 (DER) over `nonce = SHA256(authenticatorData ‖ clientDataHash)`
/// by the stored key (the ECDSA digest is `SHA256(nonce)`), the RP id hash of the key's app, a counter above the
/// stored one.
///
/// ```swift
/// let verifier = try AppAttestVerifier(appIDs: ["ABCDE12345.com.example.app"], allowDevelopment: false)
/// let key = try verifier.verifyAttestation(keyID: keyID, attestation: bytes, clientDataHash: hash, now: .now)
/// ```
public struct AppAttestVerifier: Sendable {
    /// The accepted apps, `TEAMID.bundle.id` (`integrity.apple.appIds`).
    public let appIDs: [String]
    /// Whether the development AAGUID is accepted (`integrity.apple.allowDevelopment`).
    public let allowDevelopment: Bool
    /// The trust anchor.
    let root: X509Certificate
    /// `(appID, SHA256(appID))` for each accepted app.
    let rpIDHashes: [(appID: String, hash: [UInt8])]

    /// The largest attestation object accepted, in bytes (real ones are about 5.5 KiB).
    public static let maximumAttestationBytes = 16 * 1024
    /// The largest assertion object accepted, in bytes (real ones are about 0.2 KiB).
    public static let maximumAssertionBytes = 4 * 1024
    /// The attestation format.
    static let format = "apple-appattest"
    /// The production AAGUID: `appattest` and seven zero bytes.
    static let productionAAGUID = Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
    /// The development AAGUID: `appattestdevelop`.
    static let developmentAAGUID = Array("appattestdevelop".utf8)

    /// A verifier for `appIDs`.
    /// - Parameter rootCertificatePEM: the trust anchor's PEM (`integrity.apple.rootCertificateFile`, for tests);
    ///   nil: the built-in Apple App Attestation Root CA.
    /// - Throws: a root that does not parse (path `integrity.apple.rootCertificateFile`); an app id that is not
    ///   `TEAMID.bundle.id` (path `integrity.apple.appIds`).
    public init(appIDs: [String], allowDevelopment: Bool, rootCertificatePEM: String? = nil)
        throws(IntegrityConfigurationError)
    {
        guard !appIDs.isEmpty else {
            throw IntegrityConfigurationError(path: "integrity.apple.appIds", reason: "at least one app id is needed")
        }
        for appID in appIDs where !Self.isAppID(appID) {
            throw IntegrityConfigurationError(
                path: "integrity.apple.appIds",
                reason: "\"\(appID)\" is not TEAMID.bundle.id (a 10-character team id, a dot, a bundle id)")
        }
        do {
            root = try X509Certificate(pem: rootCertificatePEM ?? AppleAppAttestationRoot.pem)
        } catch {
            throw IntegrityConfigurationError(
                path: "integrity.apple.rootCertificateFile", reason: "not one PEM CERTIFICATE (\(error))")
        }
        var hashes: [(appID: String, hash: [UInt8])] = []
        for appID in appIDs {
            guard let hash = try? SHA256.hash(Array(appID.utf8)) else {
                throw IntegrityConfigurationError(path: "integrity.apple.appIds", reason: "SHA-256 failed")
            }
            hashes.append((appID, hash))
        }
        self.appIDs = appIDs
        self.allowDevelopment = allowDevelopment
        rpIDHashes = hashes
    }

    /// Whether `text` is `TEAMID.bundle.id`: 10 uppercase letters or digits, a dot, then a bundle id of letters,
    /// digits, `-` and `.` (not starting or ending with a dot).
    static func isAppID(_ text: String) -> Bool {
        WebAuthn.AppleAppID.isValid(text)
    }
}
