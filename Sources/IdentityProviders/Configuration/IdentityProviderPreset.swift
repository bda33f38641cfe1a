public import JWT

/// The presets an `identityProviders.<name>` entry may start from (`"preset": "google"`): each fills the issuers,
/// the key URL, the nonce mode and the algorithms, and the browser flow's endpoints and scopes; members given in
/// the entry replace what the preset fills. One file per preset (`IdentityProviderPreset+Apple.swift`, …) holds
/// its values; `IdentityProvider.apple(audiences:)` and `.google(audiences:)` are made from the same values.
public enum IdentityProviderPreset: String, Sendable, Equatable, CaseIterable {
    /// Sign in with Apple (native ID tokens only).
    case apple
    /// Google Sign-In, native and in the browser.
    case google
    /// GitHub, in the browser only (no ID tokens).
    case github
    /// GitLab.com, native and in the browser.
    case gitlab

    /// What the preset fills.
    public var defaults: Defaults {
        switch self {
        case .apple: .apple
        case .google: .google
        case .github: .github
        case .gitlab: .gitlab
        }
    }

    /// The values one preset fills.
    public struct Defaults: Sendable, Equatable {
        /// The exact `iss` values accepted; empty for a browser-only provider.
        public let issuers: [String]
        /// Where the provider's JWK Set is published; nil for a browser-only provider.
        public let jwksURL: String?
        /// How the token's `nonce` claim is checked.
        public let nonce: NonceMode
        /// The `alg` values accepted.
        public let algorithms: [JWTAlgorithm]
        /// The browser flow's endpoints (explicit ones without issuer and key URL) and scopes; nil when the web
        /// flow is not supported here (Apple).
        public let browser: Browser?

        /// What a preset fills for the browser flow.
        public struct Browser: Sendable, Equatable {
            /// The endpoints.
            public let endpoints: BrowserProvider.Endpoints
            /// The scopes requested.
            public let scopes: [String]
        }
    }

    /// The scopes requested from an OpenID Connect provider when none are given.
    public static let openIDScopes = ["openid", "email", "profile"]
}
