/// A key of a third-party JWK Set that `JWTKeySet.verifying(jwks:)` left out, and why.
///
/// RFC 7517 §5: implementations SHOULD ignore keys whose `kty` they do not understand, that miss required members,
/// or whose values are out of the supported range; an identity provider's set may well hold encryption keys or
/// algorithms this library does not verify (ES384, PS256, RSA-OAEP…). `reason` is chosen by this library and never
/// contains key material.
public struct SkippedJWK: Sendable, Hashable, CustomStringConvertible {
    /// The key's position in the set's `keys` array, from 0.
    public let index: Int
    /// The key's `kid`, when it has a string one (third-party text: quote it when printing).
    public let kid: String?
    /// Why the key cannot verify here, e.g. `"use is not sig"` or `"alg ES384 is not supported"`.
    public let reason: String

    /// Creates an entry.
    public init(index: Int, kid: String?, reason: String) {
        self.index = index
        self.kid = kid
        self.reason = reason
    }

    /// `key 2 (kid "enc-1"): use is not sig`.
    public var description: String {
        let name = kid.map { " (kid \"\($0)\")" } ?? " (no kid)"
        return "key \(index)\(name): \(reason)"
    }
}
