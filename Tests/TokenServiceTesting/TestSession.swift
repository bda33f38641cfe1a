import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The one URLSession of the test suite: ephemeral, no cookies, no cache, never follows a cookie policy, a
/// 20 s request timeout and enough connections per host for the concurrency tests.
public enum TestSession {
    /// The shared session.
    public static let shared: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = 20
        configuration.httpMaximumConnectionsPerHost = 64
        return URLSession(configuration: configuration)
    }()
}
