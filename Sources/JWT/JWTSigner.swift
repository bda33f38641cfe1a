import Cryptography
import StrictJSON

/// Signs tokens with one key and one precomputed header; obtain it from `JWTKeySet.signer(header:)`.
///
/// The header is serialized and base64url-encoded once, so each `sign` serializes only the claims.
public struct JWTSigner: Sendable {
    /// The signing key.
    public let key: HMACKey
    /// `BASE64URL(header) ‖ '.'`.
    private let encodedHeader: [UInt8]

    /// Creates a signer; `alg` and `kid` in `header` are taken from `key`.
    public init(key: HMACKey, header: JWTHeader) {
        self.key = key
        var encoded: [UInt8] = []
        Base64URL.append(header.object(for: key).serialized(), to: &encoded)
        encoded.append(UInt8(ascii: "."))
        self.encodedHeader = encoded
    }

    /// Signs claims, serialized compactly with members in their order.
    ///
    /// - Throws: `JWTError.cryptoFailure` when OpenSSL fails.
    public func sign(_ claims: JWTClaims) throws(JWTError) -> String {
        try sign(payload: claims.object.serialized())
    }

    /// Signs an already-serialized payload (any bytes; JWT payloads should be a JSON object).
    ///
    /// - Throws: `JWTError.cryptoFailure` when OpenSSL fails.
    public func sign(payload: [UInt8]) throws(JWTError) -> String {
        let macLength = key.algorithm.hash.outputByteCount
        var output = encodedHeader
        output.reserveCapacity(
            encodedHeader.count + Base64URL.encodedCount(payload.count) + 1 + Base64URL.encodedCount(macLength)
        )
        Base64URL.append(payload, to: &output)
        let mac = try key.authenticationCode(for: output, range: 0..<output.count)
        output.append(UInt8(ascii: "."))
        Base64URL.append(mac, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
