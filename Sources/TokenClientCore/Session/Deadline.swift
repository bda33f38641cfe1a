#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs one exchange with a time limit that holds whatever the transport does.
///
/// ``TransportRequest/timeoutInterval`` is a hint only some transports honour; an app's own ``HTTPTransport`` (or a
/// proxy that accepts the connection and never answers) would keep a refresh waiting past the server's grace
/// window. The operation runs in its own task and is cancelled when the limit passes; the caller is answered
/// at once either way, without waiting for a transport that ignores cancellation.
enum Deadline {
    /// The value of `operation`, or ``TokenClientError/transport(_:)`` when it has not finished within
    /// `seconds`. Cancelling the caller cancels the operation.
    static func run<Value: Sendable>(
        seconds: TimeInterval, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let work = Task { try await operation() }
        let answer = Locked<CheckedContinuation<Value, any Error>?>(nil)
        let timer = Locked<Task<Void, Never>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                answer.withLock { $0 = continuation }
                timer.withLock {
                    $0 = Task {
                        let bounded = seconds.isFinite ? min(max(0, seconds), 86_400) : 86_400
                        try? await Task.sleep(nanoseconds: UInt64(bounded * 1_000_000_000))
                        guard !Task.isCancelled, let waiting = take(answer) else { return }
                        work.cancel()
                        waiting.resume(throwing: TokenClientError.transport("no answer within \(seconds) s"))
                    }
                }
                Task {
                    let result = await work.result
                    timer.withLock { $0?.cancel() }
                    take(answer)?.resume(with: result)
                }
            }
        } onCancel: {
            work.cancel()
        }
    }

    /// The waiting continuation, once: whoever takes it answers the caller.
    private static func take<Value>(
        _ answer: Locked<CheckedContinuation<Value, any Error>?>
    ) -> CheckedContinuation<Value, any Error>? {
        answer.withLock { value in
            defer { value = nil }
            return value
        }
    }
}
