#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Sends one HTTP request and returns the whole answer. The seam for tests, for the `tokenvend` command line (its
/// libcurl client) and for apps that bring their own networking stack (pinning, proxies, metrics).
///
/// Implementations return every HTTP status as a response (a 401 is not an error here) and throw only
/// when no HTTP answer arrived. `TokenClient`'s `URLSessionTransport` is the default for apps; a stack built on
/// `URLRequest` conforms through `URLRequestTransport`.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the body and the response head.
    /// - Throws: any error when the request could not be completed (no connection, timeout, cancellation).
    func send(_ request: TransportRequest) async throws -> (Data, TransportResponse)
}
