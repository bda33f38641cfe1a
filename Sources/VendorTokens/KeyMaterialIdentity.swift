import Cryptography
public import JWT

/// What is equal for two keys exactly when they are the same key material, without the material: the SHA-256 of
/// an HMAC secret's bytes, or the RFC 7638 thumbprint of an asymmetric key's public key (the same for its PEM and
/// JWK forms, whatever its `kid`).
///
/// The startup check that no key signs for two purposes (access tokens, refresh tokens, stream tokens, vendors)
/// compares these. The description never shows the digest.
public struct KeyMaterialIdentity: Sendable, Hashable, CustomStringConvertible {
    private let digest: String

    /// The identity of an HMAC secret (its bytes as the key uses them), or nil when SHA-256 fails.
    public init?(secret: [UInt8]) {
        guard let hash = try? SHA256.hash(secret) else { return nil }
        digest = "secret:" + Base64URL.encode(hash)
    }

    /// The identity of an asymmetric key by its public key; nil for an HMAC key (its secret is not exposed: use
    /// ``init(secret:)``).
    public init?(publicKeyOf key: JWTKey) {
        guard let thumbprint = try? key.publicJWK()?.thumbprint() else { return nil }
        digest = "public:" + thumbprint
    }

    /// `<key identity>`: never the digest.
    public var description: String { "<key identity>" }
}
