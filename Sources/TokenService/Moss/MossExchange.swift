import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One upstream HTTP exchange that finishes exactly once: with the answer, at the deadline, on cancellation, or as
/// soon as the answer is known to be unacceptable, whichever comes first.
///
/// The deadline is a Dispatch timer rather than URLSession's own timeouts: it covers connect, send and answer
/// together, and swift-corelibs-foundation truncates its timeouts to whole seconds.
///
/// The body is read as it arrives (``MossSessionDelegate`` forwards the task's callbacks), so the size limit holds
/// while reading: a `Content-Length` over the limit, or the first bytes past it, end the exchange with
/// ``MossError/badUpstreamResponse`` and cancel the transfer; a body that never ends cannot grow memory. A
/// non-2xx status finishes the exchange on the head alone: its body is never read.
final class MossExchange: Sendable {
    /// The answer body (empty for a non-2xx status) and HTTP status, or why there is none.
    typealias Outcome = Result<(Data, Int), MossError>

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var task: URLSessionDataTask?
        var finished = false
        var status: Int?
        var body = Data()
    }

    private let state = Mutex(State())
    /// The largest body accepted, in bytes.
    let limit: Int

    private init(limit: Int) {
        self.limit = limit
    }

    /// Sends `request` and waits at most `timeout` seconds for its answer; cancelling the caller ends the wait at
    /// once.
    ///
    /// - Parameters:
    ///   - session: a session whose delegate is `delegate`.
    ///   - limit: the largest body accepted, in bytes.
    /// - Returns: the body and status of any HTTP answer, ``MossError/badUpstreamResponse`` for a 2xx body over
    ///   `limit`, or ``MossError/upstreamUnavailable`` for a transport failure, the deadline or cancellation.
    static func run(
        _ request: URLRequest, session: URLSession, delegate: MossSessionDelegate, timeout: Double, limit: Int
    ) async -> Outcome {
        let exchange = MossExchange(limit: limit)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.start(
                    request, session: session, delegate: delegate, timeout: timeout, continuation: continuation)
            }
        } onCancel: {
            exchange.finish(.failure(.upstreamUnavailable))
        }
    }

    private func start(
        _ request: URLRequest,
        session: URLSession,
        delegate: MossSessionDelegate,
        timeout: Double,
        continuation: CheckedContinuation<Outcome, Never>
    ) {
        let task = session.dataTask(with: request)
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
        delegate.register(self, for: task)
        task.resume()
        // The timer holds the exchange weakly: once finished and released, the late timer does nothing.
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in
            self?.finish(.failure(.upstreamUnavailable))
        }
    }

    /// The head arrived. Returns false when the transfer should stop: a non-2xx status (the exchange finishes
    /// with it), a `Content-Length` over the limit, or a response that is not HTTP.
    func receive(_ response: URLResponse) -> Bool {
        guard let http = response as? HTTPURLResponse else {
            finish(.failure(.badUpstreamResponse))
            return false
        }
        guard (200..<300).contains(http.statusCode) else {
            finish(.success((Data(), http.statusCode)))
            return false
        }
        if response.expectedContentLength > Int64(limit) {
            finish(.failure(.badUpstreamResponse))
            return false
        }
        state.withLock { $0.status = http.statusCode }
        return true
    }

    /// Body bytes arrived; past the limit the exchange fails at once and the transfer is cancelled.
    func receive(_ data: Data) {
        let overflow = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            guard state.body.count + data.count <= limit else { return true }
            state.body.append(data)
            return false
        }
        if overflow { finish(.failure(.badUpstreamResponse)) }
    }

    /// The transfer ended, with `error` when it failed.
    func complete(error: (any Error)?) {
        let answer = state.withLock { state -> Outcome in
            guard error == nil, let status = state.status else { return .failure(.upstreamUnavailable) }
            return .success((state.body, status))
        }
        finish(answer)
    }

    /// Resumes the waiter with `outcome` unless something else finished first, and stops a transfer that is still
    /// running. Clearing the state breaks the task ↔ exchange reference cycle.
    private func finish(_ outcome: Outcome) {
        let taken = state.withLock { state -> (CheckedContinuation<Outcome, Never>?, URLSessionDataTask?)? in
            guard !state.finished else { return nil }
            state.finished = true
            defer {
                state.continuation = nil
                state.task = nil
                state.body = Data()
            }
            return (state.continuation, state.task)
        }
        guard let (continuation, task) = taken else { return }
        continuation?.resume(returning: outcome)
        // URLSession's cancel waits for its work queue, which may be busy reading the very body being refused:
        // the caller has its answer already, and the delegate queue must not stall behind it.
        if let task, task.state == .running || task.state == .suspended {
            DispatchQueue.global().async { task.cancel() }
        }
    }
}

/// The upstream session's delegate: refuses every redirect, so the project key is only ever sent to the
/// configured URL (the 3xx answer itself then becomes ``MossError/upstreamFailed(status:)``), and forwards each
/// data task's head, body bytes and end to its ``MossExchange``.
///
/// Thread-safe: the registry is behind a `Mutex`; URLSession calls the delegate on its own serial queue.
final class MossSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: MossExchange]>([:])

    /// Routes `task`'s callbacks to `exchange` until the task completes.
    func register(_ exchange: MossExchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> MossExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let proceed = exchange(for: dataTask)?.receive(response) ?? false
        completionHandler(proceed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.receive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.complete(error: error)
    }
}
