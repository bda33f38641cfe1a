import AppIntegrity
import AppIntegrityTesting
import Cryptography
import Foundation
import PostgresTesting
import Testing
import TokenService
import TokenServiceTesting

/// `/integrity/challenge` and `/integrity/apple/*` on a real server with the fake App Attest authority of
/// scripts/fake_app_attest.py (issue 34): attest once, assert later, and spend the integrity token on a vend at
/// `require`. One fake for the suite.
@Suite(.tags(.integration), .timeLimit(.minutes(1)), .serialized)
struct AppAttestExchangeTests {
    static let appID = "TEAMID1234.com.example.app"
    static let fake = Task { try await FakeAppAttest.start() }
    static let vendors = #"""
        {"chat": {"preset": "stream-chat", "apiKey": "chat-key", "apiSecret": "app-attest-exchange-secret-0123456789abcdef"}}
        """#

    /// The server's settings: App Attest trusting the fake's root, `require` on vend.
    static func environment(folder: URL, extra: [String: String] = [:]) async throws -> [String: String] {
        let root = folder.appending(path: "root.pem")
        try await fake.value.rootPEM.write(to: root, atomically: true, encoding: .utf8)
        return [
            "TOKENVEND_VENDORS": vendors,
            "TOKENVEND_INTEGRITY_APPLE_APP_IDS": #"["\#(appID)"]"#,
            "TOKENVEND_INTEGRITY_APPLE_ROOT_CERTIFICATE_FILE": root.path,
            "TOKENVEND_INTEGRITY_ROUTES_VEND": "require",
        ].merging(extra) { $1 }
    }

    static func withServer(
        extra: [String: String] = [:], mode: TestServer.Mode = .router, _ body: (TestServer) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "attest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withTestServer(mode: mode, environment: try await environment(folder: folder, extra: extra)) {
            try await body($0)
        }
    }

    static func challenge(_ server: TestServer) async throws -> (text: String, hash: [UInt8]) {
        let answer = try await server.request("POST", "/integrity/challenge")
        #expect(answer.status == 200)
        let object = try answer.object()
        #expect(object["expiresIn"] as? Int == 300)
        let text = try #require(object["challenge"] as? String)
        return (text, try SHA256.hash(Array(text.utf8)))
    }

    /// Attests a new key; returns its id, handle and the integrity token.
    static func attest(_ server: TestServer) async throws -> (keyID: String, handle: String, token: String) {
        let challenge = try await challenge(server)
        let (keyID, attestation, handle) = try await fake.value.attest(appID: appID, clientDataHash: challenge.hash)
        let answer = try await server.request(
            "POST", "/integrity/apple/attest",
            json: #"{"keyId":"\#(keyID)","attestation":"\#(attestation)","challenge":"\#(challenge.text)"}"#)
        #expect(answer.status == 200, "\(answer.text)")
        return (keyID, handle, try #require(try answer.object()["integrityToken"] as? String))
    }

    static func assertion(
        _ server: TestServer, keyID: String, handle: String, counter: UInt32
    ) async throws -> TestResponse {
        let challenge = try await challenge(server)
        let assertion = try await fake.value.assert(
            handle: handle, appID: appID, clientDataHash: challenge.hash, counter: counter)
        return try await server.request(
            "POST", "/integrity/apple/assert",
            json: #"{"keyId":"\#(keyID)","assertion":"\#(assertion)","challenge":"\#(challenge.text)"}"#)
    }

    static func part(_ token: String, _ index: Int) throws -> [String: Any] {
        var text = String(token.split(separator: ".")[index])
        text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try #require(Data(base64Encoded: text))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("an attested app gets an integrity token that a vend at require accepts; the token is no access token")
    func attestThenVend() async throws {
        try await Self.withServer { server in
            let (keyID, _, token) = try await Self.attest(server)
            #expect(try Self.part(token, 0)["typ"] as? String == "integrity+jwt")
            let claims = try Self.part(token, 1)
            #expect(claims["sub"] as? String == "apple:\(keyID)")
            #expect(claims["platform"] as? String == "apple" && claims["appId"] as? String == Self.appID)
            #expect(claims["email"] == nil && claims["sid"] == nil)
            let user = try await server.signUp()
            let vend = try await server.request(
                "POST", "/vend/chat", headers: user.bearer.merging(["X-App-Integrity": token]) { $1 })
            #expect(vend.status == 200)
            // An integrity token is not an access token.
            let asBearer = try await server.request(
                "POST", "/vend/chat", headers: ["Authorization": "Bearer \(token)", "X-App-Integrity": token])
            #expect(asBearer.status == 401 && asBearer.errorCode == "invalid_token")
            #expect(server.server.metrics.integrity.issued(.appleAttest) == 1)
            #expect(server.server.metrics.integrity.checks(.vend) == 2)
        }
    }

    @Test("a challenge is used once, even by a failed attestation; a key is attested once")
    func challengeAndKeyOnce() async throws {
        try await Self.withServer { server in
            let challenge = try await Self.challenge(server)
            let (keyID, attestation, handle) = try await Self.fake.value.attest(
                appID: Self.appID, clientDataHash: challenge.hash)
            let body = #"{"keyId":"\#(keyID)","attestation":"\#(attestation)","challenge":"\#(challenge.text)"}"#
            #expect(try await server.request("POST", "/integrity/apple/attest", json: body).status == 200)
            let again = try await server.request("POST", "/integrity/apple/attest", json: body)
            #expect(again.status == 401 && again.errorCode == "integrity_invalid")
            #expect(server.server.metrics.integrity.checks(.attest, failed: .challenge) == 1)
            // The same key attested again under a fresh challenge.
            let fresh = try await Self.challenge(server)
            let (_, second, _) = try await Self.fake.value.attest(
                appID: Self.appID, clientDataHash: fresh.hash, handle: handle)
            let twice = try await server.request(
                "POST", "/integrity/apple/attest",
                json: #"{"keyId":"\#(keyID)","attestation":"\#(second)","challenge":"\#(fresh.text)"}"#)
            #expect(twice.status == 401)
            #expect(server.server.metrics.integrity.checks(.attest, failed: .keyExists) == 1)
            // A tampered attestation uses its challenge up too.
            let third = try await Self.challenge(server)
            let (otherKey, tampered, _) = try await Self.fake.value.attest(
                appID: Self.appID, clientDataHash: third.hash, tamper: .otherRoot)
            let refused = try await server.request(
                "POST", "/integrity/apple/attest",
                json: #"{"keyId":"\#(otherKey)","attestation":"\#(tampered)","challenge":"\#(third.text)"}"#)
            #expect(refused.status == 401 && refused.text == again.text)
            #expect(server.server.metrics.integrity.checks(.attest, failed: .certificate) == 1)
            let untampered = try await Self.fake.value.attest(appID: Self.appID, clientDataHash: third.hash)
            let reuse = try await server.request(
                "POST", "/integrity/apple/attest",
                json:
                    #"{"keyId":"\#(untampered.keyID)","attestation":"\#(untampered.attestation)","challenge":"\#(third.text)"}"#
            )
            #expect(reuse.status == 401)
        }
    }

    @Test("assertions renew the token while their counter grows; a replayed or reordered counter is refused")
    func assertionCounter() async throws {
        try await Self.withServer { server in
            let (keyID, handle, _) = try await Self.attest(server)
            let first = try await Self.assertion(server, keyID: keyID, handle: handle, counter: 1)
            #expect(first.status == 200)
            let token = try #require(try first.object()["integrityToken"] as? String)
            #expect(try Self.part(token, 1)["sub"] as? String == "apple:\(keyID)")
            let replay = try await Self.assertion(server, keyID: keyID, handle: handle, counter: 1)
            #expect(replay.status == 401 && replay.errorCode == "integrity_invalid")
            #expect(try await Self.assertion(server, keyID: keyID, handle: handle, counter: 5).status == 200)
            let reordered = try await Self.assertion(server, keyID: keyID, handle: handle, counter: 3)
            #expect(reordered.status == 401)
            #expect(server.server.metrics.integrity.checks(.assert, failed: .counter) == 2)
            let unknown = try await Self.assertion(
                server, keyID: Data(repeating: 7, count: 32).base64EncodedString(), handle: handle, counter: 9)
            #expect(unknown.status == 401)
            #expect(server.server.metrics.integrity.checks(.assert, failed: .unknownKey) == 1)
        }
    }

    @Test("malformed bodies are 400, never 500; an unconfigured platform is 404")
    func malformedInput() async throws {
        try await Self.withServer { server in
            let challenge = try await Self.challenge(server)
            let key = Data(repeating: 1, count: 32).base64EncodedString()
            let bodies = [
                #"{"keyId":"\#(key)","attestation":"!!!","challenge":"\#(challenge.text)"}"#,
                #"{"keyId":"not base64","attestation":"AAAA","challenge":"\#(challenge.text)"}"#,
                #"{"keyId":"\#(key.dropLast())","attestation":"AAAA","challenge":"\#(challenge.text)"}"#,
                #"{"keyId":"\#(key)","attestation":"\#(Data(repeating: 0, count: 17_000).base64EncodedString())","challenge":"x"}"#,
                #"{"keyId":"\#(key)","attestation":"AAAA","challenge":"\#(challenge.text)","extra":1}"#,
                #"{"keyId":1,"attestation":"AAAA","challenge":"\#(challenge.text)"}"#,
                #"["#,
            ]
            for body in bodies {
                let answer = try await server.request("POST", "/integrity/apple/attest", json: body)
                #expect(answer.status == 400 && answer.errorCode == "invalid_request", "\(body.prefix(60))")
            }
            // Garbage CBOR that decodes from base64: the challenge is spent, the answer is 400.
            let garbage = try await server.request(
                "POST", "/integrity/apple/attest",
                json:
                    #"{"keyId":"\#(key)","attestation":"\#(Data([0xff, 0x00, 0x01]).base64EncodedString())","challenge":"\#(challenge.text)"}"#
            )
            #expect(garbage.status == 400)
            let android = try await server.request(
                "POST", "/integrity/android", json: #"{"integrityToken":"a.b.c.d.e","challenge":"x"}"#)
            #expect(android.status == 404)
        }
        try await withTestServer(mode: .router) { server in
            let challenge = try await server.request("POST", "/integrity/challenge")
            let assert = try await server.request("POST", "/integrity/apple/assert", json: "{}")
            #expect(challenge.status == 404 && assert.status == 404)
        }
    }

    @Test("the challenge cap answers 503 until challenges are used")
    func challengeCap() async throws {
        try await Self.withServer(extra: ["TOKENVEND_INTEGRITY_MAX_PENDING_CHALLENGES": "2"]) { server in
            _ = try await Self.challenge(server)
            _ = try await Self.challenge(server)
            let capped = try await server.request("POST", "/integrity/challenge")
            #expect(capped.status == 503 && capped.errorCode == "unavailable")
            #expect(capped.headers["retry-after"] != nil)
        }
    }

    @Test(
        "two instances on one PostgreSQL database share challenges and counters",
        .enabled(if: TestPostgres.isConfigured))
    func twoInstancesShareState() async throws {
        let database = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(database) }
        let folder = FileManager.default.temporaryDirectory.appending(path: "attest-pair-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = try await Self.environment(
            folder: folder,
            extra: [
                "TOKENVEND_DATABASE_URL": try TestPostgres.url(database: database),
                "TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"pair-1","secret":"\#(String(repeating: "k", count: 64))"}]"#,
                "TOKENVEND_REFRESH_TOKEN_SECRET": String(repeating: "r", count: 64),
            ])
        try await withTestServer(mode: .router, environment: environment) { a in
            try await withTestServer(mode: .router, environment: environment) { b in
                let (keyID, handle, token) = try await Self.attest(a)
                // B accepts A's integrity token (same keys) and knows A's key.
                let user = try await b.signUp()
                let vend = try await b.request(
                    "POST", "/vend/chat", headers: user.bearer.merging(["X-App-Integrity": token]) { $1 })
                #expect(vend.status == 200)
                // A challenge issued by A is used once, at B.
                let challenge = try await Self.challenge(a)
                let assertion = try await Self.fake.value.assert(
                    handle: handle, appID: Self.appID, clientDataHash: challenge.hash, counter: 2)
                let body = #"{"keyId":"\#(keyID)","assertion":"\#(assertion)","challenge":"\#(challenge.text)"}"#
                let atB = try await b.request("POST", "/integrity/apple/assert", json: body)
                #expect(atB.status == 200)
                let atA = try await a.request("POST", "/integrity/apple/assert", json: body)
                #expect(atA.status == 401)
                // The counter B advanced refuses a lower one at A under a fresh challenge.
                let replay = try await Self.assertion(a, keyID: keyID, handle: handle, counter: 2)
                #expect(replay.status == 401)
                #expect(a.server.metrics.integrity.checks(.assert, failed: .counter) == 1)
            }
        }
    }
}
