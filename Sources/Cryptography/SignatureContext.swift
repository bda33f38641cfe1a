internal import COpenSSL

/// One OpenSSL operation context bound to one ECDSA or RSA key and one direction (sign or verify).
///
/// An `EVP_PKEY_CTX` initialised once (`EVP_PKEY_sign_init` / `verify_init` with SHA-256 as the signature digest)
/// plus an `EVP_MD_CTX` for hashing the message. Re-initialising costs a provider lookup per call, so contexts are
/// pooled. (Ed25519 never comes here: it signs and verifies through libsodium, see `SodiumEd25519`.) Every failure
/// path empties the thread's OpenSSL error queue.
///
/// `@unchecked Sendable`: one thread at a time — `SignatureEngine` hands instances out and takes them back under
/// its `Mutex`.
@safe final class SignatureContext: @unchecked Sendable {
    private let keyContext: OpaquePointer
    private let digestContext: OpaquePointer

    /// SHA-256, fetched once: passing `EVP_sha256()` would repeat an implicit fetch on every initialisation.
    private static let sha256 = FetchedDigest(name: "SHA256")

    init(key: PKey, signing: Bool) throws(CryptographyError) {
        guard let digestContext = unsafe EVP_MD_CTX_new() else {
            ERR_clear_error()
            throw .cryptoFailure
        }
        guard let context = unsafe EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            unsafe EVP_MD_CTX_free(digestContext)
            ERR_clear_error()
            throw .cryptoFailure
        }
        unsafe self.digestContext = digestContext
        unsafe self.keyContext = context
        let initialised = signing ? unsafe EVP_PKEY_sign_init(context) : unsafe EVP_PKEY_verify_init(context)
        guard initialised == 1, let md = unsafe Self.sha256.pointer,
            unsafe EVP_PKEY_CTX_set_signature_md(context, md) == 1
        else {
            ERR_clear_error()
            throw .cryptoFailure
        }
    }

    deinit {
        unsafe EVP_PKEY_CTX_free(keyContext)
        unsafe EVP_MD_CTX_free(digestContext)
    }

    /// SHA-256 of `bytes[range]`.
    private func digest(_ bytes: [UInt8], range: Range<Int>) throws(CryptographyError) -> [UInt8] {
        guard let md = unsafe Self.sha256.pointer else { throw .cryptoFailure }
        var ok = false
        let digest = unsafe [UInt8](unsafeUninitializedCapacity: 32) { output, initialized in
            var length: UInt32 = 0
            ok = unsafe bytes.withUnsafeBufferPointer { message in
                let start = unsafe message.baseAddress.map { unsafe $0 + range.lowerBound }
                return unsafe EVP_DigestInit_ex(digestContext, md, nil) == 1
                    && EVP_DigestUpdate(digestContext, start, range.count) == 1
                    && EVP_DigestFinal_ex(digestContext, output.baseAddress, &length) == 1
            }
            initialized = ok && length == 32 ? 32 : 0
        }
        guard ok, digest.count == 32 else {
            ERR_clear_error()
            throw .cryptoFailure
        }
        return digest
    }

    /// The DER (ECDSA) or PKCS#1 (RSA) signature of `bytes[range]`.
    func sign(_ bytes: [UInt8], range: Range<Int>, maximumLength: Int) throws(CryptographyError) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: maximumLength)
        var length = maximumLength
        let digest = try digest(bytes, range: range)
        let status = unsafe signature.withUnsafeMutableBufferPointer { output in
            unsafe EVP_PKEY_sign(keyContext, output.baseAddress, &length, digest, digest.count)
        }
        guard status == 1, length <= maximumLength else {
            ERR_clear_error()
            throw .cryptoFailure
        }
        signature.removeSubrange(length...)
        return signature
    }

    /// Whether `signature` (DER for ECDSA) is valid for `bytes[range]`. A malformed signature is simply invalid.
    func verify(_ signature: [UInt8], for bytes: [UInt8], range: Range<Int>) throws(CryptographyError) -> Bool {
        let digest = try digest(bytes, range: range)
        let status = unsafe signature.withUnsafeBufferPointer { sig in
            unsafe EVP_PKEY_verify(keyContext, sig.baseAddress, sig.count, digest, digest.count)
        }
        guard status == 1 else {
            // 0 is a bad signature, a negative value a malformed one: both leave errors on this thread's queue.
            ERR_clear_error()
            return false
        }
        return true
    }
}

/// An `EVP_MD` fetched once from the default provider and kept for the life of the process.
///
/// `@unchecked Sendable`: a fetched `EVP_MD` is immutable and OpenSSL allows using it from any thread.
@safe final class FetchedDigest: @unchecked Sendable {
    let pointer: OpaquePointer?

    init(name: String) {
        unsafe self.pointer = EVP_MD_fetch(nil, name, nil)
    }

    deinit {
        unsafe EVP_MD_free(pointer)
    }
}
