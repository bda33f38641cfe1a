import Cryptography
import StrictJSON

/// Signs tokens with one key and one precomputed header; obtain it from `JWTKeySet.signer(header:)`.
///
/// The header is serialized and base64url-encoded once, so each `sign` serializes only the claims. ES256 signatures
/// are the 64-byte `R ‖ S` (RFC 7518 §3.4), EdDSA signatures 64 bytes (RFC 8037).
public struct JWTSigner: Sendable {
    /// The signing key; `nil` for the signer of a verify-only key set.
    public let key: JWTKey?
    /// `BASE64URL(header) ‖ '.'`.
    private let encodedHeader: [UInt8]
    /// The HMAC key when `key` is one, taken out of `JWTKey` once: the HS path signs without a switch or the
    /// retains of copying it out on every call (`make bench`: HS512 sign as fast as before asymmetric keys).
    private let hmac: HMACKey?

    /// Creates a signer; `alg` and `kid` in `header` are taken from `key`.
    public init(key: JWTKey, header: JWTHeader) {
        self.key = key
        if case .hmac(let hmac) = key.material { self.hmac = hmac } else { self.hmac = nil }
        var encoded: [UInt8] = []
        Base64URL.append(header.object(for: key).serialized(), to: &encoded)
        encoded.append(UInt8(ascii: "."))
        self.encodedHeader = encoded
    }

    /// Creates a signer for an HMAC key; `alg` and `kid` in `header` are taken from `key`.
    public init(key: HMACKey, header: JWTHeader) {
        self.init(key: JWTKey(key), header: header)
    }

    /// A signer without a key, whose `sign` always throws `JWTError.unknownSigningKeyID`.
    init(unavailable header: JWTHeader) {
        self.key = nil
        self.hmac = nil
        self.encodedHeader = []
    }

    /// Signs claims, serialized compactly with members in their order.
    ///
    /// - Throws: `JWTError.unknownSigningKeyID` without a key, `.unsupportedAlgorithm` for a key that cannot sign,
    ///   `.cryptoFailure` when OpenSSL fails.
    public func sign(_ claims: JWTClaims) throws(JWTError) -> String {
        try sign(payload: claims.object.serialized())
    }

    /// Signs an already-serialized payload (any bytes; JWT payloads should be a JSON object).
    ///
    /// - Throws: as `sign(_:)`.
    public func sign(payload: [UInt8]) throws(JWTError) -> String {
        if let hmac {
            var output = encodedHeader
            output.reserveCapacity(
                encodedHeader.count + Base64URL.encodedCount(payload.count) + 1
                    + Base64URL.encodedCount(hmac.algorithm.hash.outputByteCount))
            Base64URL.append(payload, to: &output)
            let mac = try hmac.authenticationCode(for: output, range: 0..<output.count)
            output.append(UInt8(ascii: "."))
            Base64URL.append(mac, to: &output)
            return String(decoding: output, as: UTF8.self)
        }
        guard let key else { throw .unknownSigningKeyID }
        var output = encodedHeader
        output.reserveCapacity(
            encodedHeader.count + Base64URL.encodedCount(payload.count) + 1
                + Base64URL.encodedCount(key.maximumSignatureByteCount)
        )
        Base64URL.append(payload, to: &output)
        let signature = try key.signature(for: output, range: 0..<output.count)
        output.append(UInt8(ascii: "."))
        Base64URL.append(signature, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
