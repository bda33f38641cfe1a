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
    static func write(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number): JSONNumber.append(number, to: &output)
        case .double(let number):
            if number.isFinite {
                output.append(contentsOf: number.description.utf8)
            } else {
                output.append(contentsOf: "null".utf8)
            }
        case .string(let string): JSONString.append(string, to: &output)
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
            JSONString.append(member.name, to: &output)
            output.append(UInt8(ascii: ":"))
            write(member.value, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}

extension JSONValue {
    /// Parses UTF-8 JSON text strictly (RFC 8259): duplicate member names, nesting deeper than 64 levels, invalid
    /// UTF-8, lone surrogates and trailing content are rejected.
    ///
    /// - Throws: `StrictJSONError.invalid`, `.duplicateMember` or `.nestingTooDeep`.
    public static func parse(_ bytes: [UInt8]) throws(StrictJSONError) -> JSONValue {
        try JSONParser.parse(bytes)
    }
}
