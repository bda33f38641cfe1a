/// `application/x-www-form-urlencoded` parameters (a URL query, or a `POST` body as AppAuth sends it): `name=value`
/// pairs joined by `&`, percent-decoded, `+` as a space.
///
/// Strict, because the values are codes, states and redirect URIs compared exactly: a parameter given twice, a
/// malformed `%` escape, bytes that are not UTF-8, or a control character refuse the whole input (RFC 6749 §3.1:
/// "Request and response parameters MUST NOT be included more than once").
struct FormParameters: Sendable, Equatable {
    /// Why an input was refused; the text never echoes a value.
    enum Failure: Error, Sendable, Equatable {
        case duplicated(String)
        case malformedEscape
        case notUTF8
        case controlCharacter
        case tooMany
    }

    /// The most parameters accepted; a browser flow needs at most six.
    static let maximumCount = 32

    /// The values by name.
    private(set) var values: [String: String]

    /// Parses `text` (without the leading `?`); nil or empty gives no parameters. An empty pair (`a=1&&b=2`) is
    /// skipped; a name without `=` has the empty value.
    init(_ text: String?) throws(Failure) {
        values = [:]
        guard let text, !text.isEmpty else { return }
        let pairs = text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
        guard pairs.count <= Self.maximumCount else { throw .tooMany }
        for pair in pairs {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0])
            let value = parts.count > 1 ? try Self.decode(parts[1]) : ""
            guard values[name] == nil else { throw .duplicated(name) }
            values[name] = value
        }
    }

    /// The value of `name`, if given.
    subscript(name: String) -> String? { values[name] }

    /// The names given, sorted.
    var names: [String] { values.keys.sorted() }

    /// Percent-decodes one name or value (`+` is a space).
    static func decode(_ bytes: Substring.UTF8View.SubSequence) throws(Failure) -> String {
        try decode(Array(bytes))
    }

    static func decode(_ bytes: [UInt8]) throws(Failure) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { throw .malformedEscape }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        guard decoded.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { throw .controlCharacter }
        guard let text = String(validating: decoded, as: UTF8.self) else { throw .notUTF8 }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `value` percent-encoded for a query: every byte but the unreserved ones (RFC 3986 §2.3) escaped.
    static func encode(_ value: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(value.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return encoded
    }

    /// `base` with `parameters` appended as a query: after `?`, or `&` when `base` has a query already.
    static func appending(_ parameters: [(String, String)], to base: String) -> String {
        let query = parameters.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        guard !query.isEmpty else { return base }
        return base + (base.contains("?") ? "&" : "?") + query
    }
}
