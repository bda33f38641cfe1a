import Cryptography
import JWT
import StrictJSON

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Verifies the ID tokens of one identity provider (the native flow: the app got the token from the provider's SDK).
///
/// Checks, in the order, stopping at the first failure: size (`maximumTokenBytes`); structure; `typ` absent
/// or `JWT` (case-insensitive: an access token the provider signed is no ID token); `alg` among
/// the provider's `algorithms` (never `none` or HS*) and a `kid`, before any key lookup; the key from the
/// `ProviderKeyCache`; the signature (the JWT library's RS256/ES256, with the key's own algorithm); `iss` exactly one
/// of the provider's issuers; `aud` (a string or an array) containing one of its audiences and none that is not
/// one of them, and `azp` one of them when `aud` has several entries (OpenID Connect Core §3.1.3.7); `exp` not past; `iat` not in the future and not
/// older than `maxTokenAge`; the nonce per `NonceMode`. `sub`, `exp` and `iat` are required.
///
/// Time: `now` is the caller's clock; `exp` and a future `iat` (or `nbf`) get `leeway` (60 s) for clock skew
/// between the provider and this host; the age check (`maxTokenAge`) gets none.
///
/// Replays are the caller's business: remember `VerifiedIDToken.tokenHash` (the hash of the signed part, not of the
/// signature) until `rememberUntil` (`exp` plus the leeway) and refuse it again (`IDTokenRejection.replayed`).
///
/// ```swift
/// let verifier = IDTokenVerifier(provider: try .apple(audiences: ["com.example.app"]), keys: cache)
/// let token = try await verifier.verify(idToken, nonce: rawNonce, now: Date())
/// // token.subject, token.email (only when verified), token.tokenHash
/// ```
public struct IDTokenVerifier: Sendable {
    /// The longest token accepted, in bytes: 8 KiB (Apple's and Google's are about 1 KiB).
    public static let maximumTokenBytes = 8 * 1024
    /// Seconds of clock skew tolerated for `exp` and for `iat`/`nbf` in the future: 60.
    public static let leeway: Int64 = 60

    /// The provider whose tokens this verifies.
    public let provider: IdentityProvider
    /// Where its keys come from.
    public let keys: ProviderKeyCache

    /// Creates a verifier; cheap, holds no state of its own.
    public init(provider: IdentityProvider, keys: ProviderKeyCache) {
        self.provider = provider
        self.keys = keys
    }

    /// Verifies `idToken` and the app's `nonce` at time `now`.
    ///
    /// - Parameters:
    ///   - idToken: The compact JWS the provider's SDK returned.
    ///   - nonce: The raw nonce the app sent with it, or `nil` when it sent none.
    ///   - now: The current time, for `exp` and `iat`.
    /// - Returns: The subject, the email when verified, the expiry and the token's hash.
    /// - Throws: `IDTokenFailure.rejected` with the first failed check before the signature held (or after it, for
    ///   a token without a usable `sub`), `.rejectedSigned` with the first failed check after it and the token's
    ///   subject (`IDTokenRejection`, never `.replayed`), or `.providerUnavailable(retryAfter:)` when the key cache
    ///   holds no keys and cannot fetch them.
    public func verify(_ idToken: String, nonce: String?, now: Date) async throws(IDTokenFailure) -> VerifiedIDToken {
        guard idToken.utf8.count <= Self.maximumTokenBytes else { throw .rejected(.tooLarge) }
        let kid = try preflight(idToken)
        let keySet = try await keys.keys(for: provider, kid: kid)
        let claims = try verifySignature(idToken, with: keySet, now: now)
        do {
            return try check(claims, token: idToken, nonce: nonce, now: now)
        } catch {
            throw Self.signed(error, claims: claims)
        }
    }

    /// A refusal after the signature held, with the subject the provider signed; unchanged when the token has no
    /// usable `sub` (then nobody can be held to account but the sender).
    static func signed(_ failure: IDTokenFailure, claims: JWTClaims) -> IDTokenFailure {
        guard case .rejected(let reason) = failure, case .string(let subject)? = claims["sub"], !subject.isEmpty
        else { return failure }
        return .rejectedSigned(reason, subject: subject)
    }

    /// Structure, `alg` and `kid`, from the header alone (nothing is fetched for a token that fails these).
    ///
    /// - Returns: the `kid`.
    func preflight(_ token: String) throws(IDTokenFailure) -> String {
        // One pass over the contiguous UTF-8 bytes, no allocation (`split`, and iterating the `utf8` view byte by
        // byte, each measured slower than the whole header parse in `make bench`). The payload and signature are
        // checked by the JWT library; an empty signature (`alg: none`) must still reach the `alg` check below.
        var text = token
        let (dots, headerLength) = text.withUTF8 { bytes in
            var dots = 0
            var headerLength = 0
            for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: ".") {
                if dots == 0 { headerLength = offset }
                dots += 1
            }
            return (dots, headerLength)
        }
        let utf8 = token.utf8
        let headerEnd = utf8.index(utf8.startIndex, offsetBy: headerLength)
        guard dots == 2, headerLength > 0, let headerBytes = Base64URL.decode(String(token[..<headerEnd])),
            let header = try? JSONValue.parse(headerBytes).objectValue
        else { throw .rejected(.malformed) }
        switch header["typ"] {
        case nil: break
        case .string(let type) where type.lowercased() == "jwt": break
        default: throw .rejected(.tokenType)
        }
        guard case .string(let name)? = header["alg"], let algorithm = JWTAlgorithm(name: name),
            IdentityProvider.supportedAlgorithms.contains(algorithm), provider.algorithms.contains(algorithm)
        else { throw .rejected(.algorithm) }
        switch header["kid"] {
        case .string(let kid) where !kid.isEmpty: return kid
        case nil, .string: throw .rejected(.missingKID)
        default: throw .rejected(.malformed)
        }
    }

    /// The signature through the JWT library, then the claims in the order.
    ///
    /// The library checks `exp`, `iat` and `nbf` itself (with the same leeway) before it returns; when it refuses a
    /// claim the signature has held already, so the claims are read and checked here in order, and the first of
    /// these failures is reported rather than the library's.
    func verifySignature(_ token: String, with keySet: JWTKeySet, now: Date) throws(IDTokenFailure)
        -> JWTClaims
    {
        let options = VerificationOptions(now: now, leeway: Self.leeway, requireExpiration: true, requireKeyID: true)
        do {
            return try keySet.verify(token, options: options)
        } catch {
            let rejection = Self.rejection(for: error)
            guard Self.isClaimCheck(error), let payload = try? JWTKeySet.decode(token).payload else {
                throw .rejected(rejection)
            }
            let claims = JWTClaims(payload)
            do {
                try checkOrderedClaims(claims, now: now)
            } catch {
                throw Self.signed(error, claims: claims)
            }
            throw Self.signed(.rejected(rejection), claims: claims)
        }
    }

    /// Whether the library refused a claim (so the signature held).
    private static func isClaimCheck(_ error: JWTError) -> Bool {
        switch error {
        case .expired, .notYetValid, .issuedInFuture, .missingClaim, .invalidClaim: true
        default: false
        }
    }

    /// The rejection for a JWT library error.
    static func rejection(for error: JWTError) -> IDTokenRejection {
        switch error {
        case .tokenTooLarge: .tooLarge
        case .malformed, .unsupportedCriticalHeader, .missingClaim, .invalidClaim, .typeMismatch: .malformed
        case .algorithmMismatch, .unsupportedAlgorithm: .algorithm
        case .missingKeyID: .missingKID
        case .unknownKeyID: .unknownKID
        case .invalidSignature, .cryptoFailure, .weakKey, .invalidKey, .invalidKeyID, .unknownSigningKeyID,
            .unusableSigningKey:
            .signature
        case .expired: .expired
        case .notYetValid, .issuedInFuture: .issuedInFuture
        case .issuerMismatch: .issuer
        case .audienceMismatch: .audience
        }
    }
}
