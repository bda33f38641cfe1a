public import Logging

/// A swift-log handler that writes one line per event, as JSON or logfmt, to a file descriptor (stderr).
///
/// Each line is built in memory and written whole, so lines from concurrent threads never interleave: by
/// default with a single `write(2)` per line (a line shorter than `PIPE_BUF` is atomic on a pipe, and writes
/// to a file opened `O_APPEND` are atomic too); through a buffered `LogOutput` shared by every handler, which
/// its owner flushes (the server after every batch of socket events, see `LogOutput`), so a busy server makes
/// one `write(2)` per batch instead of one per request. Timestamps are UTC with millisecond precision. Values
/// are escaped; nothing here decides what may be logged: callers never pass secrets (see the tests that grep
/// the captured logs). Metadata keys follow `ts`, `level`, `label`, `msg` in sorted order.
public struct StructuredLogHandler: LogHandler {
    /// The line format.
    public enum Format: String, Sendable {
        /// `{"ts":…,"level":…,"label":…,"msg":…,<metadata>}`.
        case json
        /// `ts=… level=… label=… msg="…" key=value …`.
        case logfmt
    }

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let format: Format
    let output: LogOutput
    /// The access line's fixed parts for this label and format.
    let accessTemplate: AccessLineTemplate

    /// Creates a handler for `label` writing `format` lines to `output`, an output shared by every handler of
    /// the process so buffered lines stay in order.
    public init(label: String, format: Format, level: Logger.Level, output: LogOutput) {
        self.label = label
        self.format = format
        self.logLevel = level
        self.output = output
        self.accessTemplate = AccessLineTemplate(label: label, format: format)
    }

    /// Creates a handler for `label` writing `format` lines to `fileDescriptor` (default: stderr), one
    /// `write(2)` per line.
    public init(label: String, format: Format, level: Logger.Level, fileDescriptor: Int32 = 2) {
        self.init(label: label, format: format, level: level, output: LogOutput(fileDescriptor: fileDescriptor))
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = startLine(level: event.level, message: event.message.description)
        let provided = metadataProvider?.get() ?? [:]
        if metadata.isEmpty && provided.isEmpty {
            if let extra = event.metadata { Self.append(extra, to: &line) }
        } else {
            var merged = metadata
            merged.merge(provided) { _, new in new }
            if let extra = event.metadata { merged.merge(extra) { _, new in new } }
            Self.append(merged, to: &line)
        }
        output.emit(line.finish(), urgent: event.level >= .warning)
    }

    /// A line with its fixed head: `ts`, `level`, `label`, `msg`; metadata follows.
    func startLine(level: Logger.Level, message: String) -> LogLine {
        var line = LogLine(format: format)
        line.timestamp()
        line.field("level", level.rawValue)
        line.field("label", label)
        line.field("msg", message)
        return line
    }

    private static func append(_ metadata: Logger.Metadata, to line: inout LogLine) {
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line.field(key, flatten(value))
        }
    }

    static func flatten(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): "[" + values.map(flatten).joined(separator: ",") + "]"
        case .dictionary(let dictionary):
            "{" + dictionary.sorted { $0.key < $1.key }.map { "\($0.key)=\(flatten($0.value))" }.joined(separator: ",")
                + "}"
        }
    }
}
