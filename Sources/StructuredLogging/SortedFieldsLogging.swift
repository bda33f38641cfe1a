public import Logging

/// A log handler that also takes a line's metadata as an array already sorted by key, so a hot caller (the
/// HTTP server's access line, once per request) skips building a `Logger.Metadata` dictionary and sorting it.
public protocol SortedFieldsLogging: LogHandler {
    /// Writes one line at `level` with `message` and `fields`, which must be sorted by key (`String` order) with
    /// no key twice; the line is byte-identical to what `log(event:)` writes for the same metadata.
    /// - Returns: false, having written nothing, when the handler would add metadata of its own (handler
    ///   metadata or a metadata provider); the caller then logs through `Logger` as usual.
    func log(level: Logger.Level, message: String, sortedFields fields: [(key: String, value: Logger.MetadataValue)])
        -> Bool

    /// The same with typed values (numbers written as digits); the line is byte-identical to the one for the
    /// values' `metadataValue`s.
    func log(level: Logger.Level, message: String, sortedFields fields: [(key: String, value: LogFieldValue)]) -> Bool
}

extension SortedFieldsLogging {
    /// Converts to metadata values and calls the untyped requirement.
    public func log(
        level: Logger.Level, message: String, sortedFields fields: [(key: String, value: LogFieldValue)]
    ) -> Bool {
        log(level: level, message: message, sortedFields: fields.map { (key: $0.key, value: $0.value.metadataValue) })
    }
}

extension StructuredLogHandler: SortedFieldsLogging {
    public func log(
        level: Logger.Level, message: String, sortedFields fields: [(key: String, value: Logger.MetadataValue)]
    ) -> Bool {
        guard metadata.isEmpty, metadataProvider == nil else { return false }
        var line = startLine(level: level, message: message)
        for (key, value) in fields { line.field(key, Self.flatten(value)) }
        output.emit(line.finish(), urgent: level >= .warning)
        return true
    }

    public func log(
        level: Logger.Level, message: String, sortedFields fields: [(key: String, value: LogFieldValue)]
    ) -> Bool {
        guard metadata.isEmpty, metadataProvider == nil else { return false }
        var line = startLine(level: level, message: message)
        for (key, value) in fields { line.field(key, value) }
        output.emit(line.finish(), urgent: level >= .warning)
        return true
    }
}
