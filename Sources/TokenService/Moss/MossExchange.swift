import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One upstream HTTP exchange that finishes exactly once: with the answer, at the deadline, or on cancellation,
/// whichever comes first.
///
/// The deadline is a Dispatch timer rather than URLSession's own timeouts: it covers connect, send and answer
/// together, and swift-corelibs-foundation truncates its timeouts to whole seconds.
final class MossExchange: Sendable {
    /// The answer body and HTTP status, or why there is none.
    typealias Outcome = Result<(Data, Int), MossError>

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var task: URLSessionDataTask?
        var finished = false
    }

    private let state = Mutex(State())

    private init() {}

    /// Sends `request` and waits at most `timeout` seconds for its answer; cancelling the caller ends the wait at
    /// once.
    ///
    /// - Returns: the body and status of any HTTP answer, or ``MossError/upstreamUnavailable`` for a transport
    ///   failure, the deadline or cancellation.
    static func run(_ request: URLRequest, session: URLSession, timeout: Double) async -> Outcome {
        let exchange = MossExchange()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.start(request, session: session, timeout: timeout, continuation: continuation)
            }
        } onCancel: {
            exchange.finish(.failure(.upstreamUnavailable))
        }
    }

    private func start(
        _ request: URLRequest,
        session: URLSession,
        timeout: Double,
        continuation: CheckedContinuation<Outcome, Never>
    ) {
        let task = session.dataTask(with: request) { data, response, error in
            self.finish(Self.classify(data: data, response: response, error: error))
        }
        let started = state.withLock { state in
            // Cancelled before the continuation existed: finish() already ran and left nothing to resume.
            guard !state.finished else { return false }
            state.continuation = continuation
            state.task = task
            return true
        }
        guard started else {
            continuation.resume(returning: .failure(.upstreamUnavailable))
            return
        }
        task.resume()
        // The timer holds the exchange weakly: once finished and released, the late timer does nothing.
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in
            self?.finish(.failure(.upstreamUnavailable))
        }
    }

    /// Resumes the waiter with `outcome` unless something else finished first; for a failure, also stops the
    /// transfer. Clearing the state breaks the task ↔ exchange reference cycle.
    private func finish(_ outcome: Outcome) {
        let taken = state.withLock { state -> (CheckedContinuation<Outcome, Never>?, URLSessionDataTask?)? in
            guard !state.finished else { return nil }
            state.finished = true
            defer {
                state.continuation = nil
                state.task = nil
            }
            return (state.continuation, state.task)
        }
        guard let (continuation, task) = taken else { return }
        if case .failure = outcome { task?.cancel() }
        continuation?.resume(returning: outcome)
    }

    /// Turns URLSession's callback arguments into a body and status, or a transport failure.
    private static func classify(data: Data?, response: URLResponse?, error: (any Error)?) -> Outcome {
        if error != nil { return .failure(.upstreamUnavailable) }
        guard let http = response as? HTTPURLResponse else { return .failure(.badUpstreamResponse) }
        return .success((data ?? Data(), http.statusCode))
    }
}
