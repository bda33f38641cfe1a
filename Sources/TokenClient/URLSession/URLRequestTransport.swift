public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An ``HTTPTransport`` written against `URLRequest` and `HTTPURLResponse`: an app's own stack (pinning, proxies,
/// metrics) conforms by implementing ``send(_:)-(URLRequest)``; the conversion to the core's ``TransportRequest``
/// and ``TransportResponse`` is supplied.
///
/// ```swift
/// struct MetricsTransport: URLRequestTransport {
///     let inner = URLSessionTransport()
///     func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
///         try await inner.send(request)  // count, time or pin here
///     }
/// }
/// ```
public protocol URLRequestTransport: HTTPTransport {
    /// Sends `request` and returns the body and the response head; every status is a response.
    /// - Throws: any error when the request could not be completed (no connection, timeout, cancellation).
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

extension URLRequestTransport {
    /// Sends `request` as a `URLRequest` (the one it was made from, when it was, so a body stream survives) and
    /// returns the answer as a ``TransportResponse`` that remembers its `HTTPURLResponse`.
    /// - Throws: what ``send(_:)-(URLRequest)`` throws.
    public func send(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
        let (data, response) = try await send(URLRequest(request))
        return (data, TransportResponse(response))
    }
}
