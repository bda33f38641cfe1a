import JWT

/// The claims of a verified integrity token (API.md "App integrity"): which app installation proved itself, not
/// which user.
struct IntegrityClaims: JWTPayload, Equatable {
    /// `sub`: `apple:<keyId>` or `android:<package>`.
    let subject: String
    /// `platform`: `apple` or `android`.
    let platform: String
    /// `appId`: `TEAMID.bundle.id` or the package name.
    let appID: String
    let expiresAt: Int64
    let issuedAt: Int64
    /// `cnf.jkt`: the DPoP key the token is bound to (the exchange came with a proof), or nil.
    let confirmationThumbprint: String?

    init(claims: JWTClaims) throws(JWTError) {
        guard let subject = claims.subject, !subject.isEmpty else { throw .missingClaim("sub") }
        guard let platform = claims.string("platform"), platform == "apple" || platform == "android" else {
            throw .invalidClaim("platform")
        }
        guard let appID = claims.string("appId"), !appID.isEmpty else { throw .missingClaim("appId") }
        guard let expiresAt = claims.expiration else { throw .missingClaim("exp") }
        guard let issuedAt = claims.issuedAt else { throw .missingClaim("iat") }
        self.subject = subject
        self.platform = platform
        self.appID = appID
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        confirmationThumbprint = try claims.confirmationThumbprint()
    }
}
