internal import COpenSSL

/// Converts P-256 ECDSA signatures between OpenSSL's DER `ECDSA-Sig-Value` and the fixed 64-byte `R ‖ S` of
/// IEEE P1363 and RFC 7518 §3.4, through `ECDSA_SIG` (`d2i_ECDSA_SIG` / `i2d_ECDSA_SIG`).
enum ECDSASignature {
    /// The byte length of R and of S on P-256.
    static let scalarByteCount = 32
    /// The largest DER encoding of a P-256 signature: SEQUENCE of two 33-byte INTEGERs.
    static let maximumDERByteCount = 72

    /// The order n of the P-256 group (FIPS 186-4 D.1.2.3), big-endian.
    static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// Whether a 32-byte big-endian scalar lies in [1, n − 1], as ECDSA verification requires (SEC 1 §4.1.4).
    /// Comparing equal-length big-endian byte strings lexicographically compares the numbers.
    static func isInRange<C: Collection<UInt8>>(_ scalar: C) -> Bool {
        scalar.contains { $0 != 0 } && scalar.lexicographicallyPrecedes(order)
    }

    /// `R ‖ S` from a DER signature OpenSSL produced.
    static func raw(fromDER der: [UInt8]) throws(CryptographyError) -> [UInt8] {
        let signature = unsafe der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return unsafe d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature = unsafe signature else { throw .cryptoFailure }
        defer { unsafe ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: 2 * scalarByteCount)
        let ok = unsafe raw.withUnsafeMutableBufferPointer { output in
            let base = output.baseAddress
            let width = Int32(scalarByteCount)
            return unsafe BN_bn2binpad(ECDSA_SIG_get0_r(signature), base, width) == width
                && BN_bn2binpad(ECDSA_SIG_get0_s(signature), base.map { unsafe $0 + scalarByteCount }, width) == width
        }
        guard ok else { throw .cryptoFailure }
        return raw
    }

    /// The DER encoding of `R ‖ S`, or `nil` when the length is not 64 or R or S is outside [1, n − 1].
    static func der(fromRaw raw: [UInt8]) throws(CryptographyError) -> [UInt8]? {
        guard raw.count == 2 * scalarByteCount else { return nil }
        guard isInRange(raw[0..<scalarByteCount]), isInRange(raw[scalarByteCount...]) else { return nil }
        guard let signature = unsafe ECDSA_SIG_new() else { throw .cryptoFailure }
        defer { unsafe ECDSA_SIG_free(signature) }
        let (r, s) = unsafe raw.withUnsafeBufferPointer { buffer in
            let width = Int32(scalarByteCount)
            return unsafe (
                BN_bin2bn(buffer.baseAddress, width, nil),
                BN_bin2bn(buffer.baseAddress.map { unsafe $0 + scalarByteCount }, width, nil)
            )
        }
        // ECDSA_SIG_set0 takes ownership of both numbers on success only.
        guard unsafe r != nil, unsafe s != nil, unsafe ECDSA_SIG_set0(signature, r, s) == 1 else {
            unsafe BN_free(r)
            unsafe BN_free(s)
            throw .cryptoFailure
        }
        var der = [UInt8](repeating: 0, count: maximumDERByteCount)
        let length = unsafe der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return unsafe i2d_ECDSA_SIG(signature, &cursor)
        }
        guard length > 0, Int(length) <= maximumDERByteCount else { throw .cryptoFailure }
        der.removeSubrange(Int(length)...)
        return der
    }
}
