import Foundation
import IdentityProviders
import IdentityProvidersTesting
import JWT
import StrictJSON
import Testing

/// Parses an `identityProviders` section as the service's loader hands it over; `files` are the secret files.
func parseProviders(_ json: String, files: [String: String] = [:]) throws -> [ConfiguredProvider] {
    struct NoSuchFile: Error, CustomStringConvertible {
        let path: String
        var description: String { "cannot read secret file \"\(path)\": no such file" }
    }
    return try IdentityProviderConfiguration.parse(section: JSONParser.parse(Array(json.utf8))) { path in
        guard let text = files[path] else { throw NoSuchFile(path: path) }
        return text
    }
}

/// The error `parseProviders` throws for `json`.
func providerError(_ json: String, files: [String: String] = [:]) -> IdentityProviderConfigurationError? {
    do {
        _ = try parseProviders(json, files: files)
        return nil
    } catch let error as IdentityProviderConfigurationError {
        return error
    } catch {
        return nil
    }
}

@Suite struct IdentityProviderConfigurationTests {
    @Test("a preset fills issuers, key URL, nonce mode and algorithms; given members replace them")
    func presets() throws {
        let providers = try parseProviders(
            #"""
            {"google": {"preset": "google", "audiences": ["123.apps.googleusercontent.com"],
                        "jwksURL": "http://127.0.0.1:9999/certs", "nonce": "raw-or-sha256"},
             "apple": {"preset": "apple", "audiences": ["com.example.app", "com.example.web"]}}
            """#)
        #expect(providers.map(\.name) == ["apple", "google"])
        #expect(
            providers[0].native
                == (try IdentityProvider.apple(audiences: ["com.example.app", "com.example.web"])))
        #expect(providers[0].preset == .apple)
        #expect(providers[0].browser == nil)
        let google = try #require(providers[1].native)
        #expect(google.issuers == ["https://accounts.google.com", "accounts.google.com"])
        #expect(google.jwksURL == "http://127.0.0.1:9999/certs")
        #expect(google.nonce == .rawOrSHA256)
        #expect(google.algorithms == [.rs256])
    }

    @Test("IdentityProvider.apple() and .google() are the presets' values")
    func libraryPresets() throws {
        for (preset, provider) in [
            (IdentityProviderPreset.apple, try IdentityProvider.apple(audiences: ["a"])),
            (.google, try IdentityProvider.google(audiences: ["a"])),
        ] {
            let defaults = preset.defaults
            #expect(provider.name == preset.rawValue)
            #expect(provider.issuers == defaults.issuers)
            #expect(provider.jwksURL == defaults.jwksURL)
            #expect(provider.nonce == defaults.nonce)
            #expect(provider.algorithms == Set(defaults.algorithms))
        }
        #expect(throws: IdentityProviderError.noIssuers) {
            try IdentityProvider(name: "github", preset: .github, audiences: ["a"])
        }
    }

    @Test("an explicit provider without a preset gives issuers and jwksURL itself")
    func explicitProvider() throws {
        let corp = try #require(
            try parseProviders(
                #"""
                {"corp": {"issuers": ["https://id.corp.example"], "jwksURL": "https://id.corp.example/jwks",
                          "audiences": ["app"], "nonce": "raw", "algorithms": ["ES256", "RS256"]}}
                """#
            ).first)
        #expect(corp.preset == nil)
        #expect(
            corp.native
                == (try IdentityProvider(
                    name: "corp", issuers: ["https://id.corp.example"], jwksURL: "https://id.corp.example/jwks",
                    audiences: ["app"], nonce: .raw, algorithms: [.es256, .rs256])))
        #expect(corp.algorithms == [.es256, .rs256])
    }

    @Test("tenant is read for presets, custom and browser providers, 128 bytes and multibyte included; default none")
    func tenant() throws {
        let longest = String(repeating: "é", count: 64)
        let providers = try parseProviders(
            #"""
            {"apple": {"preset": "apple", "audiences": ["a"], "tenant": "acme"},
             "corp": {"issuers": ["https://id.corp.example"], "jwksURL": "https://id.corp.example/jwks",
                      "audiences": ["c"], "tenant": "\#(longest)"},
             "google": {"preset": "google", "audiences": ["g"], "tenant": null},
             "github": {"preset": "github", "clientId": "gh", "clientSecret": "gh-secret",
                        "redirectURIs": ["com.example.app:/oauth"], "tenant": "initech"}}
            """#)
        #expect(providers.map(\.tenant) == ["acme", longest, "initech", nil])
    }

    @Test(
        "a bad entry is refused naming the member path and the reason",
        arguments: [
            (#"{"apple": {"preset": "apple"}}"#, "apple.audiences", "missing; list the app's bundle id"),
            (#"{"apple": {"preset": "apple", "audiences": []}}"#, "apple.audiences", "expected at least one string"),
            (
                #"{"apple": {"preset": "apple", "audiences": ["a"], "jwksURL": "http://keys.example/jwks"}}"#,
                "apple.jwksURL", "expected an https URL (http only to localhost, 127.0.0.1 or ::1)"
            ),
            (
                #"{"apple": {"preset": "apple", "audiences": ["a"], "algorithms": ["HS256"]}}"#, "apple.algorithms",
                #""HS256" is never accepted for ID tokens"#
            ),
            (
                #"{"apple": {"preset": "facebook", "audiences": ["a"]}}"#, "apple.preset",
                "expected one of apple, google"
            ),
            (
                #"{"corp": {"audiences": ["a"], "jwksURL": "https://k.example/"}}"#, "corp.issuers",
                "missing; give issuers"
            ),
            (#"{"Apple!": {"preset": "apple", "audiences": ["a"]}}"#, "", #"provider name "Apple!" must be"#),
            (#"{"apple": "yes"}"#, "apple", "expected an object, got a string"),
            (#"{"apple": {"preset": "apple", "audiences": ["a"], "tenant": ""}}"#, "apple.tenant", "got 0 bytes"),
            (
                #"{"g": {"preset": "github", "clientId": "c", "redirectURIs": ["com.example.app:/cb"]}}"#,
                "g.clientSecret", "missing; give clientSecret, clientSecretFile or clientPrivateKeyFile"
            ),
            (
                #"{"g": {"preset": "github", "clientId": "c", "clientSecret": "s", "redirectURIs": ["myapp:/cb"]}}"#,
                "g.redirectURIs", "a private-use scheme needs a dot"
            ),
            (
                #"{"a": {"preset": "google", "audiences": ["x", "y"]}, "b": {"issuers": ["accounts.google.com"], "jwksURL": "https://k.example/", "audiences": ["y"]}}"#,
                "b.audiences", #"shares issuer "accounts.google.com" and audience "y" with a"#
            ),
            ("[]", "", "expected an object of providers"),
        ])
    func refused(json: String, path: String, reason: String) throws {
        let error = try #require(providerError(json))
        #expect(error.path == path)
        guard case .invalid(_, let text) = error else {
            Issue.record("not an invalid value: \(error)")
            return
        }
        #expect(text.hasPrefix(reason) || text.contains(reason), "\(text)")
        #expect(!text.contains("\n"))
    }

    @Test("an unknown member is refused with the members allowed, for the service's did-you-mean")
    func unknownMember() throws {
        let error = providerError(#"{"apple": {"preset": "apple", "audiences": ["a"], "tenants": "acme"}}"#)
        #expect(error == .unknownMember(path: "apple.tenants", allowed: IdentityProviderConfiguration.members))
    }
}

@Suite struct BrowserProviderConfigurationTests {
    @Test("the github preset fills GitHub's endpoints, user-info URL and scopes; it is browser only")
    func githubPreset() throws {
        let github = try #require(
            try parseProviders(
                #"{"github": {"preset": "github", "clientId": "Iv1.abc", "clientSecret": "gh-secret", "redirectURIs": ["com.example.app:/oauth"]}}"#
            ).first)
        #expect(github.native == nil)
        #expect(github.audiences == ["Iv1.abc"])
        #expect(
            github.browser
                == BrowserClientConfiguration(
                    clientId: "Iv1.abc", credential: .secretBasic("gh-secret"), scopes: ["read:user", "user:email"],
                    endpoints: .explicit(
                        authorizationURL: "https://github.com/login/oauth/authorize",
                        tokenURL: "https://github.com/login/oauth/access_token",
                        userInfoURL: "https://api.github.com/user", issuer: nil, jwksURL: nil),
                    redirectURIs: ["com.example.app:/oauth"]))
        #expect(!String(describing: github).contains("gh-secret"))
        #expect(!String(reflecting: github).contains("gh-secret"))
    }

    @Test("google and gitlab presets use discovery, keep signing in native tokens, and request openid scopes")
    func discoveryPresets() throws {
        let providers = try parseProviders(
            #"""
            {"google": {"preset": "google", "clientId": "web.apps.googleusercontent.com", "clientSecret": "g",
                        "audiences": ["ios.apps.googleusercontent.com", "web.apps.googleusercontent.com"],
                        "redirectURIs": ["https://app.example.com/cb", "http://127.0.0.1/cb"]},
             "gitlab": {"preset": "gitlab", "clientId": "gl", "clientSecret": "s", "redirectURIs": ["http://[::1]/cb"],
                        "clientAuthentication": "client_secret_post"}}
            """#)
        let gitlab = providers[0]
        let google = providers[1]
        #expect(google.native != nil)
        #expect(
            google.browser?.endpoints
                == .discovery(
                    url: "https://accounts.google.com/.well-known/openid-configuration",
                    issuer: "https://accounts.google.com"))
        #expect(google.browser?.scopes == ["openid", "email", "profile"])
        #expect(gitlab.audiences == ["gl"])
        #expect(gitlab.browser?.credential == .secretPost("s"))
        #expect(
            gitlab.browser?.endpoints
                == .discovery(url: "https://gitlab.com/.well-known/openid-configuration", issuer: "https://gitlab.com"))
    }

    @Test("a discovery URL without issuers expects the issuer the URL names; explicit endpoints need scopes")
    func customProviders() throws {
        let providers = try parseProviders(
            #"""
            {"corp": {"clientId": "c", "clientSecret": "s", "redirectURIs": ["com.example.app:/cb"],
                      "discoveryURL": "https://id.corp.example/tenant/.well-known/openid-configuration"},
             "forge": {"clientId": "f", "clientSecret": "s", "redirectURIs": ["com.example.app:/cb"],
                       "authorizationURL": "https://forge.example/authorize", "tokenURL": "https://forge.example/token",
                       "userInfoURL": "https://forge.example/user", "scopes": ["read"]}}
            """#)
        let corp = providers[0]
        #expect(corp.native == nil)
        #expect(
            corp.browser?.endpoints
                == .discovery(
                    url: "https://id.corp.example/tenant/.well-known/openid-configuration",
                    issuer: "https://id.corp.example/tenant"))
        let forge = providers[1]
        #expect(forge.browser?.scopes == ["read"])
        #expect(
            forge.browser?.endpoints
                == .explicit(
                    authorizationURL: "https://forge.example/authorize", tokenURL: "https://forge.example/token",
                    userInfoURL: "https://forge.example/user", issuer: nil, jwksURL: nil))
    }

    @Test("explicit endpoints of a provider that sends ID tokens carry its first issuer and key URL")
    func explicitWithIDTokens() throws {
        let corp = try #require(
            try parseProviders(
                #"""
                {"corp": {"clientId": "c", "clientSecret": "s", "redirectURIs": ["com.example.app:/cb"],
                          "issuers": ["https://id.corp.example"], "jwksURL": "https://id.corp.example/jwks",
                          "authorizationURL": "https://id.corp.example/a", "tokenURL": "https://id.corp.example/t",
                          "scopes": ["openid"]}}
                """#
            ).first)
        #expect(corp.native != nil)
        #expect(
            corp.browser?.endpoints
                == .explicit(
                    authorizationURL: "https://id.corp.example/a", tokenURL: "https://id.corp.example/t",
                    userInfoURL: nil, issuer: "https://id.corp.example", jwksURL: "https://id.corp.example/jwks"))
    }

    @Test("clientSecretFile and clientPrivateKeyFile are read through readFile and never shown")
    func secretFiles() throws {
        let pem = try JWTKey.generate(kid: "k", algorithm: .es256).privateKeyPEM()
        let json = #"""
            {"a": {"preset": "github", "clientId": "a", "clientSecretFile": "/s", "redirectURIs": ["com.example.app:/cb"]},
             "b": {"clientId": "b", "clientPrivateKeyFile": "/k", "clientKeyId": "key-1", "redirectURIs": ["com.example.app:/cb"],
                   "discoveryURL": "https://b.example/.well-known/openid-configuration"}}
            """#
        let providers = try parseProviders(json, files: ["/s": "file-secret-value", "/k": pem])
        #expect(providers[0].browser?.credential == .secretBasic("file-secret-value"))
        #expect(providers[1].browser?.credential == .privateKey(pem: pem, keyId: "key-1"))
        let shown = String(describing: providers) + String(reflecting: providers)
        #expect(!shown.contains("file-secret-value"))
        #expect(!shown.contains("PRIVATE KEY"))
        let notAKey = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"
        #expect(
            providerError(json, files: ["/s": "x", "/k": notAKey])
                == .invalid(
                    path: "b.clientPrivateKeyFile",
                    reason: "\"/k\" holds no usable P-256 private key (ES256; RSA keys cannot sign assertions here)"))
        #expect(
            providerError(json, files: ["/k": pem])
                == .invalid(path: "a.clientSecretFile", reason: "cannot read secret file \"/s\": no such file"))
    }

    @Test("a configured browser client becomes a browser provider with the entry's audiences and algorithms")
    func makesBrowserProvider() throws {
        let github = try #require(
            try parseProviders(
                #"{"github": {"preset": "github", "clientId": "c", "clientSecret": "s", "redirectURIs": ["com.example.app:/cb"]}}"#
            ).first)
        let client = try #require(github.browser)
        let http = FakeOAuthHTTPClient()
        let provider = try BrowserProvider(
            configured: github, client: client, callbackURL: "https://auth.example.com/auth/oauth/github/callback",
            maxTokenAge: .seconds(60), http: http, discovery: DiscoveryCache(client: http),
            keys: ProviderKeyCache(fetcher: FakeJWKSFetcher()))
        #expect(provider.name == "github")
        #expect(provider.audiences == ["c"])
        #expect(provider.scopes == ["read:user", "user:email"])
        #expect(provider.maxTokenAge == .seconds(60))
    }
}
