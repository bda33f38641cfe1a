import COpenSSL
import Cryptography
public import StrictJSON

/// An RSA 2048 private key made at test time, and RS256 signatures with it.
///
/// The Cryptography module verifies RSA but neither makes nor signs with RSA keys (the service never does), so
/// this uses OpenSSL's EVP calls directly; only tests and the benchmark link it. Never written to disk.
/// `@unchecked Sendable`: the `EVP_PKEY` is only read after `init` (OpenSSL allows concurrent use of a key), and
/// each signature uses its own digest context.
public final class TestRSAKey: @unchecked Sendable {
    private let key: OpaquePointer
    /// The key's `kid`.
    public let kid: String
    /// The modulus, big-endian, without leading zeros.
    public let modulus: [UInt8]
    /// The public exponent, big-endian.
    public let exponent: [UInt8]

    /// Generates a key (2048 bits, OpenSSL's default for RSA, checked).
    ///
    /// - Throws: `TestKeyError` when OpenSSL fails.
    public init(kid: String) throws(TestKeyError) {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { throw .openSSL("context") }
        defer { EVP_PKEY_CTX_free(context) }
        var generated: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw .openSSL("keygen")
        }
        guard EVP_PKEY_get_bits(generated) == 2048 else {
            EVP_PKEY_free(generated)
            throw .openSSL("not 2048 bits")
        }
        guard let n = Self.bigNumber(generated, "n"), let e = Self.bigNumber(generated, "e") else {
            EVP_PKEY_free(generated)
            throw .openSSL("export")
        }
        self.key = generated
        self.kid = kid
        self.modulus = n
        self.exponent = e
    }

    deinit { EVP_PKEY_free(key) }

    /// The RS256 (PKCS #1 v1.5, SHA-256) signature of `message`.
    public func sign(_ message: [UInt8]) throws(TestKeyError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .openSSL("digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw .openSSL("sign init") }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { throw .openSSL("sign") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw .openSSL("sign")
        }
        return Array(signature.prefix(length))
    }

    /// The public JWK as a provider publishes it: `kty`, `kid`, `use`, `alg`, `n`, `e`.
    public var publicJWK: JSONObject {
        [
            "kty": "RSA", "kid": .string(kid), "use": "sig", "alg": "RS256",
            "n": .string(Base64URL.encode(modulus)), "e": .string(Base64URL.encode(exponent)),
        ]
    }

    /// The public key as SPKI PEM text (what an attacker would use as an HMAC secret).
    public func publicKeyPEM() throws -> String {
        try AsymmetricKey(rsaModulus: modulus, exponent: exponent).publicKeyPEM()
    }

    private static func bigNumber(_ key: OpaquePointer, _ name: String) -> [UInt8]? {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else { return nil }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
        guard BN_bn2bin(number, &bytes) == Int32(bytes.count) else { return nil }
        return bytes
    }
}

/// A test key could not be made or used.
public enum TestKeyError: Error, Equatable {
    /// OpenSSL failed at the named step.
    case openSSL(String)
}
