#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A one-time tokenvend authorization code (the end of a browser sign-in): bound to the user, the provider, the
/// app's redirect URI and its PKCE challenge, exchanged once at `POST /auth/token`. Lives 60 s.
public struct AuthorizationCode: Sendable, Equatable {
    /// The lowercase hex SHA-256 of the code: the key. The code itself is never stored.
    public var codeHash: String
    /// The signed-in user.
    public var userID: String
    /// The provider the user signed in with.
    public var provider: String
    /// The app's redirect URI; the token request must name the same.
    public var redirectURI: String
    /// The app's PKCE S256 challenge; the token request's verifier must hash to it.
    public var codeChallenge: String
    /// Whether the sign-in created the account (`"created"` of the token response).
    public var created: Bool
    /// When the code was issued.
    public var createdAt: Date
    /// After this moment the code is no longer redeemed.
    public var expiresAt: Date

    /// Creates a code value.
    public init(
        codeHash: String, userID: String, provider: String, redirectURI: String, codeChallenge: String,
        created: Bool, createdAt: Date, expiresAt: Date
    ) {
        self.codeHash = codeHash
        self.userID = userID
        self.provider = provider
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.created = created
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// The columns `init(row:)` reads, in order (both dialects; `created` is 0/1 in SQLite, a boolean in
    /// PostgreSQL).
    package static let columns =
        "code_hash, user_id, provider, redirect_uri, code_challenge, created, created_at, expires_at"
}
