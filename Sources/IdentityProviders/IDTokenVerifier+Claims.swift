import Cryptography
import JWT
import StrictJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension IDTokenVerifier {
    /// The claim checks after the signature, and the result.
    func check(_ claims: JWTClaims, token: String, nonce: String?, now: Date) throws(IDTokenFailure)
        -> VerifiedIDToken
    {
        let expiration = try checkOrderedClaims(claims, now: now)
        try checkNonce(claims["nonce"], sent: nonce)
        guard case .string(let subject)? = claims["sub"], !subject.isEmpty else { throw .rejected(.malformed) }
        let emailVerified = Self.isTrue(claims["email_verified"])
        let email = emailVerified ? claims["email"]?.stringValue : nil
        // The signing input only (see `VerifiedIDToken.tokenHash`); the signature checked has verified it.
        let bytes = Array(token.utf8)
        let signed = bytes.lastIndex(of: UInt8(ascii: ".")).map { bytes[..<$0] } ?? bytes[...]
        let hash: [UInt8]
        do {
            hash = try SHA256.hash(Array(signed))
        } catch {
            throw .rejected(.signature)
        }
        return VerifiedIDToken(
            provider: provider.name, subject: subject, email: email, emailVerified: emailVerified,
            expiresAt: Date(timeIntervalSince1970: expiration), tokenHash: Self.hex(hash), claims: claims)
    }

    /// `iss`, `aud`, `azp`, `exp`, `iat` in that order.
    ///
    /// - Returns: `exp` in seconds since the epoch.
    @discardableResult
    func checkOrderedClaims(_ claims: JWTClaims, now: Date) throws(IDTokenFailure) -> Double {
        guard case .string(let issuer)? = claims["iss"], provider.issuers.contains(issuer) else {
            throw .rejected(.issuer)
        }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let single): audiences = [single]
        case .array(let values):
            audiences = values.compactMap(\.stringValue)
            guard audiences.count == values.count else { throw .rejected(.audience) }
        default: throw .rejected(.audience)
        }
        guard audiences.contains(where: provider.audiences.contains) else { throw .rejected(.audience) }
        // OpenID Connect Core §3.1.3.7: a token listing an audience this provider is not configured with is refused.
        guard audiences.allSatisfy(provider.audiences.contains) else { throw .rejected(.untrustedAudience) }
        if Set(audiences).count > 1 {
            guard case .string(let azp)? = claims["azp"], provider.audiences.contains(azp) else {
                throw .rejected(.azp)
            }
        }
        let current = now.timeIntervalSince1970
        let leeway = Double(Self.leeway)
        guard let expiration = claims["exp"]?.doubleValue, let issuedAt = claims["iat"]?.doubleValue else {
            throw .rejected(.malformed)
        }
        // RFC 7519 §4.1.4: the current time must be before exp.
        guard current < expiration + leeway else { throw .rejected(.expired) }
        guard issuedAt <= current + leeway else { throw .rejected(.issuedInFuture) }
        guard current - issuedAt <= Double(provider.maxTokenAge.components.seconds) else {
            throw .rejected(.tooOld)
        }
        return expiration
    }

    /// The nonce rule of the provider's mode; a nonce on one side only is refused in every mode.
    func checkNonce(_ claim: JSONValue?, sent: String?) throws(IDTokenFailure) {
        let inToken: String?
        switch claim {
        case nil: inToken = nil
        case .string(let value): inToken = value
        default: throw .rejected(.malformed)
        }
        switch (inToken, sent) {
        case (nil, nil): return
        case (nil, .some): throw .rejected(.nonceMissing)
        case (.some, nil): throw .rejected(.nonceUnexpected)
        case (.some(let inToken), .some(let sent)):
            let token = Array(inToken.utf8)
            let raw = Array(sent.utf8)
            let matchesRaw = ConstantTime.equals(token, raw)
            let hashed = (try? SHA256.hash(raw)).map { Array(Self.hex($0).utf8) }
            let matchesHash = hashed.map { ConstantTime.equals(token, $0) } ?? false
            let matches: Bool
            switch provider.nonce {
            case .raw: matches = matchesRaw
            case .sha256: matches = matchesHash
            // A claim that is a SHA-256 hex digest is matched only as a hash: an app that echoes a hashed claim
            // back as its "raw" nonce (it can read the claim in any token it holds) must not pass.
            case .rawOrSHA256: matches = Self.isSHA256Hex(token) ? matchesHash : matchesRaw
            }
            guard matches else { throw .rejected(.nonceMismatch) }
        }
    }

    /// Whether `bytes` are 64 lowercase hex digits: the form of the `sha256` nonce claim.
    static func isSHA256Hex(_ bytes: [UInt8]) -> Bool {
        bytes.count == 64
            && bytes.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }

    /// `email_verified` as Google (a boolean) and Apple (the string `"true"` or `"false"`) send it.
    static func isTrue(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let flag): flag
        case .string(let text): text == "true"
        default: false
        }
    }

    /// Lowercase hex.
    static func hex(_ bytes: [UInt8]) -> String {
        Hex.encode(bytes)
    }
}
