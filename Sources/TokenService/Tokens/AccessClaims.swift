import JWT
import StrictJSON

/// The claims of a verified access token (API.md "Access tokens").
struct AccessClaims: JWTPayload, Equatable {
    let subject: String
    let sessionID: String
    let tokenID: String
    /// The verified email: `email` when the token also says `email_verified: true`, else nil (the issuer
    /// omits both for an account without a verified email; a token from before issue 30 may carry an unverified
    /// `email` alone, which is ignored).
    let email: String?
    let role: String
    let tenantID: String?
    let expiresAt: Int64
    /// `iat`: required, since the lifetime `exp − iat` is checked against the configured one.
    let issuedAt: Int64
    /// `nbf`, if the token has one, as written (it may be fractional); checked again on each cache hit.
    let notBefore: Double?
    /// `auth_time`: when the session signed in (its creation, whole seconds; kept by refreshes). Nil for a token
    /// issued before issue 33, which `DELETE /auth/account` treats as a stale sign-in.
    let authTime: Int64?
    /// `cnf.jkt` (RFC 9449 §6.1): the thumbprint of the DPoP key the token is bound to; nil for an unbound token.
    let confirmationThumbprint: String?

    init(claims: JWTClaims) throws(JWTError) {
        guard let subject = claims.subject, !subject.isEmpty else { throw .missingClaim("sub") }
        guard let sessionID = claims.string("sid"), !sessionID.isEmpty else { throw .missingClaim("sid") }
        guard let tokenID = claims.id else { throw .missingClaim("jti") }
        let email: String?
        switch claims["email"] {
        case nil: email = nil
        case .string(let address)?: email = claims["email_verified"] == .bool(true) ? address : nil
        default: throw .invalidClaim("email")
        }
        guard let role = claims.string("role") else { throw .missingClaim("role") }
        guard let expiresAt = claims.expiration else { throw .missingClaim("exp") }
        guard let issuedAt = claims.issuedAt else { throw .missingClaim("iat") }
        switch claims["tenantId"] {
        case nil, .null?: tenantID = nil
        case .string(let tenant)?: tenantID = tenant
        default: throw .invalidClaim("tenantId")
        }
        self.subject = subject
        self.sessionID = sessionID
        self.tokenID = tokenID
        self.email = email
        self.role = role
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        switch claims["nbf"] {
        case .integer(let seconds)?: notBefore = Double(seconds)
        case .double(let seconds)?: notBefore = seconds
        default: notBefore = nil
        }
        confirmationThumbprint = try claims.confirmationThumbprint()
        switch claims["auth_time"] {
        case nil: authTime = nil
        case .integer(let seconds)?: authTime = seconds
        default: throw .invalidClaim("auth_time")
        }
    }
}
