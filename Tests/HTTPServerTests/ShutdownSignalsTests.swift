import Logging
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

    @Test("a shutdown that comes before run() has opened the listener leaves it closed, and run() returns at once")
    func shutdownBeforeListener() async throws {
        defer {
            signal(SIGTERM, SIG_DFL)
            signal(SIGINT, SIG_DFL)
        }
        let server = loopbackServer()
        await server.shutdown(gracePeriod: .zero)
        #expect(try await server.run() == .drained)
        #expect(server.port == nil)
    }

    @Test("run() has the SIGTERM and SIGINT handlers in place before the listener opens, so no signal kills it")
    func handlersBeforeListener() async throws {
        signal(SIGTERM, SIG_DFL)
        signal(SIGINT, SIG_DFL)
        defer {
            signal(SIGTERM, SIG_DFL)
            signal(SIGINT, SIG_DFL)
        }
        let server = loopbackServer()
        let handled = Mutex<[Bool]>([])
        let running = Task {
            try await server.run { _ in
                // The listener is open here: a connection could be accepted, so a signal must drain from now on.
                for number in [SIGTERM, SIGINT] {
                    var current = sigaction()
                    sigaction(number, nil, &current)
                    let installed = current.__sigaction_handler.sa_handler != nil
                    handled.withLock { $0.append(installed) }
                }
            }
        }
        for _ in 0..<200 where server.port == nil { try await Task.sleep(for: .milliseconds(5)) }
        await server.shutdown(gracePeriod: .zero)
        #expect(try await running.value == .drained)
        #expect(handled.withLock { $0 } == [true, true])
    }
}

/// A server on 127.0.0.1, port 0, with no routes, not started.
private func loopbackServer() -> HTTPServer {
    var configuration = HTTPServer.Configuration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    return HTTPServer(configuration: configuration, router: Router(), logger: Logger(label: "test"))
}

/// A shareable atomic counter.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
