import JWT

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ConfigurationValueCheck {
    /// The members of an `identityProviders.<name>` entry that belong to the browser flow; any of them needs
    /// `clientId`.
    static let browserProviderMembers = [
        "authorizationURL", "clientAuthentication", "clientId", "clientKeyId", "clientPrivateKeyFile", "clientSecret",
        "clientSecretFile", "discoveryURL", "redirectURIs", "scopes", "tokenURL", "userInfoURL",
    ]

    /// The browser settings of the entry whose members `given` returns (`clientId` is given). Every error names
    /// the member; secrets and key files are read here and never shown.
    /// - Parameters:
    ///   - issuers: the entry's `issuers`, if given: the first is the discovery document's expected issuer.
    ///   - sendsIDTokens: true when `issuers` and `jwksURL` are known, so explicit endpoints need no user-info URL.
    func browserSettings(
        entryKey: String, given: (String) -> ConfigurationValue?,
        preset: TokenServiceConfiguration.IdentityProviderSettings.Preset?, issuers: [String]?, sendsIDTokens: Bool
    ) throws(ConfigurationError) -> TokenServiceConfiguration.IdentityProviderSettings.BrowserSettings {
        typealias Browser = TokenServiceConfiguration.IdentityProviderSettings.BrowserSettings
        func member(_ name: String) -> ConfigurationValueCheck { .init(key: "\(entryKey).\(name)", source: source) }
        let clientId = try member("clientId").string(given("clientId") ?? .null)
        let credentials = ["clientSecret", "clientSecretFile", "clientPrivateKeyFile"].filter { given($0) != nil }
        guard let credential = credentials.first else {
            throw member("clientSecret").fail("missing; give clientSecret, clientSecretFile or clientPrivateKeyFile")
        }
        guard credentials.count == 1 else {
            throw member(credentials[1]).fail("give only one of clientSecret, clientSecretFile, clientPrivateKeyFile")
        }
        var secret: TokenServiceConfiguration.Secret?
        var privateKey: TokenServiceConfiguration.Secret?
        switch credential {
        case "clientSecret": secret = .init(try member(credential).secret(given(credential) ?? .null))
        case "clientSecretFile":
            let check = member(credential)
            secret = try check.secretFile(at: try check.string(given(credential) ?? .null))
        default:
            let check = member(credential)
            privateKey = try check.clientPrivateKey(at: try check.string(given(credential) ?? .null))
        }
        var keyId: String?
        if let value = given("clientKeyId") {
            guard privateKey != nil else {
                throw member("clientKeyId").fail("only used with clientPrivateKeyFile (the assertion's kid)")
            }
            keyId = try member("clientKeyId").string(value)
        }
        var authentication: Browser.ClientAuthentication = privateKey == nil ? .clientSecretBasic : .privateKeyJWT
        if let value = given("clientAuthentication") {
            let names = Browser.ClientAuthentication.allCases.map(\.rawValue)
            let chosen = try member("clientAuthentication").choice(value, of: names)
            authentication = Browser.ClientAuthentication(rawValue: chosen) ?? authentication
            if (authentication == .privateKeyJWT) != (privateKey != nil) {
                throw member("clientAuthentication").fail(
                    authentication == .privateKeyJWT
                        ? "private_key_jwt needs clientPrivateKeyFile, not a client secret"
                        : "\(chosen) needs clientSecret or clientSecretFile, not clientPrivateKeyFile")
            }
        }
        let presetDefaults = preset.flatMap(Browser.defaults(of:))
        let endpoints = try browserEndpoints(
            entryKey: entryKey, given: given, presetEndpoints: presetDefaults?.endpoints, issuers: issuers,
            sendsIDTokens: sendsIDTokens)
        let scopes: [String]
        if let value = given("scopes") {
            scopes = try member("scopes").scopeList(value)
        } else if let presetDefaults, presetDefaults.endpoints == endpoints {
            scopes = presetDefaults.scopes
        } else if case .discovery = endpoints {
            scopes = Browser.openIDScopes
        } else {
            throw member("scopes").fail("missing; list the scopes to request (explicit endpoints have no default)")
        }
        guard let redirectValue = given("redirectURIs") else {
            throw member("redirectURIs").fail("missing; list the app redirect URIs a sign-in may return to")
        }
        let redirects = try member("redirectURIs").stringList(redirectValue)
        for (index, uri) in redirects.enumerated() {
            try member("redirectURIs").redirectURI(uri, item: index + 1)
        }
        return Browser(
            clientId: clientId, clientSecret: secret, clientPrivateKey: privateKey, clientKeyId: keyId,
            clientAuthentication: authentication, scopes: scopes, redirectURIs: redirects, endpoints: endpoints)
    }

    private func browserEndpoints(
        entryKey: String, given: (String) -> ConfigurationValue?,
        presetEndpoints: TokenServiceConfiguration.IdentityProviderSettings.BrowserSettings.Endpoints?,
        issuers: [String]?, sendsIDTokens: Bool
    ) throws(ConfigurationError) -> TokenServiceConfiguration.IdentityProviderSettings.BrowserSettings.Endpoints {
        typealias Browser = TokenServiceConfiguration.IdentityProviderSettings.BrowserSettings
        func member(_ name: String) -> ConfigurationValueCheck { .init(key: "\(entryKey).\(name)", source: source) }
        let explicitNames = ["authorizationURL", "tokenURL", "userInfoURL"].filter { given($0) != nil }
        if let value = given("discoveryURL") {
            if let explicit = explicitNames.first {
                throw member(explicit).fail("give either discoveryURL or explicit endpoints, not both")
            }
            let url = try member("discoveryURL").keySetURL(value)
            return .discovery(url: url, issuer: issuers?.first ?? Browser.issuer(ofDiscoveryURL: url))
        }
        guard !explicitNames.isEmpty else {
            guard let presetEndpoints else {
                throw member("discoveryURL").fail("missing; give discoveryURL, or authorizationURL and tokenURL")
            }
            return presetEndpoints
        }
        guard let authorization = given("authorizationURL") else {
            throw member("authorizationURL").fail("missing; explicit endpoints need authorizationURL and tokenURL")
        }
        guard let token = given("tokenURL") else {
            throw member("tokenURL").fail("missing; explicit endpoints need authorizationURL and tokenURL")
        }
        let userInfo = try given("userInfoURL").map { (value) throws(ConfigurationError) in
            try member("userInfoURL").keySetURL(value)
        }
        if userInfo == nil, !sendsIDTokens {
            throw member("userInfoURL").fail(
                "missing; a provider without ID tokens (no issuers and jwksURL) is read from its user-info endpoint")
        }
        return .explicit(
            authorizationURL: try member("authorizationURL").keySetURL(authorization),
            tokenURL: try member("tokenURL").keySetURL(token), userInfoURL: userInfo)
    }

    /// A non-empty list of scope tokens (RFC 6749 §3.3: printable ASCII without space, `"` or `\`).
    func scopeList(_ value: ConfigurationValue) throws(ConfigurationError) -> [String] {
        let scopes = try stringList(value)
        for (index, scope) in scopes.enumerated()
        where !scope.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            throw fail("item \(index + 1) is not a scope token (printable ASCII without spaces, quotes or \\)")
        }
        return scopes
    }

    /// An app redirect URI: a private-use scheme with a dot (`com.example.app:/cb`, RFC 8252 §7.1), https, or
    /// loopback http to `127.0.0.1` or `[::1]` (§7.3); never `localhost` (§8.3), other http, or a fragment.
    func redirectURI(_ text: String, item: Int) throws(ConfigurationError) {
        let shown = ConfigurationValue.string(text).summary
        guard let colon = text.firstIndex(of: ":"), !text.contains("#"),
            !text.contains(where: { $0.isWhitespace || !$0.isASCII }), text.index(after: colon) != text.endIndex
        else {
            throw fail("item \(item) \(shown) is not an absolute URI without a fragment")
        }
        let scheme = text[..<colon].lowercased()
        let schemeBytes = Array(scheme.utf8)
        guard let first = schemeBytes.first, (0x61...0x7A).contains(first),
            schemeBytes.allSatisfy({
                (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
            })
        else { throw fail("item \(item) \(shown) has no valid scheme") }
        switch scheme {
        case "https":
            guard let url = URL(string: text), let host = url.host, !host.isEmpty, url.user == nil else {
                throw fail("item \(item) \(shown) is not an https URL with a host")
            }
        case "http":
            let host = URL(string: text)?.host?.lowercased() ?? ""
            if host == "localhost" {
                throw fail("item \(item) \(shown): use http://127.0.0.1 or http://[::1], not localhost (RFC 8252 §8.3)")
            }
            guard ["127.0.0.1", "::1", "[::1]"].contains(host), URL(string: text)?.user == nil else {
                throw fail("item \(item) \(shown): http only to 127.0.0.1 or [::1] (loopback, RFC 8252 §7.3)")
            }
        default:
            guard scheme.contains(".") else {
                throw fail(
                    "item \(item) \(shown): a private-use scheme needs a dot, such as com.example.app (RFC 8252 §7.1)")
            }
        }
    }

    /// `server.publicURL`: an absolute URL, https unless the host is loopback, without credentials, query or
    /// fragment. Returns it without a trailing `/`.
    func publicURL(_ value: ConfigurationValue) throws(ConfigurationError) -> String {
        let text = try string(value).trimmingWhitespace
        let expected = "expected an https URL without query or fragment (http only to localhost, 127.0.0.1 or ::1)"
        guard let url = MossConfiguration.parseAuthURL(text), url.user == nil, url.password == nil,
            url.query == nil, url.fragment == nil, !text.contains("?"), !text.contains("#")
        else { throw fail("\(expected), got \(value.summary)") }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// Reads `clientPrivateKeyFile`: a PEM P-256 private key (the assertion is ES256; the JWT library signs no RSA).
    /// Never shows the key.
    func clientPrivateKey(at path: String) throws(ConfigurationError) -> TokenServiceConfiguration.Secret {
        let pem = try secretFile(at: path)
        guard pem.value.hasPrefix("-----BEGIN"), pem.value.contains("PRIVATE KEY") else {
            throw fail("\"\(path)\" is not a PEM private key (-----BEGIN PRIVATE KEY-----)")
        }
        if let key = try? JWTKey(kid: "client", algorithm: .es256, pem: pem.value), key.canSign { return pem }
        throw fail("\"\(path)\" holds no usable P-256 private key (ES256; RSA keys cannot sign assertions here)")
    }
}
