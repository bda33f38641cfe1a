internal import COpenSSL

/// Owns one OpenSSL `EVP_PKEY` and reads its parameters back out.
///
/// `@unchecked Sendable`: the key is fully built before the instance is published and never modified afterwards;
/// OpenSSL allows concurrent signing and verification with one unmodified `EVP_PKEY` (each call uses its own
/// `EVP_PKEY_CTX` / `EVP_MD_CTX`).
@safe final class PKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer` (freed in `deinit`).
    init(owning pointer: OpaquePointer) {
        unsafe self.pointer = pointer
    }

    deinit {
        unsafe EVP_PKEY_free(pointer)
    }

    /// Whether OpenSSL's key type is `name` (`"EC"`, `"ED25519"`, `"RSA"`).
    func isA(_ name: String) -> Bool {
        unsafe EVP_PKEY_is_a(pointer, name) == 1
    }

    /// The size of the key in bits (the modulus for RSA).
    var bits: Int {
        Int(unsafe EVP_PKEY_get_bits(pointer))
    }

    /// A UTF-8 parameter such as the EC group name (`"group"`), or `nil` when absent.
    func utf8Parameter(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        let ok = unsafe buffer.withUnsafeMutableBufferPointer { target in
            unsafe EVP_PKEY_get_utf8_string_param(pointer, name, target.baseAddress, target.count, &length)
        }
        guard ok == 1, length < buffer.count else {
            ERR_clear_error()
            return nil
        }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A big-number parameter (`"qx"`, `"n"`, `"priv"`…) as big-endian bytes, left-padded to `width` when given.
    ///
    /// The temporary `BIGNUM` is cleared before it is freed, since it may be a private scalar.
    func bigNumberParameter(_ name: String, width: Int? = nil) throws(CryptographyError) -> [UInt8] {
        var number: OpaquePointer? = nil
        guard unsafe EVP_PKEY_get_bn_param(pointer, name, &number) == 1, let number = unsafe number else {
            ERR_clear_error()
            throw .cryptoFailure
        }
        defer { unsafe BN_clear_free(number) }
        let count = width ?? Int((unsafe BN_num_bits(number) + 7) / 8)
        var bytes = [UInt8](repeating: 0, count: count)
        let written = unsafe bytes.withUnsafeMutableBufferPointer { target in
            unsafe BN_bn2binpad(number, target.baseAddress, Int32(target.count))
        }
        guard written == Int32(count) else {
            ERR_clear_error()
            SecureMemory.cleanse(&bytes)
            throw .cryptoFailure
        }
        return bytes
    }

    /// The raw public key of an Ed25519 key (32 bytes).
    func rawPublicKey() throws(CryptographyError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 32)
        var length = bytes.count
        let ok = unsafe bytes.withUnsafeMutableBufferPointer { target in
            unsafe EVP_PKEY_get_raw_public_key(pointer, target.baseAddress, &length)
        }
        guard ok == 1, length == 32 else {
            ERR_clear_error()
            throw .cryptoFailure
        }
        return bytes
    }

    /// The raw private key (seed) of an Ed25519 key (32 bytes).
    func rawPrivateKey() throws(CryptographyError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 32)
        var length = bytes.count
        let ok = unsafe bytes.withUnsafeMutableBufferPointer { target in
            unsafe EVP_PKEY_get_raw_private_key(pointer, target.baseAddress, &length)
        }
        guard ok == 1, length == 32 else {
            ERR_clear_error()
            SecureMemory.cleanse(&bytes)
            throw .cryptoFailure
        }
        return bytes
    }

    /// The DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) of the key.
    func subjectPublicKeyInfo() throws(CryptographyError) -> [UInt8] {
        let count = Int(unsafe i2d_PUBKEY(pointer, nil))
        guard count > 0 else {
            ERR_clear_error()
            throw .cryptoFailure
        }
        var bytes = [UInt8](repeating: 0, count: count)
        let written = unsafe bytes.withUnsafeMutableBufferPointer { target in
            var cursor = target.baseAddress
            return unsafe i2d_PUBKEY(pointer, &cursor)
        }
        guard Int(written) == count else {
            ERR_clear_error()
            throw .cryptoFailure
        }
        return bytes
    }

    /// The private key as PKCS#8 `PRIVATE KEY` PEM, built in OpenSSL's secure heap (cleared when freed).
    func pkcs8PEM() throws(CryptographyError) -> String {
        guard let bio = unsafe BIO_new(BIO_s_secmem()) else {
            ERR_clear_error()
            throw .cryptoFailure
        }
        defer { unsafe BIO_free(bio) }
        guard unsafe PEM_write_bio_PKCS8PrivateKey(bio, pointer, nil, nil, 0, nil, nil) == 1 else {
            ERR_clear_error()
            throw .cryptoFailure
        }
        let pending = Int(unsafe BIO_ctrl_pending(bio))
        guard pending > 0 else { throw .cryptoFailure }
        var bytes = [UInt8](repeating: 0, count: pending)
        defer { SecureMemory.cleanse(&bytes) }
        let read = unsafe bytes.withUnsafeMutableBufferPointer { target in
            unsafe BIO_read(bio, target.baseAddress, Int32(target.count))
        }
        guard Int(read) == pending else { throw .cryptoFailure }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs OpenSSL's key check: the full public check (on the curve, not infinity, right order) for public keys,
    /// the pairwise check (the public part belongs to the private part) for private ones. A failed check empties
    /// the thread's OpenSSL error queue.
    func check(isPrivate: Bool) -> Bool {
        guard let context = unsafe EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else {
            ERR_clear_error()
            return false
        }
        defer { unsafe EVP_PKEY_CTX_free(context) }
        let passed =
            unsafe EVP_PKEY_public_check(context) == 1 && (!isPrivate || EVP_PKEY_pairwise_check(context) == 1)
        if !passed { ERR_clear_error() }
        return passed
    }
}
