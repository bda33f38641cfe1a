extension JSONParser {
    /// Parses a string starting at the opening quote; validates UTF-8 and escapes (RFC 8259 §7).
    mutating func parseString() throws(StrictJSONError) -> String {
        index += 1
        let start = index
        var nonASCII: UInt8 = 0
        // Fast path: no escapes.
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let range = start..<index
                index += 1
                guard let string = UTF8Bytes.string(bytes, range, ascii: nonASCII & 0x80 == 0) else {
                    throw .invalid
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw .invalid }
            nonASCII |= byte
            index += 1
        }
        guard index < end else { throw .invalid }
        var buffer = Array(bytes[start..<index])
        while index < end {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: buffer, as: UTF8.self) else { throw .invalid }
                return string
            case UInt8(ascii: "\\"):
                try parseEscape(into: &buffer)
            case 0..<0x20:
                throw .invalid
            default:
                buffer.append(byte)
            }
        }
        throw .invalid
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(StrictJSONError) {
        guard index < end else { throw .invalid }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHex4())
            if (0xD800..<0xDC00).contains(scalar) {
                guard end - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw .invalid }
                index += 2
                let low = UInt32(try parseHex4())
                guard (0xDC00..<0xE000).contains(low) else { throw .invalid }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw .invalid }
            buffer.append(contentsOf: UTF8.encode(unicode).map { Array($0) } ?? [])
        default:
            throw .invalid
        }
    }

    private mutating func parseHex4() throws(StrictJSONError) -> UInt16 {
        guard end - index >= 4 else { throw .invalid }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalid
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Parses a number with the exact RFC 8259 grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(StrictJSONError) -> JSONValue {
        let start = index
        if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < end, isDigit(bytes[index]) else { throw .invalid }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < end, isDigit(bytes[index]) { index += 1 }
        }
        var isInteger = true
        if index < end, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < end, isDigit(bytes[index]) else { throw .invalid }
            while index < end, isDigit(bytes[index]) { index += 1 }
        }
        if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < end, isDigit(bytes[index]) else { throw .invalid }
            while index < end, isDigit(bytes[index]) { index += 1 }
        }
        if isInteger, let value = integer(start..<index) { return .integer(value) }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw .invalid }
        return .double(value)
    }

    /// The value of an integer literal, or `nil` when it overflows `Int64`.
    private func integer(_ range: Range<Int>) -> Int64? {
        var position = range.lowerBound
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        var value: Int64 = 0
        while position < range.upperBound {
            let digit = Int64(bytes[position] - UInt8(ascii: "0"))
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            value = next
            position += 1
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
