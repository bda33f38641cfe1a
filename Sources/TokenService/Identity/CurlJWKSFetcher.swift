public import IdentityProviders

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fetches identity providers' JWK Sets over libcurl (``CurlHTTPExchange``): `GET`, https only (http only to a
/// loopback host), redirects never followed, at most ``maximumBodyBytes``, bounded connect and total times. The
/// answer's `Cache-Control` is handed back for `ProviderKeyCache` to clamp.
///
/// Safe to call from several tasks at once: each fetch has its own handle.
public struct CurlJWKSFetcher: JWKSFetching {
    /// The largest key set read: 64 KiB, what `JWTKeySet.verifying(jwks:)` accepts (Apple's and Google's are
    /// about 1–2 KiB).
    public static let maximumBodyBytes = 65_536

    /// Seconds for connect, send and answer together. Default: 5.
    public var timeout: Double
    /// Seconds to open the connection (DNS, TCP, TLS). Default: 3.
    public var connectTimeout: Double

    /// A fetcher with the given limits.
    public init(timeout: Double = 5, connectTimeout: Double = 3) {
        self.timeout = timeout
        self.connectTimeout = min(connectTimeout, timeout)
    }

    /// `GET url`; only a 200 answer is a document.
    /// - Throws: `.insecureURL` (not https, or http to a host that is not loopback), `.status` (any other
    ///   status), `.tooLarge` (over ``maximumBodyBytes``, or an answer that is not HTTP), `.timedOut`, or
    ///   `.unreachable` (DNS, TCP, TLS).
    public func fetch(_ url: String) async throws(JWKSFetchError) -> JWKSDocument {
        guard let parsed = MossConfiguration.parseAuthURL(url), parsed.user == nil, parsed.password == nil else {
            throw .insecureURL
        }
        let started = ContinuousClock.now
        let (outcome, cacheControl) = await CurlHTTPExchange.get(
            parsed, timeout: timeout, connectTimeout: connectTimeout, limit: Self.maximumBodyBytes)
        switch outcome {
        case .success((let body, let status)):
            guard status == 200 else { throw .status(status) }
            return JWKSDocument(body: Array(body), cacheControl: cacheControl)
        case .failure(.badUpstreamResponse):
            throw .tooLarge
        case .failure:
            let elapsed = ContinuousClock.now - started
            if elapsed >= .milliseconds(Int64(timeout * 1000) - 50) { throw .timedOut }
            throw .unreachable("no answer from the key URL's host")
        }
    }
}
