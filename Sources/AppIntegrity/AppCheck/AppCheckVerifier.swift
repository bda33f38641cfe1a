public import JWT
import StrictJSON

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Verifies Firebase App Check tokens as they are (`X-Firebase-AppCheck`): RS256 by a key of the App Check JWKS
/// (the caller fetches and caches it, as identity-provider keys are), `iss`, `aud`, `sub`, `exp`.
///
/// ```swift
/// let kid = try AppCheckVerifier.keyID(of: token)
/// let appID = try verifier.verify(token, keys: keysFromTheJWKS, now: Date())
/// ```
public struct AppCheckVerifier: Sendable {
    /// Tokens longer than this are refused before anything else is looked at: 8 KiB.
    public static let maximumTokenByteCount = 8 * 1024
    /// Clock skew tolerated for `exp`, `nbf` and `iat`, in seconds.
    public static let leewaySeconds: Int64 = 60
    /// The issuer's prefix; the project number follows.
    public static let issuerPrefix = "https://firebaseappcheck.googleapis.com/"

    /// What is accepted.
    public let settings: AppCheckSettings

    /// A verifier with `settings`.
    public init(settings: AppCheckSettings) {
        self.settings = settings
    }

    /// The `kid` of the token's header, to look its key up (at most 8 KiB, else `.malformed`).
    /// - Throws: `.malformed` for a token that does not parse or has no `kid`; `.failed(.tokenType)` for an
    ///   `alg` other than RS256, or a `typ` other than `JWT`.
    public static func keyID(of token: String) throws(IntegrityError) -> String {
        guard token.utf8.count <= maximumTokenByteCount else { throw .malformed("App Check token larger than 8 KiB") }
        let header = try CompactSegments(token, count: 3).object(0)
        guard header["alg"] == .string(JWTAlgorithm.rs256.name) else {
            throw .failed(.tokenType, detail: "App Check token alg is not RS256")
        }
        switch header["typ"] {
        case nil: break
        case .string(let type) where type.uppercased() == "JWT": break
        default: throw .failed(.tokenType, detail: "App Check token typ is not JWT")
        }
        guard case .string(let kid)? = header["kid"], !kid.isEmpty else {
            throw .malformed("App Check token header has no kid")
        }
        return kid
    }

    /// Verifies `token` against `keys` (the JWKS's keys for its `kid`).
    /// - Returns: the Firebase app id (`sub`).
    /// - Throws: `.malformed`; `.failed` with `signature`, `token_type`, `expired`, `issuer` or `audience`.
    public func verify(_ token: String, keys: JWTKeySet, now: Date) throws(IntegrityError) -> String {
        _ = try Self.keyID(of: token)
        let options = VerificationOptions(
            now: now, leeway: Self.leewaySeconds, requireExpiration: true, requireKeyID: true)
        let claims: JWTClaims
        do {
            claims = try keys.verify(token, options: options)
        } catch {
            throw Self.failure(for: error)
        }
        guard claims.issuer == Self.issuerPrefix + settings.projectNumber else {
            throw .failed(.issuer, detail: "App Check iss is not this project's")
        }
        guard claims.audience.contains("projects/\(settings.projectNumber)") else {
            throw .failed(.audience, detail: "App Check aud lacks projects/\(settings.projectNumber)")
        }
        guard let appID = claims.subject else { throw .malformed("App Check token has no sub") }
        guard settings.appIDs.contains(appID) else {
            throw .failed(.audience, detail: "App Check sub \(appID) is not a configured app id")
        }
        return appID
    }

    /// The integrity error for a JWT library refusal.
    static func failure(for error: JWTError) -> IntegrityError {
        switch error {
        case .tokenTooLarge, .malformed, .missingKeyID, .missingClaim, .invalidClaim:
            .malformed("App Check token: \(error)")
        case .algorithmMismatch, .unsupportedAlgorithm, .unsupportedCriticalHeader, .typeMismatch:
            .failed(.tokenType, detail: "App Check token: \(error)")
        case .expired, .notYetValid, .issuedInFuture:
            .failed(.expired, detail: "App Check token: \(error)")
        case .issuerMismatch:
            .failed(.issuer, detail: "App Check token: \(error)")
        case .audienceMismatch:
            .failed(.audience, detail: "App Check token: \(error)")
        case .unknownKeyID, .invalidSignature, .cryptoFailure, .weakKey, .invalidKeyID, .unknownSigningKeyID,
            .invalidKey, .unusableSigningKey:
            .failed(.signature, detail: "App Check token: \(error)")
        }
    }
}
