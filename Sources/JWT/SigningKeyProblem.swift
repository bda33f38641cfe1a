/// Why configured key material cannot sign with the algorithm it was given for (see
/// ``JWTKey/init(signingMaterial:kid:algorithm:)``); carried by ``JWTError/unusableSigningKey(_:_:)``.
///
/// Every reason is one line chosen by this library; none contains key material or input text.
public enum SigningKeyProblem: Error, Sendable, Equatable {
    /// An HMAC secret shorter than the hash output, counted as UTF-8 bytes; the payload is the least it takes.
    case secretTooShort(minimumBytes: Int)
    /// Text that starts neither with `-----BEGIN` (PEM) nor with `{` (a JWK).
    case notPEMOrJWK
    /// An RSA key (a PKCS#1 `RSA PRIVATE KEY` block or a JWK with `kty` RSA), or the RS256 algorithm: RSA keys
    /// verify here but never sign.
    case rsaKey
    /// A JWK without its private member `d`.
    case publicJWK
    /// A public key (e.g. an SPKI `PUBLIC KEY` block) where a private key is needed.
    case publicKey
    /// The library does not sign with this key for the algorithm (`JWTError.unsupportedAlgorithm` while loading:
    /// a JWK whose `alg` it does not implement, such as ECDH-ES). A PEM key or JWK of another type or curve is
    /// ``unusable(_:)`` with the library's own reason ("invalid key: key type or curve does not match the
    /// algorithm").
    case keyTypeMismatch
    /// Anything else the library refused (a point not on the curve, broken PEM, an empty `kid`…); the payload is
    /// the library's own reason, such as `JWTError.description`.
    case unusable(String)

    /// The one-line reason an operator reads, for a key meant for `algorithm`.
    public func reason(_ algorithm: JWTAlgorithm) -> String {
        let name = algorithm.name
        switch self {
        case .secretTooShort(let minimum):
            return "shorter than \(minimum) bytes, the least \(name) takes (counted as UTF-8)"
        case .notPEMOrJWK:
            return "expected a PEM private key (-----BEGIN PRIVATE KEY-----) or a private JWK object"
        case .rsaKey: return "RSA keys are not allowed for signing; use an ES256 or EdDSA key"
        case .publicJWK: return "the JWK is a public key; give the private JWK (with d)"
        case .publicKey: return "a public key cannot sign; give the private key (PKCS#8 PEM or a JWK with d)"
        case .keyTypeMismatch: return "not a usable \(name) private key: its key type or curve does not fit \(name)"
        case .unusable(let reason):
            return algorithm.isSymmetric
                ? "unusable \(name) secret (\(reason))" : "not a usable \(name) private key: \(reason)"
        }
    }
}
