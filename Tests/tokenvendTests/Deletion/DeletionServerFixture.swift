import Cryptography
import Foundation
import IdentityProvidersTesting
import PostgresTesting
import StrictJSON
import Testing
import TokenClientTesting
import TokenServiceTesting

/// A folder, a store (SQLite in the folder, or a fresh PostgreSQL database under `TOKENVEND_TEST_BACKEND=postgres`
/// or when asked), optionally the fake Sign in with Apple (scripts/fake_apple.py) with Apple's REST API configured
/// on it, and the configuration of `tokenvend serve` processes on them. Email is off. Removes the folder and drops
/// the database when released.
final class DeletionServerFixture {
    static let password = "deletion process passphrase 4711"

    let folder: TemporaryFolder
    /// The PostgreSQL database, when the store is one.
    let database: String?
    /// The fake Apple, when asked for.
    let apple: FakeApple?

    init(postgres: Bool = TestBackend.current == .postgres, apple: Bool = false) async throws {
        folder = try TemporaryFolder()
        database = postgres ? try TestPostgres.createDatabase() : nil
        self.apple = apple ? try await FakeApple.start() : nil
    }

    deinit {
        apple?.stop()
        if let database { TestPostgres.dropDatabase(database) }
        folder.remove()
    }

    /// The configuration: the store, fixed keys (a shared store refuses generated ones), cheap Argon2id, email off,
    /// and, with the fake Apple, the `apple` provider on it with the REST members and a token encryption key.
    func configuration() throws -> [String: Any] {
        let store: [String: Any] =
            if let database { ["url": try TestPostgres.url(database: database)] } else {
                ["path": folder.url.appending(path: "data/tokenvend.sqlite").path]
            }
        var configuration: [String: Any] = [
            "database": store,
            "accessToken": ["keys": [["kid": "at-1", "secret": EmailServerFixture.accessKey]]],
            "refreshToken": ["secret": EmailServerFixture.refreshSecret],
            "password": ["timeCost": 1, "memoryCost": 8192],
            "rateLimit": ["requestsPerAddressPerMinute": 100_000],
            "email": ["transport": "off"],
            "log": ["format": "json", "level": "info"],
        ]
        if let apple {
            let keyFile = folder.url.appending(path: "token-encryption.key")
            if !FileManager.default.fileExists(atPath: keyFile.path) {
                let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() + "\n"
                let written = FileManager.default.createFile(
                    atPath: keyFile.path, contents: Data(key.utf8), attributes: [.posixPermissions: 0o600])
                try #require(written)
            }
            configuration["identity"] = ["tokenEncryptionKeyFile": keyFile.path]
            configuration["identityProviders"] = [
                "apple": [
                    "preset": "apple", "audiences": [apple.clientId], "jwksURL": "\(apple.baseURL)/auth/keys",
                    "teamId": apple.teamId, "keyId": apple.keyId, "privateKeyFile": apple.privateKeyFile,
                    "clientId": apple.clientId, "tokenURL": "\(apple.baseURL)/auth/token",
                    "revokeURL": "\(apple.baseURL)/auth/revoke",
                ]
            ]
        }
        return configuration
    }

    /// Signs in with Apple on `client` as `subject`, sending `authorizationCode` (the fake redeems it for the refresh
    /// token `rt-<code>`): a server nonce, an ID token the fake signs with its hash, then `POST /auth/idtoken`.
    func signInWithApple(_ client: ServeClient, subject: String, authorizationCode: String) async throws
        -> ServeClient.Answer
    {
        let apple = try #require(apple)
        let issued = try await client.send("POST", "/auth/nonce")
        let nonce = try #require(issued.object["nonce"] as? String)
        let hash = try SHA256.hash(Array(nonce.utf8)).map { String(format: "%02x", $0) }.joined()
        let now = Int64(Date().timeIntervalSince1970)
        let idToken = try await apple.sign(
            claims: JSONObject([
                .init(name: "iss", value: .string(FakeApple.issuer)),
                .init(name: "aud", value: .string(apple.clientId)),
                .init(name: "sub", value: .string(subject)), .init(name: "iat", value: .integer(now)),
                .init(name: "exp", value: .integer(now + 600)), .init(name: "nonce", value: .string(hash)),
            ]))
        return try await client.post(
            "/auth/idtoken",
            ["provider": "apple", "idToken": idToken, "nonce": nonce, "authorizationCode": authorizationCode])
    }

    /// `tokenvend email outbox` on the fixture's store: one line per row left.
    func outboxLines() async throws -> [Substring] {
        let environment: [String: String] =
            if let database { ["TOKENVEND_DATABASE_URL": try TestPostgres.url(database: database)] } else {
                ["TOKENVEND_DATABASE_PATH": folder.url.appending(path: "data/tokenvend.sqlite").path]
            }
        let run = try await KeyCommandTests.tokenvend(["email", "outbox"], environment: environment, in: folder.url)
        #expect(run.status == 0, "\(run.error)")
        return run.output.split(separator: "\n")
    }
}

extension ServeClient {
    /// `DELETE /auth/account` with `{"password"}`, or an empty body without one.
    func deleteAccount(_ accessToken: String, password: String? = nil) async throws -> Answer {
        let body = try password.map {
            String(decoding: try JSONSerialization.data(withJSONObject: ["password": $0]), as: UTF8.self)
        }
        return try await send("DELETE", "/auth/account", json: body, bearer: accessToken)
    }
}
