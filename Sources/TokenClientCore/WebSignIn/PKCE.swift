#if canImport(CryptoKit)
    import CryptoKit
#endif

/// Proof Key for Code Exchange (RFC 7636) with the S256 method, and the random values of a web sign-in.
///
/// SHA-256 comes from CryptoKit where it exists (Apple platforms), from ``PortableSHA256`` elsewhere; random bytes
/// from `SystemRandomNumberGenerator` (the operating system's CSPRNG).
enum PKCE {
    /// A fresh code verifier: 32 random bytes, base64url without padding (43 characters of `[A-Za-z0-9-_]`,
    /// RFC 7636 §4.1).
    static func makeVerifier() -> String {
        randomToken()
    }

    /// The S256 challenge of `verifier`: base64url(SHA-256(ASCII(verifier))), 43 characters (RFC 7636 §4.2).
    static func challenge(for verifier: String) -> String {
        Base64URL.encode(sha256(Array(verifier.utf8)))
    }

    /// 32 random bytes, base64url without padding: a verifier, or a `state`.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<4 {
            let word = generator.next() as UInt64
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return Base64URL.encode(bytes)
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
            return Array(SHA256.hash(data: bytes))
        #else
            return PortableSHA256.hash(bytes)
        #endif
    }
}
