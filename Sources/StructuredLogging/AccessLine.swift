import Logging

/// The HTTP server's access line (`msg=request`, once per request), as typed fields.
///
/// `StructuredLogHandler.logAccess` writes it straight into the log output with the keys and the line's head
/// precomputed per handler, byte-identical to logging the same fields through `Logger` (tested for both
/// formats): `client.address`, `http.duration_ms`, `http.method`, `http.path`, `http.status`, `request.id`,
/// and the handler's metadata in key order (a key of the server's wins).
public struct AccessLine {
    /// The request method (`GET`), or `-` when the head could not be read.
    public var method: String
    /// The request path as received, or `-`.
    public var path: String
    /// The response status code.
    public var status: UInt16
    /// The request id sent in `X-Request-ID`.
    public var requestID: String
    /// Time from the first byte of the head to the response, in microseconds.
    public var durationMicroseconds: UInt64

    /// Creates the fields of one access line.
    public init(method: String, path: String, status: UInt16, requestID: String, durationMicroseconds: UInt64) {
        self.method = method
        self.path = path
        self.status = status
        self.requestID = requestID
        self.durationMicroseconds = durationMicroseconds
    }

    /// The server's own keys, in key order.
    static let keys = ["client.address", "http.duration_ms", "http.method", "http.path", "http.status", "request.id"]

    /// The fields as a sorted list, for handlers without the direct path.
    func sortedFields<Address: LogTextWritable>(clientAddress: Address?, metadata: Logger.Metadata)
        -> [(key: String, value: LogFieldValue)]
    {
        var fields: [(key: String, value: LogFieldValue)] = []
        fields.reserveCapacity(6 + metadata.count)
        if let clientAddress {
            var text: [UInt8] = []
            clientAddress.appendLogText(to: &text)
            fields.append(("client.address", .string(String(decoding: text, as: UTF8.self))))
        }
        fields.append(("http.duration_ms", .milliseconds(micros: durationMicroseconds)))
        fields.append(("http.method", .string(method)))
        fields.append(("http.path", .string(path)))
        fields.append(("http.status", .unsigned(UInt64(status))))
        fields.append(("request.id", .string(requestID)))
        for (key, value) in metadata {
            var index = fields.endIndex
            while index > fields.startIndex && key < fields[index - 1].key { index -= 1 }
            if index > fields.startIndex && fields[index - 1].key == key { continue }  // the server's field wins
            fields.insert((key, .metadata(value)), at: index)
        }
        return fields
    }
}

/// A value that writes itself as log text needing no escaping or quoting in JSON or logfmt (an IP address).
public protocol LogTextWritable {
    /// Appends the text's ASCII bytes: no spaces, quotes, `=`, backslashes or control characters.
    func appendLogText(to bytes: inout [UInt8])
}
