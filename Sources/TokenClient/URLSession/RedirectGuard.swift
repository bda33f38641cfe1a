import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The redirect rule of ``URLSessionTransport``: a redirect within the origin (scheme, host, port) of the request
/// as sent is followed as it is; a redirect to another origin is followed without the credentials (`Authorization`,
/// `Cookie` and `DPoP` header fields), and not at all when it would send the method and body again (a 307 or 308 of
/// anything but `GET` or `HEAD`: the body of a login, refresh or logout holds a password or a refresh token). A
/// redirect that is not followed is the answer: the caller gets the 3xx.
///
/// `URLSession` forwards every header field of the request across a redirect (swift-corelibs-foundation on Linux
/// copies them all, to any host), so a bearer token would reach whatever origin the server, a proxy or an attacker
/// who controls a response sends the client to.
final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    /// The header fields that carry credentials, removed before a redirect leaves the origin.
    static let credentialHeaders = ["Authorization", "Cookie", "DPoP"]

    /// The origin of the request as sent; `nil` for a URL without one (then every redirect is cross-origin).
    private let origin: TrustedOrigins?

    /// A guard for one request to `url`.
    init(for url: URL?) {
        origin = url.map { TrustedOrigins(baseURL: $0, hosts: []) }
    }

    /// What to send for `redirect`: itself on the same origin, stripped of its credentials on another, or `nil`
    /// (do not follow) when it leaves the origin with a method that has a body.
    func follow(_ redirect: URLRequest) -> URLRequest? {
        if origin?.trusts(redirect.url) == true { return redirect }
        let method = redirect.httpMethod?.uppercased() ?? "GET"
        guard method == "GET" || method == "HEAD" else { return nil }
        var stripped = redirect
        for name in Self.credentialHeaders { stripped.setValue(nil, forHTTPHeaderField: name) }
        return stripped
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(follow(request))
    }
}
