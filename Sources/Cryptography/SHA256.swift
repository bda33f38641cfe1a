internal import COpenSSL

/// SHA-256 (FIPS 180-4), one-shot, for fingerprints and JWK thumbprints (RFC 7638).
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    /// - Throws: `CryptographyError.cryptoFailure` when OpenSSL fails.
    public static func hash(_ bytes: [UInt8]) throws(CryptographyError) -> [UInt8] {
        var length: UInt32 = 0
        var ok = false
        let digest = unsafe [UInt8](unsafeUninitializedCapacity: 32) { output, initialized in
            ok = unsafe bytes.withUnsafeBytes { input in
                unsafe EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil) == 1
            }
            initialized = ok && length == 32 ? 32 : 0
        }
        guard ok, digest.count == 32 else { throw .cryptoFailure }
        return digest
    }
}
