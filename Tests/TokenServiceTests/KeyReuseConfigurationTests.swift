import Foundation
import JWT
import Testing

@testable import TokenService

/// One secret or key may serve one purpose only: access tokens, refresh tokens, stream tokens or one vendor
/// (issue 30, item 9). The error names both places and never the key.
@Suite struct KeyReuseConfigurationTests {
    static let other = String(repeating: "0th3r-", count: 12)
    static let third = String(repeating: "th1rd-", count: 12)

    /// A `vendors` value with one HS256 template vendor `name` signing with `secret`.
    static func vendor(_ name: String, secret: String) -> String {
        #"{"\#(name)": {"alg": "HS256", "keys": [{"kid": "v1", "secret": "\#(secret)"}], "#
            + #""claims": {"sub": "{{user.id}}", "exp": "{{exp}}"}}}"#
    }

    @Test(
        "a secret shared between two purposes stops startup, naming both places and never the secret",
        arguments: [
            (
                [
                    "TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"a1","secret":"\#(strongSecret)"}]"#,
                    "TOKENVEND_REFRESH_TOKEN_SECRET": strongSecret,
                ],
                "refreshToken.secret", "accessToken.keys[kid=a1].secret"
            ),
            (
                [
                    "TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"a1","secret":"\#(other)"}]"#,
                    "TOKENVEND_STREAM_KEYS": #"[{"kid":"s1","secret":"\#(third)"},{"kid":"s2","secret":"\#(other)"}]"#,
                ],
                "stream.keys[1].secret", "accessToken.keys[kid=a1].secret"
            ),
            (
                [
                    "TOKENVEND_STREAM_KEYS": #"[{"kid":"s1","secret":"\#(strongSecret)"}]"#,
                    "TOKENVEND_VENDORS": vendor("chat", secret: strongSecret),
                ],
                "vendors.chat.keys[0].secret", "stream.keys[0].secret"
            ),
            (
                [
                    "TOKENVEND_REFRESH_TOKEN_SECRET": other,
                    "TOKENVEND_VENDORS":
                        #"{"video": {"preset": "livekit", "apiKey": "k", "apiSecret": "\#(other)", "#
                        + #""serverURL": "wss://video.example"}}"#,
                ],
                "vendors.video.apiSecret", "refreshToken.secret"
            ),
        ])
    func sharedSecret(environment: [String: String], place: String, first: String) throws {
        let fixture = try ConfigurationFixture()
        let error = try #require(fixture.error(environment: environment))
        guard case .invalidValue(let key, _, let reason) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(key == place)
        #expect(reason.hasPrefix("the same key as \(first);"), "\(reason)")
        #expect(error.description.hasPrefix("\(place): the same key as \(first);"))
        for secret in [strongSecret, Self.other, Self.third] {
            #expect(!error.description.contains(secret))
        }
    }

    @Test("two vendors sharing a secret are refused; distinct keys everywhere load")
    func vendorsApart() throws {
        let fixture = try ConfigurationFixture()
        let two =
            #"{"a": {"alg": "HS256", "keys": [{"kid": "v1", "secret": "\#(Self.other)"}], "#
            + #""claims": {"exp": "{{exp}}"}}, "b": {"preset": "stream-chat", "apiKey": "k", "#
            + #""apiSecret": "\#(Self.other)"}}"#
        let error = try #require(fixture.error(environment: ["TOKENVEND_VENDORS": two]))
        #expect(error.description.hasPrefix("vendors.b.apiSecret: the same key as vendors.a.keys[0].secret;"))

        let apart = try fixture.resolve(environment: [
            "TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"a1","secret":"\#(strongSecret)"}]"#,
            "TOKENVEND_REFRESH_TOKEN_SECRET": Self.other,
            "TOKENVEND_STREAM_KEYS": #"[{"kid":"s1","secret":"\#(Self.third)"}]"#,
            "TOKENVEND_VENDORS": Self.vendor("chat", secret: String(repeating: "v3nd0r-", count: 10)),
        ])
        #expect(apart.vendors.map(\.name) == ["chat"])
    }

    @Test("one ES256 private key for access tokens and a vendor is refused, whatever the kids")
    func sharedPrivateKey() throws {
        let fixture = try ConfigurationFixture()
        let pem = try JWTKey.generate(kid: "x", algorithm: .es256).privateKeyPEM()
        let escaped = pem.replacingOccurrences(of: "\n", with: "\\n")
        let error = try #require(
            fixture.error(environment: [
                "TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"ec-1","alg":"ES256","privateKey":"\#(escaped)"}]"#,
                "TOKENVEND_VENDORS":
                    #"{"maps": {"alg": "ES256", "keys": [{"kid": "maps-1", "privateKey": "\#(escaped)"}], "#
                    + #""claims": {"exp": "{{exp}}"}}}"#,
            ]))
        #expect(
            error.description.hasPrefix(
                "vendors.maps.keys[0].privateKey: the same key as accessToken.keys[kid=ec-1].privateKey;"))
        #expect(!error.description.contains("PRIVATE KEY"))
    }
}
