internal import CSodium

/// The libsodium calls this module makes, each behind a safe signature. All unsafe code of the module that
/// touches libsodium lives here.
enum Sodium {
    /// `sodium_init()`, run once (thread-safe lazy static). False if libsodium cannot initialise.
    static let isReady: Bool = sodium_init() >= 0

    static var opsLimitRange: ClosedRange<Int> {
        Int(crypto_pwhash_argon2id_opslimit_min())...Int(clamping: crypto_pwhash_argon2id_opslimit_max())
    }

    static var memoryLimitRange: ClosedRange<Int> {
        Int(crypto_pwhash_argon2id_memlimit_min())...Int(clamping: crypto_pwhash_argon2id_memlimit_max())
    }

    /// `crypto_pwhash_str_alg` with Argon2id v1.3; nil when libsodium fails (out of memory).
    static func hash(_ password: UnsafeRawBufferPointer, opsLimit: Int, memoryLimit: Int) -> String? {
        var output = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        // libsodium declares its pointers nonnull; `Password` always has a base address, even when empty.
        guard let input = password.baseAddress else { return nil }
        let code = unsafe output.withUnsafeMutableBufferPointer { out -> Int32 in
            guard let base = out.baseAddress else { return -1 }
            return unsafe crypto_pwhash_str_alg(
                base, input.assumingMemoryBound(to: CChar.self), UInt64(password.count), UInt64(opsLimit),
                memoryLimit, crypto_pwhash_alg_argon2id13())
        }
        guard code == 0 else { return nil }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `crypto_pwhash_str_verify`: true only for a matching password.
    static func verify(_ password: UnsafeRawBufferPointer, against hash: String) -> Bool {
        guard hash.utf8.count < crypto_pwhash_strbytes() else { return false }
        guard let input = password.baseAddress else { return false }
        return unsafe crypto_pwhash_str_verify(
            hash, input.assumingMemoryBound(to: CChar.self), UInt64(password.count)) == 0
    }

    /// `crypto_pwhash_str_needs_rehash`: 1 needs rehash, 0 current, -1 not a valid hash string.
    static func needsRehash(_ hash: String, opsLimit: Int, memoryLimit: Int) -> Int32 {
        guard hash.utf8.count < crypto_pwhash_strbytes() else { return -1 }
        return unsafe crypto_pwhash_str_needs_rehash(hash, UInt64(opsLimit), memoryLimit)
    }

    /// `sodium_memzero` over the buffer.
    static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        unsafe sodium_memzero(base, buffer.count)
    }

    /// `randombytes_buf` into a new array.
    static func randomBytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        unsafe bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            unsafe randombytes_buf(base, buffer.count)
        }
        return bytes
    }
}
