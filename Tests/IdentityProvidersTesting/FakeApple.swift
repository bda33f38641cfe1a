import Cryptography
public import Foundation
import MailTesting
public import OutboundHTTP
public import StrictJSON

/// scripts/fake_apple.py as a child process on 127.0.0.1: Sign in with Apple's token and revoke endpoints (which
/// check tokenvend's ES256 client secret with PyJWT), a JWKS, and ID tokens and notifications signed by its RSA
/// key.
///
/// ```swift
/// let apple = try await FakeApple.start()
/// let environment = apple.environment(keyFile: …)          // identityProviders.apple with the REST members
/// let token = try await apple.sign(claims: [...])           // an ID token or a notification's JWS
/// try await apple.failNextRevocations(status: 503, count: 2)
/// let revocation = try await apple.nextRevocation()         // what the revoke endpoint received
/// apple.stop(); try await apple.start(port: apple.port)     // down, then up again on the same port
/// ```
/// It makes its own `.p8` (an EC P-256 key, PKCS#8 PEM, mode 0600) in a temporary folder and hands the script
/// the public half. `start` returns once the script printed its `PORT` line (an event, never a sleep); the
/// process is killed when the value is released.
public final class FakeApple: Sendable {
    /// Why the fake failed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// One call the revoke endpoint received.
    public struct Revocation: Sendable, Decodable, Equatable {
        /// The `token` form member.
        public var token: String?
        /// The `client_id` form member.
        public var clientId: String?
        /// The `token_type_hint` form member.
        public var tokenTypeHint: String?
        /// Whether the client secret checked out (PyJWT: ES256, kid, iss, sub, aud, exp).
        public var secretValid: Bool
        /// The status the fake answered.
        public var status: Int

        enum CodingKeys: String, CodingKey {
            case token, status
            case clientId = "client_id"
            case tokenTypeHint = "token_type_hint"
            case secretValid = "secret_valid"
        }
    }

    /// The issuer of Apple's tokens.
    public static let issuer = "https://appleid.apple.com"

    /// The app's bundle id: `clientId`, and the audience of ID tokens and notifications.
    public let clientId: String
    /// The Apple Developer team id.
    public let teamId: String
    /// The `.p8` key's id.
    public let keyId: String
    /// The folder holding the `.p8` and its public half.
    public let directory: URL
    /// The `.p8` file (mode 0600).
    public var privateKeyFile: String { directory.appending(path: "AuthKey.p8").path }
    private var publicKeyFile: String { directory.appending(path: "AuthKey.pub.pem").path }

    private let process = ScriptProcess()

    private init(clientId: String, teamId: String, keyId: String) throws {
        self.clientId = clientId
        self.teamId = teamId
        self.keyId = keyId
        directory = FileManager.default.temporaryDirectory.appending(path: "fake-apple-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = try AsymmetricKey.generate(.ecdsaP256SHA256)
        FileManager.default.createFile(
            atPath: privateKeyFile, contents: Data(try key.privateKeyPEM().utf8), attributes: [.posixPermissions: 0o600]
        )
        try Data(try key.publicKeyPEM().utf8).write(to: URL(fileURLWithPath: publicKeyFile))
    }

    deinit {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts a fake on a port the kernel picks (or `port`).
    public static func start(
        clientId: String = "com.example.app", teamId: String = "TEAM123456", keyId: String = "KEY1234567",
        port: Int = 0
    ) async throws -> FakeApple {
        let apple = try FakeApple(clientId: clientId, teamId: teamId, keyId: keyId)
        try await apple.start(port: port)
        return apple
    }

    /// The port it listens on (the last one, after ``stop()``).
    public var port: Int { process.port }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The members of an `apple` preset entry whose keys, token and revoke endpoints are this fake's.
    public var providerMembers: String {
        #""preset":"apple","audiences":["\#(clientId)"],"jwksURL":"\#(baseURL)/auth/keys","#
            + #""teamId":"\#(teamId)","keyId":"\#(keyId)","privateKeyFile":"\#(privateKeyFile)","#
            + #""clientId":"\#(clientId)","tokenURL":"\#(baseURL)/auth/token","revokeURL":"\#(baseURL)/auth/revoke""#
    }

    /// `TOKENVEND_IDENTITY_PROVIDERS` with one provider, `name`, on this fake.
    public func providersEnvironment(name: String = "apple") -> [String: String] {
        ["TOKENVEND_IDENTITY_PROVIDERS": #"{"\#(name)":{\#(providerMembers)}}"#]
    }

    /// Starts the process again (after ``stop()``) on `port` (0: any), and waits for its `PORT` line.
    public func start(port: Int) async throws {
        try await process.start(
            Self.scriptPath, port: port,
            arguments: [
                "--client-id", clientId, "--team-id", teamId, "--key-id", keyId, "--p8-public", publicKeyFile,
            ])
    }

    /// Kills the process; the port stays known for ``start(port:)``.
    public func stop() {
        process.stop()
    }

    /// The next call the revoke endpoint received (each is printed once, in order).
    public func nextRevocation(within deadline: Duration = .seconds(30)) async throws -> Revocation {
        guard let lines = process.lines else { throw Failure(description: "the fake is stopped") }
        let line = try await lines.next(within: deadline, what: "a revoke call")
        return try JSONDecoder().decode(Revocation.self, from: Data(line.utf8))
    }

    /// Every revoke call so far (`GET /_control/revocations`).
    public func revocations() async throws -> [Revocation] {
        let body = try await control("GET", "/_control/revocations", body: nil)
        return try JSONDecoder().decode([Revocation].self, from: Data(body))
    }

    /// The next `count` revoke calls answer `status`.
    public func failNextRevocations(status: Int, count: Int) async throws {
        _ = try await control(
            "POST", "/_control/fail",
            body: .object(["status": .integer(Int64(status)), "count": .integer(Int64(count))]))
    }

    /// The JWS (RS256, the fake's kid) of `claims`; `forged`: signed by another key under the same kid.
    public func sign(claims: JSONObject, forged: Bool = false) async throws -> String {
        let body = try await control(
            "POST", "/_control/sign", body: .object(["claims": .object(claims), "forged": .bool(forged)]))
        return String(decoding: body, as: UTF8.self)
    }

    private func control(_ method: String, _ path: String, body: JSONValue?) async throws -> [UInt8] {
        let request = OutboundHTTPRequest(
            method: OutboundHTTPMethod(method), url: try OutboundURL(baseURL + path),
            headers: body == nil ? [] : [("Content-Type", "application/json")], body: body?.serialized())
        let response = try await OutboundHTTPClient(deadline: .seconds(30)).send(request)
        guard response.status == 200 else { throw Failure(description: "\(path) answered \(response.status)") }
        return response.body
    }

    /// scripts/fake_apple.py, found from this file's path (Tests/IdentityProvidersTesting/ → the package root).
    static var scriptPath: String { ScriptProcess.scriptPath("fake_apple.py", from: #filePath) }
}
