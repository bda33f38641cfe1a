public import JWT

/// One identity provider whose ID tokens tokenvend accepts (the native flow: the app signs in with the provider's
/// SDK and sends the ID token), e.g. Sign in with Apple or Google.
///
/// A value is checked when it is made: at least one issuer and one audience, a key URL, and only RS256 and ES256
/// among the algorithms (never `none` or HS*: an HMAC "key" would be the provider's public key bytes). The browser
/// flow of a later round will add its own members (client id and secret, scopes, redirect URIs, discovery URL)
/// beside these.
///
/// ```swift
/// let apple = try IdentityProvider.apple(audiences: ["com.example.app"])
/// let google = try IdentityProvider.google(audiences: ["1234-ios.apps.googleusercontent.com"])
/// ```
public struct IdentityProvider: Sendable, Equatable {
    /// The algorithms a provider may allow: RS256 and ES256.
    public static let supportedAlgorithms: Set<JWTAlgorithm> = [.rs256, .es256]
    /// The default `maxTokenAge`: 10 minutes (an Apple ID token lives 10 minutes; a Google one an hour, but an app
    /// that signs in sends it at once).
    public static let defaultMaxTokenAge: Duration = .seconds(600)

    /// The configuration name (`identityProviders.<name>`), also the `provider` of the request and of identities.
    public let name: String
    /// The exact `iss` values accepted (Google uses two spellings).
    public let issuers: [String]
    /// The JWK Set URL the keys come from (https; http only to loopback, which the fetcher enforces).
    public let jwksURL: String
    /// The accepted `aud` values: the app's bundle id (Apple), OAuth client ids (Google).
    public let audiences: [String]
    /// How the token's `nonce` relates to the nonce the app sends.
    public let nonce: NonceMode
    /// The `alg` values accepted; a subset of `supportedAlgorithms`.
    public let algorithms: Set<JWTAlgorithm>
    /// How old (by `iat`) a token may be. Default: `defaultMaxTokenAge` (10 minutes).
    public let maxTokenAge: Duration

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - name: The provider's name; not empty.
    ///   - issuers: Exact `iss` values; at least one, none empty.
    ///   - jwksURL: Where its keys are published; not empty.
    ///   - audiences: Accepted `aud` values; at least one, none empty.
    ///   - nonce: The nonce mode. Default: `.sha256`.
    ///   - algorithms: Allowed `alg` values, RS256 and/or ES256. Default: RS256.
    ///   - maxTokenAge: The oldest `iat` accepted; positive. Default: 10 minutes.
    /// - Throws: `IdentityProviderError` naming the first member that is refused.
    public init(
        name: String,
        issuers: [String],
        jwksURL: String,
        audiences: [String],
        nonce: NonceMode = .sha256,
        algorithms: Set<JWTAlgorithm> = [.rs256],
        maxTokenAge: Duration = IdentityProvider.defaultMaxTokenAge
    ) throws(IdentityProviderError) {
        guard !name.isEmpty else { throw .emptyName }
        guard !issuers.isEmpty, !issuers.contains("") else { throw .noIssuers }
        guard !jwksURL.isEmpty else { throw .noJWKSURL }
        guard !audiences.isEmpty, !audiences.contains("") else { throw .noAudiences }
        guard !algorithms.isEmpty else { throw .noAlgorithms }
        if let refused = algorithms.subtracting(Self.supportedAlgorithms).map(\.name).sorted().first {
            throw .algorithmNotAllowed(refused)
        }
        guard maxTokenAge > .zero else { throw .nonPositiveMaxTokenAge }
        self.name = name
        self.issuers = issuers
        self.jwksURL = jwksURL
        self.audiences = audiences
        self.nonce = nonce
        self.algorithms = algorithms
        self.maxTokenAge = maxTokenAge
    }

