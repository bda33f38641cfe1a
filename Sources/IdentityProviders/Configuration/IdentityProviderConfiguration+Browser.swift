import JWT
import StrictJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension IdentityProviderConfiguration {
    /// The browser client of the entry whose members `given` returns (`clientId` is given). Every error names the
    /// member; secrets and key files are read here and never shown.
    /// - Parameters:
    ///   - issuers: the entry's issuers (given or the preset's): the first is the discovery document's expected
    ///     issuer, and with `jwksURL` explicit endpoints may verify ID tokens without a user-info URL.
    static func browserClient(
        name: String, given: (String) -> JSONValue?, preset: IdentityProviderPreset?, issuers: [String]?,
        jwksURL: String?, readFile: (String) throws -> String
    ) throws(IdentityProviderConfigurationError) -> BrowserClientConfiguration {
        func member(_ member: String) -> Member { Member(path: "\(name).\(member)") }
        func read(_ file: String) throws(IdentityProviderConfigurationError) -> String {
            let path = try member(file).string(given(file) ?? .null)
            do {
                return try readFile(path)
            } catch {
                throw member(file).fail("\(error)")
            }
        }
        let clientId = try member("clientId").string(given("clientId") ?? .null)
        let credentials = ["clientSecret", "clientSecretFile", "clientPrivateKeyFile"].filter { given($0) != nil }
        guard let credential = credentials.first else {
            throw member("clientSecret").fail("missing; give clientSecret, clientSecretFile or clientPrivateKeyFile")
        }
        guard credentials.count == 1 else {
            throw member(credentials[1]).fail("give only one of clientSecret, clientSecretFile, clientPrivateKeyFile")
        }
        var secret: String?
        var privateKey: String?
        switch credential {
        case "clientSecret": secret = try member(credential).secret(given(credential) ?? .null)
        case "clientSecretFile": secret = try read(credential)
        default: privateKey = try clientPrivateKey(read(credential), member: member(credential), given: given)
        }
        var keyId: String?
        if let value = given("clientKeyId") {
            guard privateKey != nil else {
                throw member("clientKeyId").fail("only used with clientPrivateKeyFile (the assertion's kid)")
            }
            keyId = try member("clientKeyId").string(value)
        }
        var method = privateKey == nil ? "client_secret_basic" : "private_key_jwt"
        if let value = given("clientAuthentication") {
            let names = ["client_secret_basic", "client_secret_post", "private_key_jwt"]
            method = try member("clientAuthentication").choice(value, of: names)
            if (method == "private_key_jwt") != (privateKey != nil) {
                throw member("clientAuthentication").fail(
                    method == "private_key_jwt"
                        ? "private_key_jwt needs clientPrivateKeyFile, not a client secret"
                        : "\(method) needs clientSecret or clientSecretFile, not clientPrivateKeyFile")
            }
        }
        let clientCredential: ClientCredential =
            if let privateKey { .privateKey(pem: privateKey, keyId: keyId) } else if method == "client_secret_post" {
                .secretPost(secret ?? "")
            } else { .secretBasic(secret ?? "") }
        let presetDefaults = preset?.defaults.browser
        let endpoints = try browserEndpoints(
            name: name, given: given, presetEndpoints: presetDefaults?.endpoints, issuers: issuers,
            sendsIDTokens: issuers != nil && jwksURL != nil)
        let scopes: [String]
        if let value = given("scopes") {
            scopes = try scopeList(value, member: member("scopes"))
        } else if let presetDefaults, presetDefaults.endpoints == endpoints {
            scopes = presetDefaults.scopes
        } else if case .discovery = endpoints {
            scopes = IdentityProviderPreset.openIDScopes
        } else {
            throw member("scopes").fail("missing; list the scopes to request (explicit endpoints have no default)")
        }
        guard let redirectValue = given("redirectURIs") else {
            throw member("redirectURIs").fail("missing; list the app redirect URIs a sign-in may return to")
        }
        let redirects = try member("redirectURIs").stringList(redirectValue)
        for (index, uri) in redirects.enumerated() {
            try redirectURI(uri, item: index + 1, member: member("redirectURIs"))
        }
        var filled = endpoints
        if case .explicit(let authorization, let token, let userInfo, _, _) = endpoints, let issuers, let jwksURL {
            filled = .explicit(
                authorizationURL: authorization, tokenURL: token, userInfoURL: userInfo, issuer: issuers.first,
                jwksURL: jwksURL)
        }
        return BrowserClientConfiguration(
            clientId: clientId, credential: clientCredential, scopes: scopes, endpoints: filled,
            redirectURIs: redirects)
    }

    private static func browserEndpoints(
        name: String, given: (String) -> JSONValue?, presetEndpoints: BrowserProvider.Endpoints?,
        issuers: [String]?, sendsIDTokens: Bool
    ) throws(IdentityProviderConfigurationError) -> BrowserProvider.Endpoints {
        func member(_ member: String) -> Member { Member(path: "\(name).\(member)") }
        let explicitNames = ["authorizationURL", "tokenURL", "userInfoURL"].filter { given($0) != nil }
        if let value = given("discoveryURL") {
            if let explicit = explicitNames.first {
                throw member(explicit).fail("give either discoveryURL or explicit endpoints, not both")
            }
            let url = try member("discoveryURL").url(value)
            return .discovery(url: url, issuer: issuers?.first ?? issuer(ofDiscoveryURL: url))
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
        let userInfo = try given("userInfoURL").map { (value) throws(IdentityProviderConfigurationError) in
            try member("userInfoURL").url(value)
        }
        if userInfo == nil, !sendsIDTokens {
            throw member("userInfoURL").fail(
                "missing; a provider without ID tokens (no issuers and jwksURL) is read from its user-info endpoint")
        }
        return .explicit(
            authorizationURL: try member("authorizationURL").url(authorization),
            tokenURL: try member("tokenURL").url(token), userInfoURL: userInfo, issuer: nil, jwksURL: nil)
    }

    /// The issuer a discovery URL implies (OIDC Discovery §4): the URL without `/.well-known/openid-configuration`.
    public static func issuer(ofDiscoveryURL url: String) -> String {
        let suffix = "/.well-known/openid-configuration"
        return url.hasSuffix(suffix) ? String(url.dropLast(suffix.count)) : url
    }

    /// A non-empty list of scope tokens (RFC 6749 §3.3: printable ASCII without space, `"` or `\`).
    static func scopeList(_ value: JSONValue, member: Member) throws(IdentityProviderConfigurationError) -> [String] {
        let scopes = try member.stringList(value)
        for (index, scope) in scopes.enumerated()
        where !scope.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            throw member.fail("item \(index + 1) is not a scope token (printable ASCII without spaces, quotes or \\)")
        }
        return scopes
    }

    /// An app redirect URI: a private-use scheme with a dot (`com.example.app:/cb`, RFC 8252 §7.1), https, or
    /// loopback http to `127.0.0.1` or `[::1]` (§7.3); never `localhost` (§8.3), other http, or a fragment.
    static func redirectURI(_ text: String, item: Int, member: Member) throws(IdentityProviderConfigurationError) {
        let shown = JSONValue.string(text).summary
        guard let colon = text.firstIndex(of: ":"), !text.contains("#"),
            !text.contains(where: { $0.isWhitespace || !$0.isASCII }), text.index(after: colon) != text.endIndex
        else {
            throw member.fail("item \(item) \(shown) is not an absolute URI without a fragment")
        }
        let scheme = text[..<colon].lowercased()
        let schemeBytes = Array(scheme.utf8)
        guard let first = schemeBytes.first, (0x61...0x7A).contains(first),
            schemeBytes.allSatisfy({
                (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
            })
        else { throw member.fail("item \(item) \(shown) has no valid scheme") }
        switch scheme {
        case "https":
            guard let url = URL(string: text), let host = url.host, !host.isEmpty, url.user == nil else {
                throw member.fail("item \(item) \(shown) is not an https URL with a host")
            }
        case "http":
            let host = URL(string: text)?.host?.lowercased() ?? ""
            if host == "localhost" {
                throw member.fail(
                    "item \(item) \(shown): use http://127.0.0.1 or http://[::1], not localhost (RFC 8252 §8.3)")
            }
            guard ["127.0.0.1", "::1", "[::1]"].contains(host), URL(string: text)?.user == nil else {
                throw member.fail("item \(item) \(shown): http only to 127.0.0.1 or [::1] (loopback, RFC 8252 §7.3)")
            }
        default:
            guard scheme.contains(".") else {
                throw member.fail(
                    "item \(item) \(shown): a private-use scheme needs a dot, such as com.example.app (RFC 8252 §7.1)")
            }
        }
    }

    /// A `clientPrivateKeyFile`'s text: a PEM P-256 private key (the assertion is ES256; the JWT library signs no
    /// RSA). Never shows the key.
    private static func clientPrivateKey(
        _ pem: String, member: Member, given: (String) -> JSONValue?
    ) throws(IdentityProviderConfigurationError) -> String {
        let path = given("clientPrivateKeyFile")?.stringValue ?? ""
        guard pem.hasPrefix("-----BEGIN"), pem.contains("PRIVATE KEY") else {
            throw member.fail("\"\(path)\" is not a PEM private key (-----BEGIN PRIVATE KEY-----)")
        }
        if let key = try? JWTKey(kid: "client", algorithm: .es256, pem: pem), key.canSign { return pem }
        throw member.fail("\"\(path)\" holds no usable P-256 private key (ES256; RSA keys cannot sign assertions here)")
    }
}
