import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real Moss upstream: `POST <authURL>` with `{"projectId", "projectKey"}`, answered by
/// `{"token", "expiresIn"}`.
///
/// Each call is one HTTP exchange bounded by ``MossConfiguration/timeout`` (connect, send, answer together); the
/// deadline is enforced here, not left to URLSession, and cancelling the calling task also ends the exchange.
/// The session has no cache, cookies or credential storage. Thread-safe; share one instance.
///
/// Answer mapping:
/// - 2xx with a JSON object holding a non-empty `token` string (visible ASCII, ≤ 16 KiB) and a numeric
///   `expiresIn` in 1 s…1 year (a fractional value is rounded down) → the token; anything else →
///   ``MossError/badUpstreamResponse``. A body over 64 KiB is garbage too, and the limit holds while reading: the
///   exchange stops at a larger `Content-Length` or at the first byte past 64 KiB, so an endless or huge answer
///   fails at once instead of at the timeout, and never grows memory beyond the limit.
/// - 401, 403 → ``MossError/upstreamRejected(status:)``; any other status → ``MossError/upstreamFailed(status:)``.
/// - refused, DNS failure, TLS failure, dropped connection, timeout → ``MossError/upstreamUnavailable``.
///
/// ```swift
/// let upstream = MossHTTPUpstream(configuration: MossConfiguration(projectId: id, projectKey: key))
/// let cache = MossTokenCache(upstream: upstream, logger: logger)
/// ```
public final class MossHTTPUpstream: MossUpstream {
    /// The largest answer body accepted: 64 KiB.
    public static let maximumBodyBytes = 64 * 1024

    /// The credentials, endpoint and timeout this upstream uses.
    public let configuration: MossConfiguration
    private let session: URLSession
    private let delegate = MossSessionDelegate()
    private let requestBody: Data

    /// Creates the upstream with its own ephemeral `URLSession`.
    public init(configuration: MossConfiguration) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.urlCredentialStorage = nil
        sessionConfiguration.timeoutIntervalForRequest = configuration.urlSessionTimeoutInterval
        sessionConfiguration.timeoutIntervalForResource = configuration.urlSessionTimeoutInterval
        self.session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: nil)
        // Encoded once: the credentials never change for the life of the upstream.
        let credentials = Credentials(projectId: configuration.projectId, projectKey: configuration.projectKey)
        self.requestBody = (try? JSONEncoder().encode(credentials)) ?? Data()
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Performs one exchange; see the type's documentation for the mapping.
    ///
    /// - Throws: ``MossError/upstreamUnavailable``, ``MossError/upstreamRejected(status:)``,
    ///   ``MossError/upstreamFailed(status:)`` or ``MossError/badUpstreamResponse``.
    public func fetchProjectToken() async throws(MossError) -> MossProjectToken {
        var request = URLRequest(
            url: configuration.authURL,
            cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: configuration.urlSessionTimeoutInterval
        )
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = requestBody
        let (body, status) = try await MossExchange.run(
            request, session: session, delegate: delegate, timeout: configuration.timeoutInterval,
            limit: Self.maximumBodyBytes
        ).get()
        switch status {
        case 200..<300: return try Self.parse(body)
        case 401, 403: throw .upstreamRejected(status: status)
        default: throw .upstreamFailed(status: status)
        }
    }

    /// Decodes a success body into a plausible project token.
    static func parse(_ body: Data) throws(MossError) -> MossProjectToken {
        guard body.count <= maximumBodyBytes,
            let answer = try? JSONDecoder().decode(Answer.self, from: body),
            answer.expiresIn.isFinite, answer.expiresIn >= 1,
            answer.expiresIn <= Double(MossProjectToken.maximumLifetimeSeconds)
        else { throw .badUpstreamResponse }
        let token = MossProjectToken(token: answer.token, expiresIn: Int(answer.expiresIn.rounded(.down)))
        guard token.isPlausible else { throw .badUpstreamResponse }
        return token
    }

    private struct Credentials: Encodable {
        var projectId: String
        var projectKey: String
    }

    private struct Answer: Decodable {
        var token: String
        var expiresIn: Double
    }
}
