/// The timing state of one connection, kept apart from sockets so it can be tested with plain numbers.
///
/// Times are monotonic nanoseconds supplied by the caller (the injectable clock). The event loop feeds it
/// events and asks `timeoutAction(now:)` on each sweep; displacement asks `waitingSince`.
///
/// Two clocks bound a request: the header and body-idle timeouts bound each pause, and the request timeout
/// bounds the whole request (head and body) from its start, so a body that trickles a byte at a time cannot
/// reset its way past it.
struct ConnectionStateMachine: Sendable, Equatable {
    /// Timeouts in nanoseconds.
    struct Timeouts: Sendable, Equatable {
        var header: UInt64
        /// The whole request, head and body, from its start (accept, or the head's first byte on keep-alive).
        var request: UInt64
        var bodyIdle: UInt64
        var idle: UInt64
        var write: UInt64
    }

    enum Phase: Sendable, Equatable {
        /// Waiting for a request head since `since` (accept, or the head's first byte on keep-alive).
        case awaitingHead(since: UInt64, receivedBytes: Bool)
        /// Keep-alive idle with nothing buffered since `since`.
        case idle(since: UInt64)
        /// Receiving a body of the request that started at `since`; `lastProgress` is when bytes last arrived.
        case readingBody(since: UInt64, lastProgress: UInt64)
        /// A handler is running or its response is queued.
        case handling
    }

    enum TimeoutAction: Sendable, Equatable {
        case none
        /// Close without a response (nothing of a request arrived, or output is stuck).
        case close
        /// Answer 408 and close.
        case requestTimeout
    }

    private(set) var phase: Phase
    /// When pending output last made progress, nil when nothing is pending.
    private(set) var writeStalledSince: UInt64?

    /// A new connection, accepted at `now`.
    init(acceptedAt now: UInt64) { phase = .awaitingHead(since: now, receivedBytes: false) }

    mutating func bytesReceived(now: UInt64) {
        switch phase {
        case .idle: phase = .awaitingHead(since: now, receivedBytes: true)
        case .awaitingHead(let since, _): phase = .awaitingHead(since: since, receivedBytes: true)
        case .readingBody(let since, _): phase = .readingBody(since: since, lastProgress: now)
        case .handling: break
        }
    }

    mutating func headReceived(now: UInt64, hasBody: Bool) {
        guard hasBody else {
            phase = .handling
            return
        }
        let since: UInt64
        switch phase {
        case .awaitingHead(let started, _): since = started
        default: since = now
        }
        phase = .readingBody(since: since, lastProgress: now)
    }

    mutating func bodyComplete() { phase = .handling }

    /// A response was queued; `bufferedBytes` says whether part of the next request is already buffered.
    mutating func responseQueued(now: UInt64, bufferedBytes: Bool) {
        phase = bufferedBytes ? .awaitingHead(since: now, receivedBytes: true) : .idle(since: now)
    }

    mutating func outputPending(now: UInt64) {
        if writeStalledSince == nil { writeStalledSince = now }
    }

    mutating func outputProgress(now: UInt64, drained: Bool) {
        writeStalledSince = drained ? nil : now
    }

    /// What a sweep at `now` must do with this connection.
    func timeoutAction(now: UInt64, timeouts: Timeouts) -> TimeoutAction {
        if let stalled = writeStalledSince, now &- stalled >= timeouts.write { return .close }
        switch phase {
        case .awaitingHead(let since, let receivedBytes):
            guard now &- since >= min(timeouts.header, timeouts.request) else { return .none }
            return receivedBytes ? .requestTimeout : .close
        case .idle(let since):
            return now &- since >= timeouts.idle ? .close : .none
        case .readingBody(let since, let lastProgress):
            let late = now &- lastProgress >= timeouts.bodyIdle || now &- since >= timeouts.request
            return late ? .requestTimeout : .none
        case .handling:
            return .none
        }
    }

    /// Since when this connection has been waiting on its client: for a request head (from accept or its
    /// first byte), for the rest of a body (from the request's start), or idling in keep-alive (from the last
    /// response); nil while a handler runs. At `maxConnections` the oldest value is displaced first, so clients
    /// that hold a connection without completing a request cannot lock newcomers out.
    var waitingSince: UInt64? {
        switch phase {
        case .awaitingHead(let since, _), .idle(let since), .readingBody(let since, _): since
        case .handling: nil
        }
    }

    /// Whether nothing of a request is in progress (closed at once by a graceful shutdown).
    var isIdle: Bool {
        switch phase {
        case .idle, .awaitingHead(_, receivedBytes: false): true
        default: false
        }
    }
}
