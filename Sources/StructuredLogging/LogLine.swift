import StrictJSON

/// One log line under construction, JSON or logfmt, with the escaping each format needs.
struct LogLine {
    private let format: StructuredLogHandler.Format
    private var bytes: [UInt8] = []
    private var first = true

    init(format: StructuredLogHandler.Format) {
        self.init(format: format, after: [])
        bytes.reserveCapacity(320)
    }

    /// Starts a line at the end of `earlier` (finished lines waiting in a buffer), so a buffered output can
    /// build the line in place instead of copying it in afterwards.
    init(format: StructuredLogHandler.Format, after earlier: consuming [UInt8]) {
        self.format = format
        bytes = consume earlier  // moved, so the append below does not copy the buffer
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

    /// Appends bytes that are already what the line needs at this point (a precomputed run of fields).
    mutating func appendVerbatim(_ run: [UInt8]) {
        bytes.append(contentsOf: run)
        first = false
    }

    /// Adds a field whose key is `key` already written as `appendKey` would write it (`accessKey(_:)`) and whose
    /// value needs no escaping or quoting in either format (digits, tokens); JSON quotes it.
    mutating func plainField(prefix key: [UInt8], _ write: (inout [UInt8]) -> Void) {
        bytes.append(contentsOf: key)
        first = false
        if format == .json { bytes.append(UInt8(ascii: "\"")) }
        write(&bytes)
        if format == .json { bytes.append(UInt8(ascii: "\"")) }
    }

    /// Adds a field whose key is precomputed (see `plainField`) and whose value is escaped as `field` does.
    mutating func stringField(prefix key: [UInt8], _ value: String) {
        bytes.append(contentsOf: key)
        first = false
        switch format {
        case .json: appendJSONString(value)
        case .logfmt: appendLogfmtValue(value)
        }
    }

    /// The bytes `build` appends to a line that already has fields (for precomputed runs of fields).
    static func continuation(format: StructuredLogHandler.Format, _ build: (inout LogLine) -> Void) -> [UInt8] {
        var line = LogLine(format: format, after: [])
        line.first = false
        line.bytes.removeAll()
        build(&line)
        return line.bytes
    }

    /// The bytes a key that is not the line's first begins with (`,"key":` or ` key=`).
    static func keyPrefix(_ key: String, format: StructuredLogHandler.Format) -> [UInt8] {
        continuation(format: format) { $0.appendKey(key) }
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
