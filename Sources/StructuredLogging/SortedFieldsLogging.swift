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

    /// Writes the HTTP access line (`info`, message `request`): `line`'s fields, `clientAddress` when known and
    /// `metadata`, in key order (a key of the server's wins over a metadata key of the same name).
    /// - Returns: false, having written nothing, as for `log(level:message:sortedFields:)`.
    func logAccess<Address: LogTextWritable>(_ line: AccessLine, clientAddress: Address?, metadata: Logger.Metadata)
        -> Bool
}

extension SortedFieldsLogging {
    /// Converts to metadata values and calls the untyped requirement.
    public func log(
        level: Logger.Level, message: String, sortedFields fields: [(key: String, value: LogFieldValue)]
    ) -> Bool {
        log(level: level, message: message, sortedFields: fields.map { (key: $0.key, value: $0.value.metadataValue) })
    }

    /// Builds the sorted fields and calls the typed requirement.
    public func logAccess<Address: LogTextWritable>(
        _ line: AccessLine, clientAddress: Address?, metadata: Logger.Metadata
    ) -> Bool {
        log(
            level: .info, message: "request",
            sortedFields: line.sortedFields(clientAddress: clientAddress, metadata: metadata))
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

    /// Writes the line in place at the end of the output's buffer: the head after `ts` and every server key come
    /// precomputed (`AccessLineTemplate`), numbers go in as digits, the client address writes its own bytes; only
    /// the path, the request id and handler metadata are checked for escaping.
    public func logAccess<Address: LogTextWritable>(
        _ access: AccessLine, clientAddress: Address?, metadata handlerMetadata: Logger.Metadata
    ) -> Bool {
        guard metadata.isEmpty, metadataProvider == nil else { return false }
        let template = accessTemplate
        output.emit(urgent: false) { earlier in
            var taken: [UInt8] = []
            swap(&taken, &earlier)  // the buffer moves into the line and back: never copied
            var line = LogLine(format: format, after: consume taken)
            line.timestamp()
            line.appendVerbatim(template.head)
            var extra = handlerMetadata.isEmpty ? [] : handlerMetadata.sorted { $0.key < $1.key }[...]
            func flushExtra(before key: String) {
                while let next = extra.first, next.key <= key {
                    extra.removeFirst()
                    if next.key != key { line.field(next.key, Self.flatten(next.value)) }
                }
            }
            if let clientAddress {
                flushExtra(before: "client.address")
                line.plainField(prefix: template.keys[0]) { clientAddress.appendLogText(to: &$0) }
            }
            flushExtra(before: "http.duration_ms")
            line.plainField(prefix: template.keys[1]) {
                LogFieldValue.appendMilliseconds(micros: access.durationMicroseconds, to: &$0)
            }
            flushExtra(before: "http.method")
            line.stringField(prefix: template.keys[2], access.method)
            flushExtra(before: "http.path")
            line.stringField(prefix: template.keys[3], access.path)
            flushExtra(before: "http.status")
            line.plainField(prefix: template.keys[4]) { LogFieldValue.appendDecimal(UInt64(access.status), to: &$0) }
            flushExtra(before: "request.id")
            line.stringField(prefix: template.keys[5], access.requestID)
            for (key, value) in extra { line.field(key, Self.flatten(value)) }
            earlier = line.finish()
        }
        return true
    }
}
