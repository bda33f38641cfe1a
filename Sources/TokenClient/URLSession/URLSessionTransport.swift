public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The default transport of apps: a `URLSession` (FoundationNetworking on Linux), as a ``URLRequestTransport``.
///
/// Every request is sent with `.reloadIgnoringLocalCacheData` so a token is never replayed from a cache, and with
/// a task delegate that keeps its credentials on its origin: a redirect to another origin (scheme, host, port) is
/// followed without the `Authorization`, `Cookie` and `DPoP` header fields, and not followed at all when it would
/// send the method and body again (a 307 or 308 of a `POST`); the caller then gets the 3xx. That delegate answers
/// redirects in place of the session delegate's `urlSession(_:task:willPerformHTTPRedirection:…)`, if any.
public struct URLSessionTransport: URLRequestTransport {
    /// The session requests go through.
    public let session: URLSession

    /// Creates a transport over `session`; by default an ephemeral session (no disk cache, no cookie jar
    /// on disk) with a 30 s request timeout.
    public init(session: URLSession? = nil) {
        if let session {
            self.session = session
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 30
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            self.session = URLSession(configuration: configuration)
        }
    }

    /// Sends `request` through the session.
    /// - Throws: the session's error, or ``TokenClientError/invalidResponse`` for a non-HTTP answer.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var request = request
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let (data, response) = try await Self.data(for: request, in: session, delegate: RedirectGuard(for: request.url))
        guard let http = response as? HTTPURLResponse else { throw TokenClientError.invalidResponse }
        return (data, http)
    }

    #if canImport(FoundationNetworking)
        /// `session.data(for:delegate:)` as Apple's Foundation runs it. swift-corelibs-foundation accepts that
        /// `delegate` but asks only `task.delegate` (the session's delegate unless set) about redirects, so here the
        /// delegate is set on the task itself before it starts.
        private static func data(
            for request: URLRequest, in session: URLSession, delegate: RedirectGuard
        ) async throws -> (Data, URLResponse) {
            let running = Locked<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let task = session.dataTask(with: request) { data, response, error in
                        if let error {
                            continuation.resume(throwing: error)
                        } else if let response {
                            continuation.resume(returning: (data ?? Data(), response))
                        } else {
                            continuation.resume(throwing: TokenClientError.invalidResponse)
                        }
                    }
                    task.delegate = delegate
                    let cancelled = running.withLock { state in
                        state.task = task
                        return state.cancelled
                    }
                    task.resume()
                    if cancelled { task.cancel() }
                }
            } onCancel: {
                running.withLock { state in
                    state.cancelled = true
                    return state.task
                }?.cancel()
            }
        }
    #else
        private static func data(
            for request: URLRequest, in session: URLSession, delegate: RedirectGuard
        ) async throws -> (Data, URLResponse) {
            try await session.data(for: request, delegate: delegate)
        }
    #endif
}
