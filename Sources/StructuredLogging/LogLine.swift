/// One log line under construction, JSON or logfmt, with the escaping each format needs.
struct LogLine {
    private let format: StructuredLogHandler.Format
    private var bytes: [UInt8] = []
    private var first = true

    init(format: StructuredLogHandler.Format) {
        self.format = format
        bytes.reserveCapacity(320)
        if format == .json { bytes.append(UInt8(ascii: "{")) }
    }

    /// Adds the `ts` field with the current UTC time (plain ASCII: no escaping or quoting needed in logfmt).
    mutating func timestamp() {
        appendKey("ts")
        if format == .json { bytes.append(UInt8(ascii: "\"")) }
        UTCTimestamp.append(to: &bytes)
        if format == .json { bytes.append(UInt8(ascii: "\"")) }
    }

    mutating func field(_ key: String, _ value: String) {
        appendKey(key)
        switch format {
        case .json: appendJSONString(value)
        case .logfmt: appendLogfmtValue(value)
        }
    }

    mutating func finish() -> [UInt8] {
        if format == .json { bytes.append(UInt8(ascii: "}")) }
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private mutating func appendKey(_ key: String) {
        switch format {
        case .json:
            if !first { bytes.append(UInt8(ascii: ",")) }
            appendJSONString(key)
            bytes.append(UInt8(ascii: ":"))
        case .logfmt:
            if !first { bytes.append(UInt8(ascii: " ")) }
            if Self.isPlainLogfmt(key) {
                bytes.append(contentsOf: key.utf8)
            } else {
                bytes.append(
                    contentsOf: key.utf8.filter { $0 > 0x20 && $0 != UInt8(ascii: "=") && $0 != 0x22 && $0 < 0x7F })
            }
            bytes.append(UInt8(ascii: "="))
        }
        first = false
    }

    /// Whether `byte` must be escaped inside a JSON string (controls, quote, backslash, DEL).
    private static func needsJSONEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    /// Whether `string` is a non-empty logfmt value that needs no quotes.
    private static func isPlainLogfmt(_ string: String) -> Bool {
        !string.isEmpty && !string.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: "=") || $0 == 0x22 || $0 == 0x7F }
    }

    private mutating func appendJSONString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        // Native strings: scan and copy the contiguous UTF-8 in one go when nothing needs escaping.
        var copied =
            string.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
                for byte in utf8 where Self.needsJSONEscape(byte) { return false }
                bytes.append(contentsOf: utf8)
                return true
            } ?? false
        if !copied && !string.utf8.contains(where: Self.needsJSONEscape) {  // small or bridged strings
            bytes.append(contentsOf: string.utf8)
            copied = true
        }
        if copied {
            bytes.append(UInt8(ascii: "\""))
            return
        }
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
        guard !Self.isPlainLogfmt(string) else {
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
