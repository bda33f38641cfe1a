import CHTTPServerLinux
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The eventfd the signal handler writes to; set once, before any handler is installed.
private let signalEventDescriptor = Atomic<Int32>(-1)

/// The process-wide handler: only async-signal-safe work (an atomic load and a `write`).
private func recordSignal(_ number: Int32) {
    var one: UInt64 = 1
    _ = unsafe write(signalEventDescriptor.load(ordering: .relaxed), &one, 8)
}

/// Graceful-shutdown signals: the first signal calls `onFirst`, a second one exits the process at once
/// with status 1.
///
/// A `sigaction` handler writes to an eventfd that a `DispatchSource` read source watches (the self-pipe
/// pattern). Linux libdispatch's own signal sources read a signalfd, which only sees a signal reliably when
/// every thread blocks it — and the event loops' Dispatch threads exist before this is installed. A handler
/// that writes to a descriptor works whichever thread the kernel picks.
///
/// `source` is immutable after init and DispatchSource is thread-safe, hence `@unchecked Sendable`.
public final class ShutdownSignals: @unchecked Sendable {
    private let source: any DispatchSourceRead

    private init(source: any DispatchSourceRead) { self.source = source }

    /// Starts handling `signals` (nil means SIGTERM and SIGINT); keep the returned object alive.
    /// - Parameter onFirst: called once, on a Dispatch queue, for the first signal.
    public static func install(
        _ signals: [Int32]? = nil, onFirst: @escaping @Sendable () -> Void
    ) -> ShutdownSignals {
        var descriptor = signalEventDescriptor.load(ordering: .acquiring)
        if descriptor < 0 {
            let created = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
            let (exchanged, current) = signalEventDescriptor.compareExchange(
                expected: -1, desired: created, ordering: .acquiringAndReleasing)
            if !exchanged { Syscall.closeDescriptor(created) }
            descriptor = exchanged ? created : current
        }
        let queue = DispatchQueue(label: "tokenvend.http.signals")
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        let received = SignalCount()
        source.setEventHandler {
            var count: UInt64 = 0
            guard unsafe read(descriptor, &count, 8) == 8 else { return }
            let before = received.add(Int(count))
            if before + Int(count) >= 2 { _exit(1) }
            if before == 0 { onFirst() }
        }
        source.resume()
        for number in signals ?? [SIGTERM, SIGINT] { signal(number, recordSignal) }
        return ShutdownSignals(source: source)
    }

    deinit { source.cancel() }
}

/// Counts signals; only touched on the signal queue, which serializes the event handler.
private final class SignalCount: @unchecked Sendable {
    private var count = 0

    /// Adds `value`; returns the count before.
    func add(_ value: Int) -> Int {
        defer { count += value }
        return count
    }
}
