#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What `JWTKeySet.verify` checks beyond the signature.
///
/// Defaults: `exp` required, `kid` required, no leeway, the system clock, and no `iss`/`aud`/`typ` checks.
public struct VerificationOptions: Sendable {
    /// The current time; `nil` reads the system clock at each verification. Inject a value in tests.
    public var now: Date?
    /// Seconds of clock skew tolerated for `exp`, `nbf` and `iat`. Default: 0.
    public var leeway: Int64
    /// Whether a token without `exp` is rejected. Default: `true`.
    public var requireExpiration: Bool
    /// Whether a token without `kid` is rejected. When `false`, a token without `kid` is accepted only by a key set
    /// holding exactly one key. Default: `true`.
    public var requireKeyID: Bool
    /// The required `iss`, or `nil` to skip the check.
    public var issuer: String?
    /// An audience that `aud` (a string or an array of strings) must contain, or `nil` to skip the check.
    public var audience: String?
    /// The required header `typ`, compared case-insensitively and ignoring an `application/` prefix
    /// (RFC 7515 §4.1.9), or `nil` to skip the check.
    public var type: String?

    /// Creates options; every parameter has the default documented on its property.
    public init(
        now: Date? = nil,
        leeway: Int64 = 0,
        requireExpiration: Bool = true,
        requireKeyID: Bool = true,
        issuer: String? = nil,
        audience: String? = nil,
        type: String? = nil
    ) {
        self.now = now
        self.leeway = leeway
        self.requireExpiration = requireExpiration
        self.requireKeyID = requireKeyID
        self.issuer = issuer
        self.audience = audience
        self.type = type
    }

    /// The options' time in seconds since the epoch.
    var currentTime: Double {
        (now ?? Date()).timeIntervalSince1970
    }
}
