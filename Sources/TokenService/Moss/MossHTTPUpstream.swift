import FoundationEssentials
import OutboundHTTP

/// The real Moss upstream: `POST <authURL>` with `{"projectId", "projectKey"}`, answered by
/// `{"token", "expiresIn"}`.
///
/// Each call is one HTTP exchange over OutboundHTTP's libcurl client, bounded by ``MossConfiguration/timeout``
/// (connect, send, answer together; sub-second values work), and cancelling the calling task also ends the
/// exchange. No cache, cookies or credential storage. Thread-safe; share one instance.
///
/// Answer mapping:
/// - 2xx with a JSON object holding a non-empty `token` string (visible ASCII, ≤ 16 KiB) and a numeric
///   `expiresIn` in 1 s…1 year (a fractional value is rounded down) → the token; anything else →
///   ``MossError/badUpstreamResponse``. A body over 64 KiB is garbage too, and the limit holds while reading: the
///   transfer stops at a larger `Content-Length` or at the first byte past 64 KiB, so an endless or huge answer
///   fails at once instead of at the timeout, and never grows memory beyond the limit. A non-2xx answer is settled
///   on its head; its body is never read. Redirects are not followed (the key goes to the configured URL only).
/// - 401, 403 → ``MossError/upstreamRejected(status:)``; any other status → ``MossError/upstreamFailed(status:)``.
/// - refused, DNS failure, TLS failure, dropped connection, an answer that is not HTTP, timeout, an `authURL`
///   the outbound URL rule refuses → ``MossError/upstreamUnavailable``.
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
    private let requestBody: [UInt8]
    private let client: OutboundHTTPClient

    /// Creates the upstream; no connection is made until the first call.
    public init(configuration: MossConfiguration) {
        self.configuration = configuration
        // Encoded once: the credentials never change for the life of the upstream.
        let credentials = Credentials(projectId: configuration.projectId, projectKey: configuration.projectKey)
        self.requestBody = Array((try? JSONEncoder().encode(credentials)) ?? Data())
        // The timeout bounds the whole exchange, connect included; non-2xx answers are settled on their head.
        self.client = OutboundHTTPClient(
            deadline: configuration.timeout, connectTimeout: configuration.timeout,
            maximumBodyBytes: Self.maximumBodyBytes, nonSuccessBodies: .discard)
    }

    /// Performs one exchange; see the type's documentation for the mapping.
    ///
    /// - Throws: ``MossError/upstreamUnavailable``, ``MossError/upstreamRejected(status:)``,
    ///   ``MossError/upstreamFailed(status:)`` or ``MossError/badUpstreamResponse``.
    public func fetchProjectToken() async throws(MossError) -> MossProjectToken {
        let response: OutboundHTTPResponse
        do throws(OutboundHTTPError) {
            let url = try OutboundURL(configuration.authURL.absoluteString)
            let headers = [("Content-Type", "application/json"), ("Accept", "application/json")]
            response = try await client.send(
                OutboundHTTPRequest(method: .post, url: url, headers: headers, body: requestBody))
        } catch .tooLarge {
            throw .badUpstreamResponse
        } catch {
            throw .upstreamUnavailable
        }
        let status = response.status
        switch status {
        case 200..<300: return try Self.parse(Data(response.body))
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
