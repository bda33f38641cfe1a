import Cryptography
import StrictJSON

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Decrypts (JWE `A256KW` + `A256GCM`) and verifies (JWS `ES256`) classic Play Integrity tokens with the Play
/// Console's keys, then checks the verdict against ``PlayIntegritySettings``: no round trip to Google.
///
/// ```swift
/// let verifier = try PlayIntegrityVerifier(settings: settings)
/// let verdict = try verifier.verify(token, challenge: challenge, now: Date())
/// ```
public struct PlayIntegrityVerifier: Sendable {
    /// Tokens longer than this are refused before anything else is looked at: 16 KiB.
    public static let maximumTokenByteCount = 16 * 1024
    /// How old `timestampMillis` may be: 5 minutes.
    public static let maximumAgeMilliseconds: Int64 = 5 * 60 * 1000
    /// How far ahead of the clock `timestampMillis` may be: 1 minute.
    public static let maximumSkewMilliseconds: Int64 = 60 * 1000

    /// What is accepted.
    public let settings: PlayIntegritySettings
    /// The verification key, loaded once.
    let verificationKey: AsymmetricKey

    /// A verifier with `settings`.
    /// - Throws: a decryption key that is not 32 bytes (path `integrity.android.decryptionKeyFile`), a
    ///   verification key that is not a P-256 SubjectPublicKeyInfo (`integrity.android.verificationKeyFile`).
    public init(settings: PlayIntegritySettings) throws(IntegrityConfigurationError) {
        guard settings.decryptionKey.count == AESKeyWrap.keyByteCount else {
            throw IntegrityConfigurationError(
                path: "integrity.android.decryptionKeyFile",
                reason: "the response-decryption key must be 32 bytes, got \(settings.decryptionKey.count)")
        }
        do {
            verificationKey = try AsymmetricKey(
                subjectPublicKeyInfo: settings.verificationKey, algorithm: .ecdsaP256SHA256)
        } catch {
            throw IntegrityConfigurationError(
                path: "integrity.android.verificationKeyFile",
                reason: "the response-verification key is not a P-256 SubjectPublicKeyInfo (\(error))")
        }
        self.settings = settings
    }

    /// Verifies `token` (at most 16 KiB, else `.malformed`) for `challenge` (`requestDetails.nonce`).
    /// - Throws: `.malformed` for a JWE/JWS/JSON that does not parse; `.failed` with `decryption`, `signature`,
    ///   `token_type` (another `alg`/`enc`), `challenge` (another nonce), `package`, `app_recognition`,
    ///   `certificate_digest`, `device_verdict` or `timestamp` (more than 5 minutes old or 1 minute ahead).
    public func verify(_ token: String, challenge: String, now: Date) throws(IntegrityError) -> PlayIntegrityVerdict {
        guard token.utf8.count <= Self.maximumTokenByteCount else {
            throw .malformed("Play Integrity token larger than 16 KiB")
        }
        let jws = try decrypt(token)
        let payload = try verifySignature(jws)
        let fields = try PlayIntegrityPayload(payload)
        return try check(fields, challenge: challenge, now: now)
    }

    /// The JWE's plaintext (the inner JWS) as text.
    func decrypt(_ token: String) throws(IntegrityError) -> String {
        let jwe = try CompactSegments(token, count: 5)
        let header = try jwe.object(0)
        guard header["alg"] == .string("A256KW"), header["enc"] == .string("A256GCM") else {
            throw .failed(.tokenType, detail: "JWE alg/enc is not A256KW/A256GCM")
        }
        guard header["zip"] == nil, header["crit"] == nil else {
            throw .failed(.tokenType, detail: "JWE with zip or crit")
        }
        let encryptedKey = try jwe.bytes(1)
        let iv = try jwe.bytes(2)
        let ciphertext = try jwe.bytes(3)
        let tag = try jwe.bytes(4)
        let plaintext: [UInt8]
        do {
            let contentKey = try AESKeyWrap.unwrap(encryptedKey, key: settings.decryptionKey)
            plaintext = try AES256GCM(key: contentKey).open(
                ciphertext: ciphertext, nonce: iv, tag: tag, associatedData: Array(jwe.texts[0].utf8))
        } catch {
            throw .failed(.decryption, detail: "JWE does not decrypt with the configured key (\(error))")
        }
        guard let text = String(validating: plaintext, as: UTF8.self) else {
            throw .malformed("the JWE's plaintext is not UTF-8")
        }
        return text
    }

    /// The inner JWS's payload once its `ES256` signature verifies with the verification key.
    func verifySignature(_ token: String) throws(IntegrityError) -> JSONObject {
        let jws = try CompactSegments(token, count: 3)
        let header = try jws.object(0)
        guard header["alg"] == .string("ES256") else {
            throw .failed(.tokenType, detail: "JWS alg is not ES256")
        }
        guard header["crit"] == nil else { throw .failed(.tokenType, detail: "JWS with crit") }
        let payload = try jws.bytes(1)
        let signature = try jws.bytes(2)
        let signingInput = Array("\(jws.texts[0]).\(jws.texts[1])".utf8)
        let valid: Bool
        do {
            valid = try verificationKey.isValidSignature(signature, for: signingInput)
        } catch {
            throw .failed(.signature, detail: "JWS signature check failed (\(error))")
        }
        guard valid else { throw .failed(.signature, detail: "JWS signature does not verify") }
        return try CompactSegments.parseObject(payload)
    }

    /// The verdict's checks in order, once every member has been read.
    func check(
        _ fields: PlayIntegrityPayload, challenge: String, now: Date
    ) throws(IntegrityError) -> PlayIntegrityVerdict {
        guard fields.nonce == challenge else {
            throw .failed(.challenge, detail: "requestDetails.nonce is not the challenge")
        }
        guard settings.packageNames.contains(fields.requestPackageName) else {
            throw .failed(.package, detail: "requestDetails.requestPackageName \(fields.requestPackageName)")
        }
        guard settings.packageNames.contains(fields.packageName) else {
            throw .failed(.package, detail: "appIntegrity.packageName \(fields.packageName)")
        }
        guard settings.appRecognitionVerdicts.contains(fields.appRecognitionVerdict) else {
            throw .failed(.appRecognition, detail: "appRecognitionVerdict \(fields.appRecognitionVerdict)")
        }
        if !settings.certificateDigests.isEmpty {
            guard fields.certificateDigests.contains(where: settings.certificateDigests.contains) else {
                throw .failed(.certificateDigest, detail: "no certificateSha256Digest is configured")
            }
        }
        for required in settings.requiredDeviceVerdicts where !fields.deviceRecognitionVerdicts.contains(required) {
            throw .failed(.deviceVerdict, detail: "deviceRecognitionVerdict lacks \(required)")
        }
        let nowMillis = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let (age, overflow) = nowMillis.subtractingReportingOverflow(fields.timestampMillis)
        guard !overflow, age <= Self.maximumAgeMilliseconds, age >= -Self.maximumSkewMilliseconds else {
            throw .failed(.timestamp, detail: "timestampMillis is \(age) ms from now")
        }
        return PlayIntegrityVerdict(
            packageName: fields.packageName, appRecognitionVerdict: fields.appRecognitionVerdict,
            deviceRecognitionVerdicts: fields.deviceRecognitionVerdicts,
            timestamp: Date(timeIntervalSince1970: Double(fields.timestampMillis) / 1000))
    }
}
