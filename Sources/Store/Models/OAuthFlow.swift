#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A browser sign-in under way (`GET /auth/oauth/{provider}` until its callback): what tokenvend must remember
/// between sending the user to the provider and the provider calling back. Single use, short-lived
/// (`identity.flowLifetimeSeconds`, default 300 s).
public struct OAuthFlow: Sendable, Equatable {
    /// The lowercase hex SHA-256 of tokenvend's `state` toward the provider: the key. The state itself is never
    /// stored, so a database read does not let anyone complete a flow.
    public var stateHash: String
    /// The configured provider name the flow started with.
    public var provider: String
    /// The app's redirect URI, exactly as it was given (and matched against the configuration).
    public var redirectURI: String
    /// The app's PKCE S256 challenge (RFC 7636), checked again at `POST /auth/token`.
    public var codeChallenge: String
    /// The app's `state`, returned to it unchanged.
    public var appState: String
    /// The nonce sent to the provider; its ID token must carry it.
    public var nonce: String
    /// tokenvend's own PKCE verifier toward the provider.
    public var codeVerifier: String
    /// When the flow started.
    public var createdAt: Date
    /// After this moment the flow is refused (and deleted).
    public var expiresAt: Date

    /// Creates a flow value.
    public init(
        stateHash: String, provider: String, redirectURI: String, codeChallenge: String, appState: String,
        nonce: String, codeVerifier: String, createdAt: Date, expiresAt: Date
    ) {
        self.stateHash = stateHash
        self.provider = provider
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.appState = appState
        self.nonce = nonce
        self.codeVerifier = codeVerifier
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// The columns `init(row:)` reads, in order (both dialects).
    package static let columns =
        "state_hash, provider, redirect_uri, code_challenge, app_state, nonce, code_verifier, created_at, expires_at"
}
