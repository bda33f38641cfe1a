public import OutboundHTTP

/// The browser flow's outgoing HTTP over OutboundHTTP's libcurl client: discovery documents, the token endpoint
/// (form `POST`) and the user-info endpoint (`GET` with a bearer token).
///
/// The outbound URL rule (`OutboundURL`: https, http only to a loopback host for tests and local providers, no
/// user info), never a redirect followed (a 3xx is returned as it is), answers of every status returned with
/// their body (token errors come as 400 JSON), at most ``maximumBodyBytes``, bounded connect and total times.
/// Every request says `Accept: application/json` (GitHub answers its token endpoint form-encoded otherwise). A
/// header value with a control character (CR, LF, NUL…) is refused before anything is sent, so a provider's
/// access token cannot inject header lines.
///
/// Safe to call from several tasks at once: each request has its own handle.
public struct CurlOAuthClient: OAuthHTTPClient {
    /// The largest body read: 64 KiB.
    public static let maximumBodyBytes = 65_536

    /// The client every request goes through, holding the limits: the deadline, the connect timeout (at most the
    /// deadline) and ``maximumBodyBytes``.
    public let client: OutboundHTTPClient

    /// A client with the given limits.
    ///
    /// - Parameters:
    ///   - timeout: Seconds for connect, send and answer together. Default: 10.
    ///   - connectTimeout: Seconds to open the connection (DNS, TCP, TLS). Default: 3.
    /// - Precondition: both are positive.
    public init(timeout: Double = 10, connectTimeout: Double = 3) {
        client = OutboundHTTPClient(
            deadline: .seconds(timeout), connectTimeout: .seconds(connectTimeout),
            maximumBodyBytes: Self.maximumBodyBytes)
    }

    public func postForm(_ url: String, form: [(String, String)], headers: [(String, String)])
        async throws(OAuthHTTPError) -> OAuthHTTPResponse
    {
        let fields = [("Content-Type", "application/x-www-form-urlencoded")] + headers
        return try await send(url, method: .post, body: Array(FormEncoding.encode(form).utf8), fields: fields)
    }

    public func get(_ url: String, bearer: String?) async throws(OAuthHTTPError) -> OAuthHTTPResponse {
        try await send(url, method: .get, body: nil, fields: bearer.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    private func send(_ url: String, method: OutboundHTTPMethod, body: [UInt8]?, fields: [(String, String)])
        async throws(OAuthHTTPError) -> OAuthHTTPResponse
    {
        guard let parsed = try? OutboundURL(url) else { throw .insecureURL }
        let headers = [(name: "Accept", value: "application/json")] + fields.map { (name: $0.0, value: $0.1) }
        let request = OutboundHTTPRequest(method: method, url: parsed, headers: headers, body: body)
        do throws(OutboundHTTPError) {
            let response = try await client.send(request)
            return OAuthHTTPResponse(status: response.status, body: response.body, cacheControl: response.cacheControl)
        } catch .refusedURL, .invalidHeader {
            throw .insecureURL
        } catch .tooLarge {
            throw .tooLarge
        } catch .timedOut {
            throw .timedOut
        } catch {
            throw .unreachable
        }
    }
}
