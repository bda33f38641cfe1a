import CHTTPServerLinux
import Dispatch
public import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An HTTP/1.1 server on POSIX sockets: one epoll event loop per CPU, each on its own serial Dispatch queue.
///
/// Synchronous handlers run inline on the connection's loop; async handlers run in a `Task` and their
/// responses are posted back in order. See `Configuration` for the limits.
///
/// ```swift
/// var router = Router()
/// router.get("/healthz") { _, _ in .json(bytes: Array(#"{"status":"ok"}"#.utf8)) }
/// let server = HTTPServer(configuration: .init(port: 8080), router: router, logger: logger)
/// try await server.run()  // until SIGTERM/SIGINT, then a graceful shutdown
/// ```
public final class HTTPServer: Sendable {
    /// The configuration given at init.
    public let configuration: Configuration
    let shared: ServerShared
    let state = Mutex(State())

    struct State: ~Copyable {
        var started = false
        var listener: Int32 = -1
        var port: Int?
        var loops: [EventLoop] = []
        var runningLoops = 0
        var stopped = false
        /// Connections closed by the grace period's end with a request still in progress, over all loops.
        var abandoned = 0
        var stopWaiters: [CheckedContinuation<ShutdownOutcome, Never>] = []

        var outcome: ShutdownOutcome {
            abandoned == 0 ? .drained : .gracePeriodExpired(abandonedConnections: abandoned)
        }
    }

    /// How a graceful shutdown ended.
    public enum ShutdownOutcome: Sendable, Equatable {
        /// Every in-flight request finished within the grace period (or there was none).
        case drained
        /// The grace period ran out: this many connections still had a handler running or a response unwritten,
        /// and were closed.
        case gracePeriodExpired(abandonedConnections: Int)
    }

    /// Creates a server; nothing is bound until `start()`.
    /// - Parameters:
    ///   - observer: called on the connection's event loop after every response, including the server's own
    ///     rejections (metrics); it must be quick and must not block. Default: none.
    ///   - afterEvents: called on each event loop after it has handled a batch of socket events, before it
    ///     waits again, and once when it stops (e.g. to write out buffered log lines); it must be quick and
    ///     must not block. Default: none.
    public init(
        configuration: Configuration = Configuration(), router: Router, logger: Logger,
        observer: (@Sendable (CompletedRequest) -> Void)? = nil, afterEvents: (@Sendable () -> Void)? = nil
    ) {
        self.configuration = configuration
        self.shared = ServerShared(
            configuration: configuration, router: router, logger: logger, parserLimits: configuration.parserLimits,
            observer: observer, afterEvents: afterEvents)
    }

    /// The bound port once started, else nil.
    public var port: Int? { state.withLock { $0.port } }

    /// Binds, listens and starts the event loops. Also ignores SIGPIPE and raises the open-file limit.
    /// - Returns: the bound port (useful with port 0).
    /// - Throws: `HTTPServerError.socket` when a socket call fails, `.alreadyStarted` on a second call or
    ///   after `shutdown`.
    @discardableResult
    public func start() throws -> Int {
        try state.withLock { state throws(HTTPServerError) in
            // After `shutdown` (a signal during `run()`'s start-up, say) nothing is opened any more.
            guard !state.started, !state.stopped else { throw .alreadyStarted }
            signal(SIGPIPE, SIG_IGN)
            let limit = Syscall.raiseOpenFileLimit()
            if limit < configuration.maxConnections + 64 {
                shared.logger.warning(
                    "open-file limit below maxConnections", metadata: ["limit": "\(limit)"])
            }
            let (listener, port) = try Listener.open(host: configuration.host, port: configuration.port)
            let count = max(1, configuration.eventLoopCount ?? Syscall.availableProcessorCount())
            let perLoop = max(1, (configuration.maxConnections + count - 1) / count)
            var loops: [EventLoop] = []
            do throws(HTTPServerError) {
                for _ in 0..<count {
                    loops.append(try EventLoop(shared: shared, listener: listener, connectionLimit: perLoop))
                }
            } catch {
                Syscall.closeDescriptor(listener)
                throw error
            }
            state.started = true
            state.listener = listener
            state.port = port
            state.loops = loops
            state.runningLoops = count
            for (index, loop) in loops.enumerated() {
                loop.onStopped = { [self] abandoned in loopStopped(abandoned: abandoned) }
                DispatchQueue(label: "tokenvend.http.loop.\(index)", qos: .userInitiated).async { loop.run() }
            }
            return port
        }
    }

