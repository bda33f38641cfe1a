import Dispatch
import Synchronization
import Testing

@testable import PasswordHash

@Suite(.timeLimit(.minutes(1))) struct HashingPoolTests {
    /// Waits (yielding, no sleeps) until the pool reaches `load`.
    static func waitFor(_ pool: HashingPool, _ load: HashingPool.Load) async {
        while pool.load != load { await Task.yield() }
    }

    @Test("runs work on pool threads and returns its result")
    func runs() async throws {
        let pool = HashingPool(maxConcurrent: 2, maxQueued: 4)
        let hasher = try PasswordHasher(timeCost: 1, memoryKiB: 8192)
        let hash = try await pool.run { () throws(PasswordHashError) in try hasher.hash(Password("pw")) }
        let ok = try await pool.run { hasher.verify(Password("pw"), against: hash) }
        #expect(ok)
        #expect(pool.load == .init(inFlight: 0, queued: 0))
    }

    @Test("a full queue throws overloaded at once without running the work, and the load returns to 0")
    func overloaded() async throws {
        let pool = HashingPool(maxConcurrent: 1, maxQueued: 1)
        let gate = DispatchSemaphore(value: 0)
        let ran = Counter()
        let blocking: @Sendable () -> Int = {
            gate.wait()
            return ran.add(1)
        }
        async let first = pool.run(blocking)
        await Self.waitFor(pool, .init(inFlight: 1, queued: 0))
        async let second = pool.run(blocking)
        await Self.waitFor(pool, .init(inFlight: 1, queued: 1))
        await #expect(throws: PasswordHashError.overloaded) {
            try await pool.run { () -> Int in
                ran.add(100)
                return 0
            }
        }
        #expect(ran.value == 0)
        gate.signal()
        gate.signal()
        let results = try await [first, second]
        #expect(results.sorted() == [1, 2])
        #expect(ran.value == 2)
        #expect(pool.load == .init(inFlight: 0, queued: 0))
    }

    @Test("concurrency never exceeds the limit")
    func boundedConcurrency() async throws {
        let pool = HashingPool(maxConcurrent: 2, maxQueued: 64)
        let running = Counter()
        let peak = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    _ = try await pool.run {
                        let now = running.add(1)
                        peak.raise(to: now)
                        var spin = 0
                        for index in 0..<50_000 { spin &+= index }
                        running.add(-1)
                        return spin
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(peak.value <= 2)
        #expect(pool.load == .init(inFlight: 0, queued: 0))
    }

    @Test("cancelling a queued job removes it from the queue without running it")
    func cancellation() async throws {
        let pool = HashingPool(maxConcurrent: 1, maxQueued: 4)
        let gate = DispatchSemaphore(value: 0)
        let ran = Counter()
        let blocker = Task { try await pool.run { gate.wait() } }
        await Self.waitFor(pool, .init(inFlight: 1, queued: 0))
        let queued = Task { try await pool.run { ran.add(1) } }
        await Self.waitFor(pool, .init(inFlight: 1, queued: 1))
        queued.cancel()
        await #expect(throws: PasswordHashError.cancelled) { try await queued.value }
        #expect(pool.load == .init(inFlight: 1, queued: 0))
        gate.signal()
        try await blocker.value
        #expect(ran.value == 0)
        #expect(pool.load == .init(inFlight: 0, queued: 0))
    }

    @Test("an already cancelled task gets cancelled without running its work")
    func cancelledBeforeSubmit() async throws {
        let pool = HashingPool(maxConcurrent: 1, maxQueued: 1)
        let ran = Counter()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pool.run { ran.add(1) }
        }
        await #expect(throws: PasswordHashError.cancelled) { try await task.value }
        #expect(ran.value == 0)
        #expect(pool.load == .init(inFlight: 0, queued: 0))
    }
}

/// A shared integer for test closures (`Atomic` itself cannot be captured).
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    var value: Int { storage.load(ordering: .relaxed) }

    @discardableResult
    func add(_ delta: Int) -> Int { storage.add(delta, ordering: .relaxed).newValue }

    func raise(to candidate: Int) { storage.max(candidate, ordering: .relaxed) }
}
