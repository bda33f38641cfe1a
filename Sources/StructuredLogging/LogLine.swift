import StrictJSON

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

    /// Adds a typed field: numbers go in as digits (quoted in JSON, as the string form would be).
    mutating func field(_ key: String, _ value: LogFieldValue) {
        switch value {
        case .string(let string):
            field(key, string)
        case .metadata(let metadata):
            field(key, StructuredLogHandler.flatten(metadata))
        case .unsigned(let number):
            appendKey(key)
            if format == .json { bytes.append(UInt8(ascii: "\"")) }
            LogFieldValue.appendDecimal(number, to: &bytes)
            if format == .json { bytes.append(UInt8(ascii: "\"")) }
        case .milliseconds(let micros):
            appendKey(key)
            if format == .json { bytes.append(UInt8(ascii: "\"")) }
            LogFieldValue.appendMilliseconds(micros: micros, to: &bytes)
            if format == .json { bytes.append(UInt8(ascii: "\"")) }
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

    /// Whether `string` is a non-empty logfmt value that needs no quotes.
    private static func isPlainLogfmt(_ string: String) -> Bool {
        !string.isEmpty && !string.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: "=") || $0 == 0x22 || $0 == 0x7F }
    }

    /// A JSON string through the project's one escaper, in the log style (short escapes, DEL as `\u007f`).
    private mutating func appendJSONString(_ string: String) {
        JSONString.append(string, to: &bytes, escaping: .log)
    }

    private mutating func appendLogfmtValue(_ string: String) {
        guard !Self.isPlainLogfmt(string) else {
            bytes.append(contentsOf: string.utf8)
            return
        }
        appendJSONString(string)
    }
}
