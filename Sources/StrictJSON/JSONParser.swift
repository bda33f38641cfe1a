/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Stricter than Foundation where it matters for tokens: duplicate member names, nesting deeper than
/// `maximumDepth`, invalid UTF-8, lone surrogates, control characters in strings, leading zeros, a byte-order mark
/// and trailing content are all rejected.
package struct JSONParser {
    /// Containers may nest this deep (the outermost object is level 1).
    package static let maximumDepth = 64

    let bytes: [UInt8]
    var index: Int
    let end: Int

    private init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.index = range.lowerBound
        self.end = range.upperBound
    }

    /// Parses `bytes[range]` as exactly one JSON value, surrounded by optional whitespace.
    package static func parse(_ bytes: [UInt8], range: Range<Int>? = nil) throws(StrictJSONError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, range: range ?? bytes.startIndex..<bytes.endIndex)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 1)
        parser.skipWhitespace()
        guard parser.index == parser.end else { throw .invalid }
        return value
    }

    /// Parses `bytes[range]` as one JSON object.
    package static func parseObject(_ bytes: [UInt8], range: Range<Int>? = nil) throws(StrictJSONError) -> JSONObject {
        guard case .object(let object) = try parse(bytes, range: range) else { throw .notAnObject }
        return object
    }

    private mutating func skipWhitespace() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(StrictJSONError) -> JSONValue {
        guard index < end else { throw .invalid }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default: return try parseNumber()
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(StrictJSONError) {
        for byte in literal.utf8 {
            guard index < end, bytes[index] == byte else { throw .invalid }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(StrictJSONError) -> JSONObject {
        guard depth <= Self.maximumDepth else { throw .nestingTooDeep }
        index += 1
        var members: [JSONObject.Member] = []
        members.reserveCapacity(12)
        skipWhitespace()
        if index < end, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONObject(uncheckedMembers: members)
        }
        while true {
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { throw .invalid }
            let name = try parseString()
            skipWhitespace()
            guard index < end, bytes[index] == UInt8(ascii: ":") else { throw .invalid }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            members.append(JSONObject.Member(name: name, value: value))
            skipWhitespace()
            guard index < end else { throw .invalid }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "}") { break }
            guard separator == UInt8(ascii: ",") else { throw .invalid }
            skipWhitespace()
        }
        guard !JSONObject.hasDuplicateNames(members) else { throw .duplicateMember }
        return JSONObject(uncheckedMembers: members)
    }

    private mutating func parseArray(depth: Int) throws(StrictJSONError) -> [JSONValue] {
        guard depth <= Self.maximumDepth else { throw .nestingTooDeep }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < end, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < end else { throw .invalid }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "]") { return elements }
            guard separator == UInt8(ascii: ",") else { throw .invalid }
            skipWhitespace()
        }
    }
}
