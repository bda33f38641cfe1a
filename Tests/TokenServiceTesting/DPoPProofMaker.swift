import AppIntegrityTesting
public import Foundation
import MailTesting
import StrictJSON

/// scripts/dpop_proof.py as a child process on 127.0.0.1: DPoP proofs (RFC 9449) signed with joserfc (the
/// `alg: none` and HS256 ones with PyJWT) by keys that live in that process, never by tokenvend's own code.
///
/// ```swift
/// let maker = try await DPoPProofMaker.start()                    // once per suite
/// let key = try await maker.newKey(alg: .es256)
/// let proof = try await maker.proof(keyID: key.keyID, method: "POST", url: "http://127.0.0.1:8080/auth/login")
/// ```
/// `start` returns once the script printed its `PORT` line (an event, never a sleep); the process is killed by
/// ``stop()`` or when the value is released.
public final class DPoPProofMaker: Sendable {
    /// A proof key's algorithm.
    public enum Algorithm: String, Sendable {
        /// P-256 with SHA-256.
        case es256 = "ES256"
        /// Ed25519.
        case edDSA = "EdDSA"
        /// RSA 2048, PKCS #1 v1.5 with SHA-256.
        case rs256 = "RS256"
    }

    /// One way to make a proof hostile.
    public enum Tamper: String, Sendable, CaseIterable {
        /// `alg: none` and an empty signature (PyJWT).
        case algNone = "alg_none"
        /// HS256 under a made-up secret (PyJWT).
        case hs256
        /// The header `jwk` carries the private key members.
        case privateJWK = "private_jwk"
        /// `typ: JWT` instead of `dpop+jwt`.
        case typ
        /// No header `jwk`.
        case noJWK = "no_jwk"
        /// The header `jwk` of another key than the one that signed.
        case otherKeyJWK = "other_key_jwk"
        /// One signature bit flipped.
        case signature
        /// No `jti` claim.
        case noJTI = "no_jti"
        /// No `iat` claim.
        case noIAT = "no_iat"
        /// The `ath` of another access token.
        case athOther = "ath_other"
        /// A padding claim: the proof is over 8 KiB.
        case large
    }

    /// What went wrong talking to the script, for the test's failure message.
    public struct Failure: Error, CustomStringConvertible {
        /// What the script answered.
        public let description: String
    }

    /// A key made by the script: its id there and its RFC 7638 SHA-256 thumbprint (base64url).
    public struct Key: Sendable, Equatable {
        /// The key's id in the script.
        public let keyID: String
        /// The RFC 7638 thumbprint the server binds sessions to (`cnf.jkt`).
        public let thumbprint: String
    }

    private let process: ScriptProcess
    private let control: ScriptControl

    private init(process: ScriptProcess, control: ScriptControl) {
        self.process = process
        self.control = control
    }

    deinit {
        process.stop()
    }

    /// Starts the script on a port the kernel picks.
    public static func start() async throws -> DPoPProofMaker {
        let process = ScriptProcess()
        try await process.start(scriptPath, port: 0, arguments: [])
        return DPoPProofMaker(process: process, control: ScriptControl(port: process.port))
    }

    /// Kills the process.
    public func stop() {
        process.stop()
    }

    /// A new key pair of `alg`, kept in the script.
    public func newKey(alg: Algorithm = .es256) async throws -> Key {
        let answer = try await control.post("/key", ["alg": .string(alg.rawValue)])
        return Key(keyID: try Self.string(answer, "keyId"), thumbprint: try Self.string(answer, "thumbprint"))
    }

    /// A proof by `keyID` for `method` and `url` (the `htu`, given whole): `ath` of `accessToken` when given,
    /// `nonce` when given, `iat` (default now), `jti` (default 32 random bytes), made hostile by `tamper`.
    public func proof(
        keyID: String, method: String, url: String, accessToken: String? = nil, nonce: String? = nil,
        iat: Date? = nil, jti: String? = nil, tamper: Tamper? = nil
    ) async throws -> String {
        var body: JSONObject = ["keyId": .string(keyID), "htm": .string(method), "htu": .string(url)]
        if let accessToken { body["accessToken"] = .string(accessToken) }
        if let nonce { body["nonce"] = .string(nonce) }
        if let iat { body["iat"] = .integer(Int64(iat.timeIntervalSince1970.rounded(.down))) }
        if let jti { body["jti"] = .string(jti) }
        if let tamper { body["tamper"] = .string(tamper.rawValue) }
        return try Self.string(try await control.post("/proof", body), "proof")
    }

    /// A proof by `key` (see ``proof(keyID:method:url:accessToken:nonce:iat:jti:tamper:)``).
    public func proof(
        _ key: Key, method: String, url: String, accessToken: String? = nil, nonce: String? = nil,
        iat: Date? = nil, jti: String? = nil, tamper: Tamper? = nil
    ) async throws -> String {
        try await proof(
            keyID: key.keyID, method: method, url: url, accessToken: accessToken, nonce: nonce, iat: iat, jti: jti,
            tamper: tamper)
    }

    private static let scriptPath = ScriptProcess.scriptPath("dpop_proof.py", from: #filePath)

    private static func string(_ answer: JSONValue, _ name: String) throws -> String {
        guard let text = answer.objectValue?[name]?.stringValue else {
            throw Failure(description: "dpop_proof.py's answer has no string \(name)")
        }
        return text
    }
}
