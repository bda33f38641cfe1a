#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte-level views of native strings for the JSON hot paths; `String`'s own operations are Unicode-aware and
/// several times slower for these short ASCII names.
package enum UTF8Bytes {
    /// Whether two strings have the same UTF-8 bytes (no canonical equivalence).
    package static func equal(_ a: String, _ b: String) -> Bool {
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

    /// The UTF-8 length (capped at 255) in the top byte and the first 7 bytes below it. Equal names have equal keys;
    /// names of at most 7 bytes are equal exactly when their keys are.
    package static func packedKey(_ string: String) -> UInt64 {
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
    package static func isFullyPacked(_ key: UInt64) -> Bool {
        key >> 56 <= 7
    }

    /// The UTF-8 bytes of `string`, copied in one step when the storage is contiguous.
    package static func array(_ string: String) -> [UInt8] {
        let copied = unsafe string.utf8.withContiguousStorageIfAvailable { source in
            unsafe [UInt8](unsafeUninitializedCapacity: source.count) { target, initialized in
                if let base = source.baseAddress, source.count > 0 {
                    unsafe target.baseAddress?.initialize(from: base, count: source.count)
                }
                initialized = source.count
            }
        }
        return copied ?? Array(string.utf8)
    }

    /// A string from `bytes[range]`; `nil` when the bytes are not valid UTF-8. `ascii` promises that every byte is
    /// below 0x80 and skips validation.
    package static func string(_ bytes: [UInt8], _ range: Range<Int>, ascii: Bool) -> String? {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count)
        return unsafe bytes.withUnsafeBufferPointer { buffer in
            let slice = unsafe UnsafeBufferPointer(rebasing: buffer[range])
            return unsafe ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
        }
    }

    /// Whether `bytes[range]` equals `other` byte for byte.
    package static func equal(_ bytes: [UInt8], _ range: Range<Int>, _ other: [UInt8]) -> Bool {
        guard range.count == other.count, range.lowerBound >= 0, range.upperBound <= bytes.count else { return false }
        var index = 0
        while index < other.count {
            guard bytes[range.lowerBound + index] == other[index] else { return false }
            index += 1
        }
        return true
    }

    /// The positions of the first two `.` in `bytes` and the number of dots (counting stops at 3).
    package static func dots(_ bytes: [UInt8]) -> (first: Int, second: Int, count: Int) {
        unsafe bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return (-1, -1, 0) }
            var found = (first: -1, second: -1, count: 0)
            var offset = 0
            // memchr is vectorized; a byte loop costs ~100 ns on a 400-byte token.
            while found.count < 3, offset < buffer.count,
                let hit = unsafe memchr(base + offset, Int32(UInt8(ascii: ".")), buffer.count - offset)
            {
                let position = unsafe base.distance(to: UnsafeRawPointer(hit))
                if found.count == 0 { found.first = position } else if found.count == 1 { found.second = position }
                found.count += 1
                offset = position + 1
            }
            return found
        }
    }
}
