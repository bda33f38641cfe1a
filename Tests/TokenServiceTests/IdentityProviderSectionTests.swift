import Foundation
import IdentityProviders
import Testing

@testable import TokenService

/// The `identityProviders` section as the loader reads it: layers, sources and the one-line errors. The entries'
/// own rules are IdentityProvidersTests' `IdentityProviderConfigurationTests`.
@Suite struct IdentityProviderSectionTests {
    @Test("by default no provider is configured, tokens may be 600 s old and emails are not linked")
    func defaults() throws {
        let configuration = try ConfigurationFixture().resolve()
        #expect(configuration.identity.providers.isEmpty)
        #expect(configuration.identity.maxTokenAgeSeconds == 600)
        #expect(configuration.identity.linkVerifiedEmail == false)
        #expect(configuration.identity.requireServerNonce)
        #expect(configuration.identity.maxPendingNonces == 100_000)
        #expect(configuration.identity.trustedForLinking == ["apple", "google"])
    }

    @Test("the nonce and linking keys are read from the file and the environment; null keeps the trusted default")
    func nonceAndLinkingKeys() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write(
            "c.json",
            #"""
            {"identity": {"requireServerNonce": false, "maxPendingNonces": 50, "trustedForLinking": ["google"]}}
            """#)
        let fromFile = try fixture.resolve(file: file).identity
        #expect(!fromFile.requireServerNonce)
        #expect(fromFile.maxPendingNonces == 50)
        #expect(fromFile.trustedForLinking == ["google"])
        let fromEnvironment = try fixture.resolve(environment: [
            "TOKENVEND_IDENTITY_REQUIRE_SERVER_NONCE": "false", "TOKENVEND_IDENTITY_MAX_PENDING_NONCES": "7",
            "TOKENVEND_IDENTITY_TRUSTED_FOR_LINKING": #"["apple","corp"]"#,
        ]).identity
        #expect(!fromEnvironment.requireServerNonce)
        #expect(fromEnvironment.maxPendingNonces == 7)
        #expect(fromEnvironment.trustedForLinking == ["apple", "corp"])
        #expect(
            try fixture.resolve(environment: ["TOKENVEND_IDENTITY_TRUSTED_FOR_LINKING": "[]"]).identity
                .trustedForLinking.isEmpty)
        let nullFile = try fixture.write("n.json", #"{"identity": {"trustedForLinking": null}}"#)
        #expect(try fixture.resolve(file: nullFile).identity.trustedForLinking == ["apple", "google"])
    }

    @Test("identity.trustedForLinking refuses a non-list, an empty or repeated name; maxPendingNonces 0 is refused")
    func nonceAndLinkingRefusals() throws {
        let fixture = try ConfigurationFixture()
        for value in [#""apple""#, #"[""]"#, #"["apple","apple"]"#, "[1]"] {
            #expect(throws: ConfigurationError.self, "\(value)") {
                try fixture.resolve(environment: ["TOKENVEND_IDENTITY_TRUSTED_FOR_LINKING": value])
            }
        }
        #expect(throws: ConfigurationError.self) {
            try fixture.resolve(environment: ["TOKENVEND_IDENTITY_MAX_PENDING_NONCES": "0"])
        }
    }

    @Test("the environment's map replaces the file's whole, with no member of the file's entry left over")
    func environmentReplacesFile() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write(
            "c.json",
            #"{"identityProviders": {"apple": {"preset": "apple", "audiences": ["a"], "jwksURL": "http://localhost:1/k"}, "google": {"preset": "google", "audiences": ["g"]}}}"#
        )
        let identity = try fixture.resolve(
            file: file,
            environment: ["TOKENVEND_IDENTITY_PROVIDERS": #"{"apple": {"preset": "apple", "audiences": ["b"]}}"#]
        ).identity
        #expect(identity.providers.map(\.name) == ["apple"])
        #expect(identity.providers.first?.audiences == ["b"])
        #expect(identity.providers.first?.native?.jwksURL == "https://appleid.apple.com/auth/keys")
        let unset = try fixture.resolve(file: file, environment: ["TOKENVEND_IDENTITY_PROVIDERS": ""]).identity
        #expect(unset.providers.isEmpty)
    }

    @Test(
        "a bad provider entry is refused with one line naming the member and its source",
        arguments: [
            (
                #"{"apple": {"preset": "apple", "audience": ["a"]}}"#,
                "identityProviders.apple.audience: unknown configuration key (in SOURCE); did you mean "
                    + "identityProviders.apple.audiences?"
            ),
            (
                #"{"apple": {"preset": "apple"}}"#,
                "identityProviders.apple.audiences (SOURCE): missing; list the app's bundle id, Services ID or OAuth "
                    + "client ids that tokens must be issued to"
            ),
            (
                #"{"apple": {"preset": "apple", "audiences": []}}"#,
                "identityProviders.apple.audiences (SOURCE): expected at least one string, got an empty list"
            ),
            (
                #"{"apple": {"preset": "apple", "audiences": ["a"], "jwksURL": "http://keys.example/jwks"}}"#,
                #"identityProviders.apple.jwksURL (SOURCE): expected an https URL (http only to localhost, 127.0.0.1 or ::1), got "http://keys.example/jwks""#
            ),
            (
                #"{"apple": {"preset": "apple", "audiences": ["a"], "algorithms": ["RS256", "HS256"]}}"#,
                #"identityProviders.apple.algorithms (SOURCE): "HS256" is never accepted for ID tokens (anyone holding the public key could forge them); use RS256 or ES256"#
            ),
            (
                #"{"apple": {"preset": "apple", "audiences": ["a"], "algorithms": ["none"]}}"#,
                #"identityProviders.apple.algorithms (SOURCE): "none" is never accepted for ID tokens (anyone holding the public key could forge them); use RS256 or ES256"#
            ),
            (
                #"{"apple": {"preset": "facebook", "audiences": ["a"]}}"#,
                #"identityProviders.apple.preset (SOURCE): expected one of apple, google, github, gitlab, got "facebook""#
            ),
            (
                #"{"corp": {"audiences": ["a"], "jwksURL": "https://k.example/"}}"#,
                "identityProviders.corp.issuers (SOURCE): missing; give issuers, or a preset (apple or google)"
            ),
            (
                #"{"corp": {"audiences": ["a"], "issuers": ["https://k.example"]}}"#,
                "identityProviders.corp.jwksURL (SOURCE): missing; give jwksURL, or a preset (apple or google)"
            ),
            (
                #"{"apple": {"preset": "apple", "audiences": ["a"], "nonce": "md5"}}"#,
                #"identityProviders.apple.nonce (SOURCE): expected one of sha256, raw, raw-or-sha256, got "md5""#
            ),
            (
                #"{"Apple!": {"preset": "apple", "audiences": ["a"]}}"#,
                #"identityProviders (SOURCE): provider name "Apple!" must be 1 to 32 of a-z, 0-9, _ and -, starting with a letter or digit"#
            ),
            (
                #"{"apple": "yes"}"#,
                "identityProviders.apple (SOURCE): expected an object, got a string"
            ),
            (
                #"{"apple": {"preset": "apple", "audiences": ["a"], "tenant": ""}}"#,
                "identityProviders.apple.tenant (SOURCE): expected a tenant id of 1 to 128 bytes, got 0 bytes"
            ),
            (
                #"{"corp": {"issuers": ["https://id.corp.example"], "jwksURL": "https://id.corp.example/jwks", "#
                    + #""audiences": ["a"], "tenant": "\#(String(repeating: "t", count: 129))"}}"#,
                "identityProviders.corp.tenant (SOURCE): expected a tenant id of 1 to 128 bytes, got 129 bytes"
            ),
            (
                #"{"apple": {"preset": "apple", "audiences": ["a"], "tenant": 42}}"#,
                "identityProviders.apple.tenant (SOURCE): expected a tenant id, a string of 1 to 128 bytes, got an "
                    + "integer"
            ),
            (
                #"{"apple": {"preset": "apple", "audiences": ["a"], "tenants": "acme"}}"#,
                "identityProviders.apple.tenants: unknown configuration key (in SOURCE); did you mean "
                    + "identityProviders.apple.tenant?"
            ),
        ])
    func refused(json: String, expected: String) throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"identityProviders": "# + json + "}")
        let fromFile = try #require(fixture.error(file: file)).description
        #expect(fromFile == expected.replacing("SOURCE", with: file))
        let fromEnvironment = try #require(fixture.error(environment: ["TOKENVEND_IDENTITY_PROVIDERS": json]))
            .description
        #expect(fromEnvironment == expected.replacing("SOURCE", with: "TOKENVEND_IDENTITY_PROVIDERS"))
        #expect(!fromFile.contains("\n"))
    }

    @Test("tenant is read from the file and the environment")
    func tenant() throws {
        let fixture = try ConfigurationFixture()
        let json = #"{"apple": {"preset": "apple", "audiences": ["a"], "tenant": "acme"}}"#
        let identity = try fixture.resolve(environment: ["TOKENVEND_IDENTITY_PROVIDERS": json]).identity
        #expect(identity.provider(named: "apple")?.tenant == "acme")
        let file = try fixture.write("c.json", #"{"identityProviders": "# + json + "}")
        #expect(try fixture.resolve(file: file).identity.provider(named: "apple")?.tenant == "acme")
    }

    @Test("a configuration file with a member given twice is refused")
    func duplicateMember() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write(
            "c.json",
            #"{"identityProviders": {"apple": {"preset": "apple", "audiences": ["a"], "audiences": ["b"]}}}"#)
        #expect(
            fixture.error(file: file)?.description
                == "configuration file \(file): not valid JSON (duplicate JSON member)")
    }

    @Test("an environment value that is not JSON is refused naming the variable")
    func environmentNotJSON() throws {
        let error = try ConfigurationFixture().error(environment: ["TOKENVEND_IDENTITY_PROVIDERS": "apple"])
        #expect(
            error?.description.hasPrefix("identityProviders (TOKENVEND_IDENTITY_PROVIDERS): expected a JSON object")
                == true)
    }

    @Test("identity.maxTokenAgeSeconds is bounded")
    func maxTokenAgeBounds() throws {
        let fixture = try ConfigurationFixture()
        #expect(
            fixture.error(environment: ["TOKENVEND_IDENTITY_MAX_TOKEN_AGE_SECONDS": "10"])?.description
                == "identity.maxTokenAgeSeconds (TOKENVEND_IDENTITY_MAX_TOKEN_AGE_SECONDS): expected an integer from "
                + "30 to 86400, got 10")
    }
}
