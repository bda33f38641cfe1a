import Synchronization
import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(1))) struct ShutdownSignalsTests {
    @Test("the first signal calls the handler, whichever thread receives it")
    func firstSignal() async throws {
        let called = Counter()
        let signals = ShutdownSignals.install([SIGHUP]) { called.value.add(1, ordering: .relaxed) }
        kill(getpid(), SIGHUP)  // process-directed: any thread that does not block it runs the handler
        for _ in 0..<200 where called.value.load(ordering: .relaxed) == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(called.value.load(ordering: .relaxed) == 1)
        withExtendedLifetime(signals) {}
    }
}

/// A shareable atomic counter.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
