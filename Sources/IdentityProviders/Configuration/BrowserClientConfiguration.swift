/// The browser flow's side of one `identityProviders.<name>` entry: the OAuth client tokenvend is at the provider,
/// where the provider's endpoints are, and the app redirect URIs a flow may return to. The service turns it into
/// a ``BrowserProvider`` once its callback URL and HTTP client are known
/// (``BrowserProvider/init(configured:client:callbackURL:maxTokenAge:http:discovery:keys:)``).
public struct BrowserClientConfiguration: Sendable, Equatable {
    /// The OAuth client id tokenvend has at the provider (`clientId`).
    public let clientId: String
    /// How tokenvend authenticates at the token endpoint.
    public let credential: ClientCredential
    /// The scopes requested (`scopes`). Default: the preset's, or `openid email profile` with discovery.
    public let scopes: [String]
    /// Where the endpoints come from; explicit endpoints carry the native issuer and key URL when the provider
    /// sends ID tokens.
    public let endpoints: BrowserProvider.Endpoints
    /// The app redirect URIs a flow may return to (`redirectURIs`), compared exactly.
    public let redirectURIs: [String]

    /// A client with every member given.
    public init(
        clientId: String, credential: ClientCredential, scopes: [String], endpoints: BrowserProvider.Endpoints,
        redirectURIs: [String]
    ) {
        self.clientId = clientId
        self.credential = credential
        self.scopes = scopes
        self.endpoints = endpoints
        self.redirectURIs = redirectURIs
    }
}

/// The client credential of the browser flow as configured: a secret, or a PEM P-256 private key. Its
/// descriptions and mirror never show the secret or the key.
public enum ClientCredential: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// `client_secret_basic` with this secret.
    case secretBasic(String)
    /// `client_secret_post` with this secret.
    case secretPost(String)
    /// `private_key_jwt` with this PEM key; `keyId` is the assertion's `kid` (nil: the client id).
    case privateKey(pem: String, keyId: String?)

    /// The configuration spelling: `client_secret_basic`, `client_secret_post` or `private_key_jwt`.
    public var method: String {
        switch self {
        case .secretBasic: "client_secret_basic"
        case .secretPost: "client_secret_post"
        case .privateKey: "private_key_jwt"
        }
    }

    /// `ClientCredential(<method>)`; never the secret or key.
    public var description: String { "ClientCredential(\(method))" }
    /// Same as ``description``.
    public var debugDescription: String { description }
    /// The method only.
    public var customMirror: Mirror { Mirror(self, children: ["method": method]) }
}
