#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Sends requests on behalf of a signed-in user: attaches credentials and deals with their renewal.
/// ``AuthSession`` is the implementation; the token providers (``MossTokenProvider``, ``StreamTokenProvider``,
/// ``VendedTokenProvider``, ``BloomreachCustomerTokenProvider``) are generic over it so tests (and apps) can
/// substitute their own.
public protocol AuthenticatedTransport: Sendable {
    /// The API root that paths such as `auth/me` are resolved against.
    var baseURL: URL { get }

    /// Sends `request` with the user's credentials and returns any answer but a refusal of those credentials (for
    /// ``AuthSession``: a 401 with `WWW-Authenticate: Bearer … error="invalid_token"`; another 401, from a proxy or
    /// a captive portal, is returned as is).
    /// - Throws: ``TokenClientError/signedOut`` without a session, ``TokenClientError/server(status:body:)``
    ///   for a 401 that renewing the credentials did not cure, ``TokenClientError/transport(_:)``.
    func send(_ request: TransportRequest) async throws -> (Data, TransportResponse)

    /// Who tokens vended through this transport belong to (for ``AuthSession``, the signed-in user's id), `nil`
    /// when no one is signed in. The token providers drop their cached tokens when it changes, so one user never
    /// gets another's token. `nil` by default: a transport that does not say keeps its tokens until they near
    /// expiry or are invalidated.
    var tokenOwner: String? { get async }
}

extension AuthenticatedTransport {
    /// `nil`: the transport does not track who is signed in.
    public var tokenOwner: String? { nil }

    /// Sends `request` authenticated and decodes a 2xx JSON body as `Response`.
    /// - Throws: ``TokenClientError/server(status:body:)`` for any other status,
    ///   ``TokenClientError/invalidResponse`` when the body does not decode, and whatever ``send(_:)`` throws.
    public func json<Response: Decodable>(_ request: TransportRequest, as type: Response.Type = Response.self)
        async throws -> Response
    {
        let (data, response) = try await send(request)
        return try WireCoding.decodeSuccess(Response.self, data: data, response: response)
    }

    /// A request for `path` (relative to ``baseURL``) that accepts JSON, with no body.
    public func makeRequest(_ method: String, _ path: String) -> TransportRequest {
        WireCoding.request(method, baseURL.appending(path: path), body: Never?.none)
    }

    /// A request for `path` (relative to ``baseURL``) with `body` encoded as JSON.
    public func makeRequest(_ method: String, _ path: String, body: some Encodable) -> TransportRequest {
        WireCoding.request(method, baseURL.appending(path: path), body: body)
    }
}
