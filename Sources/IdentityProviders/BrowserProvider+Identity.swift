import JWT
import StrictJSON

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The endpoints of one sign-in, from discovery or the configuration.
struct ResolvedEndpoints: Sendable {
    var authorizationURL: String
    var tokenURL: String
    var userInfoURL: String?
    var issuer: String?
    var jwksURL: String?
}

extension BrowserProvider {
    /// The endpoints, resolving discovery first.
    func resolvedEndpoints() async throws(BrowserSignInFailure) -> ResolvedEndpoints {
        switch endpoints {
        case .discovery(let url, let issuer):
            let document = try await discovery.document(url: url, issuer: issuer)
            return ResolvedEndpoints(
                authorizationURL: document.authorizationEndpoint, tokenURL: document.tokenEndpoint,
                userInfoURL: document.userInfoEndpoint, issuer: document.issuer, jwksURL: document.jwksURI)
        case .explicit(let authorization, let token, let userInfo, let issuer, let jwks):
            return ResolvedEndpoints(
                authorizationURL: authorization, tokenURL: token, userInfoURL: userInfo, issuer: issuer, jwksURL: jwks)
        }
    }

    /// Exchanges `code` at the token endpoint (with `codeVerifier` and the client's authentication), then takes
    /// the identity from the ID token (verified, nonce `.raw` = `nonce`) or, without one, from the user-info
    /// endpoint.
    ///
    /// - Throws: `.providerRefused(code)` for a token-endpoint error (4xx, or GitHub's 200 with `error`);
    ///   `.providerUnavailable` for 5xx, transport failures, or keys/discovery that cannot be fetched;
    ///   `.invalidIDToken` for a refused ID token; `.invalidResponse` for an answer outside the protocol, no ID
    ///   token and no user-info endpoint, or user info without a subject.
    public func identity(code: String, codeVerifier: String, nonce: String, now: Date)
        async
        throws(BrowserSignInFailure) -> ProviderIdentity
    {
        let resolved = try await resolvedEndpoints()
        let tokens = try await exchange(code: code, codeVerifier: codeVerifier, tokenURL: resolved.tokenURL, now: now)
        if let idToken = tokens.idToken, let issuer = resolved.issuer, let jwksURL = resolved.jwksURL {
            return try await verify(idToken, issuer: issuer, jwksURL: jwksURL, nonce: nonce, now: now)
        }
        guard let userInfoURL = resolved.userInfoURL else {
            throw .invalidResponse("no ID token and no user-info endpoint")
        }
        return try await userInfo(at: userInfoURL, accessToken: tokens.accessToken)
    }

    /// The token endpoint's answer.
    struct TokenResponse {
        var accessToken: String
        var idToken: String?
    }

    func exchange(code: String, codeVerifier: String, tokenURL: String, now: Date)
        async
        throws(BrowserSignInFailure) -> TokenResponse
    {
        let credentials: (form: [(String, String)], headers: [(String, String)])
        do {
            credentials = try authentication.credentials(clientId: clientId, tokenURL: tokenURL, now: now)
        } catch {
            throw .invalidResponse("client authentication could not be made")
        }
        let form =
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", callbackURL),
                ("code_verifier", codeVerifier), ("client_id", clientId),
            ] + credentials.form
        let response: OAuthHTTPResponse
        do {
            response = try await http.postForm(tokenURL, form: form, headers: credentials.headers)
        } catch {
            throw .providerUnavailable(retryAfter: Self.retryAfterSeconds)
        }
        if response.status >= 500 { throw .providerUnavailable(retryAfter: Self.retryAfterSeconds) }
        let object = (try? JSONValue.parse(response.body))?.objectValue
        // RFC 6749 §5.2 (a 400, sometimes 401); GitHub answers 200 with the error members.
        if case .string(let error)? = object?["error"], (200..<300).contains(response.status) || response.status >= 400
        {
            throw .providerRefused(BrowserSignInFailure.sanitizedCode(error))
        }
        guard (200..<300).contains(response.status) else {
            throw .invalidResponse("token endpoint answered HTTP \(response.status) without an error code")
        }
        guard let object else { throw .invalidResponse("token response is not a JSON object") }
        guard case .string(let accessToken)? = object["access_token"], !accessToken.isEmpty else {
            throw .invalidResponse("token response lacks access_token")
        }
        guard case .string(let tokenType)? = object["token_type"], tokenType.lowercased() == "bearer" else {
            throw .invalidResponse("token response token_type is not Bearer")
        }
        switch object["id_token"] {
        case nil, .null?: return TokenResponse(accessToken: accessToken, idToken: nil)
        case .string(let idToken)? where !idToken.isEmpty:
            return TokenResponse(accessToken: accessToken, idToken: idToken)
        default: throw .invalidResponse("token response id_token is not a string")
        }
    }

    /// The ID token through `IDTokenVerifier` with this provider's issuer, keys, audiences and algorithms.
    func verify(_ idToken: String, issuer: String, jwksURL: String, nonce: String, now: Date)
        async
        throws(BrowserSignInFailure) -> ProviderIdentity
    {
        let provider: IdentityProvider
        do {
            provider = try IdentityProvider(
                name: name, issuers: [issuer], jwksURL: jwksURL, audiences: audiences, nonce: .raw,
                algorithms: algorithms, maxTokenAge: maxTokenAge)
        } catch {
            throw .invalidResponse("provider issuer or key URL unusable")
        }
        do {
            let verified = try await IDTokenVerifier(provider: provider, keys: keys).verify(
                idToken, nonce: nonce, now: now)
            return ProviderIdentity(provider: name, subject: verified.subject, email: verified.email)
        } catch {
            switch error {
            case .rejected(let rejection), .rejectedSigned(let rejection, _): throw .invalidIDToken(rejection)
            case .providerUnavailable(let retryAfter): throw .providerUnavailable(retryAfter: retryAfter)
            }
        }
    }

    /// `GET userInfoURL` with the access token: subject `sub`, or `id` (number or string) as a string; `email`
    /// only when `email_verified` is `true` or `"true"`.
    func userInfo(at url: String, accessToken: String) async throws(BrowserSignInFailure) -> ProviderIdentity {
        let response: OAuthHTTPResponse
        do {
            response = try await http.get(url, bearer: accessToken)
        } catch {
            throw .providerUnavailable(retryAfter: Self.retryAfterSeconds)
        }
        if response.status >= 500 { throw .providerUnavailable(retryAfter: Self.retryAfterSeconds) }
        guard response.status == 200 else {
            throw .invalidResponse("user-info endpoint answered HTTP \(response.status)")
        }
        guard let object = (try? JSONValue.parse(response.body))?.objectValue else {
            throw .invalidResponse("user info is not a JSON object")
        }
        let subject: String
        switch (object["sub"], object["id"]) {
        case (.string(let sub)?, _): subject = sub
        case (nil, .integer(let id)?), (.null?, .integer(let id)?): subject = String(id)
        case (nil, .string(let id)?), (.null?, .string(let id)?): subject = id
        default: throw .invalidResponse("user info has no subject")
        }
        guard !subject.isEmpty else { throw .invalidResponse("user info has no subject") }
        let email = IDTokenVerifier.isTrue(object["email_verified"]) ? object["email"]?.stringValue : nil
        return ProviderIdentity(provider: name, subject: subject, email: email)
    }
}
