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
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
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
    /// - Throws: `HTTPServerError.socket` when a socket call fails, `.alreadyStarted` on a second call.
    @discardableResult
    public func start() throws -> Int {
        try state.withLock { state throws(HTTPServerError) in
            guard !state.started else { throw .alreadyStarted }
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
                loop.onStopped = { [self] in loopStopped() }
                DispatchQueue(label: "tokenvend.http.loop.\(index)", qos: .userInitiated).async { loop.run() }
            }
            return port
        }
    }

    /// Stops accepting, closes idle connections, lets in-flight requests finish (answered with
    /// `Connection: close`) for up to `gracePeriod`, then closes the rest; returns when every loop has stopped.
    /// Safe to call more than once and before `start()`.
    public func shutdown(gracePeriod: Duration) async {
        let loops: [EventLoop] = state.withLock { state in
            if !state.started { state.stopped = true }
            return state.loops
        }
        let deadline = Syscall.monotonicNanoseconds() &+ gracePeriod.nanoseconds
        for loop in loops {
            loop.post { loop.beginDrain(deadline: loop.drainDeadline.map { min($0, deadline) } ?? deadline) }
        }
        await waitUntilStopped()
    }

    /// Returns when the server has stopped (after `shutdown`).
    public func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.stopped { return true }
                state.stopWaiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Starts (if needed), then serves until SIGTERM or SIGINT and shuts down with `configuration.shutdownGrace`;
    /// a second signal exits the process at once with status 1.
    /// - Throws: what `start()` throws.
    public func run() async throws {
        if port == nil { try start() }
        let grace = configuration.shutdownGrace
        let signals = ShutdownSignals.install { [self] in
            shared.logger.info("shutting down", metadata: ["grace_s": "\(grace)"])
            Task { await self.shutdown(gracePeriod: grace) }
        }
        await waitUntilStopped()
        withExtendedLifetime(signals) {}
    }

    private func loopStopped() {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.runningLoops -= 1
            guard state.runningLoops == 0 else { return [] }
            Syscall.closeDescriptor(state.listener)
            state.listener = -1
            state.stopped = true
            let waiters = state.stopWaiters
            state.stopWaiters = []
            return waiters
        }
        for waiter in waiters { waiter.resume() }
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
