import Cryptography

extension JWTKey {
    /// The signature (or MAC) of `bytes[range]`, without copying the range out.
    ///
    /// - Throws: `JWTError.unsupportedAlgorithm` when the key cannot sign (public or RS256), `.cryptoFailure`.
    func signature(for bytes: [UInt8], range: Range<Int>) throws(JWTError) -> [UInt8] {
        switch material {
        case .hmac(let key):
            return try key.authenticationCode(for: bytes, range: range)
        case .asymmetric(let key):
            do {
                return try key.signature(for: bytes, range: range)
            } catch {
                throw JWTError(error)
            }
        }
    }

    /// Whether `signature` is valid for `bytes[range]`: the MAC compared in constant time, or the asymmetric check
    /// (ES256 exactly 64 bytes `R ‖ S`, EdDSA 64 bytes, RS256 the modulus length).
    ///
    /// For callers that split a compact JWS themselves (DPoP proofs carry their key in the header, so there is no
    /// key set to look it up in): `bytes[range]` is the signing input `BASE64URL(header) ‖ '.' ‖ BASE64URL(payload)`
    /// and is not copied. A signature of the wrong length is simply invalid.
    ///
    /// - Throws: `JWTError.cryptoFailure` when OpenSSL fails (allocation), never for a bad signature.
    public func isValidSignature(_ signature: [UInt8], for bytes: [UInt8], range: Range<Int>) throws(JWTError) -> Bool {
        switch material {
        case .hmac(let key):
            let expected = try key.authenticationCode(for: bytes, range: range)
            return ConstantTime.equals(expected, signature)
        case .asymmetric(let key):
            do {
                return try key.isValidSignature(signature, for: bytes, range: range)
            } catch {
                throw JWTError(error)
            }
        }
    }

    /// An upper bound of the signature length in bytes, to reserve the output once.
    var maximumSignatureByteCount: Int {
        switch material {
        case .hmac: algorithm.hash.outputByteCount
        case .asymmetric: 64
        }
    }
}
