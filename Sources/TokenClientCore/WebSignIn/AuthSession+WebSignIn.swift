import AuthAPI
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AuthSession {
    /// Completes a web sign-in: checks the callback, exchanges its one-time code at `POST /auth/token` (bearer
    /// strategy) with the pending sign-in's verifier, stores the tokens and publishes
    /// ``SessionState/signedIn(_:)``, as ``signIn(provider:idToken:nonce:name:authorizationCode:)`` does.
    ///
    /// - Parameters:
    ///   - pending: what ``WebSignIn/start()`` returned for this sign-in.
    ///   - callbackURL: the URL the browser was sent back to (`redirectURI?code=…&state=…`, or `?error=…`).
    /// - Returns: the signed-in user and whether this sign-in created the account.
    /// - Throws: ``WebSignInError/stateMismatch`` (nothing sent), ``WebSignInError/providerError(code:description:)``,
    ///   ``WebSignInError/missingCode``; ``TokenClientError/server(status:body:)`` (400 `invalid_grant` for a
    ///   used, expired or mismatched code, 429, 503…), ``TokenClientError/transport(_:)``,
    ///   ``TokenClientError/invalidResponse``.
    @discardableResult
    public func completeWebSignIn(_ pending: PendingWebSignIn, callbackURL: URL) async throws -> SignInResult {
        let code = try WebSignInCallback.code(from: callbackURL, expectedState: pending.state)
        let body = AuthorizationCodeGrant(
            grantType: "authorization_code", code: code, codeVerifier: pending.codeVerifier,
            redirectURI: pending.redirectURI)
        var request = makeRequest("POST", "auth/token", body: body)
        request.setValue(AuthStrategy.bearer.rawValue, forHTTPHeaderField: HeaderName.authStrategy)
        let (data, response) = try await WireCoding.exchange(transport, request)
        guard (200..<300).contains(response.statusCode) else {
            throw TokenClientError.server(status: response.statusCode, body: WebSignInCallback.errorBody(data))
        }
        let answer: TokenResponse
        do {
            answer = try JSONDecoder().decode(TokenResponse.self, from: data)
        } catch {
            throw TokenClientError.invalidResponse
        }
        guard let created = answer.created else { throw TokenClientError.invalidResponse }
        let received = try storedTokens(from: answer)
        adoptSignIn(received)
        return SignInResult(user: answer.user, created: created)
    }
}

/// The body of `POST /auth/token` (RFC 6749 §4.1.3 members, sent as JSON).
struct AuthorizationCodeGrant: Encodable {
    var grantType: String
    var code: String
    var codeVerifier: String
    var redirectURI: String

    enum CodingKeys: String, CodingKey {
        case grantType = "grant_type"
        case code
        case codeVerifier = "code_verifier"
        case redirectURI = "redirect_uri"
    }
}

/// Printing, interpolating, `dump` and the debugger show `<redacted>` in place of the code and the verifier.
extension AuthorizationCodeGrant: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    var description: String { Redacted.describe("AuthorizationCodeGrant", shownFields) }
    var debugDescription: String { description }
    var customMirror: Mirror { Redacted.mirror(self, shownFields) }

    private var shownFields: KeyValuePairs<String, Any> {
        ["grantType": grantType, "code": Redacted(), "codeVerifier": Redacted(), "redirectURI": redirectURI]
    }
}

/// Reading the browser's callback URL and the token endpoint's errors.
enum WebSignInCallback {
    /// The one-time code of `url`, after checking its `state`.
    /// - Throws: ``WebSignInError``, the state first: a callback that is not this sign-in's says nothing else.
    static func code(from url: URL, expectedState: String) throws(WebSignInError) -> String {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func values(_ name: String) -> [String] { items.filter { $0.name == name }.map { $0.value ?? "" } }
        guard values("state") == [expectedState] else { throw .stateMismatch }
        if let error = values("error").first {
            throw .providerError(code: error, description: values("error_description").first)
        }
        guard let code = values("code").first, !code.isEmpty, values("code").count == 1 else { throw .missingCode }
        return code
    }

    /// The token endpoint's RFC 6749 §5.2 body `{"error", "error_description"}` as an ``ErrorBody``, or the usual
    /// `{"error", "message"}` (429, 503), or nil.
    static func errorBody(_ data: Data) -> ErrorBody? {
        struct OAuthError: Decodable {
            var error: String
            var errorDescription: String?

            enum CodingKeys: String, CodingKey {
                case error
                case errorDescription = "error_description"
            }
        }
        if let body = WireCoding.errorBody(data) { return body }
        guard let oauth = try? JSONDecoder().decode(OAuthError.self, from: data) else { return nil }
        return ErrorBody(error: ErrorCode(rawValue: oauth.error), message: oauth.errorDescription ?? "")
    }
}
