/// Percent-encoding (RFC 3986 §2.1) of every byte outside a kept set, with uppercase hex: the one encoder of the
/// query values and path segments the client builds from text it does not control.
enum PercentEncoding {
    /// RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`): a query value, where `/`, `:`, `?`, `&`, `=`, `+`
    /// and spaces must survive any query parser.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        isBase64URL(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
    }

    /// base64url's alphabet (`A-Z a-z 0-9 - _`): a path segment that can never be `.` or `..`.
    static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// `text` with every UTF-8 byte that `keeps` refuses written as `%XX`.
    static func encode(_ text: String, keeping keeps: (UInt8) -> Bool) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var encoded = String.UnicodeScalarView()
        for byte in text.utf8 {
            if keeps(byte) {
                encoded.append(Unicode.Scalar(byte))
            } else {
                encoded.append(contentsOf: ["%", hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]])
            }
        }
        return String(encoded)
    }
}
