/// Body of `POST /auth/token`: `{"grant_type": "authorization_code", "code", "code_verifier", "redirect_uri"}`
/// (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.5). JSON, or `application/x-www-form-urlencoded` as AppAuth sends it.
///
/// The app got `code` on its redirect URI at the end of the browser sign-in (`GET /auth/oauth/{provider}`); the
/// answer is the login response plus `created`. The code works once.
public struct AuthorizationCodeTokenRequest: Codable, Sendable, Equatable {
    /// The grant type the endpoint accepts.
    public static let authorizationCode = "authorization_code"

    /// Always `"authorization_code"`.
    public var grantType: String
    /// The one-time code tokenvend put on the redirect URI.
    public var code: String
    /// The PKCE verifier whose S256 challenge the app sent to `GET /auth/oauth/{provider}`.
    public var codeVerifier: String
    /// The redirect URI the app sent to `GET /auth/oauth/{provider}`, exactly.
    public var redirectURI: String

    /// Creates a token request; `grantType` is `"authorization_code"` unless given.
    public init(
        grantType: String = AuthorizationCodeTokenRequest.authorizationCode, code: String, codeVerifier: String,
        redirectURI: String
    ) {
        self.grantType = grantType
        self.code = code
        self.codeVerifier = codeVerifier
        self.redirectURI = redirectURI
    }

    /// The snake_case wire names of RFC 6749.
    public enum CodingKeys: String, CodingKey {
        case grantType = "grant_type"
        case code
        case codeVerifier = "code_verifier"
        case redirectURI = "redirect_uri"
    }
}
