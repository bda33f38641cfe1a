/// Base64url without padding (RFC 4648 §5, as JWS uses it: RFC 7515 §2).
///
/// Decoding is strict: only the 64 alphabet characters, no `=`, no whitespace, no length ≡ 1 (mod 4), and the
/// unused low bits of the last character must be zero, so every byte string has exactly one encoding.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// 0xFF marks a byte outside the alphabet.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }()

    /// Encodes bytes as base64url text without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        append(bytes, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64url text without padding.
    ///
    /// - Returns: The bytes, or `nil` when the text is not canonical unpadded base64url.
    public static func decode(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        return decode(bytes, range: bytes.startIndex..<bytes.endIndex)
    }

    /// The number of characters `byteCount` bytes encode to.
    @inlinable package static func encodedCount(_ byteCount: Int) -> Int {
        (byteCount / 3) * 4 + (byteCount % 3 == 0 ? 0 : byteCount % 3 + 1)
    }

    /// Appends the encoding of `bytes` to `output`.
    package static func append(_ bytes: [UInt8], to output: inout [UInt8]) {
        let base = output.count
        let count = encodedCount(bytes.count)
        output.append(contentsOf: repeatElement(0, count: count))
        unsafe alphabet.withUnsafeBufferPointer { table in
            unsafe bytes.withUnsafeBufferPointer { source in
                unsafe output.withUnsafeMutableBufferPointer { target in
                    unsafe encode(source, into: target, at: base, table: table)
                }
            }
        }
    }

    private static func encode(
        _ source: UnsafeBufferPointer<UInt8>,
        into target: UnsafeMutableBufferPointer<UInt8>,
        at start: Int,
        table: UnsafeBufferPointer<UInt8>
    ) {
        var input = 0
        var output = start
        let whole = source.count - source.count % 3
        while input < whole {
            let chunk = unsafe UInt32(source[input]) << 16 | UInt32(source[input + 1]) << 8 | UInt32(source[input + 2])
            unsafe target[output] = table[Int(chunk >> 18)]
            unsafe target[output + 1] = table[Int(chunk >> 12 & 0x3F)]
            unsafe target[output + 2] = table[Int(chunk >> 6 & 0x3F)]
            unsafe target[output + 3] = table[Int(chunk & 0x3F)]
            input += 3
            output += 4
        }
        let rest = source.count - whole
        guard rest > 0 else { return }
        let chunk = unsafe UInt32(source[input]) << 16 | (rest == 2 ? UInt32(source[input + 1]) << 8 : 0)
        unsafe target[output] = table[Int(chunk >> 18)]
        unsafe target[output + 1] = table[Int(chunk >> 12 & 0x3F)]
        if rest == 2 { unsafe target[output + 2] = table[Int(chunk >> 6 & 0x3F)] }
    }

    /// Decodes `text[range]` strictly; `nil` on any deviation from canonical unpadded base64url.
    package static func decode(_ text: [UInt8], range: Range<Int>) -> [UInt8]? {
        precondition(range.lowerBound >= text.startIndex && range.upperBound <= text.endIndex)
        let count = range.count
        guard count % 4 != 1 else { return nil }
        let decodedCount = count / 4 * 3 + [0, 0, 1, 2][count % 4]
        var valid = false
        let output = unsafe [UInt8](unsafeUninitializedCapacity: decodedCount) { target, initialized in
            valid = unsafe decodeTable.withUnsafeBufferPointer { table in
                unsafe text.withUnsafeBufferPointer { source in
                    unsafe decode(UnsafeBufferPointer(rebasing: source[range]), into: target, table: table)
                }
            }
            initialized = decodedCount
        }
        return valid ? output : nil
    }

    /// Decodes `source` into exactly `target.count` bytes; `false` when `source` is not canonical.
    private static func decode(
        _ source: UnsafeBufferPointer<UInt8>,
        into target: UnsafeMutableBufferPointer<UInt8>,
        table: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        var input = 0
        var output = 0
        let wholeEnd = source.count - source.count % 4
        var invalid: UInt8 = 0
        while input < wholeEnd {
            let a = unsafe table[Int(source[input])]
            let b = unsafe table[Int(source[input + 1])]
            let c = unsafe table[Int(source[input + 2])]
            let d = unsafe table[Int(source[input + 3])]
            invalid |= a | b | c | d
            let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            unsafe target[output] = UInt8(truncatingIfNeeded: chunk >> 16)
            unsafe target[output + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
            unsafe target[output + 2] = UInt8(truncatingIfNeeded: chunk)
            input += 4
            output += 3
        }
        switch source.count - wholeEnd {
        case 2:
            let a = unsafe table[Int(source[input])]
            let b = unsafe table[Int(source[input + 1])]
            invalid |= a | b | (b & 0x0F == 0 ? 0 : 0xFF)
            unsafe target[output] = a << 2 | b >> 4
        case 3:
            let a = unsafe table[Int(source[input])]
            let b = unsafe table[Int(source[input + 1])]
            let c = unsafe table[Int(source[input + 2])]
            invalid |= a | b | c | (c & 0x03 == 0 ? 0 : 0xFF)
            unsafe target[output] = a << 2 | b >> 4
            unsafe target[output + 1] = b << 4 | c >> 2
        default:
            break
        }
        // 0xFF (outside the alphabet) has its top bits set; valid sextets never do.
        return invalid & 0xC0 == 0
    }
}
