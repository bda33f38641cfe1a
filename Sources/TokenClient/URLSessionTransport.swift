public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The default ``HTTPTransport``: a `URLSession` (FoundationNetworking on Linux).
///
/// Every request is sent with `.reloadIgnoringLocalCacheData` so a token is never replayed from a cache.
public struct URLSessionTransport: HTTPTransport {
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
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TokenClientError.invalidResponse }
        return (data, http)
    }
}
