import Foundation
import JWT
import Testing
import TokenService
import TokenServiceTesting

/// The verified-token cache seen from the wire: revocation and expiry win over whatever is cached.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct CachedTokenEndToEndTests {
    /// The key configurations the server is run with: a development HS512 key, one ES256 key, one EdDSA key.
    static let keyConfigurations: [[String: String]] = [[:], KeyFixtures.single(.es256), KeyFixtures.single(.edDSA)]

    private func cacheHits(_ server: TestServer) async throws -> Int {
        let text = try await server.request("GET", "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix("tokenvend_access_token_cache_hits_total ") }
        return Int(try #require(line?.split(separator: " ").last)) ?? -1
    }

    @Test(
        "a cached token of a revoked session or a disabled user gets 401 at once (another store's disable: within 200 ms on PostgreSQL)",
        arguments: keyConfigurations)
    func revocationBeatsCache(environment: [String: String]) async throws {
        try await withTestServer(environment: environment) { server in
            let login = try await server.signUp()
            let other = try await server.logIn(email: login.email)
            for _ in 0..<3 {
                #expect(try await server.request("GET", "/auth/me", headers: other.bearer).status == 200)
                #expect(try await server.request("POST", "/stream-token", headers: other.bearer).status == 200)
            }
            let hits = try await cacheHits(server)
            #expect(hits >= 4)
            let sessions = try await server.request("GET", "/auth/sessions", headers: login.bearer).body
            let list = try #require(try JSONSerialization.jsonObject(with: sessions) as? [[String: Any]])
            let otherID = try #require(list.first { ($0["current"] as? Bool) == false }?["id"] as? String)
            #expect(
                try await server.request("DELETE", "/auth/sessions/\(otherID)", headers: login.bearer).status == 204)
            #expect(try await server.request("GET", "/auth/me", headers: other.bearer).status == 401)
            #expect(try await server.request("POST", "/stream-token", headers: other.bearer).status == 401)
            #expect(try await cacheHits(server) > hits)

            #expect(try await server.request("GET", "/auth/me", headers: login.bearer).status == 200)
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            defer { accounts.close() }
            #expect(try await accounts.disable(email: login.email) == 1)
            // `accounts` is another store on the same database, as the CLI or another instance would be.
            let status = try await TestBackend.afterOtherStoreChange {
                try await server.request("GET", "/auth/me", headers: login.bearer).status
            } until: {
                $0 == 401
            }
            #expect(status == 401)
        }
    }

    @Test("a cached token past exp plus leeway gets 401, and within the leeway still 200", arguments: keyConfigurations)
    func expiryBeatsCache(environment: [String: String]) async throws {
        let clock = TestClock()
        try await withTestServer(environment: environment, now: clock.now) { server in
            let login = try await server.signUp()
            #expect(try await server.request("GET", "/auth/me", headers: login.bearer).status == 200)
            clock.advance(by: 900 + 20)
            #expect(try await server.request("GET", "/auth/me", headers: login.bearer).status == 200)
            let hits = try await cacheHits(server)
            #expect(hits >= 1)
            clock.advance(by: 11)
            let expired = try await server.request("GET", "/auth/me", headers: login.bearer)
            #expect(expired.status == 401)
            #expect(expired.errorCode == "invalid_token")
            #expect(try await cacheHits(server) == hits)
        }
    }

    @Test("a token tampered in one byte gets 401 even while the original is cached", arguments: keyConfigurations)
    func tamperedRefused(environment: [String: String]) async throws {
        try await withTestServer(environment: environment) { server in
            let login = try await server.signUp()
            #expect(try await server.request("GET", "/auth/me", headers: login.bearer).status == 200)
            var bytes = Array(login.accessToken.utf8)
            for index in [bytes.count - 3, bytes.count / 2] {
                let original = bytes[index]
                bytes[index] = original == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
                let tampered = String(decoding: bytes, as: UTF8.self)
                let answer = try await server.request(
                    "GET", "/auth/me", headers: ["Authorization": "Bearer \(tampered)"])
                #expect(answer.status == 401)
                bytes[index] = original
            }
        }
    }
}
