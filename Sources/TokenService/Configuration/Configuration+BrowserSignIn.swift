extension TokenServiceConfiguration.IdentityProviderSettings {
    /// The browser flow of one provider (`GET /auth/oauth/{provider}`): the OAuth client tokenvend is at the
    /// provider, where the provider's endpoints are, and the app redirect URIs a flow may return to.
    public struct BrowserSettings: Sendable, Equatable {
        /// How tokenvend authenticates at the provider's token endpoint (`clientAuthentication`).
        public enum ClientAuthentication: String, Sendable, Equatable, CaseIterable {
            /// The client secret in HTTP Basic (RFC 6749 §2.3.1); the default with a secret.
            case clientSecretBasic = "client_secret_basic"
            /// The client secret in the form body.
            case clientSecretPost = "client_secret_post"
            /// An RFC 7523 assertion signed with `clientPrivateKeyFile`; the default with a key.
            case privateKeyJWT = "private_key_jwt"
        }

        /// Where the provider's endpoints come from.
        public enum Endpoints: Sendable, Equatable {
            /// An OpenID Connect discovery document, whose `issuer` must equal `issuer` exactly.
            case discovery(url: String, issuer: String)
            /// Endpoints given one by one; without `userInfoURL` the provider must send ID tokens (`issuers`
            /// and `jwksURL` are then required).
            case explicit(authorizationURL: String, tokenURL: String, userInfoURL: String?)
        }

        /// The OAuth client id tokenvend has at the provider (`clientId`).
        public var clientId: String
        /// The client secret (`clientSecret` or `clientSecretFile`); nil with a private key.
        public var clientSecret: TokenServiceConfiguration.Secret?
        /// The PEM private key (P-256) of `clientPrivateKeyFile`; nil with a secret.
        public var clientPrivateKey: TokenServiceConfiguration.Secret?
        /// The `kid` put in the assertion's header (`clientKeyId`); nil for none.
        public var clientKeyId: String?
        /// How the token endpoint is authenticated.
        public var clientAuthentication: ClientAuthentication
        /// The scopes requested (`scopes`). Default: `openid email profile` with discovery, the preset's otherwise.
        public var scopes: [String]
        /// The app redirect URIs a flow may return to (`redirectURIs`), compared exactly, except that a loopback
        /// `http://127.0.0.1/…` or `http://[::1]/…` entry matches any port (RFC 8252 §7.3).
        public var redirectURIs: [String]
        /// The provider's endpoints.
        public var endpoints: Endpoints

        /// A browser setting with every member given.
        public init(
            clientId: String, clientSecret: TokenServiceConfiguration.Secret? = nil,
            clientPrivateKey: TokenServiceConfiguration.Secret? = nil, clientKeyId: String? = nil,
            clientAuthentication: ClientAuthentication, scopes: [String], redirectURIs: [String],
            endpoints: Endpoints
        ) {
            self.clientId = clientId
            self.clientSecret = clientSecret
            self.clientPrivateKey = clientPrivateKey
            self.clientKeyId = clientKeyId
            self.clientAuthentication = clientAuthentication
            self.scopes = scopes
            self.redirectURIs = redirectURIs
            self.endpoints = endpoints
        }

        /// What a preset fills for the browser flow.
        public struct Defaults: Sendable, Equatable {
            /// The endpoints.
            public var endpoints: Endpoints
            /// The scopes.
            public var scopes: [String]
        }

        /// The scopes requested from an OpenID Connect provider when none are given.
        public static let openIDScopes = ["openid", "email", "profile"]

        /// The browser defaults of `preset`; nil for Apple (its web flow is not supported here).
        public static func defaults(of preset: TokenServiceConfiguration.IdentityProviderSettings.Preset) -> Defaults? {
            switch preset {
            case .apple: nil
            case .google:
                Defaults(
                    endpoints: .discovery(
                        url: "https://accounts.google.com/.well-known/openid-configuration",
                        issuer: "https://accounts.google.com"),
                    scopes: openIDScopes)
            case .github:
                Defaults(
                    endpoints: .explicit(
                        authorizationURL: "https://github.com/login/oauth/authorize",
                        tokenURL: "https://github.com/login/oauth/access_token",
                        userInfoURL: "https://api.github.com/user"),
                    scopes: ["read:user", "user:email"])
            case .gitlab:
                Defaults(
                    endpoints: .discovery(
                        url: "https://gitlab.com/.well-known/openid-configuration", issuer: "https://gitlab.com"),
                    scopes: openIDScopes)
            }
        }

        /// The issuer a discovery URL implies (OIDC Discovery §4): the URL without
        /// `/.well-known/openid-configuration`.
        public static func issuer(ofDiscoveryURL url: String) -> String {
            let suffix = "/.well-known/openid-configuration"
            return url.hasSuffix(suffix) ? String(url.dropLast(suffix.count)) : url
        }
    }
}
