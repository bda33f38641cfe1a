/// A password held in memory that is wiped (`sodium_memzero`) and freed when the last reference goes.
///
/// Built from a `String`, the bytes are the UTF-8 of its Unicode NFC form, written straight into the wiped
/// buffer (no intermediate copies), so "é" typed precomposed or decomposed hashes the same. The caller still
/// holds the original `String` (e.g. from the decoded JSON body); Swift gives no way to wipe that.
///
/// `@unchecked Sendable` and `@safe`: the buffer is written only in `init` and read-only afterwards, and it is
/// never exposed outside this module.
@safe public final class Password: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer
    /// Length in bytes (UTF-8 of the NFC form).
    public let byteCount: Int
    /// Length in characters (grapheme clusters, the same before and after NFC), for the length policy.
    public let characterCount: Int

    /// Normalises `string` to NFC and keeps its UTF-8 bytes.
    ///
    /// Uses the standard library's NFC (`String._withNFCCodeUnits`, the code behind `String` comparison), so no
    /// ICU or full Foundation is linked.
    public init(_ string: String) {
        var count = 0
        string._withNFCCodeUnits { _ in count += 1 }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
        var index = 0
        string._withNFCCodeUnits { byte in
            // Normalisation is deterministic, so the second pass writes exactly `count` bytes.
            if index < count { unsafe storage[index] = byte }
            index += 1
        }
        unsafe self.storage = storage
        self.byteCount = count
        self.characterCount = string.count
    }

    /// Takes raw bytes as they are (no normalisation). The caller should wipe its own copy.
    public init(bytes: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        unsafe storage.copyBytes(from: bytes)
        unsafe self.storage = storage
        self.byteCount = bytes.count
        self.characterCount = String(decoding: bytes, as: UTF8.self).count
    }

    deinit {
        unsafe Sodium.wipe(storage)
        unsafe storage.deallocate()
    }

    /// Runs `body` over the password bytes; the pointer must not escape. The base address is never nil,
    /// even for an empty password (libsodium declares its pointers nonnull).
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        unsafe body(UnsafeRawBufferPointer(start: storage.baseAddress, count: byteCount))
    }
}

// The libsodium operations on a password, so no unsafe expression leaves the wrapper files.
extension Password {
    /// Argon2id hash in PHC format, or nil when libsodium fails.
    func argon2idHash(opsLimit: Int, memoryLimit: Int) -> String? {
        unsafe withBytes { unsafe Sodium.hash($0, opsLimit: opsLimit, memoryLimit: memoryLimit) }
    }

    /// Whether this password matches the PHC `hash`.
    func matches(_ hash: String) -> Bool {
        unsafe withBytes { unsafe Sodium.verify($0, against: hash) }
    }
}
