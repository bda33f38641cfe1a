import AuthAPI
import Cryptography
import FoundationEssentials
import HTTPServer
import Store

extension AuthService {
    /// The 200 answer of login, refresh, ID-token sign-in and `/auth/token`: tokens in the body (bearer) or in
    /// cookies (cookie mode); a session bound to a DPoP key gets `cnf.jkt` in its access token and `tokenType`
    /// `DPoP`; with `Cache-Control: no-store` and `Pragma: no-cache`; in both modes `expiresAt` (the
    /// access token's `exp`) and `refreshExpiresAt` (the earlier of the session's sliding and absolute expiry, in
    /// whole seconds, rounded down); `created` is set by ID-token sign-in only.
    func tokenResponse(
        user: Store.User, session: Session, counter: Int64, strategy: AuthStrategy, status: HTTPStatus = .ok,
        created: Bool? = nil
    ) throws -> HTTPResponse {
        // `auth_time` is the session's creation: the sign-in, which refreshes of this session keep.
        let issued = try accessTokens.issue(
            for: user, sessionID: session.id, authTime: session.createdAt, dpopThumbprint: session.dpopThumbprint,
            now: now())
        guard let refresh = refreshTokens.encode(sessionID: session.id, counter: counter) else {
            throw ServiceError.invalidGrant
        }
        metrics.tokensIssued.increment(.access)
        metrics.tokensIssued.increment(.refresh)
        // Rounded down: the refresh token must still work at the second the client is told.
        let refreshExpiresAt = Int64(min(session.refreshExpiresAt, session.expiresAt).timeIntervalSince1970)
        var headers = HTTPHeaders.noStore
        var body: TokenResponse
        switch strategy {
        case .bearer:
            body = .bearer(
                accessToken: issued.token, refreshToken: refresh, expiresIn: issued.expiresIn,
                expiresAt: issued.expiresAt, refreshExpiresAt: refreshExpiresAt, user: Self.wireUser(user),
                tokenType: session.dpopThumbprint == nil ? TokenResponse.bearerType : TokenResponse.dpopType)
            body.created = created
        case .cookie:
            let refreshLifetime = max(0, Int(session.refreshExpiresAt.timeIntervalSince(now())))
            // 256 random bits. Not `HMACKey.generateSecret`: that makes HMAC keys and refuses fewer than 64 bytes,
            // which is why a 32-byte call there always threw and a UUID stood in. A failing generator is a 500.
            let csrf = try SecureRandom.base64URL(byteCount: 32)
            for cookie in CookieJar.sessionCookies(
                accessToken: issued.token, accessLifetime: issued.expiresIn, refreshToken: refresh,
                refreshLifetime: refreshLifetime, csrfToken: csrf)
            {
                headers.add(name: "Set-Cookie", value: cookie)
            }
            body = TokenResponse(
                accessToken: nil, refreshToken: nil, tokenType: nil, expiresIn: issued.expiresIn,
                expiresAt: issued.expiresAt, refreshExpiresAt: refreshExpiresAt, user: Self.wireUser(user),
                created: created)
        }
        // While nonces are required, every token answer hands out the current one (RFC 9449 §8.2), so a client
        // rarely meets `use_dpop_nonce`.
        if let nonce = authenticator.dpop.currentNonce(now: now()) {
            headers.add(name: HeaderName.dpopNonce, value: nonce)
        }
        return .json(status: status, bytes: body.jsonBytes(), headers: headers)
    }
}

extension HTTPHeaders {
    /// `Cache-Control: no-store` and `Pragma: no-cache`, for every response that carries a token.
    static var noStore: HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Pragma", value: "no-cache")
        return headers
    }
}
