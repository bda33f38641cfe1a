import CBOR
import Cryptography

/// A credential public key from its COSE_Key (RFC 9052 §7, RFC 9053): checked well formed for its algorithm and
/// ready to verify assertions. Keeps the exact bytes it was read from (what the store keeps).
public struct COSEKey: Sendable {
    /// The key's algorithm.
    public let algorithm: COSEAlgorithm
    /// The COSE_Key bytes as given.
    public let bytes: [UInt8]
    /// The loaded key (OpenSSL checked the point or the modulus).
    private let key: AsymmetricKey

    /// The largest COSE_Key accepted, in bytes (an RSA-4096 key takes about 540).
    public static let maximumBytes = 4_096

    /// Reads a stored COSE_Key.
    /// - Throws: `.malformed` for bytes that are not one CBOR map; `.failed(.algorithm)` for an algorithm other than
    ///   ES256, EdDSA, RS256 or one that disagrees with `kty`/`crv`; `.failed(.publicKey)` for a key that is not
    ///   well formed (P-256 point off the curve or not 32-byte coordinates, Ed25519 not 32 bytes, RSA under 2048
    ///   bits or a bad exponent).
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let map: CBORValue
        do {
            map = try CBORDecoder(limits: .init(maximumInputBytes: Self.maximumBytes, maximumDepth: 4)).decode(bytes)
        } catch {
            throw .malformed("COSE key: \(error)")
        }
        guard case .map = map else { throw .malformed("COSE key is not a map") }
        guard let number = map[Label.algorithm]?.intValue, let algorithm = COSEAlgorithm(rawValue: number) else {
            throw .failed(.algorithm)
        }
        let keyType = map[Label.keyType]?.intValue
        let loaded: AsymmetricKey?
        switch algorithm {
        case .es256:
            guard keyType == KeyType.ec2, map[Label.curveOrModulus]?.intValue == Curve.p256 else {
                throw .failed(.algorithm)
            }
            guard let x = map[Label.xOrExponent]?.bytesValue, let y = map[Label.y]?.bytesValue, x.count == 32,
                y.count == 32
            else { throw .failed(.publicKey) }
            loaded = try? AsymmetricKey(p256X: x, y: y)
        case .edDSA:
            guard keyType == KeyType.okp, map[Label.curveOrModulus]?.intValue == Curve.ed25519 else {
                throw .failed(.algorithm)
            }
            guard let x = map[Label.xOrExponent]?.bytesValue, x.count == 32 else { throw .failed(.publicKey) }
            loaded = try? AsymmetricKey(ed25519X: x)
        case .rs256:
            guard keyType == KeyType.rsa else { throw .failed(.algorithm) }
            guard let n = map[Label.curveOrModulus]?.bytesValue, let e = map[Label.xOrExponent]?.bytesValue else {
                throw .failed(.publicKey)
            }
            loaded = try? AsymmetricKey(rsaModulus: n, exponent: e)
        }
        guard let loaded else { throw .failed(.publicKey) }
        self.algorithm = algorithm
        self.bytes = bytes
        key = loaded
    }

    /// Whether `signature` is this key's valid signature of `message` (ES256: DER ECDSA over SHA-256; EdDSA: pure
    /// Ed25519; RS256: PKCS #1 v1.5 over SHA-256). Never throws: a malformed signature is simply not valid.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch algorithm {
        case .es256: (try? key.isValidDERSignature(signature, for: message)) ?? false
        case .edDSA, .rs256: (try? key.isValidSignature(signature, for: message)) ?? false
        }
    }

    /// COSE_Key labels (RFC 9052 §7.1, RFC 9053 §7.1–7.2, RFC 8230 §4).
    private enum Label {
        static let keyType = 1
        static let algorithm = 3
        /// EC2/OKP `crv`, RSA `n`.
        static let curveOrModulus = -1
        /// EC2/OKP `x`, RSA `e`.
        static let xOrExponent = -2
        /// EC2 `y`.
        static let y = -3
    }

    /// COSE key types.
    private enum KeyType {
        static let okp = 1
        static let ec2 = 2
        static let rsa = 3
    }

    /// COSE elliptic curves.
    private enum Curve {
        static let p256 = 1
        static let ed25519 = 6
    }
}
