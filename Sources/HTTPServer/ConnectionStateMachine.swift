/// The timing state of one connection, kept apart from sockets so it can be tested with plain numbers.
///
/// Times are monotonic nanoseconds supplied by the caller (the injectable clock). The event loop feeds it
/// events and asks `timeoutAction(now:)` on each sweep; displacement asks `waitingSince`.
struct ConnectionStateMachine: Sendable, Equatable {
    /// Timeouts in nanoseconds.
    struct Timeouts: Sendable, Equatable {
        var header: UInt64
        var bodyIdle: UInt64
        var idle: UInt64
        var write: UInt64
    }

    enum Phase: Sendable, Equatable {
        /// Waiting for a request head since `since` (accept, or the head's first byte on keep-alive).
        case awaitingHead(since: UInt64, receivedBytes: Bool)
        /// Keep-alive idle with nothing buffered since `since`.
        case idle(since: UInt64)
        /// Receiving a body; `lastProgress` is when bytes last arrived.
        case readingBody(lastProgress: UInt64)
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
        case .readingBody: phase = .readingBody(lastProgress: now)
        case .handling: break
        }
    }

    mutating func headReceived(now: UInt64, hasBody: Bool) {
        phase = hasBody ? .readingBody(lastProgress: now) : .handling
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
            guard now &- since >= timeouts.header else { return .none }
            return receivedBytes ? .requestTimeout : .close
        case .idle(let since):
            return now &- since >= timeouts.idle ? .close : .none
        case .readingBody(let lastProgress):
            return now &- lastProgress >= timeouts.bodyIdle ? .requestTimeout : .none
        case .handling:
            return .none
        }
    }

    /// When this connection started waiting for a request head or idling, nil when it is mid-request.
    /// The connection with the oldest value is displaced first at `maxConnections`.
    var waitingSince: UInt64? {
        switch phase {
        case .awaitingHead(let since, _), .idle(let since): since
        case .readingBody, .handling: nil
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
