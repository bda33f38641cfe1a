public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The `URLRequest` face of ``AuthenticatedTransport``, for requests an app builds itself.
extension AuthenticatedTransport {
    /// Sends `request` with the user's credentials, as ``send(_:)-(TransportRequest)`` does. A request whose body
    /// is a stream is sent as it is and never replayed.
    /// - Throws: what ``send(_:)-(TransportRequest)`` throws; ``TokenClientError/transport(_:)`` for a request
    ///   without a URL.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await send(try TransportRequest(request))
        return (data, try HTTPURLResponse.from(response, answering: request))
    }

    /// Sends `request` authenticated and decodes a 2xx JSON body as `Response`.
    /// - Throws: like ``json(_:as:)-(TransportRequest,_)``.
    public func json<Response: Decodable>(_ request: URLRequest, as type: Response.Type = Response.self)
        async throws -> Response
    {
        try await json(try TransportRequest(request), as: type)
    }
}
