import Foundation
import IdentityProviders
import JWT
import Testing

@testable import TokenService

/// The browser members of `identityProviders` as the loader reads them: secret files, sources and the one-line
/// errors. The entries' own rules are IdentityProvidersTests' `BrowserProviderConfigurationTests`.
@Suite struct BrowserProviderSectionTests {
    static let publicURL = ["TOKENVEND_SERVER_PUBLIC_URL": "https://auth.example.com/"]

    func resolve(_ providers: String, environment: [String: String] = publicURL) throws -> TokenServiceConfiguration {
        var environment = environment
        environment["TOKENVEND_IDENTITY_PROVIDERS"] = providers
        return try ConfigurationFixture().resolve(environment: environment)
    }

    @Test("by default the flow lives 300 s and no public URL is set; 5…900 s are accepted")
    func defaults() throws {
        let fixture = try ConfigurationFixture()
        let configuration = try fixture.resolve()
        #expect(configuration.identity.flowLifetimeSeconds == 300)
        #expect(configuration.publicURL == nil)
        #expect(
            try fixture.resolve(environment: ["TOKENVEND_IDENTITY_FLOW_LIFETIME_SECONDS": "900"])
                .identity.flowLifetimeSeconds == 900)
        #expect(
            fixture.error(environment: ["TOKENVEND_IDENTITY_FLOW_LIFETIME_SECONDS": "4"])?.description
                == "identity.flowLifetimeSeconds (TOKENVEND_IDENTITY_FLOW_LIFETIME_SECONDS): expected an integer "
                + "from 5 to 900, got 4")
    }

    @Test("clientSecretFile and clientPrivateKeyFile are read like the other secret files and never shown")
    func secretFiles() throws {
        let fixture = try ConfigurationFixture()
        let secretPath = try fixture.write("client_secret", "file-secret-value\n")
        let pem = try JWTKey.generate(kid: "k", algorithm: .es256).privateKeyPEM()
        let keyPath = try fixture.write("client_key.pem", pem)
        let providers = #"""
            {"a": {"preset": "github", "clientId": "a", "clientSecretFile": "SECRET", "redirectURIs": ["com.example.app:/cb"]},
             "b": {"clientId": "b", "clientPrivateKeyFile": "KEY", "clientKeyId": "key-1", "redirectURIs": ["com.example.app:/cb"],
                   "discoveryURL": "https://b.example/.well-known/openid-configuration"}}
            """#.replacing("SECRET", with: secretPath).replacing("KEY", with: keyPath)
        let configuration = try fixture.resolve(
            environment: Self.publicURL.merging(["TOKENVEND_IDENTITY_PROVIDERS": providers]) { $1 })
        #expect(configuration.identity.provider(named: "a")?.browser?.credential == .secretBasic("file-secret-value"))
        let b = try #require(configuration.identity.provider(named: "b")?.browser)
        #expect(b.credential == .privateKey(pem: pem.trimmingCharacters(in: .whitespacesAndNewlines), keyId: "key-1"))
        let shown = String(describing: configuration) + String(reflecting: configuration)
        #expect(!shown.contains("file-secret-value"))
        #expect(!shown.contains("PRIVATE KEY"))
        let notAKey = try fixture.write(
            "not_a_key.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        let error = fixture.error(
            environment: Self.publicURL.merging([
                "TOKENVEND_IDENTITY_PROVIDERS": providers.replacing(keyPath, with: notAKey)
            ]) { $1 })
        #expect(
            error?.description
                == "identityProviders.b.clientPrivateKeyFile (TOKENVEND_IDENTITY_PROVIDERS): \"\(notAKey)\" holds no "
                + "usable P-256 private key (ES256; RSA keys cannot sign assertions here)")
    }

    @Test(
        "a bad browser member is refused with one line naming it",
        arguments: [
            (
                #"{"g": {"preset": "github", "clientId": "c", "redirectURIs": ["com.example.app:/cb"]}}"#,
                "identityProviders.g.clientSecret (SOURCE): missing; give clientSecret, clientSecretFile or "
                    + "clientPrivateKeyFile"
            ),
            (
                #"{"g": {"preset": "github", "clientId": "c", "clientSecret": "s"}}"#,
                "identityProviders.g.redirectURIs (SOURCE): missing; list the app redirect URIs a sign-in may return to"
            ),
            (
                #"{"g": {"preset": "github", "audiences": ["a"]}}"#,
                "identityProviders.g.clientId (SOURCE): missing; the github preset signs in through the browser only: "
                    + "give clientId, a client secret and redirectURIs"
            ),
            (
                #"{"g": {"preset": "google", "audiences": ["a"], "redirectURIs": ["com.example.app:/cb"]}}"#,
                "identityProviders.g.clientId (SOURCE): missing; redirectURIs belongs to the browser flow, which needs "
                    + "clientId"
            ),
            (
                #"{"g": {"preset": "github", "clientId": "c", "clientSecret": "s", "redirectURIs": ["http://localhost:8080/cb"]}}"#,
                #"identityProviders.g.redirectURIs (SOURCE): item 1 "http://localhost:8080/cb": use http://127.0.0.1 or http://[::1], not localhost (RFC 8252 §8.3)"#
            ),
            (
                #"{"g": {"preset": "github", "clientId": "c", "clientSecret": "s", "redirectURIs": ["http://app.example/cb"]}}"#,
                #"identityProviders.g.redirectURIs (SOURCE): item 1 "http://app.example/cb": http only to 127.0.0.1 or [::1] (loopback, RFC 8252 §7.3)"#
            ),
            (
                #"{"g": {"preset": "github", "clientId": "c", "clientSecret": "s", "redirectURIs": ["myapp:/cb"]}}"#,
                #"identityProviders.g.redirectURIs (SOURCE): item 1 "myapp:/cb": a private-use scheme needs a dot, such as com.example.app (RFC 8252 §7.1)"#
            ),
            (
                #"{"g": {"preset": "github", "clientId": "c", "clientSecret": "s", "redirectURIs": ["https://app.example/cb#x"]}}"#,
                #"identityProviders.g.redirectURIs (SOURCE): item 1 "https://app.example/cb#x" is not an absolute URI without a fragment"#
            ),
            (
                #"{"g": {"preset": "github", "clientId": "c", "clientSecret": "s", "clientSecretFile": "/x", "redirectURIs": ["com.example.app:/cb"]}}"#,
                "identityProviders.g.clientSecretFile (SOURCE): give only one of clientSecret, clientSecretFile, "
                    + "clientPrivateKeyFile"
            ),
            (
                #"{"g": {"preset": "github", "clientId": "c", "clientSecret": "s", "clientAuthentication": "private_key_jwt", "redirectURIs": ["com.example.app:/cb"]}}"#,
                "identityProviders.g.clientAuthentication (SOURCE): private_key_jwt needs clientPrivateKeyFile, not a "
                    + "client secret"
            ),
            (
                #"{"g": {"preset": "github", "clientId": "c", "clientSecret": "s", "clientKeyId": "k", "redirectURIs": ["com.example.app:/cb"]}}"#,
                "identityProviders.g.clientKeyId (SOURCE): only used with clientPrivateKeyFile (the assertion's kid)"
            ),
            (
                #"{"c": {"clientId": "c", "clientSecret": "s", "redirectURIs": ["com.example.app:/cb"]}}"#,
                "identityProviders.c.discoveryURL (SOURCE): missing; give discoveryURL, or authorizationURL and tokenURL"
            ),
            (
                #"{"c": {"clientId": "c", "clientSecret": "s", "redirectURIs": ["com.example.app:/cb"], "discoveryURL": "https://c.example/.well-known/openid-configuration", "tokenURL": "https://c.example/t"}}"#,
                "identityProviders.c.tokenURL (SOURCE): give either discoveryURL or explicit endpoints, not both"
            ),
            (
                #"{"c": {"clientId": "c", "clientSecret": "s", "redirectURIs": ["com.example.app:/cb"], "authorizationURL": "https://c.example/a"}}"#,
                "identityProviders.c.tokenURL (SOURCE): missing; explicit endpoints need authorizationURL and tokenURL"
            ),
            (
                #"{"c": {"clientId": "c", "clientSecret": "s", "redirectURIs": ["com.example.app:/cb"], "authorizationURL": "https://c.example/a", "tokenURL": "https://c.example/t", "scopes": ["x"]}}"#,
                "identityProviders.c.userInfoURL (SOURCE): missing; a provider without ID tokens (no issuers and "
                    + "jwksURL) is read from its user-info endpoint"
            ),
            (
                #"{"c": {"clientId": "c", "clientSecret": "s", "redirectURIs": ["com.example.app:/cb"], "authorizationURL": "https://c.example/a", "tokenURL": "https://c.example/t", "userInfoURL": "https://c.example/u"}}"#,
                "identityProviders.c.scopes (SOURCE): missing; list the scopes to request (explicit endpoints have no "
                    + "default)"
            ),
            (
                #"{"c": {"clientId": "c", "clientSecret": "s", "redirectURIs": ["com.example.app:/cb"], "discoveryURL": "http://c.example/d"}}"#,
                #"identityProviders.c.discoveryURL (SOURCE): expected an https URL (http only to localhost, 127.0.0.1 or ::1), got "http://c.example/d""#
            ),
            (
                #"{"a": {"preset": "google", "audiences": ["x", "y"]}, "b": {"issuers": ["accounts.google.com"], "jwksURL": "https://k.example/", "audiences": ["y"]}}"#,
                #"identityProviders.b.audiences (SOURCE): shares issuer "accounts.google.com" and audience "y" with a: one ID token would sign in through either; give each provider its own audiences"#
            ),
            (
                #"{"g": {"preset": "github", "clientId": "c", "clientSecret": "s", "scopes": ["read user"], "redirectURIs": ["com.example.app:/cb"]}}"#,
                #"identityProviders.g.scopes (SOURCE): item 1 is not a scope token (printable ASCII without spaces, quotes or \)"#
            ),
            (
                #"{"g": {"preset": "github", "clientId": "c", "clientSecrets": "s", "redirectURIs": ["com.example.app:/cb"]}}"#,
                "identityProviders.g.clientSecrets: unknown configuration key (in SOURCE); did you mean "
                    + "identityProviders.g.clientSecret?"
            ),
        ])
    func refused(json: String, expected: String) throws {
        let fixture = try ConfigurationFixture()
        let error = try #require(
            fixture.error(environment: Self.publicURL.merging(["TOKENVEND_IDENTITY_PROVIDERS": json]) { $1 }))
        #expect(error.description == expected.replacing("SOURCE", with: "TOKENVEND_IDENTITY_PROVIDERS"))
        #expect(!error.description.contains("\n"))
        let file = try fixture.write("c.json", #"{"identityProviders": "# + json + "}")
        let fromFile = try #require(fixture.error(file: file, environment: Self.publicURL))
        #expect(fromFile.description == expected.replacing("SOURCE", with: file))
    }

    @Test("server.publicURL is required with a browser provider and must be https (or loopback) without a query")
    func publicURL() throws {
        let github =
            #"{"github": {"preset": "github", "clientId": "c", "clientSecret": "s", "redirectURIs": ["com.example.app:/cb"]}}"#
        let fixture = try ConfigurationFixture()
        #expect(
            fixture.error(environment: ["TOKENVEND_IDENTITY_PROVIDERS": github])?.description
                == "server.publicURL: missing; identityProviders.github signs in through the browser, whose callback "
                + "URL is built from it (such as https://auth.example.com)")
        let loopback = try fixture.resolve(environment: [
            "TOKENVEND_IDENTITY_PROVIDERS": github, "TOKENVEND_SERVER_PUBLIC_URL": "http://127.0.0.1:8080",
        ])
        #expect(loopback.publicURL == "http://127.0.0.1:8080")
        for bad in ["http://auth.example.com", "https://auth.example.com/?a=b", "https://auth.example.com/#f", "auth"] {
            let error = fixture.error(environment: ["TOKENVEND_SERVER_PUBLIC_URL": bad])
            #expect(
                error?.description.hasPrefix(
                    "server.publicURL (TOKENVEND_SERVER_PUBLIC_URL): expected an https URL without query or fragment")
                    == true, "\(bad)")
        }
    }
}
