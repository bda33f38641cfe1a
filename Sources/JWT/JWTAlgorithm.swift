public import Cryptography

/// A JWS algorithm this library implements (RFC 7518 §3.1, RFC 8037 §3.1). There is deliberately no `none`.
public enum JWTAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// HMAC with SHA-256; keys must be at least 32 bytes.
    case hs256 = "HS256"
    /// HMAC with SHA-384; keys must be at least 48 bytes.
    case hs384 = "HS384"
    /// HMAC with SHA-512; keys must be at least 64 bytes.
    case hs512 = "HS512"
    /// ECDSA on P-256 with SHA-256; the signature is the 64-byte `R ‖ S` (RFC 7518 §3.4).
    case es256 = "ES256"
    /// Ed25519 (RFC 8037); 64-byte signatures.
    case edDSA = "EdDSA"
    /// RSASSA-PKCS1-v1_5 with SHA-256, verification only, RSA keys of at least 2048 bits.
    case rs256 = "RS256"

    /// The `alg` header value, e.g. `"HS512"`.
    public var name: String { rawValue }

    /// Whether this is an HMAC algorithm (one shared secret signs and verifies).
    public var isSymmetric: Bool { hmacHash != nil }

    /// The HMAC hash of an HS algorithm; `nil` for the asymmetric ones.
    public var hmacHash: HMAC.Algorithm? {
        switch self {
        case .hs256: .sha256
        case .hs384: .sha384
        case .hs512: .sha512
        case .es256, .edDSA, .rs256: nil
        }
    }

    /// The hash the algorithm is built on: the HMAC hash for HS*, SHA-256 for ES256 and RS256, SHA-512 (inside
    /// Ed25519) for EdDSA. For HMAC keys its output length is also the minimum secret length.
    public var hash: HMAC.Algorithm {
        switch self {
        case .hs256, .es256, .rs256: .sha256
        case .hs384: .sha384
        case .hs512, .edDSA: .sha512
        }
    }

    /// The signature algorithm of an asymmetric JWS algorithm; `nil` for HS*.
    public var asymmetric: AsymmetricKey.Algorithm? {
        switch self {
        case .hs256, .hs384, .hs512: nil
        case .es256: .ecdsaP256SHA256
        case .edDSA: .ed25519
        case .rs256: .rsaPKCS1SHA256
        }
    }

    /// Looks an algorithm up by its exact, case-sensitive `alg` name (RFC 7515 §4.1.1); `nil` for anything else.
    public init?(name: String) {
        self.init(rawValue: name)
    }
}
