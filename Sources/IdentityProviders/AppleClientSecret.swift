public import JWT
import StrictJSON
import Synchronization

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The `client_secret` of Sign in with Apple's REST API: an ES256 JWT `{iss: teamId, sub: clientId, aud:
/// "https://appleid.apple.com", iat, exp}` with header `{alg: ES256, kid: keyId}`, signed with the `.p8` key
/// (Apple's "Creating a client secret").
///
/// Minted once and reused until ``renewBefore`` before its expiry (a lifetime of ``lifetime``, one day: well under
/// Apple's 180-day maximum, so a key revoked at Apple stops working here within a day, and minting is rare either
/// way). Safe to share between tasks: the cached secret is behind a `Mutex`.
///
/// ```swift
/// let secret = AppleClientSecret(configuration: rest)
/// let jwt = try secret.current()  // the same text until an hour before it expires
/// ```
public final class AppleClientSecret: Sendable {
    /// How long a minted secret is valid: 86 400 s (one day; Apple allows at most 180 days).
    public static let lifetime: Int64 = 86_400
    /// How long before its expiry a secret is replaced: 3 600 s (one hour), so one in flight never expires.
    public static let renewBefore: Int64 = 3_600

    private struct Minted {
        var token: String
        var expiresAt: Int64
    }

    /// The team, key and client the secret names.
    public let configuration: AppleRESTConfiguration
    private let now: @Sendable () -> Date
    private let cached = Mutex<Minted?>(nil)

    /// A secret for `configuration`; `now` is the clock (injected by tests).
    public init(configuration: AppleRESTConfiguration, now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.now = now
    }

    /// The secret to send now: the cached one, or a new one when none is cached or it expires within
    /// ``renewBefore``.
    /// - Throws: `JWTError` when signing fails (OpenSSL).
    public func current() throws(JWTError) -> String {
        let seconds = Int64(now().timeIntervalSince1970)
        let minted = try cached.withLock { (cached: inout Minted?) throws(JWTError) -> String in
            if let cached, cached.expiresAt - Self.renewBefore > seconds { return cached.token }
            let claims: JWTClaims = [
                "iss": .string(configuration.teamId), "iat": .integer(seconds),
                "exp": .integer(seconds + Self.lifetime), "aud": .string(AppleRESTConfiguration.audience),
                "sub": .string(configuration.clientId),
            ]
            let token = try JWTSigner(key: configuration.signingKey, header: .standard(type: nil)).sign(claims)
            cached = Minted(token: token, expiresAt: seconds + Self.lifetime)
            return token
        }
        return minted
    }
}
