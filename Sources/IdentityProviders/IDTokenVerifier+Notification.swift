public import JWT

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension IDTokenVerifier {
    /// Verifies a server-to-server notification of the provider (Sign in with Apple's `{"payload": JWS}`): the
    /// header as for ID tokens (an accepted `alg`, a `kid`), the signature with the provider's published keys (the
    /// same cache as ID tokens), an `iss` among the provider's issuers, `aud` equal to `audience` (the configured
    /// `clientId`) and `exp` (60 s leeway). Nonce and token age do not apply: Apple retries a notification for a
    /// while.
    /// - Returns: the verified claims (`jti`, `events`, …), for the caller to read.
    /// - Throws: ``IDTokenFailure/rejected(_:)`` with the reason, or `.providerUnavailable` when the keys cannot be
    ///   fetched.
    public func verifyNotification(
        _ jws: String, audience: String, now: Date
    ) async throws(IDTokenFailure) -> JWTClaims {
        guard jws.utf8.count <= Self.maximumTokenBytes else { throw .rejected(.tooLarge) }
        let kid = try preflight(jws)
        let keySet = try await keys.keys(for: provider, kid: kid)
        let claims: JWTClaims
        do {
            claims = try keySet.verify(
                jws,
                options: VerificationOptions(now: now, leeway: Self.leeway, requireExpiration: true, requireKeyID: true)
            )
        } catch {
            throw .rejected(Self.rejection(for: error))
        }
        guard let issuer = claims.issuer, provider.issuers.contains(issuer) else { throw .rejected(.issuer) }
        guard claims.audience == [audience] else { throw .rejected(.audience) }
        return claims
    }
}