    /// Stops accepting, closes idle connections, lets in-flight requests finish (answered with
    /// `Connection: close`) for up to `gracePeriod`, then closes the rest; returns when every loop has stopped.
    /// Safe to call more than once and before `start()`.
    ///
    /// Go's order: the listening socket is shut down first, before this returns to any await, so a new
    /// connection is refused at once (and one still in the accept queue is reset) rather than left waiting
    /// for the drain; then idle connections are closed; then in-flight requests are waited for.
    /// - Returns: `.drained`, or `.gracePeriodExpired` with the number of connections closed mid-request.
    @discardableResult
    public func shutdown(gracePeriod: Duration) async -> ShutdownOutcome {
        let (loops, shutdownError): ([EventLoop], Int32) = state.withLock { state in
            if !state.started { state.stopped = true }
            // shutdown(2) rather than close: the loops still hold the descriptor number, which must not be
            // reused before they drop it; a shut-down listener refuses connects and fails accept with EINVAL.
            let error = state.listener >= 0 ? Syscall.shutdownSocket(state.listener) : 0
            return (state.loops, error)
        }
        if shutdownError != 0 {
            shared.logger.warning("could not shut the listener down", metadata: ["errno": "\(shutdownError)"])
        }
        let deadline = Syscall.monotonicNanoseconds() &+ gracePeriod.nanoseconds
        for loop in loops {
            loop.post { loop.beginDrain(deadline: loop.drainDeadline.map { min($0, deadline) } ?? deadline) }
        }
        return await waitUntilStopped()
    }

    /// Returns when the server has stopped (after `shutdown`), with how the shutdown ended.
    @discardableResult
    public func waitUntilStopped() async -> ShutdownOutcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<ShutdownOutcome, Never>) in
            let outcome: ShutdownOutcome? = state.withLock { state in
                if state.stopped { return state.outcome }
                state.stopWaiters.append(continuation)
                return nil
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    /// Starts (if needed), then serves until SIGTERM or SIGINT and shuts down with `configuration.shutdownGrace`;
    /// a second signal exits the process at once with status 1.
    ///
    /// The signal handlers are installed before the listener opens, so a SIGTERM that arrives once connections
    /// can be accepted always drains; it never kills the process with the default action.
    /// - Parameter started: called with the bound port when this call started the server (not when `start()`
    ///   had already been called).
    /// - Returns: how the shutdown ended (see `shutdown(gracePeriod:)`).
    /// - Throws: what `start()` throws.
    @discardableResult
    public func run(started: (Int) -> Void = { _ in }) async throws -> ShutdownOutcome {
        let grace = configuration.shutdownGrace
        let signals = ShutdownSignals.install { [self] in
            shared.logger.info("shutting down", metadata: ["grace_s": "\(grace)"])
            Task { await self.shutdown(gracePeriod: grace) }
        }
        if port == nil {
            do {
                started(try start())
            } catch HTTPServerError.alreadyStarted where state.withLock({ $0.stopped }) {
                // A signal arrived before the listener opened: there is nothing to drain.
                withExtendedLifetime(signals) {}
                return .drained
            }
        }
        let outcome = await waitUntilStopped()
        withExtendedLifetime(signals) {}
        return outcome
    }

    private func loopStopped(abandoned: Int) {
        let (waiters, outcome): ([CheckedContinuation<ShutdownOutcome, Never>], ShutdownOutcome) = state.withLock {
            state in
            state.abandoned += abandoned
            state.runningLoops -= 1
            guard state.runningLoops == 0 else { return ([], .drained) }
            Syscall.closeDescriptor(state.listener)
            state.listener = -1
            state.stopped = true
            let waiters = state.stopWaiters
            state.stopWaiters = []
            return (waiters, state.outcome)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}

extension HTTPServer {
    /// Open connections over all loops, counted on each loop's thread (for metrics and tests); 0 before start.
    public func openConnectionCount() async -> Int {
        let loops = state.withLock { $0.loops }
        var total = 0
        for loop in loops {
            total += await withCheckedContinuation { continuation in
                loop.post { continuation.resume(returning: loop.connectionCount) }
            }
        }
        return total
    }
}
