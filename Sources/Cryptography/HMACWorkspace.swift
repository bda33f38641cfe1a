internal import COpenSSL

/// Owns three OpenSSL digest contexts: the hash state after the inner padded key block, after the outer one,
/// and a scratch context. HMAC(m) = H(opad ‖ H(ipad ‖ m)) (RFC 2104), resumed from the keyed states.
///
/// `@unchecked Sendable`: an instance is used by one thread at a time — `HMACEngine` hands it out and takes it
/// back under its `Mutex`, and clones its template only while holding that lock.
@safe package final class HMACWorkspace: @unchecked Sendable {
    private let inner: OpaquePointer
    private let outer: OpaquePointer
    private let scratch: OpaquePointer

    init(algorithm: HMAC.Algorithm) throws(CryptographyError) {
        let contexts = unsafe [EVP_MD_CTX_new(), EVP_MD_CTX_new(), EVP_MD_CTX_new()]
        guard unsafe !contexts.contains(nil) else {
            unsafe EVP_MD_CTX_free(contexts[0])
            unsafe EVP_MD_CTX_free(contexts[1])
            unsafe EVP_MD_CTX_free(contexts[2])
            throw .cryptoFailure
        }
        unsafe self.inner = contexts[0].unsafelyUnwrapped
        unsafe self.outer = contexts[1].unsafelyUnwrapped
        unsafe self.scratch = contexts[2].unsafelyUnwrapped
    }

    deinit {
        unsafe EVP_MD_CTX_free(inner)
        unsafe EVP_MD_CTX_free(outer)
        unsafe EVP_MD_CTX_free(scratch)
    }

    private static func digest(_ algorithm: HMAC.Algorithm) -> OpaquePointer? {
        switch algorithm {
        case .sha256: unsafe EVP_sha256()
        case .sha384: unsafe EVP_sha384()
        case .sha512: unsafe EVP_sha512()
        }
    }

    /// Absorbs `key ⊕ ipad` and `key ⊕ opad` into the inner and outer contexts; wipes every copy of the key.
    func setKey(_ key: [UInt8], algorithm: HMAC.Algorithm) throws(CryptographyError) {
        let md = unsafe Self.digest(algorithm)
        var block = [UInt8](repeating: 0, count: algorithm.blockByteCount)
        defer { SecureMemory.cleanse(&block) }
        if key.count > block.count {
            var length: UInt32 = 0
            let hashed = unsafe key.withUnsafeBytes { source in
                unsafe block.withUnsafeMutableBytes { target in
                    unsafe EVP_Digest(source.baseAddress, source.count, target.baseAddress, &length, md, nil)
                }
            }
            guard hashed == 1 else { throw .cryptoFailure }
        } else {
            block.replaceSubrange(0..<key.count, with: key)
        }
        for index in block.indices { block[index] ^= 0x36 }
        let innerOK = unsafe EVP_DigestInit_ex(inner, md, nil) == 1 && EVP_DigestUpdate(inner, block, block.count) == 1
        for index in block.indices { block[index] ^= 0x36 ^ 0x5c }
        let outerOK = unsafe EVP_DigestInit_ex(outer, md, nil) == 1 && EVP_DigestUpdate(outer, block, block.count) == 1
        guard innerOK, outerOK else { throw .cryptoFailure }
    }

    /// A workspace with the same keyed states.
    func clone() throws(CryptographyError) -> HMACWorkspace {
        let copy = try HMACWorkspace(algorithm: .sha256)
        guard unsafe EVP_MD_CTX_copy_ex(copy.inner, inner) == 1, unsafe EVP_MD_CTX_copy_ex(copy.outer, outer) == 1
        else { throw .cryptoFailure }
        return copy
    }

    func authenticationCode(
        for bytes: [UInt8],
        range: Range<Int>,
        outputByteCount: Int
    ) throws(CryptographyError) -> [UInt8] {
        var ok = false
        let code = unsafe [UInt8](unsafeUninitializedCapacity: outputByteCount) { output, initialized in
            var length: UInt32 = 0
            ok = unsafe bytes.withUnsafeBufferPointer { message in
                let start = unsafe message.baseAddress.map { unsafe $0 + range.lowerBound }
                return unsafe EVP_MD_CTX_copy_ex(scratch, inner) == 1
                    && EVP_DigestUpdate(scratch, start, range.count) == 1
                    && EVP_DigestFinal_ex(scratch, output.baseAddress, &length) == 1
                    && EVP_MD_CTX_copy_ex(scratch, outer) == 1
                    && EVP_DigestUpdate(scratch, output.baseAddress, Int(length)) == 1
                    && EVP_DigestFinal_ex(scratch, output.baseAddress, &length) == 1
            }
            initialized = ok && Int(length) == outputByteCount ? outputByteCount : 0
        }
        guard ok, code.count == outputByteCount else { throw .cryptoFailure }
        return code
    }
}
