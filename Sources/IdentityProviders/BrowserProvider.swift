public import JWT
import OutboundHTTP

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One identity provider configured for the browser flow (OAuth 2.0 authorization code + PKCE, OpenID Connect when
/// it issues ID tokens): builds the authorization URL and turns the code the provider returns into a
/// `ProviderIdentity`.
///
/// Endpoints come from the discovery document (cached in the shared `DiscoveryCache`) or from the configuration.
/// An ID token is verified by the existing `IDTokenVerifier` (issuer, `aud` among `audiences`, signature from the
/// provider's JWKS through the shared `ProviderKeyCache`, `exp`/`iat`, nonce `.raw` = the flow's nonce); without
/// one, the user-info endpoint is asked with the access token (GitHub).
///
/// ```swift
/// let google = try BrowserProvider(
///     name: "google", clientId: "1234.apps.googleusercontent.com", authentication: .secretBasic(secret),
///     scopes: ["openid", "email", "profile"], callbackURL: "https://auth.example.com/auth/oauth/google/callback",
///     endpoints: .discovery(url: "https://accounts.google.com/.well-known/openid-configuration",
///                           issuer: "https://accounts.google.com"),
///     http: CurlOAuthClient(), discovery: discoveryCache, keys: keyCache)
/// let url = try await google.authorizationURL(state: state, nonce: nonce, codeChallenge: challenge)
/// let who = try await google.identity(code: code, codeVerifier: verifier, nonce: nonce, now: Date())
/// ```
public struct BrowserProvider: Sendable {
    /// Where the provider's endpoints come from.
    public enum Endpoints: Sendable, Equatable {
        /// An OpenID Connect discovery document at `url`, whose `issuer` must be `issuer`.
        case discovery(url: String, issuer: String)
        /// Configured endpoints; `issuer` and `jwksURL` (both or neither) allow ID tokens to be verified.
        case explicit(
            authorizationURL: String, tokenURL: String, userInfoURL: String?, issuer: String?, jwksURL: String?)
    }

    /// Seconds a caller is told to wait when the token or user-info endpoint cannot be reached or answers 5xx: 10.
    public static let retryAfterSeconds = 10

    /// The configuration name, also the `provider` of identities.
    public let name: String
    /// The OAuth client id tokenvend is registered under.
    public let clientId: String
    /// How tokenvend authenticates at the token endpoint.
    public let authentication: ClientAuthentication
    /// The scopes requested, sent space-separated.
    public let scopes: [String]
    /// tokenvend's redirect URI registered at the provider (`<server.publicURL>/auth/oauth/<name>/callback`).
    public let callbackURL: String
    /// Where the endpoints come from.
    public let endpoints: Endpoints
    /// The accepted ID-token `aud` values. Default: `[clientId]`.
    public let audiences: [String]
    /// The accepted ID-token algorithms (RS256 and/or ES256). Default: RS256.
    public let algorithms: Set<JWTAlgorithm>
    /// The oldest ID-token `iat` accepted. Default: `IdentityProvider.defaultMaxTokenAge` (10 minutes).
    public let maxTokenAge: Duration

    let http: any OAuthHTTPClient
    let discovery: DiscoveryCache
    let keys: ProviderKeyCache

    /// Creates a provider, checking every member.
    ///
    /// - Parameters:
    ///   - audiences: Default (`nil`): `[clientId]`.
    ///   - algorithms: Default: RS256.
    ///   - maxTokenAge: Default: 10 minutes.
    ///   - http: The outgoing HTTP client (`CurlOAuthClient` in the server).
    ///   - discovery: The shared discovery cache (it must use the same client or an equivalent one).
    ///   - keys: The shared key cache of the native flow.
    /// - Throws: `BrowserProviderError` naming the first member refused.
    public init(
        name: String, clientId: String, authentication: ClientAuthentication, scopes: [String], callbackURL: String,
        endpoints: Endpoints, audiences: [String]? = nil, algorithms: Set<JWTAlgorithm> = [.rs256],
        maxTokenAge: Duration = IdentityProvider.defaultMaxTokenAge, http: any OAuthHTTPClient,
        discovery: DiscoveryCache, keys: ProviderKeyCache
    ) throws(BrowserProviderError) {
        guard !name.isEmpty else { throw .emptyName }
        guard !clientId.isEmpty else { throw .emptyClientId }
        switch authentication {
        case .secretBasic(let secret), .secretPost(let secret):
            guard !secret.isEmpty else { throw .emptySecret }
        case .privateKeyJWT(let key):
            guard key.canSign, key.algorithm == .es256 || key.algorithm == .rs256 else { throw .keyCannotSign }
        }
        guard !scopes.isEmpty, scopes.allSatisfy(Self.isScopeToken) else { throw .invalidScopes }
        guard OutboundURL.accepts(callbackURL) else { throw .insecureURL("callbackURL") }
        switch endpoints {
        case .discovery(let url, let issuer):
            guard OutboundURL.accepts(url) else { throw .insecureURL("discoveryURL") }
            guard !issuer.isEmpty else { throw .emptyIssuer }
        case .explicit(let authorization, let token, let userInfo, let issuer, let jwks):
            guard OutboundURL.accepts(authorization) else { throw .insecureURL("authorizationURL") }
            guard OutboundURL.accepts(token) else { throw .insecureURL("tokenURL") }
            if let userInfo, !OutboundURL.accepts(userInfo) { throw .insecureURL("userInfoURL") }
            if let jwks, !OutboundURL.accepts(jwks) { throw .insecureURL("jwksURL") }
            guard (issuer == nil) == (jwks == nil), issuer != "" else { throw .issuerWithoutKeys }
        }
        let audiences = audiences ?? [clientId]
        guard !audiences.isEmpty, !audiences.contains("") else { throw .noAudiences }
        guard !algorithms.isEmpty, algorithms.isSubset(of: IdentityProvider.supportedAlgorithms) else {
            throw .invalidAlgorithms
        }
        guard maxTokenAge > .zero else { throw .nonPositiveMaxTokenAge }
        self.name = name
        self.clientId = clientId
        self.authentication = authentication
        self.scopes = scopes
        self.callbackURL = callbackURL
        self.endpoints = endpoints
        self.audiences = audiences
        self.algorithms = algorithms
        self.maxTokenAge = maxTokenAge
        self.http = http
        self.discovery = discovery
        self.keys = keys
    }

    /// The provider's authorization URL for one flow: `response_type=code`, `client_id`, `redirect_uri` (the
    /// callback), `scope` (space-separated), `state`, `nonce`, `code_challenge`, `code_challenge_method=S256`, each
    /// value percent-encoded (RFC 3986 unreserved set), appended with `&` when the endpoint has a query.
    ///
    /// - Throws: `.providerUnavailable` when the discovery document cannot be had.
    public func authorizationURL(state: String, nonce: String, codeChallenge: String)
        async
        throws(BrowserSignInFailure) -> String
    {
        let base = try await resolvedEndpoints().authorizationURL
        let query = [
            ("response_type", "code"), ("client_id", clientId), ("redirect_uri", callbackURL),
            ("scope", scopes.joined(separator: " ")), ("state", state), ("nonce", nonce),
            ("code_challenge", codeChallenge), ("code_challenge_method", "S256"),
        ]
        .map { "\($0.0)=\(FormEncoding.percentEncode($0.1))" }.joined(separator: "&")
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + query
    }

    /// A scope token (RFC 6749 §3.3): 1* of %x21 / %x23-5B / %x5D-7E.
    static func isScopeToken(_ scope: String) -> Bool {
        !scope.isEmpty
            && scope.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }
}

/// Why a `BrowserProvider` was refused; `description` names the member, never a secret.
public enum BrowserProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyName
    case emptyClientId
    /// The client secret is empty.
    case emptySecret
    /// The `private_key_jwt` key cannot sign (a public key, or RS256: the JWT library signs ES256 only).
    case keyCannotSign
    /// No scope, or one with a space, quote or backslash.
    case invalidScopes
    /// A URL that is not https (or http to loopback); the payload is the member.
    case insecureURL(String)
    /// The discovery issuer is empty.
    case emptyIssuer
    /// An explicit `issuer` without `jwksURL`, or the reverse, or an empty issuer.
    case issuerWithoutKeys
    case noAudiences
    /// Algorithms empty or other than RS256 and ES256.
    case invalidAlgorithms
    case nonPositiveMaxTokenAge

    /// E.g. `tokenURL: https only (http only to loopback)`.
    public var description: String {
        switch self {
        case .emptyName: "the provider name is empty"
        case .emptyClientId: "clientId: required"
        case .emptySecret: "clientSecret: empty"
        case .keyCannotSign: "clientPrivateKeyFile: must be a P-256 private key (ES256)"
        case .invalidScopes: "scopes: at least one, without spaces, quotes or backslashes"
        case .insecureURL(let member): "\(member): https only (http only to loopback)"
        case .emptyIssuer: "issuers: the discovery issuer is empty"
        case .issuerWithoutKeys: "issuers and jwksURL: both or neither"
        case .noAudiences: "audiences: at least one non-empty audience is required"
        case .invalidAlgorithms: "algorithms: RS256 and/or ES256"
        case .nonPositiveMaxTokenAge: "maxTokenAgeSeconds: must be positive"
        }
    }
}
