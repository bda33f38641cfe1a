import Cryptography
import Foundation
import IdentityProvidersTesting
import StrictJSON
import Testing
import TokenServiceTesting

@testable import TokenService

/// A server whose `apple` provider is the fake Sign in with Apple (scripts/fake_apple.py): its keys, token and
/// revoke endpoints, a token encryption key file (mode 0600) in the fake's folder.
struct AppleHarness {
    let apple: FakeApple
    let server: TestServer
    let encryptionKey: [UInt8]

    /// The base64 key file `openssl rand -base64 32` would print, written with mode 0600.
    static func writeKeyFile(in directory: URL, key: [UInt8]) throws -> String {
        let path = directory.appending(path: "token-encryption.key").path
        FileManager.default.createFile(
            atPath: path, contents: Data((Data(key).base64EncodedString() + "\n").utf8),
            attributes: [.posixPermissions: 0o600])
        return path
    }

    /// Runs `body` with a fake Apple and a server configured for it, stopping both.
    static func run<T>(
        environment extra: [String: String] = [:], _ body: (AppleHarness) async throws -> T
    ) async throws -> T {
        let apple = try await FakeApple.start()
        defer { apple.stop() }
        let key = try SecureRandom.bytes(count: 32)
        var environment = apple.providersEnvironment()
        environment["TOKENVEND_IDENTITY_TOKEN_ENCRYPTION_KEY_FILE"] = try writeKeyFile(in: apple.directory, key: key)
        environment.merge(extra) { _, new in new }
        return try await withTestServer(environment: environment) { server in
            try await body(AppleHarness(apple: apple, server: server, encryptionKey: key))
        }
    }

    /// An Apple ID token for `subject` signed by the fake, with the SHA-256 of `nonce`, issued now.
    func idToken(subject: String, nonce: String, email: String? = nil) async throws -> String {
        let now = Int64(Date().timeIntervalSince1970)
        var claims: JSONObject = [
            "iss": .string(FakeApple.issuer), "aud": .string(apple.clientId), "sub": .string(subject),
            "iat": .integer(now), "exp": .integer(now + 600),
            "nonce": .string(try FakeIdentityProvider.hashedNonce(nonce)),
        ]
        if let email {
            claims["email"] = .string(email)
            claims["email_verified"] = "true"
        }
        return try await apple.sign(claims: claims)
    }

    /// `POST /auth/idtoken` with a server nonce, and `authorizationCode` when given.
    func signIn(subject: String, code: String?, email: String? = nil) async throws -> TestResponse {
        let nonce = try await server.serverNonce()
        let token = try await idToken(subject: subject, nonce: nonce, email: email)
        let codeMember = code.map { #","authorizationCode":"\#($0)""# } ?? ""
        return try await server.request(
            "POST", "/auth/idtoken",
            json: #"{"provider":"apple","idToken":"\#(token)","nonce":"\#(nonce)"\#(codeMember)}"#)
    }

    /// A notification as Apple posts it: `{"payload": JWS}` of `events` (type, sub, event_time in ms unless
    /// `seconds`), signed by the fake (`forged`: by another key).
    func notification(
        type: String, subject: String, eventTime: Date = Date(), seconds: Bool = false, jti: String = UUID().uuidString,
        audience: String? = nil, expiresIn: Int64 = 3_600, forged: Bool = false
    ) async throws -> String {
        let time = eventTime.timeIntervalSince1970
        let eventTime: JSONValue = .integer(seconds ? Int64(time) : Int64(time * 1_000))
        let events = JSONValue.object(["type": .string(type), "sub": .string(subject), "event_time": eventTime])
        let now = Int64(Date().timeIntervalSince1970)
        let claims: JSONObject = [
            "iss": .string(FakeApple.issuer), "aud": .string(audience ?? apple.clientId), "iat": .integer(now),
            "exp": .integer(now + expiresIn), "jti": .string(jti),
            "events": .string(String(decoding: events.serialized(), as: UTF8.self)),
        ]
        let jws = try await apple.sign(claims: claims, forged: forged)
        return #"{"payload":"\#(jws)"}"#
    }

    /// Posts `body` to `POST /auth/apple/notifications`.
    func post(_ body: String) async throws -> TestResponse {
        try await server.request("POST", "/auth/apple/notifications", json: body)
    }

    /// A new Apple subject.
    static func subject() -> String { "001234.\(UUID().uuidString.lowercased())" }
}
