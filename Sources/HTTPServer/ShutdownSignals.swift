import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Installs DispatchSource signal handlers for a graceful shutdown: the first signal calls `onFirst`, a second
/// one exits the process at once with status 1.
/// `sources` is immutable after init and DispatchSource is thread-safe, hence `@unchecked Sendable`.
public final class ShutdownSignals: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    private init(sources: [any DispatchSourceSignal]) { self.sources = sources }

    /// Starts handling `signals` (nil means SIGTERM and SIGINT); keep the returned object alive.
    /// - Parameter onFirst: called once, on a Dispatch queue, for the first signal.
    public static func install(
        _ signals: [Int32]? = nil, onFirst: @escaping @Sendable () -> Void
    ) -> ShutdownSignals {
        let signals = signals ?? [SIGTERM, SIGINT]
        let queue = DispatchQueue(label: "tokenvend.http.signals")
        let received = SignalCount()
        let sources = signals.map { number in
            signal(number, SIG_IGN)  // let the DispatchSource, not the default action, see it
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if received.increment() == 1 { onFirst() } else { _exit(1) }
            }
            source.resume()
            return source
        }
        return ShutdownSignals(sources: sources)
    }

    deinit { for source in sources { source.cancel() } }
}

/// Counts signals; only touched on the signal queue, which serializes the handlers.
private final class SignalCount: @unchecked Sendable {
    private var count = 0
    func increment() -> Int {
        count += 1
        return count
    }
}
