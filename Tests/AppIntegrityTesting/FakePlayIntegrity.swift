import Foundation
import MailTesting
public import StrictJSON

/// scripts/fake_play_integrity.py as a child process on 127.0.0.1: the Play Console's two keys (throw-away, made
/// at start), classic Play Integrity tokens (JWS `ES256` inside JWE `A256KW` + `A256GCM`, built with joserfc) for
/// any verdict, and a Firebase App Check JWKS with tokens signed by its RSA key.
///
/// ```swift
/// let fake = try await FakePlayIntegrity.start()                 // once per suite
/// let keys = try await fake.keys()
/// let token = try await fake.token(nonce: challenge, packageName: "com.example.app")
/// let appCheck = try await fake.appCheckToken(claims: ["sub": "1:123:android:abc", ...])
/// ```
/// `start` returns once the script printed its `PORT` line (an event, never a sleep); the process is killed by
/// ``stop()`` or when the value is released.
public final class FakePlayIntegrity: Sendable {
    /// Which key a token is made with instead of the Play Console's.
    public enum WrongKey: String, Sendable {
        /// Encrypted under another AES key.
        case decryption
        /// Signed by another P-256 key.
        case signature
    }

    /// The default verdict's `certificateSha256Digest` (base64url, as verdicts carry it).
    public let defaultCertificateDigest: String
    /// The App Check JWKS: `http://127.0.0.1:<port>/appcheck/jwks`.
    public let appCheckJWKSURL: String

    private let process: ScriptProcess
    private let control: ScriptControl
    private let keyPair: (decryption: String, verification: String)

    private init(
        process: ScriptProcess, control: ScriptControl, keys: (decryption: String, verification: String),
        digest: String
    ) {
        self.process = process
        self.control = control
        self.keyPair = keys
        self.defaultCertificateDigest = digest
        self.appCheckJWKSURL = control.baseURL + "/appcheck/jwks"
    }

    deinit {
        process.stop()
    }

    /// Starts the fake on a port the kernel picks and reads its keys.
    public static func start() async throws -> FakePlayIntegrity {
        let process = ScriptProcess()
        try await process.start(Self.scriptPath, port: 0, arguments: [])
        let control = ScriptControl(port: process.port)
        do {
            let answer = try await control.get("/keys")
            return FakePlayIntegrity(
                process: process, control: control,
                keys: (try Self.string(answer, "decryptionKey"), try Self.string(answer, "verificationKey")),
                digest: try Self.string(answer, "certificateDigest"))
        } catch {
            process.stop()
            throw error
        }
    }

    /// Kills the process.
    public func stop() {
        process.stop()
    }

    /// The Play Console's keys as it shows them (standard base64): the 32-byte response-decryption key and the
    /// DER SubjectPublicKeyInfo of the response-verification key.
    public func keys() -> (decryption: String, verification: String) {
        keyPair
    }

    /// A classic integrity token for `nonce` and `packageName`: a valid verdict (now, `PLAY_RECOGNIZED`,
    /// `MEETS_DEVICE_INTEGRITY`, ``defaultCertificateDigest``) with `payload` merged over it (objects deeply,
    /// other values replaced, `null` removes a member).
    public func token(
        nonce: String, packageName: String, payload: JSONObject = [:], wrongKey: WrongKey? = nil
    ) async throws -> String {
        var body: JSONObject = [
            "nonce": .string(nonce), "packageName": .string(packageName), "payload": .object(payload),
        ]
        if let wrongKey { body["wrongKey"] = .string(wrongKey.rawValue) }
        return try Self.string(try await control.post("/token", body), "token")
    }

    /// An App Check token: `claims` signed RS256 by the JWKS's key (header `kid`, `typ` JWT); `forged` signs with
    /// another RSA key under the same `kid`.
    public func appCheckToken(claims: JSONObject, forged: Bool = false) async throws -> String {
        try Self.string(
            try await control.post("/appcheck/sign", ["claims": .object(claims), "forged": .bool(forged)]), "token")
    }

    /// The App Check JWKS as JSON.
    public func appCheckJWKS() async throws -> JSONValue {
        try await control.get("/appcheck/jwks")
    }

    private static let scriptPath = ScriptProcess.scriptPath("fake_play_integrity.py", from: #filePath)

    private static func string(_ answer: JSONValue, _ name: String) throws -> String {
        guard let text = answer.objectValue?[name]?.stringValue else {
            throw ScriptControl.Failure(description: "the fake's answer has no string \(name)")
        }
        return text
    }
}
