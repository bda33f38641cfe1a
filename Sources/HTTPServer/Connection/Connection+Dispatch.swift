import Logging
import StructuredLogging

extension Connection {
    /// Routes a complete request and runs its handler inline (sync) or in a Task (async).
    func dispatch(head: HTTPRequestHead, body: [UInt8], trailers: HTTPHeaders) {
        let loop = unsafe self.loop
        let requestID: String
        if let supplied = head.headers["X-Request-Id"], RequestIDGenerator.isSane(supplied) {
            requestID = supplied
        } else {
            requestID = loop.requestIDs.next()
        }
        let context = RequestContext(requestID: requestID, logger: loop.logger)
        context.clientAddress = clientAddress(for: head)
        switch loop.router.match(head.method, path: head.path) {
        case .handler(let handler, let parameters, let route):
            context.route = route
            var built = HTTPRequest(
                head: head, body: body, trailers: trailers, parameters: parameters, remoteAddress: remoteAddress,
                requestID: requestID)
            built.clientAddress = context.clientAddress
            let request = built
            switch handler {
            case .sync(let handler):
                let response: HTTPResponse
                do {
                    response = try handler(request, context)
                } catch {
                    response = Self.errorResponse(error, context: context)
                }
                finish(response, head: head, context: context)
            case .async(let handler):
                runAsync(head: head, context: context) { try await handler(request, context) }
            case .syncOrAsync(let handler):
                let result: HandlerResult
                do {
                    result = try handler(request, context)
                } catch {
                    result = .response(Self.errorResponse(error, context: context))
                }
                switch result {
                case .response(let response): finish(response, head: head, context: context)
                case .async(let work): runAsync(head: head, context: context, work)
                }
            }
        case .methodNotAllowed(let allow):
            finish(.methodNotAllowed(allow: allow), head: head, context: context)
        case .notFound:
            finish(.notFound, head: head, context: context)
        }
    }

    /// Runs `work` in a `Task`, pausing this connection until its response is posted back to the loop.
    private func runAsync(
        head: HTTPRequestHead, context: RequestContext, _ work: @escaping @Sendable () async throws -> HTTPResponse
    ) {
        let loop = unsafe self.loop
        awaitingHandler = true
        Task {
            let response: HTTPResponse
            do {
                response = try await work()
            } catch {
                response = Self.errorResponse(error, context: context)
            }
            loop.post { self.handlerCompleted(response, head: head, context: context) }
        }
    }

    private func handlerCompleted(_ response: HTTPResponse, head: HTTPRequestHead, context: RequestContext) {
        guard !closed else { return }
        awaitingHandler = false
        finish(response, head: head, context: context)
        if peerClosedInput { closeAfterWrite = true }
        drive()
    }

    static func errorResponse(_ error: any Error, context: RequestContext) -> HTTPResponse {
        if !(error is any HTTPResponseError) {
            context.logger.error("handler failed", metadata: ["error": "\(String(reflecting: error))"])
        }
        return .error(for: error)
    }

    /// Serializes a response into the output buffer and writes the access-log line.
    func finish(_ response: HTTPResponse, head: HTTPRequestHead, context: RequestContext) {
        let keepAlive = unsafe head.keepAlive && loop.drainDeadline == nil && !peerClosedInput
        unsafe ResponseSerializer.append(
            response, to: &output, requestID: context.requestID, date: loop.currentDate, keepAlive: keepAlive,
            omitBody: head.method == .head)
        logAccess(
            method: head.method.rawValue, path: head.path, status: response.status, requestID: context.requestID,
            clientAddress: context.clientAddress, metadata: context.accessLogMetadata, route: context.route,
            writesLine: context.logsSuccessfulAccess || response.status.code >= 400)
        if !keepAlive { closeAfterWrite = true }
        unsafe machine.responseQueued(now: loop.now, bufferedBytes: parser.bufferedByteCount > 0)
    }

    /// Answers a request the parser (or a timeout) rejected, then closes: its remaining bytes are never parsed.
    func reject(_ error: HTTPServerError) {
        let head = parser.currentHead ?? pendingHead
        if head == nil { headStartedAt = unsafe loop.now }
        let requestID = unsafe loop.requestIDs.next()
        unsafe ResponseSerializer.append(
            .error(for: error), to: &output, requestID: requestID, date: loop.currentDate, keepAlive: false,
            omitBody: false)
        logAccess(
            method: head?.method.rawValue ?? "-", path: head?.path ?? "-", status: error.status,
            requestID: requestID, clientAddress: head.flatMap(clientAddress(for:)) ?? peerAddress, metadata: [:],
            route: nil, writesLine: true)
        closeAfterWrite = true
        lingerAfterWrite = true
    }

    /// Reports the request to the observer and writes its access line: `client.address`, `http.duration_ms`,
    /// `http.method`, `http.path`, `http.status`, `request.id` and the handler's `metadata` (a field of the
    /// server's wins over a handler key of the same name). `writesLine` false reports the request only.
    private func logAccess(
        method: String, path: String, status: HTTPStatus, requestID: String, clientAddress: IPAddress?,
        metadata: Logger.Metadata, route: String?, writesLine: Bool
    ) {
        let micros = unsafe (loop.now &- headStartedAt) / 1000
        if let observer = unsafe loop.observer {
            observer(CompletedRequest(method: method, route: route, status: status, durationMicroseconds: micros))
        }
        let logger = unsafe loop.logger
        guard writesLine, logger.logLevel <= .info else { return }
        if let handler = unsafe loop.sortedFieldsHandler {
            let line = AccessLine(
                method: method, path: path, status: UInt16(clamping: status.code), requestID: requestID,
                durationMicroseconds: micros)
            let address = clientAddress.map(ClientAddressLogText.init)
            if handler.logAccess(line, clientAddress: address, metadata: metadata) { return }
        }
        // Sized for the six fields and the handler's metadata, so the merge does not grow the table.
        var fields = Logger.Metadata(minimumCapacity: 6 + metadata.count)
        if let clientAddress { fields["client.address"] = .string(clientAddress.description) }
        fields["request.id"] = .string(requestID)
        fields["http.method"] = .string(method)
        fields["http.path"] = .string(path)
        fields["http.status"] = .string(String(status.code))
        fields["http.duration_ms"] = .string(LogFieldValue.millisecondsText(micros: micros))
        fields.merge(metadata) { current, _ in current }
        logger.info("request", metadata: fields)
    }

}
