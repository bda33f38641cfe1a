/// One log line under construction, JSON or logfmt, with the escaping each format needs.
struct LogLine {
    private let format: StructuredLogHandler.Format
    private var bytes: [UInt8] = []
    private var first = true

    init(format: StructuredLogHandler.Format) {
        self.format = format
        bytes.reserveCapacity(256)
        if format == .json { bytes.append(UInt8(ascii: "{")) }
    }

    mutating func field(_ key: String, _ value: String) {
        switch format {
        case .json:
            if !first { bytes.append(UInt8(ascii: ",")) }
            appendJSONString(key)
            bytes.append(UInt8(ascii: ":"))
            appendJSONString(value)
        case .logfmt:
            if !first { bytes.append(UInt8(ascii: " ")) }
            bytes.append(
                contentsOf: key.utf8.filter { $0 > 0x20 && $0 != UInt8(ascii: "=") && $0 != 0x22 && $0 < 0x7F })
            bytes.append(UInt8(ascii: "="))
            appendLogfmtValue(value)
        }
        first = false
    }

    mutating func finish() -> [UInt8] {
        if format == .json { bytes.append(UInt8(ascii: "}")) }
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private mutating func appendJSONString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20, 0x7F: appendUnicodeEscape(byte)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendLogfmtValue(_ string: String) {
        let needsQuotes =
            string.isEmpty || string.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: "=") || $0 == 0x22 || $0 == 0x7F }
        guard needsQuotes else {
            bytes.append(contentsOf: string.utf8)
            return
        }
        appendJSONString(string)
    }

    private mutating func appendUnicodeEscape(_ byte: UInt8) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: Array(#"\u00"#.utf8))
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0xF)])
    }
}
