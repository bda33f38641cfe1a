import Dispatch
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs password hashing on its own Dispatch threads with bounded concurrency and a bounded queue.
///
/// At most `maxConcurrent` jobs run at once; up to `maxQueued` more wait in FIFO order; beyond that `run`
/// throws `.overloaded` at once without running the work (answer 503 with `Retry-After`). So a storm of logins
/// costs at most `(maxConcurrent) × memory cost` of RAM, and token endpoints (which never hash) are not starved.
///
/// Cancellation: a cancelled task whose job is still queued leaves the queue and gets `.cancelled`; a job
/// already running finishes (Argon2id cannot be interrupted) and its result is returned.
public final class HashingPool: Sendable {
    /// Jobs running and waiting, for metrics.
    public struct Load: Sendable, Equatable {
        /// Jobs running now (≤ `maxConcurrent`).
        public var inFlight: Int
        /// Jobs waiting for a thread (≤ `maxQueued`).
        public var queued: Int
    }

    private struct Job: Sendable {
        let id: UInt64
        /// Runs the work and returns the continuation's resumption, called after the slot is released.
        let start: @Sendable () -> @Sendable () -> Void
        let fail: @Sendable (PasswordHashError) -> Void
    }

    private struct State {
        var inFlight = 0
        var waiting: [Job] = []
        var nextID: UInt64 = 0
        /// Ids handed out by `run` whose job is not submitted yet.
        var registered: Set<UInt64> = []
        /// Registered ids whose task was cancelled before submission.
        var cancelledEarly: Set<UInt64> = []
    }

    /// Jobs that run at once (`password.maxConcurrentHashes`). Default: the active CPU count.
    public let maxConcurrent: Int
    /// Jobs that may wait (`password.maxQueuedHashes`). Default: 64.
    public let maxQueued: Int
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "tokenvend.password-hashing", qos: .userInitiated, attributes: .concurrent)

    /// Creates a pool.
    /// - Precondition: `maxConcurrent ≥ 1`, `maxQueued ≥ 0`.
    public init(maxConcurrent: Int = HashingPool.defaultConcurrency, maxQueued: Int = 64) {
        precondition(maxConcurrent >= 1 && maxQueued >= 0, "HashingPool needs maxConcurrent ≥ 1, maxQueued ≥ 0")
        self.maxConcurrent = maxConcurrent
        self.maxQueued = maxQueued
    }

    /// The active CPU count (at least 1): the default `maxConcurrent`.
    public static var defaultConcurrency: Int {
        max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The current load.
    public var load: Load {
        state.withLock { Load(inFlight: $0.inFlight, queued: $0.waiting.count) }
    }

    /// Runs `work` on a pool thread and returns its result; the caller suspends, never blocking a thread.
    /// - Throws: `.overloaded` at once when the queue is full (the work does not run), `.cancelled` when the
    ///   task is cancelled before the work starts, or what `work` throws.
    public func run<T: Sendable>(
        _ work: @escaping @Sendable () throws(PasswordHashError) -> T
    ) async throws(PasswordHashError) -> T {
        let id = state.withLock { state in
            state.nextID += 1
            state.registered.insert(state.nextID)
            return state.nextID
        }
        let result: Result<T, PasswordHashError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, PasswordHashError>, Never>) in
                submit(
                    Job(
                        id: id,
                        start: {
                            let result = Result { () throws(PasswordHashError) -> T in try work() }
                            return { continuation.resume(returning: result) }
                        },
                        fail: { continuation.resume(returning: .failure($0)) }))
            }
        } onCancel: {
            cancel(id)
        }
        return try result.get()
    }

    private enum Admission {
        case start, queued, reject, cancelled
    }

    private func submit(_ job: Job) {
        let admission = state.withLock { state -> Admission in
            state.registered.remove(job.id)
            if state.cancelledEarly.remove(job.id) != nil { return .cancelled }
            if state.inFlight < maxConcurrent {
                state.inFlight += 1
                return .start
            }
            guard state.waiting.count < maxQueued else { return .reject }
            state.waiting.append(job)
            return .queued
        }
        switch admission {
        case .start: launch(job)
        case .queued: break
        case .reject: job.fail(.overloaded)
        case .cancelled: job.fail(.cancelled)
        }
    }

    private func launch(_ job: Job) {
        queue.async {
            let resume = job.start()
            // Release the slot first, so the load is up to date when the caller resumes.
            self.finished()
            resume()
        }
    }

    /// Hands the thread to the next waiting job, or frees the slot.
    private func finished() {
        let next = state.withLock { state -> Job? in
            guard !state.waiting.isEmpty else {
                state.inFlight -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        if let next { launch(next) }
    }

    private func cancel(_ id: UInt64) {
        let removed = state.withLock { state -> Job? in
            if let index = state.waiting.firstIndex(where: { $0.id == id }) {
                return state.waiting.remove(at: index)
            }
            if state.registered.contains(id) { state.cancelledEarly.insert(id) }
            return nil
        }
        removed?.fail(.cancelled)
    }
}
