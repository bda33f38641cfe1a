extension JSONValue {
    /// The compact JSON text of this value as UTF-8 bytes: no whitespace, members in order, `/` not escaped,
    /// control characters as `\uXXXX` (or their short escapes). Non-finite doubles become `null`.
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(128)
        JSONWriter.write(self, to: &output)
        return output
    }

    /// The compact JSON text of this value.
    public var jsonString: String { String(decoding: serialized(), as: UTF8.self) }
}

extension JSONObject {
    /// The compact JSON text of this object as UTF-8 bytes, members in order.
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64 + members.count * 24)
        JSONWriter.writeObject(self, to: &output)
        return output
    }

    /// The compact JSON text of this object.
    public var jsonString: String { String(decoding: serialized(), as: UTF8.self) }
}

/// Appends compact JSON text to a byte buffer.
enum JSONWriter {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func write(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number): writeInteger(number, to: &output)
        case .double(let number):
            if number.isFinite {
                output.append(contentsOf: number.description.utf8)
            } else {
                output.append(contentsOf: "null".utf8)
            }
        case .string(let string): writeString(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object): writeObject(object, to: &output)
        }
    }

    static func writeObject(_ object: JSONObject, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        for (offset, member) in object.members.enumerated() {
            if offset > 0 { output.append(UInt8(ascii: ",")) }
            writeString(member.name, to: &output)
            output.append(UInt8(ascii: ":"))
            write(member.value, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    static func writeInteger(_ number: Int64, to output: inout [UInt8]) {
        if number == 0 {
            output.append(UInt8(ascii: "0"))
            return
        }
        if number < 0 { output.append(UInt8(ascii: "-")) }
        // Work on the magnitude as UInt64 so Int64.min does not overflow.
        var magnitude = number.magnitude
        let start = output.count
        while magnitude > 0 {
            output.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        output[start...].reverse()
    }

    static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        if !UTF8Bytes.appendIfPlainJSON(string, to: &output) {
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    output.append(UInt8(ascii: "\\"))
                    output.append(byte)
                case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0..<0x20:
                    output.append(contentsOf: "\\u00".utf8)
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0x0F)])
                default: output.append(byte)
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// Parses UTF-8 JSON text strictly (RFC 8259): duplicate member names, nesting deeper than 64 levels, invalid
    /// UTF-8, lone surrogates and trailing content are rejected.
    ///
    /// - Throws: `JWTError.malformed(.json)`, `.malformed(.duplicateMember)` or `.malformed(.nestingTooDeep)`.
    public static func parse(_ bytes: [UInt8]) throws(JWTError) -> JSONValue {
        try JSONParser.parse(bytes)
    }
}
