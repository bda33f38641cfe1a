import CHTTPServerLinux
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One accepted socket: parser, timing state and output buffer.
///
/// Touched only on its event loop's thread; async handlers hand their response back via `EventLoop.post`.
final class Connection: @unchecked Sendable {
    static let readEvents = EPOLLIN.rawValue | EPOLLRDHUP.rawValue

    let fd: Int32
    /// The loop outlives its connections (the server keeps every loop for its lifetime, and a connection
    /// touches its loop only on the loop's thread), so no reference counting is needed on this hot path.
    unowned(unsafe) let loop: EventLoop
    let remoteAddress: String
    /// `remoteAddress` as an address, parsed once at accept; nil only for a peer that is not an IP address,
    /// which a TCP listener never produces.
    let peerAddress: IPAddress?
    var parser: HTTPRequestParser
    var machine: ConnectionStateMachine
    var output: [UInt8] = []
    var outputOffset = 0
    var registeredEvents = Connection.readEvents
    var pendingHead: HTTPRequestHead?
    var headStartedAt: UInt64 = 0
    /// A final response is queued: close once it is written.
    var closeAfterWrite = false
    /// After a rejected request: half-close and discard input for a while so the client sees the response
    /// rather than a reset.
    var lingerAfterWrite = false
    var lingerDeadline: UInt64?
    var awaitingHandler = false
    var peerClosedInput = false
    var closed = false

    init(fd: Int32, loop: EventLoop, remoteAddress: String, acceptedAt now: UInt64) {
        self.fd = fd
        unsafe self.loop = loop
        self.remoteAddress = remoteAddress
        self.peerAddress = IPAddress(node: remoteAddress)
        self.parser = HTTPRequestParser(limits: loop.shared.parserLimits)
        self.machine = ConnectionStateMachine(acceptedAt: now)
    }

    var pendingOutput: Int { output.count - outputOffset }

    /// Since when this connection has waited on its client (see `ConnectionStateMachine.waitingSince`); nil
    /// while a handler runs or output is pending.
    var displacementRank: UInt64? {
        if lingerDeadline != nil { return 0 }  // already answered and closing: the cheapest to drop
        guard !closed, !awaitingHandler, pendingOutput == 0 else { return nil }
        return machine.waitingSince
    }

    /// A handler is running or its response is not yet written: closing now cuts a request off. (A request
    /// whose head or body is still arriving has not started; closing it is a timeout, not a cut.)
    var hasRequestInFlight: Bool {
        !closed && lingerDeadline == nil && (awaitingHandler || pendingOutput > 0)
    }

    var isIdleForShutdown: Bool {
        !awaitingHandler && pendingOutput == 0 && (machine.isIdle || lingerDeadline != nil)
    }

    func handle(events: UInt32) {
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 && events & EPOLLIN.rawValue == 0 {
            close()
            return
        }
        if events & EPOLLOUT.rawValue != 0 {
            flush()
            // Output drained below the limit: answer pipelined requests that were waiting in the buffer.
            if !closed && !awaitingHandler && parser.bufferedByteCount > 0 { drive() }
        }
        if !closed && events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0 { readAvailable() }
    }

    private func readAvailable() {
        let now = unsafe loop.now
        switch unsafe Syscall.receive(fd, into: loop.scratch) {
        case .bytes(let count):
            if lingerDeadline != nil { return }  // discarding input after a rejected request
            unsafe parser.append(UnsafeRawBufferPointer(rebasing: loop.scratch[0..<count]))
            machine.bytesReceived(now: now)
            drive()
        case .wouldBlock:
            return
        case .endOfFile:
            peerClosedInput = true
            if lingerDeadline != nil || (!awaitingHandler && pendingOutput == 0) {
                close()
            } else {
                closeAfterWrite = true
                updateInterest()
            }
        case .failed:
            close()
        }
    }

