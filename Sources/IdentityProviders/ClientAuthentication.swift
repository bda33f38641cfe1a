public import JWT
import StrictJSON

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// How tokenvend authenticates itself at a provider's token endpoint (RFC 6749 §2.3, OpenID Connect Core §9).
/// The secret and key never leave the server; `description` never shows them.
public enum ClientAuthentication: Sendable, CustomStringConvertible {
    /// `client_secret_basic`: `Authorization: Basic base64(form(id):form(secret))` (RFC 6749 §2.3.1: each part
    /// form-encoded first).
    case secretBasic(String)
    /// `client_secret_post`: `client_secret` in the form body.
    case secretPost(String)
    /// `private_key_jwt` (RFC 7523 §2.2/§3, OIDC Core §9): a JWT signed with `key` (its `kid` in the header), with
    /// `iss` = `sub` = the client id, `aud` = the token endpoint, a random `jti`, `iat` and `exp` = `iat` + 60.
    case privateKeyJWT(key: JWTKey)

    /// The value of `client_assertion_type` for `private_key_jwt`.
    public static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// Seconds an assertion is valid: 60.
    public static let assertionLifetime: Int64 = 60

    /// The configuration spelling: `client_secret_basic`, `client_secret_post` or `private_key_jwt`.
    public var method: String {
        switch self {
        case .secretBasic: "client_secret_basic"
        case .secretPost: "client_secret_post"
        case .privateKeyJWT: "private_key_jwt"
        }
    }

    /// `client_secret_basic` and so on; never the secret or key.
    public var description: String { "ClientAuthentication(\(method))" }

    /// The form pairs and headers that authenticate `clientId` at `tokenURL`, at time `now`.
    ///
    /// - Throws: `ClientAuthenticationError.signingFailed` when the assertion cannot be signed (a key that cannot
    ///   sign), or `.randomFailed`.
    public func credentials(clientId: String, tokenURL: String, now: Date) throws(ClientAuthenticationError)
        -> (form: [(String, String)], headers: [(String, String)])
    {
        switch self {
        case .secretBasic(let secret):
            return ([], [("Authorization", Self.basicAuthorization(clientId: clientId, secret: secret))])
        case .secretPost(let secret):
            return ([("client_secret", secret)], [])
        case .privateKeyJWT(let key):
            let assertion = try Self.assertion(clientId: clientId, tokenURL: tokenURL, key: key, now: now)
            return ([("client_assertion_type", Self.assertionType), ("client_assertion", assertion)], [])
        }
    }

    /// `Basic ` + base64(formEscape(clientId) + ":" + formEscape(secret)) (RFC 6749 §2.3.1, RFC 7617).
    public static func basicAuthorization(clientId: String, secret: String) -> String {
        let pair = "\(FormEncoding.formEscape(clientId)):\(FormEncoding.formEscape(secret))"
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    /// The signed client assertion.
    public static func assertion(clientId: String, tokenURL: String, key: JWTKey, now: Date)
        throws(ClientAuthenticationError) -> String
    {
        let jti: String
        do { jti = try OAuthRandom.token() } catch { throw .randomFailed }
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let claims: JWTClaims = [
            "iss": .string(clientId), "sub": .string(clientId), "aud": .string(tokenURL), "jti": .string(jti),
            "iat": .integer(issuedAt), "exp": .integer(issuedAt + assertionLifetime),
        ]
        do {
            return try JWTSigner(key: key, header: .standard(type: "JWT")).sign(claims)
        } catch {
            throw .signingFailed
        }
    }
}

/// Why the client could not authenticate; nothing the provider did.
public enum ClientAuthenticationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key cannot sign (a public key, or RS256, which the JWT library only verifies).
    case signingFailed
    /// The random generator failed.
    case randomFailed

    /// A short sentence for the log.
    public var description: String {
        switch self {
        case .signingFailed: "client assertion could not be signed"
        case .randomFailed: "random generator failed"
        }
    }
}
