import FoundationEssentials
import JWT
import Store
import StrictJSON

/// Signs and verifies access tokens: a JWS signed with the current key of the ring (HS512, ES256 or EdDSA),
/// header `{"alg","typ":"at+jwt","kid"}`, claims `iss`, `aud`, `sub`, `sid`, `iat`, `exp`, `jti`, `auth_time`, `email` and
/// `email_verified: true` (both omitted unless the account's email is verified), `role`, `tenantId`, and
/// `cnf: {"jkt"}` for a session bound to a DPoP key (API.md "Access tokens", "DPoP").
///
/// Verification fixes the algorithm by the key (the header must match exactly), rejects an unknown or missing
/// `kid`, requires `exp` and `iat`, honours `nbf`, checks `iss`, `aud` and `typ`, all with the configured leeway,
/// and refuses a lifetime `exp − iat` longer than the configured one plus the leeway.
/// Whether the session is still live is the caller's next check (`Authenticator`).
struct AccessTokenIssuer: Sendable {
    let keys: JWTKeySet
    let issuer: String
    let audience: String
    let lifetime: Int64
    let leeway: Int64
    /// Tokens that verified, so a repeated token skips the signature check and the header, payload and claim
    /// parsing. `Components` always creates one, whatever the algorithms: it saves most of an ES256 or EdDSA
    /// verification, and for HS512 the JSON work around the MAC. `nil` only where a test builds an issuer
    /// without it.
    let cache: VerifiedTokenCache?
    private let signer: JWTSigner

    init(
        keys: JWTKeySet, issuer: String, audience: String, lifetime: Int64, leeway: Int64,
        cache: VerifiedTokenCache? = nil
    ) {
        self.keys = keys
        self.cache = cache
        self.issuer = issuer
        self.audience = audience
        self.lifetime = lifetime
        self.leeway = leeway
        self.signer = keys.signer(header: .standard(type: "at+jwt"))
    }

    /// A new access token for `user` in session `sessionID`, its lifetime in seconds, and its `exp` (Unix seconds).
    /// - Parameter authTime: when the session signed in (`Session.createdAt`): the `auth_time` claim, in whole
    ///   seconds rounded down, the same for every token of the session (a refresh keeps it).
    /// - Parameter dpopThumbprint: the session's DPoP key (`Session.dpopThumbprint`): the `cnf.jkt` claim.
    func issue(
        for user: Store.User, sessionID: String, authTime: Date, dpopThumbprint: String? = nil, now: Date
    ) throws(JWTError) -> (
        token: String, expiresIn: Int, expiresAt: Int64
    ) {
        let issuedAt = Int64(now.timeIntervalSince1970)
        var claims: JWTClaims = [
            "iss": .string(issuer),
            "aud": .string(audience),
            "sub": .string(user.id),
            "sid": .string(sessionID),
            "iat": .integer(issuedAt),
            "exp": .integer(issuedAt + lifetime),
            "jti": .string(UUID().uuidString.lowercased()),
            "auth_time": .integer(Int64(authTime.timeIntervalSince1970.rounded(.down))),
        ]
        // The email only when it is verified (the operator or an identity provider vouched for it):
        // relying parties and vendor templates read `email` as the user's address, so a self-registered, never
        // verified one is not asserted. No claim at all rather than `null`; the others keep their order after it.
        if let email = user.email, user.isEmailVerified {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(true)
        }
        claims["role"] = .string(user.role)
        claims["tenantId"] = user.tenantID.map(JSONValue.string) ?? .null
        if let dpopThumbprint { claims["cnf"] = .object(["jkt": .string(dpopThumbprint)]) }
        return (try signer.sign(claims), Int(lifetime), issuedAt + lifetime)
    }

    /// The claims of a valid token.
    /// - Parameter extraLeeway: seconds added to the configured leeway (logout accepts an expired token's
    ///   session id, since revoking a session needs no fresh proof).
    ///
    /// With a ``cache``, a token seen before returns its remembered claims once `exp`, `nbf` and `iat` hold at
    /// `now` (the lenient logout check bypasses the cache and never fills it); anything else is verified in full
    /// and remembered only if every check passed.
    func verify(_ token: String, now: Date, extraLeeway: Int64 = 0) throws(JWTError) -> AccessClaims {
        if extraLeeway == 0, let cache, let claims = cache.claims(for: token, now: now, leeway: leeway) {
            return claims
        }
        let options = VerificationOptions(
            now: now, leeway: leeway + extraLeeway, requireExpiration: true, requireKeyID: true,
            issuer: issuer, audience: audience, type: "at+jwt")
        let claims = try keys.verify(token, as: AccessClaims.self, options: options)
        // A token this server would never have issued (a leaked key, an old build, a lowered ttlSeconds) does
        // not live longer than configured: `exp − iat` at most the lifetime plus the leeway (not the extra one).
        let (span, overflow) = claims.expiresAt.subtractingReportingOverflow(claims.issuedAt)
        guard !overflow, span <= lifetime + leeway else { throw .invalidClaim("exp") }
        if extraLeeway == 0 { cache?.insert(token, claims: claims, now: now, leeway: leeway) }
        return claims
    }
}
