import AppIntegrity
import FoundationEssentials
import JWT
import StrictJSON

/// Signs and verifies tokenvend's integrity tokens: a JWS signed with the current access-token key (so the JWKS
/// publishes what verifies it), header `{"alg","typ":"integrity+jwt","kid"}`, claims `iss` (the access-token
/// issuer), `sub` (`apple:<keyId>` / `android:<package>`), `platform`, `appId`, `iat`, `exp`, `jti`; nothing about
/// a user.
///
/// The `typ` keeps the two kinds apart both ways: verification here requires `integrity+jwt`, and the access-token
/// check requires `at+jwt`, so neither token passes for the other.
struct IntegrityTokens: Sendable {
    /// The platform a token was issued for.
    enum Platform: String, Sendable {
        case apple, android
    }

    let keys: JWTKeySet
    let issuer: String
    /// `integrity.tokenLifetimeSeconds`.
    let lifetime: Int64
    /// The access tokens' leeway, for `exp`, `iat` and `nbf`.
    let leeway: Int64
    private let signer: JWTSigner

    static let type = "integrity+jwt"

    init(keys: JWTKeySet, issuer: String, lifetime: Int64, leeway: Int64) {
        self.keys = keys
        self.issuer = issuer
        self.lifetime = lifetime
        self.leeway = leeway
        signer = keys.signer(header: .standard(type: Self.type))
    }

    /// A new integrity token for `subject` (without its platform prefix), and its lifetime in seconds; bound to
    /// the DPoP key `dpopThumbprint` (`cnf.jkt`) when not nil.
    func issue(
        platform: Platform, subject: String, appID: String, dpopThumbprint: String? = nil, now: Date
    ) throws(JWTError) -> (token: String, expiresIn: Int) {
        let issuedAt = Int64(now.timeIntervalSince1970)
        var claims: JWTClaims = [
            "iss": .string(issuer),
            "sub": .string("\(platform.rawValue):\(subject)"),
            "platform": .string(platform.rawValue),
            "appId": .string(appID),
            "iat": .integer(issuedAt),
            "exp": .integer(issuedAt + lifetime),
            "jti": .string(UUID().uuidString.lowercased()),
        ]
        if let dpopThumbprint { claims["cnf"] = .object(["jkt": .string(dpopThumbprint)]) }
        return (try signer.sign(claims), Int(lifetime))
    }

    /// The claims of a valid integrity token.
    /// - Throws: `IntegrityError.failed` with `token_type` (another `typ`, such as an access token), `expired`,
    ///   `signature` or `issuer`; `.malformed` for anything that does not parse.
    func verify(_ token: String, now: Date) throws(IntegrityError) -> IntegrityClaims {
        let options = VerificationOptions(
            now: now, leeway: leeway, requireExpiration: true, requireKeyID: true, issuer: issuer, type: Self.type)
        let claims: IntegrityClaims
        do {
            claims = try keys.verify(token, as: IntegrityClaims.self, options: options)
        } catch {
            throw Self.failure(error)
        }
        // Never longer than configured (a token from a leaked key or an older, longer setting).
        let (span, overflow) = claims.expiresAt.subtractingReportingOverflow(claims.issuedAt)
        guard !overflow, span <= lifetime + leeway else { throw .failed(.expired, detail: "lifetime too long") }
        return claims
    }

    private static func failure(_ error: JWTError) -> IntegrityError {
        let detail = "\(error)"
        switch error {
        case .expired, .notYetValid, .issuedInFuture: return .failed(.expired, detail: detail)
        case .invalidSignature: return .failed(.signature, detail: detail)
        case .issuerMismatch: return .failed(.issuer, detail: detail)
        case .typeMismatch, .algorithmMismatch, .unsupportedAlgorithm, .unknownKeyID, .missingKeyID:
            return .failed(.tokenType, detail: detail)
        default: return .malformed(detail)
        }
    }
}
