#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The two halves of ``AuthSession/send(_:)-(URLRequest)`` for stacks that send `URLRequest`s themselves
/// (Alamofire's `RequestInterceptor`, a Moya plugin, a custom transport).
extension AuthSession {
    /// `request` with `Authorization: Bearer <access token>` when it goes to `baseURL`'s origin or a trusted host
    /// (refreshing first when the token expires within the leeway); any other request is returned unchanged.
    /// - Throws: ``TokenClientError/signedOut``, ``TokenClientError/storageLocked``, and what a refresh throws.
    public func authorize(_ request: URLRequest) async throws -> URLRequest {
        guard let converted = try? TransportRequest(request) else { return request }
        return URLRequest(try await authorize(converted))
    }

    /// What to send after `response` refused `request`: the request again with a newer token, or `nil` when it
    /// should not be retried (see ``handleRejection(of:response:)-(TransportRequest,_)``: a request whose body was
    /// a stream is never retried).
    /// - Throws: what a refresh throws (``TokenClientError/signedOut`` when the refresh token was refused).
    public func handleRejection(of request: URLRequest, response: HTTPURLResponse) async throws -> URLRequest? {
        guard let converted = try? TransportRequest(request) else { return nil }
        return try await handleRejection(of: converted, response: TransportResponse(response)).map(URLRequest.init)
    }
}
