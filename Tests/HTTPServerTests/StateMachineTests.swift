import Testing

@testable import HTTPServer

@Suite struct StateMachineTests {
    let timeouts = ConnectionStateMachine.Timeouts(header: 100, request: 300, bodyIdle: 50, idle: 1000, write: 70)

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

    @Test("a body trickling one byte per pause gets 408 at the request timeout, counted from accept")
    func tricklingBody() {
        var machine = ConnectionStateMachine(acceptedAt: 0)
        machine.bytesReceived(now: 20)
        machine.headReceived(now: 40, hasBody: true)
        // A byte every 40 (under the body idle timeout of 50) keeps the pause short but not the request.
        var now: UInt64 = 40
        while now < 280 {
            now += 40
            machine.bytesReceived(now: now)
            #expect(machine.timeoutAction(now: now + 19, timeouts: timeouts) == .none)
        }
        #expect(machine.timeoutAction(now: 299, timeouts: timeouts) == .none)
        #expect(machine.timeoutAction(now: 300, timeouts: timeouts) == .requestTimeout)
    }

    @Test("on keep-alive the request timeout counts from the next head's first byte")
    func requestTimeoutOnKeepAlive() {
        var machine = ConnectionStateMachine(acceptedAt: 0)
        machine.headReceived(now: 5, hasBody: false)
        machine.responseQueued(now: 10, bufferedBytes: false)
        machine.bytesReceived(now: 500)
        machine.headReceived(now: 590, hasBody: true)
        machine.bytesReceived(now: 780)
        #expect(machine.timeoutAction(now: 799, timeouts: timeouts) == .none)
        #expect(machine.timeoutAction(now: 800, timeouts: timeouts) == .requestTimeout)
    }

    @Test("a request timeout shorter than the header timeout bounds the head too")
    func requestTimeoutBoundsHead() {
        let short = ConnectionStateMachine.Timeouts(header: 100, request: 60, bodyIdle: 50, idle: 1000, write: 70)
        var machine = ConnectionStateMachine(acceptedAt: 0)
        machine.bytesReceived(now: 1)
        #expect(machine.timeoutAction(now: 59, timeouts: short) == .none)
        #expect(machine.timeoutAction(now: 60, timeouts: short) == .requestTimeout)
    }

    @Test("connections reading a body are displaced by their request's start, not their last byte")
    func displacementWhileReadingBody() {
        var trickling = ConnectionStateMachine(acceptedAt: 3)
        trickling.headReceived(now: 5, hasBody: true)
        trickling.bytesReceived(now: 900)
        var idle = ConnectionStateMachine(acceptedAt: 0)
        idle.headReceived(now: 1, hasBody: false)
        idle.responseQueued(now: 10, bufferedBytes: false)
        var waitingForHead = ConnectionStateMachine(acceptedAt: 899)
        waitingForHead.bytesReceived(now: 900)
        #expect(trickling.waitingSince == 3)
        #expect(idle.waitingSince == 10)
        #expect(waitingForHead.waitingSince == 899)
        let oldest = [("trickling", trickling), ("idle", idle), ("head", waitingForHead)]
            .min { ($0.1.waitingSince ?? .max) < ($1.1.waitingSince ?? .max) }
        #expect(oldest?.0 == "trickling")
    }

    @Test("every connection waiting on its client can be displaced, oldest first; a running handler cannot")
    func displacement() {
        var machine = ConnectionStateMachine(acceptedAt: 7)
        #expect(machine.waitingSince == 7)
        machine.headReceived(now: 8, hasBody: true)
        #expect(machine.waitingSince == 7)
        machine.bodyComplete()
        #expect(machine.waitingSince == nil)
        machine.responseQueued(now: 20, bufferedBytes: true)
        #expect(machine.waitingSince == 20)
        #expect(!machine.isIdle)
        machine.responseQueued(now: 30, bufferedBytes: false)
        #expect(machine.isIdle)
    }
}
