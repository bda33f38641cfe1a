/// Every way the Cryptography module can refuse a key or fail.
///
/// No case carries key material or input bytes, so an error can be logged without leaking a secret.
public enum CryptographyError: Error, Sendable, Equatable, CaseIterable {
    /// Why an asymmetric key was refused. Each reason is a fixed sentence, never a key's bytes.
    public enum KeyProblem: Sendable, Hashable, CaseIterable {
        /// The PEM text is not one well-formed block, or OpenSSL could not decode it.
        case malformedPEM
        /// The PEM block is of a kind this library does not load (encrypted, a certificate, RSA private…).
        case unsupportedPEM
        /// The key is not of the expected type or curve (e.g. a P-384 key where P-256 is needed).
        case wrongKeyType
        /// A raw component has the wrong length (P-256 coordinates and scalar 32 bytes, Ed25519 32 bytes).
        case wrongComponentLength
        /// The public point is not on the curve, is the point at infinity, or is not a valid encoding.
        case invalidPublicKey
        /// The private scalar is zero, not below the group order, or otherwise rejected by OpenSSL.
        case invalidPrivateKey
        /// The given public part does not belong to the given private part.
        case mismatchedPublicKey
        /// The RSA modulus is shorter than 2048 bits, or the exponent is not acceptable.
        case weakRSAKey
        /// The operation needs a private key but the key is public only.
        case notPrivate
        /// The operation is not available for this algorithm (e.g. RSA signing, generating RSA keys).
        case unsupportedOperation
    }

    /// A key is empty, or shorter than the hash output (e.g. < 64 bytes for HMAC-SHA512) without
    /// `allowShortKey`.
    case weakKey
    /// OpenSSL reported an internal failure: allocation, a provider error, or an unseeded random generator.
    case cryptoFailure
    /// An asymmetric key was refused; the payload says why.
    case invalidKey(KeyProblem)
    /// Authenticated decryption refused its input: too short, altered, sealed under another key, or with other
    /// associated data (``AES256GCM/open(_:associatedData:)``).
    case authenticationFailed
    /// Bytes or PEM that are not exactly one X.509 certificate, or a certificate this library refuses to use
    /// (``X509Certificate``).
    case invalidCertificate
    /// A certificate chain that does not verify to the pinned root at the given time; the payload says why.
    case certificateRejected(CertificateProblem)

    /// Why a certificate chain was refused.
    public enum CertificateProblem: Sendable, Hashable, CaseIterable {
        /// A certificate of the chain is past its `notAfter`.
        case expired
        /// A certificate of the chain is before its `notBefore`.
        case notYetValid
        /// The chain does not lead to the pinned root (a signature, a CA constraint, a missing issuer).
        case untrusted
    }

    /// Every case, with each key and certificate problem.
    public static let allCases: [CryptographyError] =
        [.weakKey, .cryptoFailure, .authenticationFailed, .invalidCertificate]
        + KeyProblem.allCases.map(invalidKey) + CertificateProblem.allCases.map(certificateRejected)
}

extension CryptographyError: CustomStringConvertible {
    /// A short English sentence naming the failure; never contains key material.
    public var description: String {
        switch self {
        case .weakKey: "HMAC key shorter than the hash output"
        case .cryptoFailure: "OpenSSL failure"
        case .invalidKey(let problem): problem.description
        case .authenticationFailed: "sealed data does not authenticate (altered, or another key)"
        case .invalidCertificate: "not exactly one X.509 certificate"
        case .certificateRejected(.expired): "a certificate of the chain has expired"
        case .certificateRejected(.notYetValid): "a certificate of the chain is not valid yet"
        case .certificateRejected(.untrusted): "the certificate chain does not verify to the pinned root"
        }
    }
}

extension CryptographyError.KeyProblem: CustomStringConvertible {
    /// A few words naming the problem; never contains key material.
    public var description: String {
        switch self {
        case .malformedPEM: "malformed PEM key"
        case .unsupportedPEM: "unsupported PEM block (expected PRIVATE KEY, EC PRIVATE KEY or PUBLIC KEY)"
        case .wrongKeyType: "key type or curve does not match the algorithm"
        case .wrongComponentLength: "key component has the wrong length"
        case .invalidPublicKey: "invalid public key (point not on the curve or badly encoded)"
        case .invalidPrivateKey: "invalid private key"
        case .mismatchedPublicKey: "public key does not match the private key"
        case .weakRSAKey: "RSA key shorter than 2048 bits or with an unacceptable exponent"
        case .notPrivate: "a public key cannot sign"
        case .unsupportedOperation: "operation not supported for this algorithm"
        }
    }
}
