/// Byte-level views of native strings for the JSON hot paths; `String`'s own operations are Unicode-aware and
/// several times slower for these short ASCII names.
enum UTF8Bytes {
    /// Whether two strings have the same UTF-8 bytes (no canonical equivalence).
    static func equal(_ a: String, _ b: String) -> Bool {
        let count = a.utf8.count
        guard count == b.utf8.count else { return false }
        let fast = unsafe a.utf8.withContiguousStorageIfAvailable { left in
            unsafe b.utf8.withContiguousStorageIfAvailable { right in
                var index = 0
                while index < count {
                    guard unsafe left[index] == right[index] else { return false }
                    index += 1
                }
                return true
            }
        }
        if let fast, let result = fast { return result }
        return a.utf8.elementsEqual(b.utf8)
    }

    /// Whether `string` holds a byte JSON must escape: `"`, `\` or a control character (RFC 8259 §7).
    static func needsJSONEscape(_ string: String) -> Bool {
        let fast = unsafe string.utf8.withContiguousStorageIfAvailable { bytes in
            var index = 0
            while index < bytes.count {
                let byte = unsafe bytes[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
                index += 1
            }
            return false
        }
        if let fast { return fast }
        return string.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    /// The UTF-8 length (capped at 255) in the top byte and the first 7 bytes below it. Equal names have equal keys;
    /// names of at most 7 bytes are equal exactly when their keys are.
    static func packedKey(_ string: String) -> UInt64 {
        let count = string.utf8.count
        var key = UInt64(min(count, 255)) << 56
        let fast = unsafe string.utf8.withContiguousStorageIfAvailable { bytes in
            var packed = key
            var index = 0
            while index < min(count, 7) {
                packed |= unsafe UInt64(bytes[index]) << (8 * index)
                index += 1
            }
            return packed
        }
        if let fast { return fast }
        for (index, byte) in string.utf8.prefix(7).enumerated() { key |= UInt64(byte) << (8 * index) }
        return key
    }

    /// Whether a packed key holds its whole name (7 bytes or fewer).
    static func isFullyPacked(_ key: UInt64) -> Bool {
        key >> 56 <= 7
    }

    /// The UTF-8 bytes of `string`, copied in one step when the storage is contiguous.
    static func array(_ string: String) -> [UInt8] {
        unsafe string.utf8.withContiguousStorageIfAvailable { unsafe Array($0) } ?? Array(string.utf8)
    }
}
