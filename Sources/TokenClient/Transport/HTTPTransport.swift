public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Sends one HTTP request and returns the whole answer. The seam for tests and for apps that bring their
/// own networking stack (pinning, proxies, metrics).
///
/// Implementations return every HTTP status as a response (a 401 is not an error here) and throw only
/// when no HTTP answer arrived.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the body and the response head.
    /// - Throws: any error when the request could not be completed (no connection, timeout, cancellation).
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
