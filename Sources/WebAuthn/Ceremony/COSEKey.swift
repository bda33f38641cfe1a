/// A credential public key from its COSE_Key (RFC 9052 §7, RFC 9053): checked well formed for its algorithm and
/// ready to verify assertions. Keeps the exact bytes it was read from (what the store keeps).
public struct COSEKey: Sendable {
    /// The key's algorithm.
    public let algorithm: COSEAlgorithm
    /// The COSE_Key bytes as given.
    public let bytes: [UInt8]

    /// Reads a stored COSE_Key.
    /// - Throws: `.malformed` for bytes that are not one CBOR map; `.failed(.algorithm)` for an algorithm other than
    ///   ES256, EdDSA, RS256 or one that disagrees with `kty`/`crv`; `.failed(.publicKey)` for a key that is not
    ///   well formed (P-256 point off the curve or not 32-byte coordinates, Ed25519 not 32 bytes, RSA under 2048
    ///   bits or a bad exponent).
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        fatalError("issue 36: pending on branch i36-webauthn")
    }

    /// Whether `signature` is this key's valid signature of `message` (ES256: DER ECDSA over SHA-256; EdDSA: pure
    /// Ed25519; RS256: PKCS #1 v1.5 over SHA-256). Never throws: a malformed signature is simply not valid.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        fatalError("issue 36: pending on branch i36-webauthn")
    }
}