    /// Parses and answers what is buffered, then writes; repeats while writing frees room for more.
    func drive() {
        while !closed {
            processRequests()
            let before = pendingOutput
            flush()
            guard !closed, !awaitingHandler, !closeAfterWrite, before > 0, pendingOutput == 0,
                parser.bufferedByteCount > 0
            else { break }
        }
    }

    func processRequests() {
        let maxOutput = unsafe loop.maxOutputBufferBytes
        while !closeAfterWrite && !awaitingHandler && pendingOutput < maxOutput {
            let event: HTTPRequestParser.Event?
            do {
                event = try parser.next()
            } catch {
                reject(error)
                return
            }
            switch event {
            case nil:
                return
            case .head(let head):
                pendingHead = head
                headStartedAt = unsafe loop.now
                unsafe machine.headReceived(now: loop.now, hasBody: head.hasBody)
                // RFC 9110 §10.1.1: send 100 Continue only if the body has not started to arrive.
                if head.expectsContinue && head.hasBody && head.version == .http1_1 && parser.bufferedByteCount == 0 {
                    output.append(contentsOf: ResponseSerializer.continueResponse)
                }
            case .complete(let body, let trailers):
                guard let head = pendingHead else { return }
                pendingHead = nil
                machine.bodyComplete()
                dispatch(head: head, body: body, trailers: trailers)
            }
        }
    }

    func sweep(now: UInt64, timeouts: ConnectionStateMachine.Timeouts) {
        if let deadline = lingerDeadline {
            if now >= deadline { close() }
            return
        }
        switch machine.timeoutAction(now: now, timeouts: timeouts) {
        case .none:
            if machine.isIdle && pendingOutput == 0 {
                parser.releaseBufferIfEmpty()
                if output.capacity > 0 { output = [] }
            }
        case .close:
            close()
        case .requestTimeout:
            guard !awaitingHandler, pendingOutput == 0 else {
                close()
                return
            }
            reject(.requestTimeout)
            flush()
        }
    }

    /// Writes pending output with one `send`; closes or lingers after a final response.
    func flush() {
        if pendingOutput > 0 {
            let result = unsafe output.withUnsafeBytes { bytes in
                unsafe Syscall.send(fd, UnsafeRawBufferPointer(rebasing: bytes[outputOffset...]))
            }
            switch result {
            case .bytes(let count):
                outputOffset += count
                unsafe machine.outputProgress(now: loop.now, drained: pendingOutput == 0)
            case .wouldBlock, .endOfFile:
                unsafe machine.outputPending(now: loop.now)
            case .failed:
                close()
                return
            }
        }
        if pendingOutput == 0 {
            if outputOffset > 0 {
                output.removeAll(keepingCapacity: output.capacity <= 65536)
                outputOffset = 0
            }
            if closeAfterWrite && !awaitingHandler {
                finishClosing()
                return
            }
        }
        updateInterest()
    }

    private func finishClosing() {
        guard lingerAfterWrite && !peerClosedInput else {
            close()
            return
        }
        // Half-close so the client sees the response, then drop its remaining input for up to 2 s.
        lingerAfterWrite = false
        lingerDeadline = unsafe loop.now &+ 2_000_000_000
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        closeAfterWrite = false
        updateInterest()
    }

    func updateInterest() {
        guard !closed else { return }
        let maxOutput = unsafe loop.maxOutputBufferBytes
        let wantsRead =
            lingerDeadline != nil
            || (!peerClosedInput && !awaitingHandler && !closeAfterWrite && pendingOutput < maxOutput)
        let events = (wantsRead ? Self.readEvents : 0) | (pendingOutput > 0 ? EPOLLOUT.rawValue : 0)
        guard events != registeredEvents else { return }
        registeredEvents = events
        _ = unsafe Syscall.epollControl(loop.epoll, EPOLL_CTL_MOD, fd, events: events)
    }

    func close() {
        guard !closed else { return }
        closed = true
        unsafe loop.unregister(self)
        Syscall.closeDescriptor(fd)
        parser = HTTPRequestParser(limits: parser.limits)
        output = []
    }
}
