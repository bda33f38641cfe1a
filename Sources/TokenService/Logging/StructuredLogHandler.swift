public import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A swift-log handler that writes one line per event, as JSON or logfmt, to a file descriptor (stderr).
///
/// Each line is built in memory and written with a single `write(2)`, so lines from concurrent threads never
/// interleave (a line shorter than `PIPE_BUF` is atomic on a pipe, and writes to a file opened `O_APPEND` are
/// atomic too). Timestamps are UTC with millisecond precision. Values are escaped; nothing here decides what
/// may be logged: callers never pass secrets (see the tests that grep the captured logs).
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
    private let label: String
    private let format: Format
    private let fileDescriptor: Int32

    /// Creates a handler for `label` writing `format` lines to `fileDescriptor` (default: stderr).
    public init(label: String, format: Format, level: Logger.Level, fileDescriptor: Int32 = 2) {
        self.label = label
        self.format = format
        self.logLevel = level
        self.fileDescriptor = fileDescriptor
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        var line = LogLine(format: format)
        line.field("ts", UTCTimestamp.now())
        line.field("level", event.level.rawValue)
        line.field("label", label)
        line.field("msg", event.message.description)
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            line.field(key, Self.flatten(value))
        }
        var bytes = line.finish()
        bytes.withUnsafeMutableBytes { buffer in
            guard var base = buffer.baseAddress else { return }
            var remaining = buffer.count
            while remaining > 0 {
                let written = write(fileDescriptor, base, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                remaining -= written
                base += written
            }
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
