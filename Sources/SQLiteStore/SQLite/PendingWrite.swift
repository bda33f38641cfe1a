import Store

/// One call of the `async` `Database.write` waiting for the writer queue: its body and the continuation of its
/// caller, type-erased so one group commit can hold writes of different result types.
///
/// `run` may be called more than once (a group whose commit failed is retried write by write); the last run
/// decides the value. Exactly one of `succeed` or `fail` is called, once, after the outcome is durable or final.
///
/// `@unchecked Sendable`: the caller creates it and hands it over through `WriteQueue`'s `Mutex`; from then on it
/// is touched only on `Database.writerQueue` (a serial queue), which serializes `run`, `succeed` and `fail`.
final class PendingWrite: @unchecked Sendable {
    private let runBody: (Connection) throws(StoreError) -> Void
    private let resume: (StoreError?) -> Void

    /// Wraps `body`; `continuation` receives the last successful run's value or the failure.
    init<T: Sendable>(
        _ body: @escaping @Sendable (Connection) throws(StoreError) -> T,
        continuation: CheckedContinuation<Result<T, StoreError>, Never>
    ) {
        var value: T?
        runBody = { (connection: Connection) throws(StoreError) in
            value = nil
            value = try body(connection)
        }
        resume = { (failure: StoreError?) in
            if let failure {
                continuation.resume(returning: .failure(failure))
            } else if let value {
                continuation.resume(returning: .success(value))
            } else {
                continuation.resume(returning: .failure(.misuse("a write finished without running its body")))
            }
        }
    }

    /// Runs the body on `connection` (inside a transaction the caller opened) and keeps its value.
    /// - Throws: what the body throws.
    func run(_ connection: Connection) throws(StoreError) {
        try runBody(connection)
    }

    /// Resumes the caller with the kept value (`failure == nil`) or with `failure`.
    func finish(_ failure: StoreError?) {
        resume(failure)
    }
}
