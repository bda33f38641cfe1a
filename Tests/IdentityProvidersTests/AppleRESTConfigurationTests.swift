import Cryptography
import Foundation
import IdentityProviders
import IdentityProvidersTesting
import JWT
import StrictJSON
import Testing

/// A `.p8` made once per test process: its PKCS#8 PEM and its public half.
enum AppleTestKey {
    static let key: AsymmetricKey = {
        do { return try AsymmetricKey.generate(.ecdsaP256SHA256) } catch { preconditionFailure("P-256 key: \(error)") }
    }()
    static var privatePEM: String {
        get throws { try key.privateKeyPEM() }
    }
    static var publicPEM: String {
        get throws { try key.publicKeyPEM() }
    }

    /// An Apple REST configuration with this key, on `base` (default: Apple's endpoints).
    static func configuration(base: String? = nil) throws -> AppleRESTConfiguration {
        try AppleRESTConfiguration(
            teamId: "TEAM123456", keyId: "KEY1234567", clientId: "com.example.app", privateKeyPEM: privatePEM,
            tokenURL: base.map { "\($0)/auth/token" } ?? AppleRESTConfiguration.defaultTokenURL,
            revokeURL: base.map { "\($0)/auth/revoke" } ?? AppleRESTConfiguration.defaultRevokeURL)
    }
}

@Suite struct AppleRESTConfigurationTests {
    static let rest =
        #""teamId": "TEAM123456", "keyId": "KEY1234567", "privateKeyFile": "/keys/AuthKey.p8", "#
        + #""clientId": "com.example.app""#

    static func files() throws -> [String: String] { ["/keys/AuthKey.p8": try AppleTestKey.privatePEM] }

    @Test("the apple preset's REST members give an AppleRESTConfiguration with Apple's endpoints by default")
    func defaults() throws {
        let providers = try parseProviders(#"{"apple": {"preset": "apple", \#(Self.rest)}}"#, files: Self.files())
        let apple = try #require(providers.first)
        let rest = try #require(apple.appleREST)
        #expect(rest.teamId == "TEAM123456")
        #expect(rest.keyId == "KEY1234567")
        #expect(rest.clientId == "com.example.app")
        #expect(rest.tokenURL == "https://appleid.apple.com/auth/token")
        #expect(rest.revokeURL == "https://appleid.apple.com/auth/revoke")
        #expect(rest.signingKey.algorithm == .es256)
        #expect(rest.signingKey.kid == "KEY1234567")
        // clientId on the apple preset is no browser flow; it is the default audience of ID tokens.
        #expect(apple.browser == nil)
        #expect(apple.audiences == ["com.example.app"])
        #expect(apple.native != nil)
    }

    @Test("tokenURL and revokeURL take https, or http to a loopback host only")
    func urls() throws {
        let providers = try parseProviders(
            #"{"apple": {"preset": "apple", \#(Self.rest), "tokenURL": "http://127.0.0.1:9/auth/token", "#
                + #""revokeURL": "https://apple.example/revoke"}}"#, files: Self.files())
        #expect(providers.first?.appleREST?.tokenURL == "http://127.0.0.1:9/auth/token")
        #expect(providers.first?.appleREST?.revokeURL == "https://apple.example/revoke")
        let error = providerError(
            #"{"apple": {"preset": "apple", \#(Self.rest), "revokeURL": "http://apple.example/revoke"}}"#,
            files: try Self.files())
        #expect(error?.path == "apple.revokeURL")
    }

    @Test(
        "teamId, keyId, privateKeyFile and clientId go together: a missing one is named",
        arguments: [
            "teamId", "keyId", "privateKeyFile", "clientId",
        ])
    func allOrNone(missing: String) throws {
        var members: [String: String] = [
            "teamId": "TEAM123456", "keyId": "KEY1234567", "privateKeyFile": "/keys/AuthKey.p8",
            "clientId": "com.example.app",
        ]
        members[missing] = nil
        let text = members.sorted { $0.key < $1.key }.map { #""\#($0.key)": "\#($0.value)""# }
            .joined(separator: ", ")
        let error = providerError(
            #"{"apple": {"preset": "apple", "audiences": ["com.example.app"], \#(text)}}"#, files: try Self.files())
        #expect(error?.path == "apple.\(missing)")
        #expect(error?.description.contains("together") == true)
    }

    @Test("a key file that is not an EC P-256 private key, or cannot be read, is refused with its member path")
    func badKey() throws {
        let rsa = "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----"
        let wrong = providerError(
            #"{"apple": {"preset": "apple", \#(Self.rest)}}"#, files: ["/keys/AuthKey.p8": rsa])
        #expect(wrong?.path == "apple.privateKeyFile")
        #expect(wrong?.description.contains("/keys/AuthKey.p8") == true)
        #expect(wrong?.description.contains("MIIB") == false)
        let missing = providerError(#"{"apple": {"preset": "apple", \#(Self.rest)}}"#)
        #expect(missing?.path == "apple.privateKeyFile")
        #expect(missing?.description.contains("no such file") == true)
    }

    @Test("REST members on another preset, and browser members on the apple preset, are refused by name")
    func wrongPlaces() throws {
        let google = providerError(
            #"{"g": {"preset": "google", "audiences": ["x"], "teamId": "TEAM123456"}}"#)
        #expect(google?.path == "g.teamId")
        let browser = providerError(
            #"{"apple": {"preset": "apple", \#(Self.rest), "redirectURIs": ["https://example.com/cb"]}}"#,
            files: try Self.files())
        #expect(browser?.path == "apple.redirectURIs")
        #expect(browser?.description.contains("no browser flow") == true)
    }

    @Test("an apple entry without the REST members has no REST configuration, as before")
    func without() throws {
        let providers = try parseProviders(#"{"apple": {"preset": "apple", "audiences": ["com.example.app"]}}"#)
        #expect(providers.first?.appleREST == nil)
    }
}
