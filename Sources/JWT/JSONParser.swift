/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Stricter than Foundation where it matters for tokens: duplicate member names, nesting deeper than
/// `maximumDepth`, invalid UTF-8, lone surrogates, control characters in strings, leading zeros, a byte-order mark
/// and trailing content are all rejected.
struct JSONParser {
    /// Containers may nest this deep (the outermost object is level 1).
    static let maximumDepth = 64

    let bytes: [UInt8]
    var index: Int
    let end: Int

    private init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.index = range.lowerBound
        self.end = range.upperBound
    }

    /// Parses `bytes[range]` as exactly one JSON value, surrounded by optional whitespace.
    static func parse(_ bytes: [UInt8], range: Range<Int>? = nil) throws(JWTError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, range: range ?? bytes.startIndex..<bytes.endIndex)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 1)
        parser.skipWhitespace()
        guard parser.index == parser.end else { throw .malformed(.json) }
        return value
    }

    /// Parses `bytes[range]` as one JSON object.
    static func parseObject(_ bytes: [UInt8], range: Range<Int>? = nil) throws(JWTError) -> JSONObject {
        guard case .object(let object) = try parse(bytes, range: range) else { throw .malformed(.notAnObject) }
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

    private mutating func parseValue(depth: Int) throws(JWTError) -> JSONValue {
        guard index < end else { throw .malformed(.json) }
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

    private mutating func expectLiteral(_ literal: String) throws(JWTError) {
        for byte in literal.utf8 {
            guard index < end, bytes[index] == byte else { throw .malformed(.json) }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JWTError) -> JSONObject {
        guard depth <= Self.maximumDepth else { throw .malformed(.nestingTooDeep) }
        index += 1
        var members: [JSONObject.Member] = []
        members.reserveCapacity(12)
        skipWhitespace()
        if index < end, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONObject(uncheckedMembers: members)
        }
        while true {
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { throw .malformed(.json) }
            let name = try parseString()
            skipWhitespace()
            guard index < end, bytes[index] == UInt8(ascii: ":") else { throw .malformed(.json) }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            members.append(JSONObject.Member(name: name, value: value))
            skipWhitespace()
            guard index < end else { throw .malformed(.json) }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "}") { break }
            guard separator == UInt8(ascii: ",") else { throw .malformed(.json) }
            skipWhitespace()
        }
        guard !JSONObject.hasDuplicateNames(members) else { throw .malformed(.duplicateMember) }
        return JSONObject(uncheckedMembers: members)
    }

    private mutating func parseArray(depth: Int) throws(JWTError) -> [JSONValue] {
        guard depth <= Self.maximumDepth else { throw .malformed(.nestingTooDeep) }
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
            guard index < end else { throw .malformed(.json) }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "]") { return elements }
            guard separator == UInt8(ascii: ",") else { throw .malformed(.json) }
            skipWhitespace()
        }
    }
}