    /// Sign in with Apple: issuer `https://appleid.apple.com`, keys `https://appleid.apple.com/auth/keys`, nonce
    /// `.sha256` (Apple puts the SHA-256 of the nonce the app passed to `ASAuthorizationAppleIDRequest`), RS256.
    ///
    /// - Parameters:
    ///   - name: Default: `"apple"`.
    ///   - audiences: The app's bundle id (and the Services ID for the web); at least one.
    ///   - jwksURL: Default (`nil`): Apple's key URL (tests point it at a loopback server).
    ///   - maxTokenAge: Default: 10 minutes.
    /// - Throws: `IdentityProviderError` as `init`.
    public static func apple(
        name: String = "apple",
        audiences: [String],
        jwksURL: String? = nil,
        maxTokenAge: Duration = IdentityProvider.defaultMaxTokenAge
    ) throws(IdentityProviderError) -> IdentityProvider {
        try IdentityProvider(
            name: name, preset: .apple, audiences: audiences, jwksURL: jwksURL, maxTokenAge: maxTokenAge)
    }

    /// Google: issuers `https://accounts.google.com` and `accounts.google.com`, keys
    /// `https://www.googleapis.com/oauth2/v3/certs`, nonce `.raw` (Google Sign-In copies the nonce as given), RS256.
    ///
    /// - Parameters:
    ///   - name: Default: `"google"`.
    ///   - audiences: The OAuth client ids of the apps (iOS, Android, web); at least one.
    ///   - jwksURL: Default (`nil`): Google's key URL.
    ///   - maxTokenAge: Default: 10 minutes.
    /// - Throws: `IdentityProviderError` as `init`.
    public static func google(
        name: String = "google",
        audiences: [String],
        jwksURL: String? = nil,
        maxTokenAge: Duration = IdentityProvider.defaultMaxTokenAge
    ) throws(IdentityProviderError) -> IdentityProvider {
        try IdentityProvider(
            name: name, preset: .google, audiences: audiences, jwksURL: jwksURL, maxTokenAge: maxTokenAge)
    }

    /// A provider from `preset`'s values (``IdentityProviderPreset/defaults``).
    ///
    /// - Parameters:
    ///   - jwksURL: Default (`nil`): the preset's key URL.
    /// - Throws: `IdentityProviderError` as `init`, e.g. `.noIssuers` for a browser-only preset (GitHub).
    public init(
        name: String, preset: IdentityProviderPreset, audiences: [String], jwksURL: String? = nil,
        maxTokenAge: Duration = IdentityProvider.defaultMaxTokenAge
    ) throws(IdentityProviderError) {
        let defaults = preset.defaults
        try self.init(
            name: name, issuers: defaults.issuers, jwksURL: jwksURL ?? defaults.jwksURL ?? "", audiences: audiences,
            nonce: defaults.nonce, algorithms: Set(defaults.algorithms), maxTokenAge: maxTokenAge)
    }

    /// The same provider accepting tokens up to `maxTokenAge` old (`identity.maxTokenAgeSeconds`).
    /// - Throws: `.nonPositiveMaxTokenAge` when it is not positive.
    public func withMaxTokenAge(_ maxTokenAge: Duration) throws(IdentityProviderError) -> IdentityProvider {
        try IdentityProvider(
            name: name, issuers: issuers, jwksURL: jwksURL, audiences: audiences, nonce: nonce, algorithms: algorithms,
            maxTokenAge: maxTokenAge)
    }
}

/// Why an `IdentityProvider` was refused; `description` names the member, for a one-line startup error.
public enum IdentityProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name is empty.
    case emptyName
    /// No issuer, or an empty one.
    case noIssuers
    /// No key URL.
    case noJWKSURL
    /// No audience, or an empty one.
    case noAudiences
    /// No algorithm.
    case noAlgorithms
    /// An algorithm other than RS256 and ES256 (e.g. HS256); the payload is its name.
    case algorithmNotAllowed(String)
    /// `maxTokenAge` is zero or negative.
    case nonPositiveMaxTokenAge

    /// E.g. `algorithms: HS256 is not allowed (RS256, ES256 only)`.
    public var description: String {
        switch self {
        case .emptyName: "the provider name is empty"
        case .noIssuers: "issuers: at least one non-empty issuer is required"
        case .noJWKSURL: "jwksURL: required"
        case .noAudiences: "audiences: at least one non-empty audience is required"
        case .noAlgorithms: "algorithms: at least one of RS256, ES256 is required"
        case .algorithmNotAllowed(let name): "algorithms: \(name) is not allowed (RS256, ES256 only)"
        case .nonPositiveMaxTokenAge: "maxTokenAgeSeconds: must be positive"
        }
    }
}
