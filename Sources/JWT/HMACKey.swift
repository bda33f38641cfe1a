import Cryptography

/// A named HMAC key for JWS: its `kid`, the one algorithm it may be used with, and the keyed MAC.
///
/// The key fixes the algorithm: a token verified with it must carry exactly this `alg`. Secrets shorter than the
/// hash output are refused in every build configuration.
public struct HMACKey: Sendable {
    /// The key identifier put in, and matched against, the header `kid`. Never empty.
    public let kid: String
    /// The only algorithm this key signs and verifies.
    public let algorithm: JWTAlgorithm
    /// A short, non-reversible tag of the secret for logs (base64url of 6 bytes of an HMAC of a fixed label).
    public let fingerprint: String
    let hmac: HMAC

    /// Creates a key from secret bytes.
    ///
    /// - Parameters:
    ///   - kid: The key identifier; must not be empty.
    ///   - algorithm: The algorithm the key is bound to.
    ///   - secret: At least 32 / 48 / 64 bytes for HS256 / HS384 / HS512.
    /// - Throws: `JWTError.weakKey` for a short secret, `.invalidKeyID` for an empty `kid`, `.unsupportedAlgorithm`
    ///   for an algorithm other than HS256/384/512, `.cryptoFailure`.
    public init(kid: String, algorithm: JWTAlgorithm, secret: [UInt8]) throws(JWTError) {
        guard !kid.isEmpty else { throw .invalidKeyID }
        guard let hash = algorithm.hmacHash else { throw .unsupportedAlgorithm }
        self.kid = kid
        self.algorithm = algorithm
        let hmac: HMAC
        let tag: [UInt8]
        do {
            hmac = try HMAC(algorithm: hash, key: secret)
            tag = try hmac.authenticationCode(for: Array("tokenvend key fingerprint".utf8))
        } catch {
            throw JWTError(error)
        }
        self.hmac = hmac
        self.fingerprint = Base64URL.encode(Array(tag.prefix(6)))
    }

    /// Creates a key whose secret is the UTF-8 bytes of `secret`, as Bloomreach's token generator does.
    ///
    /// - Throws: `JWTError.weakKey` when the UTF-8 form is shorter than the hash output; see `init(kid:algorithm:secret:)`.
    public init(kid: String, algorithm: JWTAlgorithm, secret: String) throws(JWTError) {
        var bytes = Array(secret.utf8)
        defer { SecureMemory.cleanse(&bytes) }
        try self.init(kid: kid, algorithm: algorithm, secret: bytes)
    }

    /// A new random secret for any of the three algorithms: `byteCount` bytes from OpenSSL's `RAND_bytes`,
    /// base64url-encoded, so the printed text (used as UTF-8 bytes) is longer still. Default: 64 bytes, 86 chars.
    ///
    /// - Throws: `JWTError.weakKey` when `byteCount` < 64, `.cryptoFailure` when the generator fails.
    public static func generateSecret(byteCount: Int = 64) throws(JWTError) -> String {
        guard byteCount >= 64 else { throw .weakKey }
        do {
            return try SecureRandom.base64URL(byteCount: byteCount)
        } catch {
            throw JWTError(error)
        }
    }

    /// The MAC of `bytes[range]`, without copying the range out; an OpenSSL failure is `.cryptoFailure`.
    func authenticationCode(for bytes: [UInt8], range: Range<Int>) throws(JWTError) -> [UInt8] {
        do {
            return try hmac.authenticationCode(for: bytes, range: range)
        } catch {
            throw JWTError(error)
        }
    }
}
