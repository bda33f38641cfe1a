internal import COpenSSL

/// ECDSA signatures in DER (`ECDSA-Sig-Value`, RFC 3279 §2.2.3), as WebAuthn and App Attest carry them.
extension AsymmetricKey {
    /// Whether `der`, a DER-encoded P-256 ECDSA signature, is valid for `message` (hashed with SHA-256) under
    /// this key.
    ///
    /// A signature that is not one well-formed DER `SEQUENCE { r, s }` (trailing bytes, over 72 bytes, r or s
    /// wider than 32 bytes or outside [1, n − 1]) is simply invalid.
    /// - Throws: `CryptographyError.invalidKey(.wrongKeyType)` for a key that is not ECDSA P-256;
    ///   `.cryptoFailure` when OpenSSL fails (allocation), never for a bad signature.
    public func isValidDERSignature(_ der: [UInt8], for message: [UInt8]) throws(CryptographyError) -> Bool {
        guard algorithm == .ecdsaP256SHA256 else { throw .invalidKey(.wrongKeyType) }
        guard !der.isEmpty, der.count <= ECDSASignature.maximumDERByteCount else { return false }
        guard let raw = try? ECDSASignature.raw(fromDER: der) else {
            ERR_clear_error()  // d2i_ECDSA_SIG leaves its reason on the thread's queue
            return false
        }
        guard
            // Re-encoding must give the same bytes: refuses trailing bytes and non-minimal (BER) encodings.
            try ECDSASignature.der(fromRaw: raw) == der
        else { return false }
        return try isValidSignature(raw, for: message)
    }
}
