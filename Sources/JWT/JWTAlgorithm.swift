public import Cryptography

/// A JWS algorithm this library implements (RFC 7518 §3.2). There is deliberately no `none`.
public enum JWTAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// HMAC with SHA-256; keys must be at least 32 bytes.
    case hs256 = "HS256"
    /// HMAC with SHA-384; keys must be at least 48 bytes.
    case hs384 = "HS384"
    /// HMAC with SHA-512; keys must be at least 64 bytes.
    case hs512 = "HS512"

    /// The `alg` header value, e.g. `"HS512"`.
    public var name: String { rawValue }

    /// The HMAC hash this algorithm uses.
    public var hash: HMAC.Algorithm {
        switch self {
        case .hs256: .sha256
        case .hs384: .sha384
        case .hs512: .sha512
        }
    }

    /// Looks an algorithm up by its exact, case-sensitive `alg` name (RFC 7515 §4.1.1); `nil` for anything else.
    public init?(name: String) {
        self.init(rawValue: name)
    }
}
