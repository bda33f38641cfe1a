import Foundation
import JWT
import StrictJSON
import Testing
import TokenService
import TokenServiceTesting

/// Key states on the wire: who signs, who verifies, what is published.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct KeyRingEndToEndTests {
    /// The same claims as `token`, signed by `key` with the access-token header.
    private func resign(_ token: String, with key: JWTKey) throws -> String {
        let payload = try JWTKeySet.decode(token).payload
        return try JWTSigner(key: key, header: .standard(type: "at+jwt")).sign(JWTClaims(payload))
    }

    @Test(
        "the current key signs with header {alg, typ: at+jwt, kid}; previous verifies; standby and revoked get 401",
        arguments: [JWTAlgorithm.es256, .edDSA])
    func statesOnTheWire(algorithm: JWTAlgorithm) async throws {
        let current = try KeyFixtures.generate("cur", algorithm, state: "current")
        let standby = try KeyFixtures.generate("next", .es256, state: "standby")
        let previous = try KeyFixtures.generate("old", .edDSA, state: "previous")
        let revoked = try KeyFixtures.generate("gone", .es256, state: "revoked")
        let environment = try KeyFixtures.environment(
            [current, standby, previous, revoked], hmac: [(kid: "hs-old", state: "previous")])
        try await withTestServer(environment: environment) { server in
            let login = try await server.signUp()
            let header = try JWTKeySet.decode(login.accessToken).header
            #expect(header.serialized() == Array(#"{"alg":"\#(algorithm.name)","typ":"at+jwt","kid":"cur"}"#.utf8))
            #expect(try await server.request("GET", "/auth/me", headers: login.bearer).status == 200)
            let byKey = [
                ("old", try resign(login.accessToken, with: previous.key), 200),
                ("next", try resign(login.accessToken, with: standby.key), 401),
                ("gone", try resign(login.accessToken, with: revoked.key), 401),
            ]
            for (kid, token, status) in byKey {
                let answer = try await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(token)"])
                #expect(answer.status == status, "token signed by \(kid)")
                if status == 401 { #expect(answer.errorCode == "invalid_token") }
                let stream = try await server.request(
                    "POST", "/stream-token", headers: ["Authorization": "Bearer \(token)"])
                #expect(stream.status == status, "stream-token with a token signed by \(kid)")
            }
            // An HS512 token of a previous HMAC key still verifies.
            let hmac = try HMACKey(kid: "hs-old", algorithm: .hs512, secret: KeyFixtures.hmacSecret)
            let hmacToken = try JWTSigner(key: hmac, header: .standard(type: "at+jwt")).sign(
                JWTClaims(try JWTKeySet.decode(login.accessToken).payload))
            #expect(
                try await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(hmacToken)"]).status
                    == 200)
        }
    }

    @Test("the JWKS lists current, standby, previous public keys in that order; never HS, revoked or private parts")
    func publishedSet() async throws {
        let current = try KeyFixtures.generate("cur", .edDSA, state: "current")
        let standby = try KeyFixtures.generate("next", .es256, state: "standby")
        let previous = try KeyFixtures.generate("old", .es256, state: "previous")
        let revoked = try KeyFixtures.generate("gone", .edDSA, state: "revoked")
        let environment = try KeyFixtures.environment(
            [previous, revoked, standby, current], hmac: [(kid: "hs", state: "previous")])
        try await withTestServer(
            environment: environment.merging(["TOKENVEND_ACCESS_TOKEN_ISSUER": "https://auth.example.com"]) { $1 }
        ) { server in
            let answer = try await server.request("GET", "/.well-known/jwks.json")
            #expect(answer.status == 200)
            let set = try JWKSet(json: Array(answer.body))
            #expect(set.keys.map(\.kid) == ["cur", "next", "old"])
            #expect(set.keys.map(\.alg) == ["EdDSA", "ES256", "ES256"])
            #expect(set.keys.allSatisfy { $0.use == "sig" && !$0.isPrivate && $0.d == nil })
            #expect(set.keys == [current, standby, previous].compactMap { $0.key.publicJWK() })
            for entry in [current, standby, previous, revoked] {
                let pem = try entry.key.privateKeyPEM()
                let body = pem.split(separator: "\n").dropFirst().first.map(String.init) ?? pem
                #expect(!answer.text.contains(body))
            }
            let logs = server.logs()
            #expect(logs.contains("access-token keys") && logs.contains("next ES256 standby"))
            for entry in [current, standby, previous, revoked] {
                let pem = try entry.key.privateKeyPEM()
                #expect(!logs.contains(String(pem.split(separator: "\n")[1])))
            }
            #expect(!logs.contains(KeyFixtures.hmacSecret))
            let discovery = try await server.request("GET", "/.well-known/openid-configuration").object()
            #expect(discovery["jwks_uri"] as? String == "https://auth.example.com/.well-known/jwks.json")
            #expect(discovery["id_token_signing_alg_values_supported"] as? [String] == ["EdDSA", "ES256"])
        }
    }

    @Test("a private key of the wrong curve, an RSA or public JWK, or a malformed key is refused naming the key")
    func keyMaterialErrors() throws {
        let fixture = try ConfigurationFixture()
        let p256 = try JWTKey.generate(kid: "x", algorithm: .es256)
        let ed = try JWTKey.generate(kid: "x", algorithm: .edDSA)
        func error(_ members: [String: String]) throws -> String {
            let data = try JSONSerialization.data(withJSONObject: [members])
            return fixture.error(environment: ["TOKENVEND_ACCESS_TOKEN_KEYS": String(decoding: data, as: UTF8.self)])?
                .description ?? "(loaded)"
        }
        let source = "TOKENVEND_ACCESS_TOKEN_KEYS"
        let wrongCurve = try error(["kid": "k2", "alg": "ES256", "privateKey": try ed.privateKeyPEM()])
        #expect(wrongCurve.hasPrefix("accessToken.keys[kid=k2].privateKey (\(source)): not a usable ES256 private key"))
        let otherWay = try error(["kid": "k2", "alg": "EdDSA", "privateKey": try p256.privateKeyPEM()])
        #expect(otherWay.hasPrefix("accessToken.keys[kid=k2].privateKey (\(source)): not a usable EdDSA private key"))
        let publicJWK = String(decoding: try #require(p256.publicJWK()).serialized(), as: UTF8.self)
        let publicOnly = try error(["kid": "x", "alg": "ES256", "privateKey": publicJWK])
        #expect(publicOnly.hasPrefix("accessToken.keys[kid=x].privateKey (\(source)): the JWK is a public key"))
        let rsa = try error([
            "kid": "r", "alg": "ES256", "privateKey": #"{"kty":"RSA","n":"AQAB","e":"AQAB","d":"AQAB"}"#,
        ])
        #expect(rsa.contains("RSA keys are not allowed"))
        let garbage = try error(["kid": "g", "alg": "EdDSA", "privateKey": "not a key at all"])
        #expect(garbage.hasPrefix("accessToken.keys[kid=g].privateKey (\(source)): expected a PEM private key"))
        let pem = try ed.privateKeyPEM()
        let body = String(pem.split(separator: "\n")[1])
        let broken = pem.replacingOccurrences(of: body, with: "AAAAAAAA" + body.dropFirst(8))
        let brokenError = try error(["kid": "b", "alg": "EdDSA", "privateKey": broken])
        #expect(brokenError.hasPrefix("accessToken.keys[kid=b].privateKey (\(source)): not a usable EdDSA private key"))
        for message in [wrongCurve, otherWay, publicOnly, brokenError] {
            #expect(!message.contains("BEGIN") && !message.contains(pem.split(separator: "\n")[1]))
        }
    }

    @Test("a private key file with mode 0600 and a private JWK inline both load; the description hides them")
    func keyFileAndJWKLoad() throws {
        let fixture = try ConfigurationFixture()
        let es = try JWTKey.generate(kid: "file-key", algorithm: .es256)
        let pem = try es.privateKeyPEM()
        let path = try fixture.write("es.pem", pem)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let ed = try JWTKey.generate(kid: "jwk-key", algorithm: .edDSA)
        let privateJWK = try #require(try TestKeys.privateJWK(ed))
        let list: [[String: String]] = [
            ["kid": "file-key", "alg": "ES256", "privateKeyFile": path, "state": "current"],
            ["kid": "jwk-key", "alg": "EdDSA", "privateKey": privateJWK, "state": "standby"],
        ]
        let data = try JSONSerialization.data(withJSONObject: list)
        let configuration = try fixture.resolve(environment: [
            "TOKENVEND_ACCESS_TOKEN_KEYS": String(decoding: data, as: UTF8.self)
        ])
        #expect(configuration.accessToken.activeKid == "file-key")
        #expect(configuration.accessToken.keys.map(\.algorithm) == [.es256, .edDSA])
        let description = String(describing: configuration) + String(reflecting: configuration)
        #expect(!description.contains(pem.split(separator: "\n")[1]))
        #expect(!description.contains(privateJWK))
    }
}

/// A private JWK for a generated Ed25519 key. The library writes public JWKs only; an Ed25519 PKCS#8 key
/// (RFC 8410) ends with the 32-byte private key, which is the JWK's `d` (RFC 8037).
enum TestKeys {
    static func privateJWK(_ key: JWTKey) throws -> String? {
        guard key.algorithm == .edDSA, var jwk = key.publicJWK() else { return nil }
        let pem = try key.privateKeyPEM()
        let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: base64), der.count >= 32 else { return nil }
        let seed = der.suffix(32)
        jwk.d = seed.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return String(decoding: jwk.serialized(), as: UTF8.self)
    }
}
