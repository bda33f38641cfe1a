/// The project's one outbound HTTP client, on libcurl: the server's calls to Moss and to identity providers
/// (discovery, JWKS, token, user info) and the command line's (`jwt verify --jwks`, `healthcheck`, the client
/// commands' transport) all go through ``send(_:)``.
///
/// **API.**
/// - ``OutboundURL``: the one URL rule ("https, or http only to a loopback host"), checked when the URL is made.
/// - ``OutboundHTTPRequest``: method, URL, header fields, body.
/// - ``OutboundHTTPClient``: the limits (``deadline``, ``connectTimeout``, ``maximumBodyBytes``), the redirect
///   policy (``redirects``, default: none followed) and what to do with non-2xx bodies (``nonSuccessBodies``);
///   ``send(_:)`` performs one exchange.
/// - ``OutboundHTTPResponse``: status, head fields, body, the URL that answered. Any status is a response.
/// - ``OutboundHTTPError``: why there is no response, decided from libcurl's result code (`timedOut`,
///   `connectionRefused`, `unreachable`, `tls`, `tooLarge`, `refusedURL`…), so callers never guess from time.
///
/// ```swift
/// let client = OutboundHTTPClient(deadline: .seconds(5), connectTimeout: .seconds(3), maximumBodyBytes: 65_536)
/// let url = try OutboundURL("https://www.googleapis.com/oauth2/v3/certs")
/// let response = try await client.send(OutboundHTTPRequest(url: url, headers: [("Accept", "application/json")]))
/// guard response.status == 200 else { … }
/// ```
///
/// **Limits hold inside the transfer** (why libcurl rather than URLSession: swift-corelibs-foundation goes on
/// reading a body after its task is cancelled):
/// - a `Content-Length` over ``maximumBodyBytes`` fails on the head, and the first body byte past it aborts the
///   transfer at once (``OutboundHTTPError/tooLarge``); a head over 64 KiB fails the same way;
/// - ``deadline`` bounds connect, send and answer together, redirects included (sub-second values work);
///   ``connectTimeout`` bounds each connection (DNS, TCP, TLS);
/// - cancelling the calling task answers it at once (``OutboundHTTPError/cancelled``); the transfer stops at
///   libcurl's next progress callback.
///
/// Only `http` and `https` are spoken. Each exchange has its own easy handle, created and freed around the
/// transfer, and runs `curl_easy_perform` on a serial Dispatch queue of its own (a thread each), never on Swift's
/// cooperative pool; no cookies, cache or credential storage. A value type: safe to share and to call from several
/// tasks at once.
public struct OutboundHTTPClient: Sendable {
    /// What happens to the body of a non-2xx answer.
    public enum NonSuccessBodies: Sendable, Hashable {
        /// Read it like any body (OAuth token errors come as 400 JSON).
        case read
        /// Settle the exchange on the head: the transfer stops before any of the body is read, and the response
        /// has an empty body. A `Content-Length` over the limit on such an answer still gives its status.
        case discard
    }

    /// Seconds for the whole exchange: connect, send and answer, every redirect included. Default: 10 s.
    public var deadline: Duration
    /// Time to open each connection (DNS, TCP, TLS); at most ``deadline``. Default: 3 s.
    public var connectTimeout: Duration
    /// The largest body accepted, in bytes. Default: 64 KiB.
    public var maximumBodyBytes: Int
    /// Which redirects are followed. Default: ``OutboundHTTPRedirects/none`` (a 3xx is returned as it is).
    public var redirects: OutboundHTTPRedirects
    /// What happens to non-2xx bodies. Default: ``NonSuccessBodies/read``.
    public var nonSuccessBodies: NonSuccessBodies

    /// The largest head accepted: 64 KiB.
    public static let maximumHeadBytes = 65_536

    /// A client with the given limits.
    ///
    /// - Precondition: `deadline` and `connectTimeout` are positive and `maximumBodyBytes` is not negative.
    public init(
        deadline: Duration = .seconds(10), connectTimeout: Duration = .seconds(3), maximumBodyBytes: Int = 65_536,
        redirects: OutboundHTTPRedirects = .none, nonSuccessBodies: NonSuccessBodies = .read
    ) {
        precondition(deadline > .zero && connectTimeout > .zero, "outbound HTTP timeouts must be positive")
        precondition(maximumBodyBytes >= 0, "the outbound body limit must not be negative")
        self.deadline = deadline
        self.connectTimeout = min(connectTimeout, deadline)
        self.maximumBodyBytes = maximumBodyBytes
        self.redirects = redirects
        self.nonSuccessBodies = nonSuccessBodies
    }

    /// Performs one exchange (following redirects as ``redirects`` allows) and returns the answer of any status.
    ///
    /// - Throws: ``OutboundHTTPError`` when there is no answer; see its cases.
    public func send(_ request: OutboundHTTPRequest) async throws(OutboundHTTPError) -> OutboundHTTPResponse {
        guard request.hasValidHeaders else { throw .invalidHeader }
        let clock = ContinuousClock()
        let end = clock.now + deadline
        var current = request
        var followed = 0
        while true {
            let remaining = clock.now.duration(to: end)
            guard remaining > .zero else { throw .timedOut }
            let maximum = redirects.maximum
            let answer = try await CurlExchange.perform(
                current, deadline: remaining, connectTimeout: min(connectTimeout, remaining),
                limit: maximumBodyBytes,
                settlesOnHead: { status in
                    (maximum > 0 && Self.isRedirect(status))
                        || (nonSuccessBodies == .discard && !(200..<300).contains(status))
                })
            guard maximum > 0, Self.isRedirect(answer.response.status) else { return answer.response }
            guard followed < maximum else { throw .tooManyRedirects }
            followed += 1
            current = try redirects.next(after: current, status: answer.response.status, location: answer.location)
        }
    }

    private static func isRedirect(_ status: Int) -> Bool {
        [301, 302, 303, 307, 308].contains(status)
    }
}
