/// Reads the client chain a proxy reports in `X-Forwarded-For` (de facto) or `Forwarded` (RFC 7239), as a list
/// of hops, leftmost (furthest from this server) first.
///
/// Each hop is the address that a proxy saw, or nil when it is not an address: `unknown`, an obfuscated
/// identifier (`_hidden`), a malformed value, or an element without `for`. Several fields of one name count
/// as one comma-separated list in order (RFC 9110 §5.3). Pure functions of the field values, so they are
/// tested with strings; `ClientAddressResolver` decides which hops to believe.
public enum ForwardedHeaders {
    /// The hops of `X-Forwarded-For` fields: comma-separated nodes (`IPAddress(node:)`), optional whitespace
    /// around them, empty list elements skipped.
    public static func xForwardedFor(_ values: [String]) -> [IPAddress?] {
        var hops: [IPAddress?] = []
        for value in values {
            for element in Array(value.utf8).split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                let trimmed = trim(element[...])
                guard !trimmed.isEmpty else { continue }
                hops.append(IPAddress(node: String(decoding: trimmed, as: UTF8.self)))
            }
        }
        return hops
    }

    /// The `for=` hops of `Forwarded` fields (RFC 7239 §4): one per `forwarded-element`, its `for` parameter
    /// (name case-insensitive, value a token or a quoted string such as `"[2001:db8::1]:4711"`). An element
    /// with no `for`, two of them, or a malformed pair is a nil hop. A field whose quoting is broken, so that
    /// its elements cannot be told apart, counts as one nil hop.
    public static func forwardedFor(_ values: [String]) -> [IPAddress?] {
        var hops: [IPAddress?] = []
        for value in values {
            guard let elements = forwardedElements(Array(value.utf8)) else {
                hops.append(nil)
                continue
            }
            hops += elements
        }
        return hops
    }

    /// The `for` address of each element of one field value, or nil when a quoted string is not closed.
    static func forwardedElements(_ bytes: [UInt8]) -> [IPAddress?]? {
        var hops: [IPAddress?] = []
        var element = Element()
        var pairStart = 0
        var inQuotes = false
        var escaped = false
        for index in bytes.indices {
            let byte = bytes[index]
            if inQuotes {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inQuotes = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inQuotes = true
            case UInt8(ascii: ";"):
                element.add(pair: bytes[pairStart..<index])
                pairStart = index + 1
            case UInt8(ascii: ","):
                element.add(pair: bytes[pairStart..<index])
                pairStart = index + 1
                if let hop = element.finished { hops.append(hop) }
                element = Element()
            default:
                break
            }
        }
        guard !inQuotes else { return nil }
        element.add(pair: bytes[pairStart...])
        if let hop = element.finished { hops.append(hop) }
        return hops
    }

    /// One `forwarded-element` being read.
    private struct Element {
        var forValues: [String] = []
        var malformed = false
        var isEmpty = true

        mutating func add(pair raw: ArraySlice<UInt8>) {
            let pair = ForwardedHeaders.trim(raw)
            guard !pair.isEmpty else { return }
            isEmpty = false
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")), equals > pair.startIndex else {
                malformed = true
                return
            }
            let name = pair[..<equals]
            guard name.count == 3, name.map({ $0 | 0x20 }) == Array("for".utf8) else { return }
            guard let value = ForwardedHeaders.unquoted(pair[(equals + 1)...]) else {
                malformed = true
                return
            }
            forValues.append(value)
        }

        /// nil for an empty list element (skipped, as list syntax allows), else the element's hop.
        var finished: IPAddress?? {
            guard !isEmpty else { return nil }
            guard !malformed, forValues.count == 1 else { return .some(nil) }
            return .some(IPAddress(node: forValues[0]))
        }
    }

    /// The text of a token or quoted-string value (RFC 9110 §5.6.4: `\` quotes the next character); nil when
    /// empty or when a quoted string does not end the value. Unquoted values are taken leniently (anything
    /// without whitespace or quotes), since `IPAddress(node:)` checks them afterwards.
    private static func unquoted(_ raw: ArraySlice<UInt8>) -> String? {
        guard let first = raw.first else { return nil }
        guard first == UInt8(ascii: "\"") else {
            let plain = raw.allSatisfy { $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") }
            return plain ? String(decoding: raw, as: UTF8.self) : nil
        }
        var text: [UInt8] = []
        var escaped = false
        var closed = false
        for byte in raw.dropFirst() {
            guard !closed else { return nil }
            if escaped {
                text.append(byte)
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                closed = true
            } else {
                text.append(byte)
            }
        }
        guard closed, !text.isEmpty else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes without leading and trailing spaces and tabs (OWS).
    private static func trim(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return slice
    }
}
