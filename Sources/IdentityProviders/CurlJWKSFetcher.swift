public import OutboundHTTP

/// Fetches identity providers' JWK Sets over OutboundHTTP's libcurl client: `GET`, the outbound URL rule
/// (`OutboundURL`: https, http only to a loopback host, no user info), redirects never followed, at most
/// ``maximumBodyBytes`` (enforced while reading), bounded connect and total times. The answer's `Cache-Control` is
/// handed back for `ProviderKeyCache` to clamp. The server's fetcher and `tokenvend jwt verify --jwks`'s.
///
/// Safe to call from several tasks at once: each fetch has its own handle.
public struct CurlJWKSFetcher: JWKSFetching {
    /// The largest key set read: 64 KiB, what `JWTKeySet.verifying(jwks:)` accepts (Apple's and Google's are
    /// about 1–2 KiB).
    public static let maximumBodyBytes = 65_536

    /// The client every fetch goes through, holding the limits: the deadline, the connect timeout (at most the
    /// deadline), ``maximumBodyBytes``, and the body of a non-200 answer left unread.
    public let client: OutboundHTTPClient

    /// A fetcher with the given limits.
    ///
    /// - Parameters:
    ///   - timeout: Seconds for connect, send and answer together. Default: 5.
    ///   - connectTimeout: Seconds to open the connection (DNS, TCP, TLS). Default: 3.
    /// - Precondition: both are positive.
    public init(timeout: Double = 5, connectTimeout: Double = 3) {
        client = OutboundHTTPClient(
            deadline: .seconds(timeout), connectTimeout: .seconds(connectTimeout),
            maximumBodyBytes: Self.maximumBodyBytes, nonSuccessBodies: .discard)
    }

    /// `GET url`; only a 200 answer is a document (any other status is settled on its head, its body unread).
    /// - Throws: `.insecureURL` (a URL the outbound rule refuses), `.status` (any other status), `.tooLarge` (over
    ///   ``maximumBodyBytes``), `.timedOut`, or `.unreachable` (DNS, TCP, TLS, an answer that is not HTTP).
    public func fetch(_ url: String) async throws(JWKSFetchError) -> JWKSDocument {
        guard let parsed = try? OutboundURL(url) else { throw .insecureURL }
        let request = OutboundHTTPRequest(
            url: parsed, headers: [("Accept", "application/jwk-set+json, application/json")])
        let response: OutboundHTTPResponse
        do throws(OutboundHTTPError) {
            response = try await client.send(request)
        } catch .tooLarge {
            throw .tooLarge
        } catch .timedOut {
            throw .timedOut
        } catch .refusedURL {
            throw .insecureURL
        } catch {
            throw .unreachable(error.description)
        }
        guard response.status == 200 else { throw .status(response.status) }
        return JWKSDocument(body: response.body, cacheControl: response.cacheControl)
    }
}
