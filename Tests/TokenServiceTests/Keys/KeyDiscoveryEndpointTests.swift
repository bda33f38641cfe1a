import Cryptography
import Foundation
import JWT
import Testing
import TokenService
import TokenServiceTesting

/// `GET|HEAD /.well-known/jwks.json` and `GET /.well-known/openid-configuration` on the wire, with odd headers.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct KeyDiscoveryEndpointTests {
    private let path = "/.well-known/jwks.json"

    @Test("the key set answers 200 JSON without authentication, with a strong ETag and Cache-Control max-age=600")
    func plainGet() async throws {
        try await withTestServer { server in
            let answer = try await FreshConnection.request(port: server.port, "GET", path)
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "application/json")
            #expect(answer.headers["cache-control"] == "public, max-age=600")
            let tag = try #require(answer.headers["etag"])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/") && tag.count > 10)
            let object = try answer.object()
            #expect((object["keys"] as? [Any])?.isEmpty == true)  // HS512 keys are never published
            let again = try await FreshConnection.request(port: server.port, "GET", path)
            #expect(again.headers["etag"] == tag && again.body == answer.body)
        }
    }

    @Test("the ETag is the quoted base64url of the first 18 bytes of the body's SHA-256, and changes with the keys")
    func entityTagIsADigest() async throws {
        var tags: [String] = []
        for environment in [[:], KeyFixtures.single(.es256), KeyFixtures.single(.edDSA)] {
            try await withTestServer(environment: environment) { server in
                let answer = try await FreshConnection.request(port: server.port, "GET", path)
                let digest = try SHA256.hash(Array(answer.body))
                let tag = try #require(answer.headers["etag"])
                #expect(tag == "\"" + Base64URL.encode(Array(digest.prefix(18))) + "\"")
                tags.append(tag)
            }
        }
        #expect(Set(tags).count == 3)
    }

    @Test("HEAD gives the same head without a body; a matching If-None-Match gives 304 with ETag and no body")
    func headAndConditional() async throws {
        try await withTestServer(environment: ["TOKENVEND_JWKS_MAX_AGE_SECONDS": "60"]) { server in
            let full = try await FreshConnection.request(port: server.port, "GET", path)
            let tag = try #require(full.headers["etag"])
            let head = try await FreshConnection.request(port: server.port, "HEAD", path)
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.headers["etag"] == tag && head.headers["cache-control"] == "public, max-age=60")
            #expect(head.headers["content-length"] == String(full.body.count))
            for condition in [tag, "W/\(tag)", #""other", \#(tag)"#, "*"] {
                for method in ["GET", "HEAD"] {
                    let answer = try await FreshConnection.request(
                        port: server.port, method, path, headers: [("If-None-Match", condition)])
                    #expect(answer.status == 304, "\(method) If-None-Match: \(condition)")
                    #expect(answer.body.isEmpty)
                    #expect(answer.headers["etag"] == tag)
                    #expect(answer.headers["cache-control"] == "public, max-age=60")
                }
            }
            let split = try await FreshConnection.request(
                port: server.port, "GET", path, headers: [("If-None-Match", #""a""#), ("If-None-Match", tag)])
            #expect(split.status == 304)
        }
    }

    @Test("a stale tag, a garbage If-None-Match, an odd Accept or a query get the full set; huge headers get 431")
    func oddHeaders() async throws {
        try await withTestServer { server in
            let full = try await FreshConnection.request(port: server.port, "GET", path)
            for (name, value) in [
                ("If-None-Match", #""stale""#), ("If-None-Match", "garbage, ;;"), ("If-None-Match", "\"open"),
                ("If-None-Match", ""), ("Accept", "text/html"), ("Accept", "application/jwk-set+json;q=0.1, */*"),
                ("If-Modified-Since", "yesterday"),
            ] {
                let answer = try await FreshConnection.request(port: server.port, "GET", path, headers: [(name, value)])
                #expect(answer.status == 200, "\(name): \(value)")
                #expect(answer.body == full.body)
            }
            // A control character in a field is refused by the parser, for every route.
            let control = try await FreshConnection.request(
                port: server.port, "GET", path, headers: [("If-None-Match", "\"a\u{01}\"")])
            #expect(control.status == 400)
            let query = try await FreshConnection.request(port: server.port, "GET", path + "?x=1")
            #expect(query.status == 200 && query.body == full.body)
            let huge = try await FreshConnection.request(
                port: server.port, "GET", path, headers: [("If-None-Match", String(repeating: "\"a\",", count: 5_000))])
            #expect(huge.status == 431)
            let post = try await FreshConnection.request(port: server.port, "POST", path, json: "{}")
            #expect(post.status == 405)
            #expect(post.headers["allow"]?.contains("GET") == true)
        }
    }

    @Test("openid-configuration is 404 unless the issuer is an https URL, then names the jwks_uri under it")
    func openIDConfiguration() async throws {
        try await withTestServer { server in
            let missing = try await FreshConnection.request(
                port: server.port, "GET", "/.well-known/openid-configuration")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
        }
        try await withTestServer(environment: ["TOKENVEND_ACCESS_TOKEN_ISSUER": "http://auth.example.com"]) { server in
            let plain = try await FreshConnection.request(port: server.port, "GET", "/.well-known/openid-configuration")
            #expect(plain.status == 404)
        }
        var environment = try KeyFixtures.environment([
            KeyFixtures.generate("es", .es256, state: "current"), KeyFixtures.generate("ed", .edDSA, state: "standby"),
        ])
        environment["TOKENVEND_ACCESS_TOKEN_ISSUER"] = "https://auth.example.com/tenant/"
        try await withTestServer(environment: environment) { server in
            let answer = try await FreshConnection.request(
                port: server.port, "GET", "/.well-known/openid-configuration")
            #expect(answer.status == 200)
            let object = try answer.object()
            #expect(object["issuer"] as? String == "https://auth.example.com/tenant/")
            #expect(object["jwks_uri"] as? String == "https://auth.example.com/tenant/.well-known/jwks.json")
            #expect(object["id_token_signing_alg_values_supported"] as? [String] == ["ES256", "EdDSA"])
        }
    }

    @Test("openid-configuration is 404 not_found when only HS512 keys exist, even with an https issuer")
    func openIDConfigurationWithoutPublishedKeys() async throws {
        try await withTestServer(environment: ["TOKENVEND_ACCESS_TOKEN_ISSUER": "https://auth.example.com/tenant/"]) {
            server in
            let answer = try await FreshConnection.request(
                port: server.port, "GET", "/.well-known/openid-configuration")
            #expect(answer.status == 404)
            #expect(answer.errorCode == "not_found")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("no ES256 or EdDSA key is published"))
        }
    }
}
