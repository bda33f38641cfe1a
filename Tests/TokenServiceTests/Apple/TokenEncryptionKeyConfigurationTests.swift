import Foundation
import IdentityProviders
import JWT
import Testing

@testable import TokenService

/// `identity.tokenEncryptionKeyFile`: checked at startup, named in every refusal, required by Apple's REST API.
@Suite struct TokenEncryptionKeyConfigurationTests {
    static let key = Array(repeating: UInt8(9), count: 32)

    /// Writes `text` to `name` in the fixture's folder with `mode`.
    static func file(_ fixture: ConfigurationFixture, _ name: String, _ text: String, mode: Int = 0o600) throws
        -> String
    {
        let path = try fixture.write(name, text)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    /// An `identityProviders` value with the apple preset's REST members, its key file in `fixture`.
    static func appleREST(_ fixture: ConfigurationFixture) throws -> String {
        let p8 = try file(fixture, "AuthKey.p8", try JWTKey.generate(kid: "K", algorithm: .es256).privateKeyPEM())
        return
            #"{"apple":{"preset":"apple","teamId":"T","keyId":"K","privateKeyFile":"\#(p8)","clientId":"com.example.app"}}"#
    }

    @Test("one base64 line of 32 bytes in a 0600 file is the key")
    func accepted() throws {
        let fixture = try ConfigurationFixture()
        let path = try Self.file(fixture, "k", Data(Self.key).base64EncodedString() + "\n")
        let configuration = try fixture.resolve(environment: ["TOKENVEND_IDENTITY_TOKEN_ENCRYPTION_KEY_FILE": path])
        #expect(configuration.identity.tokenEncryptionKey?.bytes == Self.key)
        #expect(configuration.identity.tokenEncryptionKey?.description.contains("9") == false)
    }

    @Test(
        "a missing file, an open mode, a wrong length, two lines or text that is not base64 refuse startup by key path",
        arguments: [
            ("missing", nil, 0o600, "no such file"),
            ("open", "CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk=", 0o644, "mode 0644"),
            ("short", "CQkJCQkJCQkJCQkJCQkJCQ==", 0o600, "exactly 32 bytes"),
            ("two", "CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk=\nCQkJ", 0o600, "one line"),
            ("text", "not base64 at all!", 0o600, "base64"),
        ] as [(String, String?, Int, String)])
    func refused(name: String, contents: String?, mode: Int, reason: String) throws {
        let fixture = try ConfigurationFixture()
        let path = try contents.map { try Self.file(fixture, name, $0, mode: mode) } ?? fixture.folder + "/absent.key"
        let error = try #require(fixture.error(environment: ["TOKENVEND_IDENTITY_TOKEN_ENCRYPTION_KEY_FILE": path]))
        guard case .invalidValue(let key, _, let message) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(key == "identity.tokenEncryptionKeyFile")
        #expect(message.contains(path))
        #expect(message.contains(reason), "\(message)")
        #expect(!message.contains("CQkJ"))
    }

    @Test("Apple's REST API without the key file refuses startup, naming the key and the provider")
    func requiredByAppleREST() throws {
        let fixture = try ConfigurationFixture()
        let providers = try Self.appleREST(fixture)
        let error = try #require(fixture.error(environment: ["TOKENVEND_IDENTITY_PROVIDERS": providers]))
        guard case .invalidValue(let key, _, let message) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(key == "identity.tokenEncryptionKeyFile")
        #expect(message.contains("identityProviders.apple"))
        let path = try Self.file(fixture, "k", Data(Self.key).base64EncodedString())
        let configuration = try fixture.resolve(
            environment: [
                "TOKENVEND_IDENTITY_PROVIDERS": providers, "TOKENVEND_IDENTITY_TOKEN_ENCRYPTION_KEY_FILE": path,
            ])
        #expect(configuration.identity.hasAppleREST)
        #expect(configuration.identity.providers.first?.browser == nil)
    }

    @Test("without Apple's REST API the key is optional")
    func optional() throws {
        let fixture = try ConfigurationFixture()
        #expect(try fixture.resolve().identity.tokenEncryptionKey == nil)
    }
}
