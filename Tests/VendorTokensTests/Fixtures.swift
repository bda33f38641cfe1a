import Cryptography
import Foundation
import JWT
import StrictJSON
import Testing
import VendorTokens

/// Shared inputs: secrets long enough for every HS algorithm, a fixed clock and `jti`, callers, and helpers that
/// parse configuration text the way TokenService does (StrictJSON) and take tokens apart.
enum Fixture {
    /// 64 ASCII bytes: enough for HS512.
    static let secret64 = "s3cr3t-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFGHIJKLMNOPQRS"
    /// 32 ASCII bytes: enough for HS256 only.
    static let secret32 = "0123456789abcdefghijklmnopqrstuv"
    /// Another 64-byte secret, for a second key.
    static let otherSecret64 = "another-secret-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFGHIJK"
    static let now: Int64 = 1_700_000_000
    static let jti = "AAECAwQFBgcICQoLDA0ODw"
    static let randomID: @Sendable () -> String = { jti }
    static let accountSid = "AC0123456789abcdef0123456789abcdef"
    static let apiKeySid = "SKfedcba9876543210fedcba9876543210"

    /// RFC 8037 A.1: an Ed25519 private JWK (EdDSA signatures are deterministic).
    static let ed25519JWK = """
        {"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A",\
        "x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}
        """
    /// RFC 7515 A.3.1: a P-256 private JWK.
    static let p256JWK = """
        {"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",\
        "y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}
        """

    static let alice = VendorCaller(
        userID: "u-alice", sessionID: "s-1", email: "alice@example.com", role: "user", tenantID: "t-1",
        customerIDs: ["registered": "alice@example.com", "cookie": "c-42"])

    /// A caller like `alice` with some fields changed.
    static func caller(
        role: String = "user", email: String? = "alice@example.com", tenantID: String? = "t-1",
        customerIDs: [String: String] = ["registered": "alice@example.com", "cookie": "c-42"]
    ) -> VendorCaller {
        VendorCaller(
            userID: "u-alice", sessionID: "s-1", email: email, role: role, tenantID: tenantID,
            customerIDs: customerIDs)
    }

    /// Parses JSON text strictly, as the configuration loader does.
    static func object(_ text: String) throws -> JSONObject {
        try #require(try JSONValue.parse(Array(text.utf8)).objectValue)
    }

    /// Parses `entry` (JSON text) under `name`.
    static func entry(_ text: String, name: String = "vendor") throws -> VendorEntry {
        try VendorConfiguration.parse(name: name, entry: object(text), randomID: randomID)
    }

    /// Parses `entry` (JSON text) and requires a template.
    static func template(_ text: String, name: String = "vendor") throws -> VendorTemplate {
        guard case .template(let template) = try entry(text, name: name) else {
            Issue.record("expected a template")
            throw VendorTemplateError(path: "", reason: "not a template")
        }
        return template
    }

    /// The error `parse` throws for `entry`.
    static func startupError(_ text: String, name: String = "vendor") throws -> VendorTemplateError {
        let entry = try object(text)
        return try #require(throws: VendorTemplateError.self) {
            try VendorConfiguration.parse(name: name, entry: entry, randomID: randomID)
        }
    }

    /// The error `issue` throws.
    static func requestError(
        _ template: VendorTemplate, body: String = "{}", caller: VendorCaller = alice
    ) throws -> VendorRequestError {
        let body = try object(body)
        return try #require(throws: VendorRequestError.self) {
            try template.issue(body: body, caller: caller, now: now)
        }
    }

    /// Issues with `body` (JSON text) at `now`.
    static func issue(
        _ template: VendorTemplate, body: String = "{}", caller: VendorCaller = alice
    ) throws -> VendedJWT {
        try template.issue(body: object(body), caller: caller, now: now)
    }

    /// The decoded header and payload segments of a compact token, as text (byte for byte).
    static func segments(_ token: String) throws -> (header: String, payload: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let header = try #require(Base64URL.decode(String(parts[0])))
        let payload = try #require(Base64URL.decode(String(parts[1])))
        return (String(decoding: header, as: UTF8.self), String(decoding: payload, as: UTF8.self))
    }

    /// Verifies `token` with the template's key set at the fixed clock.
    @discardableResult
    static func verify(
        _ token: String, with template: VendorTemplate, requireKeyID: Bool = true
    ) throws -> JWTClaims {
        let keys = try #require(template.keySet)
        return try keys.verify(
            token,
            options: VerificationOptions(now: Date(timeIntervalSince1970: Double(now)), requireKeyID: requireKeyID))
    }

    /// Verifies `token` with `keySet` at the fixed clock, `kid` not required.
    @discardableResult
    static func verify(_ token: String, keySet: JWTKeySet) throws -> JWTClaims {
        try keySet.verify(
            token, options: VerificationOptions(now: Date(timeIntervalSince1970: Double(now)), requireKeyID: false))
    }

    /// The token an independent signer makes for exactly these header members and payload bytes.
    static func expectedToken(key: JWTKey, header: JWTHeader, payload: String) throws -> String {
        try JWTSigner(key: key, header: header).sign(payload: Array(payload.utf8))
    }
}

/// Key sets cut down from a template's ring.
enum JWTKeySetFixture {
    /// A verify-only set holding just the key `kid` of `keys`.
    static func only(_ kid: String, of keys: JWTKeySet) throws -> JWTKeySet {
        try JWTKeySet(keys: [#require(keys.key(for: kid))], signingKID: nil)
    }
}
