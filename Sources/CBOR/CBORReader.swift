/// The cursor ``CBORDecoder`` walks the input with: one recursive descent, depth-bounded.
struct CBORReader {
    let bytes: [UInt8]
    var position: Int
    let maximumDepth: Int

    /// Bytes not read yet.
    var remaining: Int { bytes.count - position }

    /// Reads one data item; `depth` counts the arrays, maps and tags around it.
    mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        let start = position
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1F
        if major == 7 { return try simpleOrFloat(info: info, start: start) }
        let argument = try self.argument(info: info, start: start)
        switch major {
        case 0:
            return .unsigned(argument)
        case 1:
            return .negative(argument)
        case 2:
            return .bytes(try take(argument, start: start))
        case 3:
            let raw = try take(argument, start: start)
            guard let text = String(validating: raw, as: UTF8.self) else { throw CBORError(.invalidUTF8, at: start) }
            return .text(text)
        case 4:
            // Each element takes at least one byte: a count beyond what remains is refused before allocating.
            guard argument <= UInt64(remaining) else { throw CBORError(.lengthTooLarge, at: start) }
            let count = Int(argument)
            guard count == 0 || depth < maximumDepth else { throw CBORError(.tooDeep, at: start) }
            var elements: [CBORValue] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
            return .array(elements)
        case 5:
            // Each entry takes at least two bytes.
            guard argument <= UInt64(remaining / 2) else { throw CBORError(.lengthTooLarge, at: start) }
            let count = Int(argument)
            guard count == 0 || depth < maximumDepth else { throw CBORError(.tooDeep, at: start) }
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(count)
            var keys = Set<CBORValue>()
            for _ in 0..<count {
                let keyStart = position
                let key = try item(depth: depth + 1)
                guard keys.insert(key).inserted else { throw CBORError(.duplicateKey, at: keyStart) }
                entries.append(CBORMapEntry(key: key, value: try item(depth: depth + 1)))
            }
            return .map(entries)
        default:  // 6: a tag
            guard depth < maximumDepth else { throw CBORError(.tooDeep, at: start) }
            return .tagged(argument, try item(depth: depth + 1))
        }
    }

    /// The argument of a major type 0–6 header (RFC 8949 §3): the value itself, or 1, 2, 4 or 8 bytes after it.
    private mutating func argument(info: UInt8, start: Int) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return try bigEndian(count: 1)
        case 25: return try bigEndian(count: 2)
        case 26: return try bigEndian(count: 4)
        case 27: return try bigEndian(count: 8)
        case 31: throw CBORError(.indefiniteLength, at: start)
        default: throw CBORError(.reservedAdditionalInfo, at: start)
        }
    }

    /// Major type 7 (RFC 8949 §3.3): simple values and floats; a "break" outside an indefinite item is refused.
    private mutating func simpleOrFloat(info: UInt8, start: Int) throws(CBORError) -> CBORValue {
        switch info {
        case 20: return .boolean(false)
        case 21: return .boolean(true)
        case 22: return .null
        case 23: return .undefined
        case 0..<20: return .simple(info)
        case 24:
            let value = UInt8(try bigEndian(count: 1))
            guard value >= 32 else { throw CBORError(.invalidSimpleValue, at: start) }
            return .simple(value)
        case 25: return .float(Self.half(UInt16(try bigEndian(count: 2))))
        case 26: return .float(Double(Float(bitPattern: UInt32(try bigEndian(count: 4)))))
        case 27: return .float(Double(bitPattern: try bigEndian(count: 8)))
        case 31: throw CBORError(.indefiniteLength, at: start)
        default: throw CBORError(.reservedAdditionalInfo, at: start)
        }
    }

    /// IEEE 754 binary16 widened (RFC 8949 Appendix D).
    static func half(_ bits: UInt16) -> Double {
        let exponent = Int(bits >> 10 & 0x1F)
        let mantissa = Double(bits & 0x3FF)
        let magnitude: Double =
            switch exponent {
            case 0: mantissa * 0x1p-24
            case 31: mantissa == 0 ? .infinity : .nan
            default: (1 + mantissa / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
            }
        return bits & 0x8000 == 0 ? magnitude : -magnitude
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard position < bytes.count else { throw CBORError(.truncated, at: position) }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func bigEndian(count: Int) throws(CBORError) -> UInt64 {
        guard remaining >= count else { throw CBORError(.truncated, at: position) }
        var value: UInt64 = 0
        for offset in 0..<count { value = value << 8 | UInt64(bytes[position + offset]) }
        position += count
        return value
    }

    /// The next `length` bytes; a length beyond what remains is `.truncated` before anything is copied.
    private mutating func take(_ length: UInt64, start: Int) throws(CBORError) -> [UInt8] {
        guard length <= UInt64(remaining) else { throw CBORError(.truncated, at: start) }
        let end = position + Int(length)
        defer { position = end }
        return Array(bytes[position..<end])
    }
}
