import AppIntegrityTesting
import Foundation
import StrictJSON
import Testing
import TokenService
import TokenServiceTesting

/// Play Integrity and Firebase App Check end to end (issue 34): a server configured with the fake's Play Console
/// keys and App Check JWKS; challenge → Play token → `/integrity/android` → integrity token → a `require` vend.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct AndroidIntegrityEndToEndTests {
    static let packageName = "com.example.tokenvend"
    static let projectNumber = "123456789012"
    static let firebaseAppID = "1:123456789012:android:0a1b2c3d4e5f"

    /// The suite's one fake, shared by its tests.
    private static let shared = Task { try await FakePlayIntegrity.start() }

    static func environment(_ fake: FakePlayIntegrity) -> [String: String] {
        let keys = fake.keys()
        return [
            "TOKENVEND_VENDORS": #"""
            {"chat": {"preset": "stream-chat", "apiKey": "chat-key",
                      "apiSecret": "android-integrity-secret-chat-0123456789abcdef"}}
            """#,
            "TOKENVEND_INTEGRITY_ROUTES_VEND": "require",
            "TOKENVEND_INTEGRITY_ANDROID_DECRYPTION_KEY": keys.decryption,
            "TOKENVEND_INTEGRITY_ANDROID_VERIFICATION_KEY": keys.verification,
            "TOKENVEND_INTEGRITY_ANDROID_PACKAGE_NAMES": #"["\#(packageName)"]"#,
            "TOKENVEND_INTEGRITY_ANDROID_CERTIFICATE_DIGESTS": #"["\#(fake.defaultCertificateDigest)"]"#,
            "TOKENVEND_INTEGRITY_FIREBASE_PROJECT_NUMBER": projectNumber,
            "TOKENVEND_INTEGRITY_FIREBASE_APP_IDS": #"["\#(firebaseAppID)"]"#,
            "TOKENVEND_INTEGRITY_FIREBASE_JWKS_URL": fake.appCheckJWKSURL,
        ]
    }

    /// A fresh challenge from the server.
    func challenge(_ server: TestServer) async throws -> String {
        let answer = try await server.request("POST", "/integrity/challenge", json: "{}")
        #expect(answer.status == 200)
        return try #require(try answer.object()["challenge"] as? String)
    }

    /// `POST /integrity/android` with `token` for `challenge`.
    func exchange(_ server: TestServer, token: String, challenge: String) async throws -> TestResponse {
        try await server.request(
            "POST", "/integrity/android", json: #"{"integrityToken":"\#(token)","challenge":"\#(challenge)"}"#)
    }

    @Test("a Play Integrity token for a challenge buys an integrity token that a require vend accepts, once")
    func playIntegrityExchange() async throws {
        let fake = try await Self.shared.value
        try await withTestServer(mode: .router, environment: Self.environment(fake)) { server in
            let user = try await server.signUp()
            let challenge = try await challenge(server)
            let token = try await fake.token(nonce: challenge, packageName: Self.packageName)
            let exchanged = try await exchange(server, token: token, challenge: challenge)
            #expect(exchanged.status == 200, "\(exchanged.text)")
            let integrityToken = try #require(try exchanged.object()["integrityToken"] as? String)
            #expect((try exchanged.object()["expiresIn"] as? Int) == 3600)
            let vend = try await server.request(
                "POST", "/vend/chat", headers: user.bearer.merging(["X-App-Integrity": integrityToken]) { $1 })
            #expect(vend.status == 200, "\(vend.text)")
            #expect(
                try await server.request("POST", "/vend/chat", headers: user.bearer).errorCode == "integrity_required")

            // The challenge is used up: the same token again is refused.
            let replayed = try await exchange(server, token: token, challenge: challenge)
            #expect(replayed.status == 401 && replayed.errorCode == "integrity_invalid")
        }
    }

    @Test("a bad verdict, a wrong key or another nonce is 401 integrity_invalid, and malformed input 400")
    func playIntegrityRefusals() async throws {
        let fake = try await Self.shared.value
        try await withTestServer(mode: .router, environment: Self.environment(fake)) { server in
            let cases: [(JSONObject, FakePlayIntegrity.WrongKey?, Bool)] = [
                (["deviceIntegrity": ["deviceRecognitionVerdict": ["MEETS_BASIC_INTEGRITY"]]], nil, false),
                (["appIntegrity": ["appRecognitionVerdict": "UNEVALUATED"]], nil, false),
                (["appIntegrity": ["packageName": "com.evil"]], nil, false), ([:], .decryption, false),
                ([:], .signature, false), ([:], nil, true),
            ]
            var bodies: Set<String> = []
            for (payload, wrongKey, otherNonce) in cases {
                let challenge = try await challenge(server)
                let token = try await fake.token(
                    nonce: otherNonce ? "another-nonce-0123456789" : challenge, packageName: Self.packageName,
                    payload: payload, wrongKey: wrongKey)
                let refused = try await exchange(server, token: token, challenge: challenge)
                #expect(refused.status == 401 && refused.errorCode == "integrity_invalid", "\(payload)")
                bodies.insert(refused.text)
            }
            #expect(bodies.count == 1, "one body for every reason")
            let malformed = try await exchange(server, token: "not.a.jwe", challenge: try await challenge(server))
            #expect(malformed.status == 400 && malformed.errorCode == "invalid_request")
            let metrics = String(decoding: server.server.metrics.exposition(), as: UTF8.self)
            for reason in ["device_verdict", "app_recognition", "package", "decryption", "signature", "challenge"] {
                #expect(
                    metrics.contains(
                        #"tokenvend_integrity_checks_total{route="android",result="failed",reason="\#(reason)"}"#),
                    "\(reason)")
            }
        }
    }

    @Test("an App Check token is accepted on a require vend; an expired, forged or foreign one is refused")
    func appCheck() async throws {
        let fake = try await Self.shared.value
        try await withTestServer(mode: .router, environment: Self.environment(fake)) { server in
            let user = try await server.signUp()
            let now = Int64(Date().timeIntervalSince1970)
            let claims: JSONObject = [
                "sub": .string(Self.firebaseAppID), "aud": [.string("projects/\(Self.projectNumber)")],
                "iss": .string("https://firebaseappcheck.googleapis.com/\(Self.projectNumber)"),
                "exp": .integer(now + 3600), "iat": .integer(now),
            ]
            let valid = try await fake.appCheckToken(claims: claims)
            let served = try await server.request(
                "POST", "/vend/chat", headers: user.bearer.merging(["X-Firebase-AppCheck": valid]) { $1 })
            #expect(served.status == 200, "\(served.text)")

            var expired = claims
            expired["exp"] = .integer(now - 600)
            var foreign = claims
            foreign["sub"] = "1:123456789012:android:someone-else"
            for token in [
                try await fake.appCheckToken(claims: expired),
                try await fake.appCheckToken(claims: claims, forged: true),
                try await fake.appCheckToken(claims: foreign),
            ] {
                let refused = try await server.request(
                    "POST", "/vend/chat", headers: user.bearer.merging(["X-Firebase-AppCheck": token]) { $1 })
                #expect(refused.status == 401 && refused.errorCode == "integrity_invalid")
            }
            let metrics = String(decoding: server.server.metrics.exposition(), as: UTF8.self)
            #expect(
                metrics.contains(#"tokenvend_integrity_checks_total{route="vend",result="failed",reason="expired"}"#))
            #expect(metrics.contains(#"tokenvend_integrity_checks_total{route="vend",result="passed",reason="none"}"#))
        }
    }
}
