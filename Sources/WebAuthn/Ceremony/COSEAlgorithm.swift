/// The COSE algorithms a passkey may use (IANA COSE Algorithms), in the order the options offer them.
public enum COSEAlgorithm: Int, Sendable, Hashable, CaseIterable {
    /// ECDSA P-256 with SHA-256 (kty EC2, crv 1); the signature is DER.
    case es256 = -7
    /// Ed25519 (kty OKP, crv 6).
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256 (kty RSA), modulus at least 2048 bits.
    case rs256 = -257
}
