import Testing

@testable import HTTPServer

@Suite struct StateMachineTests {
    let timeouts = ConnectionStateMachine.Timeouts(header: 100, bodyIdle: 50, idle: 1000, write: 70)

    @Test("a new connection that sends nothing is closed silently after the header timeout")
    func silentNewConnection() {
        let machine = ConnectionStateMachine(acceptedAt: 0)
        #expect(machine.timeoutAction(now: 99, timeouts: timeouts) == .none)
        #expect(machine.timeoutAction(now: 100, timeouts: timeouts) == .close)
    }

    @Test("a slow head gets 408 after the header timeout counted from accept", arguments: [0, 10, 99])
    func slowHead(byteAt: UInt64) {
        var machine = ConnectionStateMachine(acceptedAt: 0)
        machine.bytesReceived(now: byteAt)
        #expect(machine.timeoutAction(now: 99, timeouts: timeouts) == .none)
        #expect(machine.timeoutAction(now: 100, timeouts: timeouts) == .requestTimeout)
    }

    @Test("keep-alive idles for the idle timeout, then the header timeout starts at the first byte")
    func keepAlive() {
        var machine = ConnectionStateMachine(acceptedAt: 0)
        machine.headReceived(now: 5, hasBody: false)
        machine.responseQueued(now: 10, bufferedBytes: false)
        #expect(machine.timeoutAction(now: 500, timeouts: timeouts) == .none)
        #expect(machine.timeoutAction(now: 1010, timeouts: timeouts) == .close)
        machine.bytesReceived(now: 900)
        #expect(machine.timeoutAction(now: 999, timeouts: timeouts) == .none)
        #expect(machine.timeoutAction(now: 1000, timeouts: timeouts) == .requestTimeout)
    }

    @Test("a body that stops arriving gets 408 after the body idle timeout")
    func bodyIdle() {
        var machine = ConnectionStateMachine(acceptedAt: 0)
        machine.headReceived(now: 10, hasBody: true)
        machine.bytesReceived(now: 40)
        #expect(machine.timeoutAction(now: 89, timeouts: timeouts) == .none)
        #expect(machine.timeoutAction(now: 90, timeouts: timeouts) == .requestTimeout)
        machine.bodyComplete()
        #expect(machine.timeoutAction(now: 10_000, timeouts: timeouts) == .none)
    }

    @Test("output that makes no progress for the write timeout closes the connection")
    func writeStall() {
        var machine = ConnectionStateMachine(acceptedAt: 0)
        machine.headReceived(now: 0, hasBody: false)
        machine.outputPending(now: 10)
        machine.outputProgress(now: 50, drained: false)
        #expect(machine.timeoutAction(now: 119, timeouts: timeouts) == .none)
        #expect(machine.timeoutAction(now: 120, timeouts: timeouts) == .close)
        machine.outputProgress(now: 121, drained: true)
        #expect(machine.timeoutAction(now: 500, timeouts: timeouts) == .none)
    }

    @Test("only connections waiting for a head or idling can be displaced, oldest first")
    func displacement() {
        var machine = ConnectionStateMachine(acceptedAt: 7)
        #expect(machine.waitingSince == 7)
        machine.headReceived(now: 8, hasBody: true)
        #expect(machine.waitingSince == nil)
        machine.bodyComplete()
        #expect(machine.waitingSince == nil)
        machine.responseQueued(now: 20, bufferedBytes: true)
        #expect(machine.waitingSince == 20)
        #expect(!machine.isIdle)
        machine.responseQueued(now: 30, bufferedBytes: false)
        #expect(machine.isIdle)
    }
}
