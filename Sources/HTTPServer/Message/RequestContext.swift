public import Logging

/// Per-request state handed to a handler: the request id, a logger carrying it, and metadata the handler adds
/// to the access-log line (e.g. `user.id`).
///
/// Owned by one handler at a time. A synchronous handler uses it on the connection's event loop; an async
/// handler uses it in its task, and the server reads `accessLogMetadata` only after the task has handed its
/// response back through the event loop's locked inbox, which orders the accesses.
public final class RequestContext: @unchecked Sendable {
    /// The request id (also sent as `X-Request-Id`).
    public let requestID: String
    /// Metadata appended to this request's access-log line.
    public var accessLogMetadata: Logger.Metadata = [:]
    /// The pattern of the route that matched (`/auth/sessions/:id`), nil when none did.
    public internal(set) var route: String?
    /// The client's address (`HTTPRequest.clientAddress`), also written to the access line as `client.address`.
    public internal(set) var clientAddress: IPAddress?
    /// Whether the access line is written when the response succeeds (status below 400). Default: true. A handler
    /// of frequent requests nobody reads one by one, such as a health probe, sets it to false; a response of 400 or
    /// above is always written, and the server's observer (the request metrics) sees every request either way.
    public var logsSuccessfulAccess = true
    let baseLogger: Logger

    init(requestID: String, logger: Logger) {
        self.requestID = requestID
        self.baseLogger = logger
    }

    /// The server's logger with `request.id` set.
    public var logger: Logger {
        var logger = baseLogger
        logger[metadataKey: "request.id"] = .string(requestID)
        return logger
    }
}
